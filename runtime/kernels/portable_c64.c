/* portable_c64.c: the portable double-complex micro-kernel. */
#include "../src/gg_internal.h"
#define PK_T double _Complex
#define PK_R double
#define PK_NAME gg_portable_c64
#define PK_MR GG_PORTABLE_C64_MR
#define PK_NR GG_PORTABLE_C64_NR
#define PK_CMPLX CMPLX
#include "portable_cplx_tmpl.h"
