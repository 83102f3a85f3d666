/* pkgconfig_user.c: a program built with nothing but
 * `pkg-config --cflags --libs gemmgen` against an installed libgemmgen:
 * DGEMM on odd sizes against a naive loop. */
#include <gemmgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    enum { M = 37, N = 29, K = 53 };
    double *a = malloc(sizeof(double) * M * K), *b = malloc(sizeof(double) * K * N),
           *c = malloc(sizeof(double) * M * N);
    if (!a || !b || !c) return 1;
    for (int i = 0; i < M * K; i++) a[i] = (double)(i % 17) - 8.0;
    for (int i = 0; i < K * N; i++) b[i] = (double)(i % 13) - 6.0;
    for (int i = 0; i < M * N; i++) c[i] = 1.0;
    if (gemmgen_dgemm(GEMMGEN_COL_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS, M, N, K,
                      2.0, a, M, b, K, 3.0, c, M) != 0) return 1;
    double err = 0.0;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < M; i++) {
            double s = 0.0;
            for (int p = 0; p < K; p++) s += a[i + p * M] * b[p + j * K];
            err = fmax(err, fabs(c[i + j * M] - (2.0 * s + 3.0)));
        }
    /* small integers: exact whatever the order of the sums */
    printf("pkgconfig_user: kernel %s, %dx%dx%d, max |C - naive| = %g\n",
           gemmgen_kernel_current(), M, N, K, err);
    free(a); free(b); free(c);
    return err == 0.0 ? 0 : 1;
}
