/* portable_f32.c: the portable 8 x 8 float micro-kernel. */
#include "../src/gg_internal.h"
#define PK_T float
#define PK_NAME gg_portable_f32
#define PK_MR GG_PORTABLE_F32_MR
#define PK_NR GG_PORTABLE_F32_NR
#define PK_MH GG_PORTABLE_F32_MH
#define PK_NH GG_PORTABLE_F32_NH
#include "portable_tmpl.h"
