/* test_complex: ZGEMM and CGEMM (gemmgen_zgemm/cgemm, cblas_zgemm/cgemm,
 * zgemm_/cgemm_) against a naive long double complex GEMM: both layouts,
 * every pair of N, T and C (conjugate transpose), odd sizes around the
 * kernel's tile and KC, alpha and beta with imaginary parts, beta = 0 with
 * NaN in C, alpha = 0 and k = 0, C's padding untouched, one and two
 * threads; bad arguments reach the program's xerbla_. */
#include "gg_cmplx.h"
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "gemmgen.h"

void cblas_zgemm(int, int, int, int, int, int, const void *, const void *, int, const void *,
                 int, const void *, void *, int);
void cblas_cgemm(int, int, int, int, int, int, const void *, const void *, int, const void *,
                 int, const void *, void *, int);
void zgemm_(const char *, const char *, const int *, const int *, const int *,
            const double complex *, const double complex *, const int *,
            const double complex *, const int *, const double complex *, double complex *,
            const int *, size_t, size_t);
void cgemm_(const char *, const char *, const int *, const int *, const int *,
            const float complex *, const float complex *, const int *, const float complex *,
            const int *, const float complex *, float complex *, const int *, size_t, size_t);

/* The program's xerbla_ replaces the library's: the last report. */
static char xname[16];
static int xinfo;
void xerbla_(const char *name, const int *info, size_t len)
{
    size_t n = len < sizeof xname - 1 ? len : sizeof xname - 1;
    memcpy(xname, name, n);
    xname[n] = 0;
    xinfo = *info;
}

static uint64_t rng = 0x2545f4914f6cdd1dULL;
static double rnd(void)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (double)(rng >> 11) / (double)(1ULL << 53) * 2 - 1;
}

/* A random element, exact in float complex for CGEMM. */
static double complex val(int single)
{
    double r = rnd(), i = rnd();
    /* through memory: GCC -O3 dropped the rounding of (float)r here */
    volatile float rf = (float)r, jf = (float)i;
    if (single) { r = rf; i = jf; }
    return CMPLX(r, i);
}

enum { N_OP = 0, T_OP = 1, C_OP = 2 };
static const gemmgen_trans op_enum[] = { GEMMGEN_NO_TRANS, GEMMGEN_TRANS, GEMMGEN_CONJ_TRANS };
static const char op_char[] = { 'N', 'T', 'C' };

/* op(X)(i, p) of an array stored with leading dimension ld in the layout. */
static long double complex at(const double complex *x, int64_t ld, int row_major, int op,
                              int64_t i, int64_t p)
{
    int64_t r = op == N_OP ? i : p, c = op == N_OP ? p : i;     /* stored element (r, c) */
    double complex v = row_major ? x[r * ld + c] : x[r + c * ld];
    return op == C_OP ? conj(v) : v;
}

struct zcase {
    int single, row_major, ta, tb, api;    /* api: 0 gemmgen_, 1 cblas_, 2 Fortran */
    int64_t m, n, k;
    double complex alpha, beta;
};

