/* portable_f64.c: the portable 8 x 6 double micro-kernel. */
#include "../src/gg_internal.h"
#define PK_T double
#define PK_NAME gg_portable_f64
#define PK_MR GG_PORTABLE_F64_MR
#define PK_NR GG_PORTABLE_F64_NR
#include "portable_tmpl.h"
