/* cross_check: libgemmgen built for another instruction set, run under
 * qemu-user by tests/runtime_cross.sh (no cmocka there: plain exit status).
 *
 *   cross_check SET [CASES]
 *
 * The runtime must have picked kernel set SET (the machine's, not the
 * portable one: its CPU detection works there), and CASES random GEMMs,
 * f64 and f32, both layouts, all transposes, leading dimensions above the
 * minimum, alpha and beta including 0 (C full of NaN when beta = 0), must
 * match ref_gemm; nothing past C's columns may change. The unpacked and
 * packed paths are chosen by GEMMGEN_DIRECT, which the script sets. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gemmgen.h"
#include "ref.h"

static unsigned long long state = 0x9e3779b97f4a7c15ull;

static unsigned next(void)
{
    state ^= state << 13; state ^= state >> 7; state ^= state << 17;
    return (unsigned)(state >> 32);
}

static double rnd(void) { return next() / 2147483648.0 - 1; }   /* [-1, 1) */
static int64_t dim(void) { return 1 + next() % (next() % 4 ? 40 : 130); }

#define SENTINEL 12345.0

/* One random case of type t ('d' or 's'); returns the elements in error. */
static int one_case(char t)
{
    const int col = next() % 2, ta = next() % 2, tb = next() % 2;
    const int64_t m = dim(), n = dim(), k = dim();
    static const double alphas[] = { 1, -0.5, 0, 2 }, betas[] = { 0, 1, 0.5, -1 };
    const double alpha = alphas[next() % 4], beta = betas[next() % 4];
    /* stored shapes: op(A) is m x k, op(B) k x n; row major flips both */
    const int64_t ar = (ta ^ !col) ? k : m, ac = (ta ^ !col) ? m : k;
    const int64_t br = (tb ^ !col) ? n : k, bc = (tb ^ !col) ? k : n;
    const int64_t cr = col ? m : n, cc = col ? n : m;
    const int64_t lda = ar + next() % 3, ldb = br + next() % 3, ldc = cr + next() % 3;
    double *a = malloc(sizeof *a * lda * ac), *b = malloc(sizeof *b * ldb * bc);
    double *c = malloc(sizeof *c * ldc * cc), *w = malloc(sizeof *w * ldc * cc);
    double *bound = malloc(sizeof *bound * m * n);
    float *af = malloc(sizeof *af * lda * ac), *bf = malloc(sizeof *bf * ldb * bc);
    float *cf = malloc(sizeof *cf * ldc * cc);
    /* f32 cases: the reference gets the same (rounded) values */
    for (int64_t i = 0; i < lda * ac; i++) a[i] = af[i] = (float)rnd();
    for (int64_t i = 0; i < ldb * bc; i++) b[i] = bf[i] = (float)rnd();
    if (t == 'd') {
        for (int64_t i = 0; i < lda * ac; i++) a[i] += rnd() * 0x1p-30;
        for (int64_t i = 0; i < ldb * bc; i++) b[i] += rnd() * 0x1p-30;
    }
    for (int64_t j = 0; j < cc; j++)
        for (int64_t i = 0; i < ldc; i++) {
            double v = i >= cr ? SENTINEL : beta == 0 ? NAN : (float)rnd();
            cf[i + j * ldc] = (float)(w[i + j * ldc] = c[i + j * ldc] = v);
        }
    /* strides of op(A), op(B) and C in their stored arrays */
    const int64_t rsa = (ta ^ !col) ? lda : 1, csa = (ta ^ !col) ? 1 : lda;
    const int64_t rsb = (tb ^ !col) ? ldb : 1, csb = (tb ^ !col) ? 1 : ldb;
    const int64_t rsc = col ? 1 : ldc, csc = col ? ldc : 1;
    ref_gemm(m, n, k, alpha, a, rsa, csa, b, rsb, csb, beta, w, rsc, csc, bound);
    const gemmgen_layout L = col ? GEMMGEN_COL_MAJOR : GEMMGEN_ROW_MAJOR;
    const gemmgen_trans TA = ta ? GEMMGEN_TRANS : GEMMGEN_NO_TRANS;
    const gemmgen_trans TB = tb ? GEMMGEN_TRANS : GEMMGEN_NO_TRANS;
    if (t == 'd') {
        gemmgen_dgemm(L, TA, TB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    } else {
        gemmgen_sgemm(L, TA, TB, m, n, k, (float)alpha, af, lda, bf, ldb, (float)beta, cf, ldc);
        for (int64_t i = 0; i < ldc * cc; i++) c[i] = cf[i];
    }
    const double eps = t == 'd' ? 0x1p-52 : 0x1p-23;
    int bad = 0;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            int64_t at = i * rsc + j * csc;
            double tol = (double)(k + 4) * eps * bound[i + j * m] * 4 + 1e-300;
            if (!(fabs(c[at] - w[at]) <= tol) && bad++ < 3)
                printf("  %c C(%lld,%lld) = %.17g, want %.17g\n", t, (long long)i, (long long)j,
                       c[at], w[at]);
        }
    for (int64_t x = 0; x < ldc * cc; x++)
        if (w[x] == SENTINEL && c[x] != SENTINEL && bad++ < 3)
            printf("  %c padding at %lld written\n", t, (long long)x);
    if (bad)
        printf("FAIL: %c %s A%s B%s m=%lld n=%lld k=%lld lda=%lld ldb=%lld ldc=%lld alpha=%g beta=%g\n",
               t, col ? "col" : "row", ta ? "^T" : "", tb ? "^T" : "", (long long)m, (long long)n,
               (long long)k, (long long)lda, (long long)ldb, (long long)ldc, alpha, beta);
    free(a); free(b); free(c); free(w); free(bound); free(af); free(bf); free(cf);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: cross_check SET [CASES]\n");
        return 2;
    }
    const char *set = gemmgen_kernel_current();
    printf("kernel set: %s (want %s)\n", set, argv[1]);
    if (strcmp(set, argv[1]) != 0)
        return 1;
    long cases = argc > 2 ? atol(argv[2]) : 60, failed = 0;
    for (long i = 0; i < cases; i++)
        failed += one_case(i % 2 ? 's' : 'd') != 0;
    printf("%ld of %ld cases failed\n", failed, cases);
    return failed != 0;
}
