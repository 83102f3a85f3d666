/* xerbla.c: the default BLAS error handler, weak so that a program's (or
 * LAPACK's) own xerbla_ replaces it. Reference BLAS prints and STOPs; this
 * one prints the same message and returns (as OpenBLAS does), because a
 * library should not end the process that called it. */
#include <stdio.h>

__attribute__((weak)) void xerbla_(const char *name, const int *info, size_t len)
{
    fprintf(stderr, " ** On entry to %.*s parameter number %2d had an illegal value\n",
            (int)len, name, *info);
}
