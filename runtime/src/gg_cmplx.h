/* gg_cmplx.h: <complex.h> with C11's CMPLX and CMPLXF, which glibc
 * defines for GCC only; clang has the builtin they stand for. */
#ifndef GG_CMPLX_H
#define GG_CMPLX_H
#include <complex.h>
#ifndef CMPLX
#define CMPLX(x, y) __builtin_complex((double)(x), (double)(y))
#define CMPLXF(x, y) __builtin_complex((float)(x), (float)(y))
#endif
#endif