/* Operands in double complex (rounded to float complex for CGEMM). */
static void run(const struct zcase *z)
{
    const int64_t m = z->m, n = z->n, k = z->k;
    const int col = !z->row_major;
    const int64_t ar = z->ta == N_OP ? m : k, ac = z->ta == N_OP ? k : m;   /* stored A */
    const int64_t br = z->tb == N_OP ? k : n, bc = z->tb == N_OP ? n : k;
    const int64_t lda = (col ? ar : ac) + 3, ldb = (col ? br : bc) + 2, ldc = (col ? m : n) + 5;
    const int64_t sa = lda * (col ? ac : ar) + 1, sb = ldb * (col ? bc : br) + 1;
    const int64_t sc = ldc * (col ? n : m) + 1;
    double complex *a = malloc((size_t)sa * sizeof *a), *b = malloc((size_t)sb * sizeof *b);
    double complex *c = malloc((size_t)sc * sizeof *c), *w = malloc((size_t)sc * sizeof *w);
    float complex *af = malloc((size_t)sa * sizeof *af), *bf = malloc((size_t)sb * sizeof *bf);
    float complex *cf = malloc((size_t)sc * sizeof *cf);
    for (int64_t i = 0; i < sa; i++) a[i] = val(z->single);
    for (int64_t i = 0; i < sb; i++) b[i] = val(z->single);
    const int nan_c = z->beta == 0;
    for (int64_t i = 0; i < sc; i++) {
        c[i] = nan_c ? CMPLX(NAN, NAN) : val(z->single);
        w[i] = c[i];
    }
    for (int64_t i = 0; i < sa; i++) af[i] = (float complex)a[i];
    for (int64_t i = 0; i < sb; i++) bf[i] = (float complex)b[i];
    for (int64_t i = 0; i < sc; i++) cf[i] = (float complex)c[i];
    const double complex alpha = z->alpha, beta = z->beta;
    const float complex alf = (float complex)alpha, bef = (float complex)beta;
    const int im = (int)m, in = (int)n, ik = (int)k, ila = (int)lda, ilb = (int)ldb,
              ilc = (int)ldc;
    const gemmgen_layout lay = col ? GEMMGEN_COL_MAJOR : GEMMGEN_ROW_MAJOR;
    if (z->single) {
        if (z->api == 0)
            assert_int_equal(gemmgen_cgemm(lay, op_enum[z->ta], op_enum[z->tb], m, n, k, &alf,
                                           af, lda, bf, ldb, &bef, cf, ldc), 0);
        else if (z->api == 1)
            cblas_cgemm(lay, op_enum[z->ta], op_enum[z->tb], im, in, ik, &alf, af, ila, bf, ilb,
                        &bef, cf, ilc);
        else
            cgemm_(&op_char[z->ta], &op_char[z->tb], &im, &in, &ik, &alf, af, &ila, bf, &ilb,
                   &bef, cf, &ilc, 1, 1);
    } else {
        if (z->api == 0)
            assert_int_equal(gemmgen_zgemm(lay, op_enum[z->ta], op_enum[z->tb], m, n, k, &alpha,
                                           a, lda, b, ldb, &beta, c, ldc), 0);
        else if (z->api == 1)
            cblas_zgemm(lay, op_enum[z->ta], op_enum[z->tb], im, in, ik, &alpha, a, ila, b, ilb,
                        &beta, c, ilc);
        else
            zgemm_(&op_char[z->ta], &op_char[z->tb], &im, &in, &ik, &alpha, a, &ila, b, &ilb,
                   &beta, c, &ilc, 1, 1);
    }
    const double eps = z->single ? 0x1p-23 : 0x1p-52;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            long double complex s = 0;
            long double mag = 0;
            for (int64_t p = 0; p < k; p++) {
                long double complex t = at(a, lda, !col, z->ta, i, p) * at(b, ldb, !col, z->tb, p, j);
                s += t;
                mag += cabsl(t);
            }
            int64_t x = col ? i + j * ldc : i * ldc + j;
            long double complex want = alpha * s;
            long double bound = cabs(alpha) * mag;
            if (beta != 0) {
                want += beta * (long double complex)w[x];
                bound += cabs(beta) * cabs(w[x]);
            }
            double complex got = z->single ? (double complex)cf[x] : c[x];
            double err = (double)cabsl(got - want), tol = 8 * (double)(k + 4) * eps * (double)bound + 1e-300;
            if (!(err <= tol))
                fail_msg("%s %c%c %s api %d %lldx%lldx%lld: C(%lld,%lld) = %g%+gi, want %Lg%+Lgi",
                         z->single ? "cgemm" : "zgemm", op_char[z->ta], op_char[z->tb],
                         col ? "col" : "row", z->api, (long long)m, (long long)n, (long long)k,
                         (long long)i, (long long)j, creal(got), cimag(got), creall(want),
                         cimagl(want));
            w[x] = got;                    /* checked: the rest must be untouched */
        }
    for (int64_t x = 0; x < sc; x++) {
        double complex got = z->single ? (double complex)cf[x] : c[x];
        if (memcmp(&got, &w[x], sizeof got) && !(isnan(creal(got)) && isnan(creal(w[x]))))
            fail_msg("padding of C at %lld changed (%lldx%lldx%lld)", (long long)x, (long long)m,
                     (long long)n, (long long)k);
    }
    free(a); free(b); free(c); free(w); free(af); free(bf); free(cf);
}

