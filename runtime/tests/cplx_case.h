/* cplx_case.h: one ZGEMM or CGEMM call (gemmgen_zgemm/cgemm, column major)
 * against a long double complex loop, for the cross suite (no cmocka):
 * op(A), op(B) in N, T, C; complex alpha and beta, NaN in C when beta = 0;
 * C's padding must stay untouched. Returns 0 when it matches. */
#include "gg_cmplx.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gemmgen.h"

static uint64_t cc_rng = 0x2545f4914f6cdd1dULL;
static double cc_rnd(int single)
{
    cc_rng ^= cc_rng << 13; cc_rng ^= cc_rng >> 7; cc_rng ^= cc_rng << 17;
    volatile float f = (float)((double)(cc_rng >> 11) / (double)(1ULL << 53) * 2 - 1);
    return single ? f : (double)(cc_rng >> 11) / (double)(1ULL << 53) * 2 - 1;
}

/* op(X)(i, p) of a column-major array (leading dimension ld). */
static long double complex cc_at(const double complex *x, int64_t ld, int op, int64_t i, int64_t p)
{
    double complex v = op ? x[p + i * ld] : x[i + p * ld];
    return op == 2 ? conj(v) : v;
}

static int cplx_case(int single, int ta, int tb, int64_t m, int64_t n, int64_t k,
                     double complex alpha, double complex beta)
{
    static const gemmgen_trans ops[] = { GEMMGEN_NO_TRANS, GEMMGEN_TRANS, GEMMGEN_CONJ_TRANS };
    const int64_t lda = (ta ? k : m) + 2, ldb = (tb ? n : k) + 1, ldc = m + 3;
    const int64_t sa = lda * (ta ? m : k) + 1, sb = ldb * (tb ? k : n) + 1, sc = ldc * n + 1;
    double complex *a = malloc((size_t)sa * sizeof *a), *b = malloc((size_t)sb * sizeof *b);
    double complex *c = malloc((size_t)sc * sizeof *c), *w = malloc((size_t)sc * sizeof *w);
    float complex *af = malloc((size_t)sa * sizeof *af), *bf = malloc((size_t)sb * sizeof *bf);
    float complex *cf = malloc((size_t)sc * sizeof *cf);
    for (int64_t i = 0; i < sa; i++) { a[i] = CMPLX(cc_rnd(single), cc_rnd(single)); af[i] = (float complex)a[i]; }
    for (int64_t i = 0; i < sb; i++) { b[i] = CMPLX(cc_rnd(single), cc_rnd(single)); bf[i] = (float complex)b[i]; }
    for (int64_t i = 0; i < sc; i++) {
        c[i] = w[i] = beta == 0 ? CMPLX(NAN, NAN) : CMPLX(cc_rnd(single), cc_rnd(single));
        cf[i] = (float complex)c[i];
    }
    const float complex alf = (float complex)alpha, bef = (float complex)beta;
    int bad = single
        ? gemmgen_cgemm(GEMMGEN_COL_MAJOR, ops[ta], ops[tb], m, n, k, &alf, af, lda, bf, ldb, &bef, cf, ldc)
        : gemmgen_zgemm(GEMMGEN_COL_MAJOR, ops[ta], ops[tb], m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc);
    const double eps = single ? 0x1p-23 : 0x1p-52;
    for (int64_t j = 0; j < n && !bad; j++)
        for (int64_t i = 0; i < m && !bad; i++) {
            long double complex s = 0;
            long double mag = 0;
            for (int64_t p = 0; p < k; p++) {
                long double complex t = cc_at(a, lda, ta, i, p) * cc_at(b, ldb, tb, p, j);
                s += t;
                mag += cabsl(t);
            }
            const int64_t x = i + j * ldc;
            long double complex want = alpha * s;
            long double bound = cabs(alpha) * mag;
            if (beta != 0) { want += beta * (long double complex)w[x]; bound += cabs(beta) * cabs(w[x]); }
            double complex got = single ? (double complex)cf[x] : c[x];
            bad = !((double)cabsl(got - want) <= 8 * (double)(k + 4) * eps * (double)bound + 1e-300);
            w[x] = got;
        }
    for (int64_t x = 0; x < sc && !bad; x++) {
        double complex got = single ? (double complex)cf[x] : c[x];
        bad = memcmp(&got, &w[x], sizeof got) && !(isnan(creal(got)) && isnan(creal(w[x])));
    }
    if (bad)
        printf("%s %d%d %lldx%lldx%lld: wrong\n", single ? "cgemm" : "zgemm", ta, tb,
               (long long)m, (long long)n, (long long)k);
    free(a); free(b); free(c); free(w); free(af); free(bf); free(cf);
    return bad;
}
