/* portable_c32.c: the portable single-complex micro-kernel. */
#include "../src/gg_internal.h"
#define PK_T float _Complex
#define PK_R float
#define PK_NAME gg_portable_c32
#define PK_MR GG_PORTABLE_C32_MR
#define PK_NR GG_PORTABLE_C32_NR
#define PK_CMPLX CMPLXF
#include "portable_cplx_tmpl.h"