static const int64_t shapes[][3] = {
    { 1, 1, 1 }, { 7, 5, 3 }, { 17, 19, 23 }, { 33, 9, 41 }, { 5, 64, 7 },
    { 130, 45, 90 }, { 61, 37, 403 }, { 3, 200, 11 },
};

static void every_case(int single, int threads)
{
    gemmgen_set_num_threads(threads);
    const double complex alphas[] = { CMPLX(0.75, -1.25), CMPLX(-1, 0) };
    const double complex betas[] = { 0, CMPLX(0.5, 0.25), 1 };
    int api = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        for (int row = 0; row < 2; row++)
            for (int ta = 0; ta < 3; ta++)
                for (int tb = 0; tb < 3; tb++) {
                    struct zcase z = { single, row, ta, tb, api, shapes[s][0], shapes[s][1],
                                       shapes[s][2], alphas[(ta + tb) % 2], betas[(s + ta) % 3] };
                    if (row && z.api == 2) z.api = 0;   /* Fortran is column major */
                    run(&z);
                    api = (api + 1) % 3;
                }
    gemmgen_set_num_threads(0);
}

static void test_zgemm(void **st) { (void)st; every_case(0, 1); }
static void test_cgemm(void **st) { (void)st; every_case(1, 1); }
static void test_threads(void **st) { (void)st; every_case(0, 2); every_case(1, 2); }

/* alpha = 0 and k = 0 scale C by beta only; beta = 0 then writes zeros. */
static void test_scale_only(void **st)
{
    (void)st;
    struct zcase z = { 0, 0, C_OP, T_OP, 0, 9, 7, 0, CMPLX(2, 1), CMPLX(0.5, -2) };
    run(&z);
    z.k = 13; z.alpha = 0;
    run(&z);
    z.beta = 0;
    run(&z);
    z.single = 1;
    run(&z);
}

/* Bad arguments: nothing computed, the position reported. */
static void test_bad_args(void **st)
{
    (void)st;
    double complex a[4] = { 1, 2, 3, 4 }, c[4] = { 7, 7, 7, 7 }, one = 1;
    assert_int_equal(gemmgen_zgemm(GEMMGEN_COL_MAJOR, 7, GEMMGEN_NO_TRANS, 2, 2, 2, &one, a, 2,
                                   a, 2, &one, c, 2), -2);
    assert_int_equal(gemmgen_zgemm(GEMMGEN_COL_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS, 2, 2, 2,
                                   &one, a, 1, a, 2, &one, c, 2), -9);
    cblas_zgemm(GEMMGEN_COL_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS, 2, 2, 2, &one, a, 2, a, 2,
                &one, c, 1);
    assert_string_equal(xname, "cblas_zgemm");
    assert_int_equal(xinfo, 14);
    const int two = 2, bad = -1;
    zgemm_("N", "C", &two, &bad, &two, &one, a, &two, a, &two, &one, c, &two, 1, 1);
    assert_string_equal(xname, "ZGEMM ");
    assert_int_equal(xinfo, 4);
    float complex af[4] = { 1, 2, 3, 4 }, cf[4] = { 7, 7, 7, 7 }, onef = 1;
    cgemm_("X", "N", &two, &two, &two, &onef, af, &two, af, &two, &onef, cf, &two, 1, 1);
    assert_string_equal(xname, "CGEMM ");
    assert_int_equal(xinfo, 1);
    for (int i = 0; i < 4; i++) assert_true(c[i] == 7 && cf[i] == 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_args),
        cmocka_unit_test(test_scale_only),
        cmocka_unit_test(test_zgemm),
        cmocka_unit_test(test_cgemm),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
