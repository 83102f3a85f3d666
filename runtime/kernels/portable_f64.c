/* portable_f64.c: the portable 8 x 6 double micro-kernel. */
#include "../src/gg_internal.h"
#define PK_T double
#define PK_NAME gg_portable_f64
#define PK_MR GG_PORTABLE_F64_MR
#define PK_NR GG_PORTABLE_F64_NR
#define PK_MH GG_PORTABLE_F64_MH
#define PK_NH GG_PORTABLE_F64_NH
#include "portable_tmpl.h"
