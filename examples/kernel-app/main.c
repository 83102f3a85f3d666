/* main.c: one MR x NR tile of C = A*B by the generated kernel, checked
 * against a naive loop. The kernel reads A and B packed (BLIS micro-panels:
 * A(i,p) at a[i + p*MR], B(p,j) at b[j + p*NR]); C here is column major. */
#include "app_kernel.h"
#ifdef WITH_LIBGEMMGEN
#include <gemmgen.h>
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { MR = app_kernel_MR, NR = app_kernel_NR, K = 100 };

int main(void)
{
    double *a = malloc(sizeof(double) * MR * K), *b = malloc(sizeof(double) * K * NR);
    double c[MR * NR], alpha = 1.0, beta = 0.0;
    if (!a || !b) return 1;
    for (int p = 0; p < K; p++) {
        for (int i = 0; i < MR; i++) a[i + p * MR] = (double)((i * 7 + p * 3) % 11) - 5.0;
        for (int j = 0; j < NR; j++) b[j + p * NR] = (double)((j * 5 + p * 2) % 13) - 6.0;
    }
    app_kernel(MR, NR, K, &alpha, a, b, &beta, c, 1, MR, a, b);
#ifdef WITH_LIBGEMMGEN
    /* the same with libgemmgen: packed A is A column major (lda MR), packed
     * B is B^T column major (ldb NR) */
    double lib[MR * NR];
    gemmgen_dgemm(GEMMGEN_COL_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_TRANS, MR, NR, K, alpha, a, MR,
                  b, NR, beta, lib, MR);
#endif

    double err = 0.0;
    for (int j = 0; j < NR; j++)
        for (int i = 0; i < MR; i++) {
            double s = 0.0;
            for (int p = 0; p < K; p++) s += a[i + p * MR] * b[j + p * NR];
            err = fmax(err, fabs(c[i + j * MR] - s));
#ifdef WITH_LIBGEMMGEN
            err = fmax(err, fabs(lib[i + j * MR] - s));
#endif
        }
    /* small integers: every product and sum is exact */
#ifdef WITH_LIBGEMMGEN
    printf("kernel-app: libgemmgen %s computed the tile too\n", gemmgen_kernel_current());
#endif
    printf("kernel-app: %dx%d tile, k=%d: C(0,0)=%g C(%d,%d)=%g, max |C - naive| = %g: %s\n",
           MR, NR, K, c[0], MR - 1, NR - 1, c[MR * NR - 1], err, err == 0.0 ? "ok" : "WRONG");
    free(a);
    free(b);
    return err == 0.0 ? 0 : 1;
}
