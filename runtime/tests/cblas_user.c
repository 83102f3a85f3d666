/* cblas_user.c: an ordinary CBLAS program, written for any BLAS and not
 * changed for gemmgen; the test links it against libgemmgen only. */
#include <cblas.h>
#include <math.h>
#include <stdio.h>

int main(void)
{
    enum { N = 100 };
    static double a[N * N], b[N * N], c[N * N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            a[i * N + j] = i == j ? 2.0 : 0.0;      /* 2 I */
            b[i * N + j] = i + 0.5 * j;
            c[i * N + j] = 1.0;
        }
    /* C = 1.5 * (2 I) B + 3 C = 3 B + 3 */
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, N, N, 1.5, a, N, b, N,
                3.0, c, N);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            if (fabs(c[i * N + j] - (3 * b[i * N + j] + 3)) > 1e-12) {
                printf("wrong C(%d,%d) = %g\n", i, j, c[i * N + j]);
                return 1;
            }
    printf("cblas_dgemm ok\n");
    return 0;
}
