/* Debian's BLIS running the gemmgen complex kernels ggblis_z (c64) and
 * ggblis_c (c32) through their BLIS wrappers, registered for
 * BLIS_DCOMPLEX and BLIS_SCOMPLEX: bli_zgemm / bli_cgemm on odd sizes
 * with every transpose of A and B (none, transpose, conjugate transpose),
 * C by columns and by rows, complex alpha and beta, beta = 0 with NaN in
 * C; each result against a naive reference, and a counter in front of
 * each wrapper proves BLIS called our kernel. Exit 0 when all pass. */
#include "gemmgen_blis.h"

#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ggblis_z.h"
#include "ggblis_c.h"

static long calls_z, calls_c;

static void z_counted(dim_t m, dim_t n, dim_t k, double _Complex *alpha, double _Complex *a,
                      double _Complex *b, double _Complex *beta, double _Complex *c, inc_t rs_c,
                      inc_t cs_c, auxinfo_t *data, cntx_t *cntx)
{
    calls_z++;
    ggblis_z_blis(m, n, k, alpha, a, b, beta, c, rs_c, cs_c, data, cntx);
}

static void c_counted(dim_t m, dim_t n, dim_t k, float _Complex *alpha, float _Complex *a,
                      float _Complex *b, float _Complex *beta, float _Complex *c, inc_t rs_c,
                      inc_t cs_c, auxinfo_t *data, cntx_t *cntx)
{
    calls_c++;
    ggblis_c_blis(m, n, k, alpha, a, b, beta, c, rs_c, cs_c, data, cntx);
}

static unsigned long long rng = 88172645463325252ull;
static double rnd(void)   /* xorshift: uniform in [-1, 1) */
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (double)(rng >> 11) / 4503599627370496.0 - 1.0;
}

static const trans_t trans[] = { BLIS_NO_TRANSPOSE, BLIS_TRANSPOSE, BLIS_CONJ_TRANSPOSE };

/* op(X)(i,j) of X stored column-major with leading dimension ld */
static double _Complex op(const double _Complex *x, int ld, trans_t t, int i, int j)
{
    if (t == BLIS_NO_TRANSPOSE) return x[i + j * ld];
    return t == BLIS_TRANSPOSE ? x[j + i * ld] : conj(x[j + i * ld]);
}

/* One call of bli_zgemm (single: bli_cgemm on the same values rounded);
 * returns the number of wrong elements of C. */
static int one(int single, int m, int n, int k, trans_t ta, trans_t tb, int row_c,
               double _Complex alpha, double _Complex beta)
{
    int lda = ta == BLIS_NO_TRANSPOSE ? m : k, ldb = tb == BLIS_NO_TRANSPOSE ? k : n;
    int acols = ta == BLIS_NO_TRANSPOSE ? k : m, bcols = tb == BLIS_NO_TRANSPOSE ? n : k;
    inc_t rs = row_c ? n + 1 : 1, cs = row_c ? 1 : m + 1;
    size_t clen = (size_t)((m - 1) * rs + (n - 1) * cs + 1);
    double _Complex *a = malloc(sizeof *a * (size_t)(lda * acols)), *b = malloc(sizeof *b * (size_t)(ldb * bcols));
    double _Complex *c = malloc(sizeof *c * clen), *c0 = malloc(sizeof *c0 * clen);
    float _Complex *af = malloc(sizeof *af * (size_t)(lda * acols)), *bf = malloc(sizeof *bf * (size_t)(ldb * bcols));
    float _Complex *cf = malloc(sizeof *cf * clen);
    for (int x = 0; x < lda * acols; x++) af[x] = (float _Complex)(a[x] = rnd() + I * rnd());
    for (int x = 0; x < ldb * bcols; x++) bf[x] = (float _Complex)(b[x] = rnd() + I * rnd());
    for (size_t x = 0; x < clen; x++) {
        c0[x] = beta == 0 ? NAN + I * NAN : rnd() + I * rnd();
        if (single) c0[x] = (float _Complex)c0[x];
        c[x] = c0[x];
        cf[x] = (float _Complex)c0[x];
    }
    if (single) {
        float _Complex al = (float _Complex)alpha, be = (float _Complex)beta;
        for (int x = 0; x < lda * acols; x++) a[x] = af[x];
        for (int x = 0; x < ldb * bcols; x++) b[x] = bf[x];
        bli_cgemm(ta, tb, m, n, k, (scomplex *)&al, (scomplex *)af, 1, lda, (scomplex *)bf, 1, ldb,
                  (scomplex *)&be, (scomplex *)cf, rs, cs);
        for (size_t x = 0; x < clen; x++) c[x] = cf[x];
    } else {
        bli_zgemm(ta, tb, m, n, k, (dcomplex *)&alpha, (dcomplex *)a, 1, lda, (dcomplex *)b, 1, ldb,
                  (dcomplex *)&beta, (dcomplex *)c, rs, cs);
    }
    int bad = 0;
    double eps = single ? 1e-6 : 1e-15;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double _Complex s = 0;
            for (int p = 0; p < k; p++) s += op(a, lda, ta, i, p) * op(b, ldb, tb, p, j);
            double _Complex want = alpha * s;
            if (beta != 0) want += beta * c0[i * rs + j * cs];
            if (!(cabs(c[i * rs + j * cs] - want) <= 64 * eps * (k + 4))) bad++;
        }
    free(a); free(b); free(c); free(c0); free(af); free(bf); free(cf);
    return bad;
}

int main(void)
{
    if (gemmgen_blis_register(BLIS_DCOMPLEX, (void_fp)z_counted, ggblis_z_MR, ggblis_z_NR,
                              ggblis_z_ROW_PREF, NULL) ||
        gemmgen_blis_register(BLIS_SCOMPLEX, (void_fp)c_counted, ggblis_c_MR, ggblis_c_NR,
                              ggblis_c_ROW_PREF, NULL)) {
        puts("FAIL: registration refused a complex type");
        return 1;
    }
    static const int sizes[][3] = { { 37, 29, 41 }, { 1, 1, 1 }, { 13, 50, 7 }, { 64, 3, 0 } };
    const double _Complex ab[][2] = { { 0.5 - 1.25 * I, -0.75 + 0.5 * I }, { 1, 0 }, { 2 + I, 0 }, { 1, 1 } };
    int bad = 0, checks = 0;
    for (int single = 0; single < 2; single++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
            for (int ta = 0; ta < 3; ta++)
                for (int tb = 0; tb < 3; tb++)
                    for (int row_c = 0; row_c < 2; row_c++) {
                        const double _Complex *x = ab[(s + (size_t)ta + (size_t)tb) % 4];
                        int b = one(single, sizes[s][0], sizes[s][1], sizes[s][2], trans[ta],
                                    trans[tb], row_c, x[0], x[1]);
                        checks++;
                        if (b && bad < 10)
                            printf("FAIL %cgemm %dx%dx%d trans %d,%d %s C: %d wrong\n",
                                   single ? 'c' : 'z', sizes[s][0], sizes[s][1], sizes[s][2], ta,
                                   tb, row_c ? "row" : "col", b);
                        bad += b != 0;
                    }
    printf("%d calls, %d failed; kernel calls: z %ld, c %ld\n", checks, bad, calls_z, calls_c);
    return bad || !calls_z || !calls_c;
}
