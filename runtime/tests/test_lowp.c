/* test_lowp: the reduced-precision GEMMs on every kernel set the CPU runs.
 * gemmgen_gemm_u8s8s32 exactly against an integer reference (odd sizes
 * around the tiles, k not a multiple of 4, every transpose, offsets ao and
 * bo, co as F, C and R, alpha and beta through the double formula,
 * saturation, C's padding, bad arguments); gemmgen_sbgemm and cblas_sbgemm
 * against a double loop on the same bf16 inputs within f32 summation
 * error (both layouts, every transpose, beta = 0 with NaN in C, alpha = 0
 * and k = 0); which set runs each type; with libdnnl (HAVE_DNNL),
 * gemmgen_gemm_u8s8s32 against dnnl_gemm_u8s8s32 bit for bit. Meson runs
 * it with 1 and 2 threads and with small cache blocks (GEMMGEN_KC 37). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "gemmgen.h"
#include "gg_internal.h"
#ifdef HAVE_DNNL
#include <oneapi/dnnl/dnnl.h>
#endif

void cblas_sbgemm(int order, int transa, int transb, int m, int n, int k, float alpha,
                  const uint16_t *a, int lda, const uint16_t *b, int ldb, float beta, float *c,
                  int ldc);

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint32_t rnd32(void)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (uint32_t)(rng >> 32);
}

/* Selects the next kernel set after *i (start at -1) that this CPU
 * supports; 0 when none is left. */
static int next_set(int *i)
{
    while (++*i < gemmgen_kernel_count())
        if (gemmgen_kernel_supported(*i)) {
            assert_int_equal(gemmgen_kernel_select(gemmgen_kernel_name(*i)), 0);
            return 1;
        }
    return 0;
}
#define FOR_EACH_SET for (int set_ = -1; next_set(&set_);)

/* ---- u8s8s32 ---- */

struct icase {
    char ta, tb, oc;
    int64_t m, n, k;
    float alpha, beta;
    uint8_t ao; int8_t bo;
    int big_c;                 /* C and co near the int32 limits */
};

static int32_t wrap(int64_t v) { return (int32_t)(uint32_t)(uint64_t)v; }

/* oneDNN's rounding (gemmgen.h): ties away from zero, then saturation */
static int32_t round_sat(double v)
{
    if (v >= 2147483647.0) return INT32_MAX;
    if (v <= -2147483648.0) return INT32_MIN;
    return (int32_t)(v < 0 ? -floor(-v + 0.5) : floor(v + 0.5));
}

/* The expected C(i,j) from op(A) and op(B) in row-major m x k and k x n. */
static int32_t expect_i(const struct icase *t, const uint8_t *a, const int8_t *b, int32_t c,
                        int32_t co, int64_t i, int64_t j)
{
    int64_t acc = 0;
    for (int64_t p = 0; p < t->k; p++)
        acc += ((int64_t)a[i * t->k + p] - t->ao) * ((int64_t)b[p * t->n + j] - t->bo);
    if (t->alpha == 1 && (t->beta == 0 || t->beta == 1))
        return wrap(acc + (t->beta == 1 ? (int64_t)c : 0) + co);
    double v = (double)t->alpha * wrap(acc) + (t->beta == 0 ? 0 : (double)t->beta * c);
    return wrap((int64_t)round_sat(v) + co);
}

/* op(X) (rows x cols, row major in x) stored as trans says, leading dim ld. */
static void store8(const void *x, size_t es, int64_t rows, int64_t cols, char trans, int64_t ld,
                   void *dst)
{
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++) {
            int64_t at = trans == 'N' ? r * ld + c : c * ld + r;
            memcpy((char *)dst + at * es, (const char *)x + (r * cols + c) * es, es);
        }
}

enum { PAD = 3 };                   /* leading dimensions this much larger */

static void run_i(const struct icase *t)
{
    const int64_t m = t->m, n = t->n, k = t->k;
    const int64_t lda = (t->ta == 'N' ? k : m) + PAD, ldb = (t->tb == 'N' ? n : k) + PAD,
                  ldc = n + PAD;
    uint8_t *a = malloc((size_t)(m * k + 1)), *as = calloc((size_t)((t->ta == 'N' ? m : k) * lda + 1), 1);
    int8_t *b = malloc((size_t)(k * n + 1)), *bs = calloc((size_t)((t->tb == 'N' ? k : n) * ldb + 1), 1);
    int32_t *c = malloc((size_t)(m * ldc + 1) * 4), *c0 = malloc((size_t)(m * ldc + 1) * 4);
    int32_t *co = malloc((size_t)(m + n + 1) * 4);
    for (int64_t x = 0; x < m * k; x++) a[x] = (uint8_t)rnd32();
    for (int64_t x = 0; x < k * n; x++) b[x] = (int8_t)rnd32();
    for (int64_t x = 0; x < m * ldc; x++)
        c0[x] = t->big_c ? (int32_t)rnd32() : (int32_t)(rnd32() % 20001) - 10000;
    for (int64_t x = 0; x < m + n; x++)
        co[x] = t->big_c ? (int32_t)rnd32() : (int32_t)(rnd32() % 2001) - 1000;
    store8(a, 1, m, k, t->ta, lda, as);
    store8(b, 1, k, n, t->tb, ldb, bs);
    memcpy(c, c0, (size_t)(m * ldc) * 4);
    int st = gemmgen_gemm_u8s8s32(t->ta, t->tb, t->oc, m, n, k, t->alpha, as, lda, t->ao, bs,
                                  ldb, t->bo, t->beta, c, ldc, co);
    assert_int_equal(st, 0);
    int bad = 0;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < ldc; j++) {
            int32_t want = c0[i * ldc + j];
            if (j < n && k > 0) {
                int32_t o = co[t->oc == 'F' ? 0 : t->oc == 'C' ? i : j];
                want = expect_i(t, a, b, c0[i * ldc + j], o, i, j);
            }
            if (c[i * ldc + j] != want && bad++ < 3)
                print_error("u8s8s32 %c%c %c m %ld n %ld k %ld alpha %g beta %g ao %d bo %d "
                            "set %s: C(%ld,%ld) = %d, want %d\n", t->ta, t->tb, t->oc,
                            (long)m, (long)n, (long)k, t->alpha, t->beta, t->ao, t->bo,
                            gemmgen_kernel_current_for('i'), (long)i, (long)j,
                            c[i * ldc + j], want);
        }
    free(a); free(as); free(b); free(bs); free(c); free(c0); free(co);
    assert_int_equal(bad, 0);
}

static const int64_t sizes[][3] = {
    {1, 1, 1}, {1, 1, 3}, {5, 7, 3}, {6, 8, 4}, {7, 9, 13}, {13, 17, 5}, {16, 16, 64},
    {31, 33, 67}, {33, 1, 9}, {1, 47, 10}, {48, 48, 48}, {100, 37, 257}, {129, 130, 131},
};
#define NSIZES (int)(sizeof sizes / sizeof sizes[0])

static void test_u8s8_sizes(void **state)
{
    (void)state;
    static const char tr[] = "NT";
    FOR_EACH_SET {
        for (int s = 0; s < NSIZES; s++)
            for (int ta = 0; ta < 2; ta++)
                for (int tb = 0; tb < 2; tb++) {
                    struct icase t = { tr[ta], tr[tb], "FCR"[(s + ta) % 3], sizes[s][0],
                                       sizes[s][1], sizes[s][2], 1, (float)((s + tb) % 2),
                                       0, 0, 0 };
                    run_i(&t);
                }
    }
}

/* Offsets and scalars on a few sizes: the exact path (alpha 1, beta 0/1)
 * and the double one. */
static void test_u8s8_offsets(void **state)
{
    (void)state;
    static const float ab[][2] = { {1, 0}, {1, 1}, {0.5f, -1}, {2.5f, 0.3f}, {-1.5f, 0},
                                   {0, 0.5f}, {0.25f, 1} };
    static const struct { uint8_t ao; int8_t bo; } off[] = { {0, 0}, {3, 0}, {0, -7}, {200, 100},
                                                              {255, -128} };
    FOR_EACH_SET {
        for (int s = 0; s < NSIZES; s += 2)
            for (int x = 0; x < 7; x++)
                for (int o = 0; o < 5; o++) {
                    struct icase t = { "NT"[x % 2], "NT"[o % 2], "FCR"[(x + o) % 3],
                                       sizes[s][0], sizes[s][1], sizes[s][2], ab[x][0],
                                       ab[x][1], off[o].ao, off[o].bo, 0 };
                    run_i(&t);
                }
    }
}

/* Wrapping on the exact path, saturation on the double one. */
static void test_u8s8_limits(void **state)
{
    (void)state;
    static const float ab[][2] = { {1, 1}, {1, 0}, {3e5f, 0}, {-3e5f, 1.5f}, {1.5f, 1} };
    FOR_EACH_SET {
        for (int x = 0; x < 5; x++) {
            struct icase t = { 'N', 'N', "FCR"[x % 3], 9, 11, 40, ab[x][0], ab[x][1], 0, 0, 1 };
            run_i(&t);
        }
    }
}

static void test_u8s8_bad_args(void **state)
{
    (void)state;
    uint8_t a[16] = {1}; int8_t b[16] = {1}; int32_t c[16] = {7}, co[4] = {0};
    assert_int_equal(gemmgen_gemm_u8s8s32('X', 'N', 'F', 1, 1, 1, 1, a, 1, 0, b, 1, 0, 0, c, 1, co), 2);
    assert_int_equal(gemmgen_gemm_u8s8s32('N', 'C', 'F', 1, 1, 1, 1, a, 1, 0, b, 1, 0, 0, c, 1, co), 2);
    assert_int_equal(gemmgen_gemm_u8s8s32('N', 'N', 'X', 1, 1, 1, 1, a, 1, 0, b, 1, 0, 0, c, 1, co), 2);
    assert_int_equal(gemmgen_gemm_u8s8s32('N', 'N', 'F', -1, 1, 1, 1, a, 1, 0, b, 1, 0, 0, c, 1, co), 2);
    assert_int_equal(gemmgen_gemm_u8s8s32('N', 'N', 'F', 2, 1, 2, 1, a, 1, 0, b, 1, 0, 0, c, 1, co), 2);
    assert_int_equal(gemmgen_gemm_u8s8s32('T', 'N', 'F', 2, 1, 1, 1, a, 1, 0, b, 1, 0, 0, c, 1, co), 2);
    assert_int_equal(gemmgen_gemm_u8s8s32('N', 'N', 'F', 1, 2, 1, 1, a, 1, 0, b, 1, 0, 0, c, 2, co), 2);
    assert_int_equal(gemmgen_gemm_u8s8s32('N', 'T', 'F', 1, 1, 2, 1, a, 2, 0, b, 1, 0, 0, c, 1, co), 2);
    assert_int_equal(gemmgen_gemm_u8s8s32('N', 'N', 'F', 1, 2, 1, 1, a, 1, 0, b, 2, 0, 0, c, 1, co), 2);
    assert_int_equal(gemmgen_gemm_u8s8s32('N', 'N', 'F', 0, 1, 1, 1, a, 0, 0, b, 1, 0, 0, c, 1, co), 2);
    assert_int_equal(gemmgen_gemm_u8s8s32('N', 'N', 'F', 1, 1, 1, 1, NULL, 1, 0, b, 1, 0, 0, c, 1, co), 2);
    assert_int_equal(gemmgen_gemm_u8s8s32('N', 'N', 'F', 1, 1, 1, 1, a, 1, 0, b, 1, 0, 0, c, 1, NULL), 2);
    assert_int_equal(c[0], 7);
    /* M, N or K zero: nothing done, beta and co included */
    assert_int_equal(gemmgen_gemm_u8s8s32('n', 't', 'r', 1, 1, 0, 1, a, 1, 0, b, 1, 0, 0, c, 1, co), 0);
    assert_int_equal(c[0], 7);
    assert_int_equal(gemmgen_gemm_u8s8s32('N', 'N', 'F', 0, 1, 1, 1, a, 1, 0, b, 1, 0, 0, c, 1, co), 0);
}

/* ---- bf16 ---- */

static float bf16_value(uint16_t x)
{
    uint32_t u = (uint32_t)x << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* a random bf16 in [-2, 2] */
static uint16_t bf16_rand(void)
{
    float f = (float)((double)rnd32() / 4294967296.0 * 4 - 2);
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return (uint16_t)(u >> 16);
}

struct bcase {
    int row_major, ta, tb, cblas;
    int64_t m, n, k;
    float alpha, beta;
};

static void run_b(const struct bcase *t)
{
    const int64_t m = t->m, n = t->n, k = t->k;
    /* stored rows x cols of each operand in its layout and transpose */
    const int64_t ar = t->ta ? k : m, ac = t->ta ? m : k, br = t->tb ? n : k, bc = t->tb ? k : n;
    const int64_t lda = (t->row_major ? ac : ar) + PAD, ldb = (t->row_major ? bc : br) + PAD;
    const int64_t ldc = (t->row_major ? n : m) + PAD, clen = (t->row_major ? m : n) * ldc;
    uint16_t *a = malloc((size_t)((t->row_major ? ar : ac) * lda + 1) * 2);
    uint16_t *b = malloc((size_t)((t->row_major ? br : bc) * ldb + 1) * 2);
    float *c = malloc((size_t)(clen + 1) * 4), *c0 = malloc((size_t)(clen + 1) * 4);
    for (int64_t x = 0; x < (t->row_major ? ar : ac) * lda; x++) a[x] = bf16_rand();
    for (int64_t x = 0; x < (t->row_major ? br : bc) * ldb; x++) b[x] = bf16_rand();
    for (int64_t x = 0; x < clen; x++)
        c0[x] = t->beta == 0 ? NAN : (float)((double)rnd32() / 4294967296.0 - 0.5);
    memcpy(c, c0, (size_t)clen * 4);
    const int layout = t->row_major ? GEMMGEN_ROW_MAJOR : GEMMGEN_COL_MAJOR;
    const int ta = t->ta ? GEMMGEN_TRANS : GEMMGEN_NO_TRANS, tb = t->tb ? GEMMGEN_TRANS : GEMMGEN_NO_TRANS;
    if (t->cblas)
        cblas_sbgemm(layout, ta, tb, (int)m, (int)n, (int)k, t->alpha, a, (int)lda, b, (int)ldb,
                     t->beta, c, (int)ldc);
    else
        assert_int_equal(gemmgen_sbgemm(layout, ta, tb, m, n, k, t->alpha, a, lda, b, ldb,
                                        t->beta, c, ldc), 0);
    int bad = 0;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double s = 0, mag = 0;
            for (int64_t p = 0; p < k; p++) {
                int64_t sa = t->ta ? p : i, ca = t->ta ? i : p, sb = t->tb ? j : p, cb = t->tb ? p : j;
                double x = bf16_value(a[t->row_major ? sa * lda + ca : sa + ca * lda]);
                double y = bf16_value(b[t->row_major ? sb * ldb + cb : sb + cb * ldb]);
                s += x * y; mag += fabs(x * y);
            }
            int64_t at = t->row_major ? i * ldc + j : i + j * ldc;
            double want = t->alpha * s + (t->beta == 0 ? 0 : t->beta * (double)c0[at]);
            double tol = 2.0 * (double)(k + 2) * 1.2e-7
                       * (fabs(t->alpha) * mag + (t->beta == 0 ? 0 : fabs(t->beta * (double)c0[at])) + 1e-30);
            if (!(fabs(c[at] - want) <= tol) && bad++ < 3)
                print_error("sbgemm %s %c%c m %ld n %ld k %ld alpha %g beta %g set %s: "
                            "C(%ld,%ld) = %.9g, want %.9g tol %g\n", t->row_major ? "row" : "col",
                            "NT"[t->ta], "NT"[t->tb], (long)m, (long)n, (long)k, t->alpha,
                            t->beta, gemmgen_kernel_current_for('b'), (long)i, (long)j,
                            c[at], want, tol);
        }
    /* C's padding untouched (NaN compares unequal: compare the bits) */
    for (int64_t x = 0; x < clen; x++)
        if (x % ldc >= (t->row_major ? n : m) && memcmp(&c[x], &c0[x], 4) && bad++ < 3)
            print_error("sbgemm wrote C's padding at %ld\n", (long)x);
    free(a); free(b); free(c); free(c0);
    assert_int_equal(bad, 0);
}

static void test_bf16_sizes(void **state)
{
    (void)state;
    static const float ab[][2] = { {1, 0}, {-1.5f, 0.5f}, {0.75f, 1} };
    FOR_EACH_SET {
        for (int s = 0; s < NSIZES; s++)
            for (int x = 0; x < 8; x++) {
                struct bcase t = { x & 1, (x >> 1) & 1, (x >> 2) & 1, s % 2, sizes[s][0],
                                   sizes[s][1], sizes[s][2], ab[(s + x) % 3][0],
                                   ab[(s + x) % 3][1] };
                run_b(&t);
            }
    }
}

/* alpha = 0 and k = 0 scale C by beta; beta = 0 writes zeros over NaN. */
static void test_bf16_scale(void **state)
{
    (void)state;
    uint16_t a[4] = {0x3f80, 0x3f80, 0x3f80, 0x3f80}, b[4] = {0x4000, 0x4000, 0x4000, 0x4000};
    float c[4] = {1, 2, 3, 4};
    assert_int_equal(gemmgen_sbgemm(GEMMGEN_COL_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS,
                                    2, 2, 0, 1, a, 2, b, 1, 0.5f, c, 2), 0);
    assert_true(c[0] == 0.5f && c[3] == 2);
    assert_int_equal(gemmgen_sbgemm(GEMMGEN_COL_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS,
                                    2, 2, 2, 0, a, 2, b, 2, 2, c, 2), 0);
    assert_true(c[0] == 1 && c[3] == 4);
    c[0] = c[1] = c[2] = c[3] = NAN;
    assert_int_equal(gemmgen_sbgemm(GEMMGEN_ROW_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS,
                                    2, 2, 2, 1, a, 2, b, 2, 0, c, 2), 0);
    assert_true(c[0] == 4 && c[1] == 4 && c[2] == 4 && c[3] == 4);
    /* bad arguments: minus their position, nothing done */
    assert_int_equal(gemmgen_sbgemm(GEMMGEN_ROW_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS,
                                    2, 2, 2, 1, a, 1, b, 2, 0, c, 2), -9);
}

/* ---- which kernels run ---- */

/* Each type runs the current set's generated kernel where it has one the
 * CPU runs, else the portable one. */
static void test_kernel_choice(void **state)
{
    (void)state;
    FOR_EACH_SET {
        const struct gg_kernel_set *s = gg_set_current();
        int bf16 = s->bf16.fn && !(s->bf16_features & ~gg_cpu_features());
        int u8s8 = s->u8s8.fn && !(s->u8s8_features & ~gg_cpu_features());
        print_message("set %s: bf16 runs %s, u8s8s32 runs %s\n", s->name,
                      gemmgen_kernel_current_for('b'), gemmgen_kernel_current_for('i'));
        assert_string_equal(gemmgen_kernel_current_for('b'), bf16 ? s->name : "portable");
        assert_string_equal(gemmgen_kernel_current_for('i'), u8s8 ? s->name : "portable");
        int mr, nr;
        gemmgen_blocking('i', &mr, &nr, NULL, NULL, NULL);
        assert_int_equal(mr, u8s8 ? s->u8s8.mr : GG_PORTABLE_U8S8_MR);
        assert_int_equal(nr, u8s8 ? s->u8s8.nr : GG_PORTABLE_U8S8_NR);
    }
}

/* ---- against oneDNN ---- */

#ifdef HAVE_DNNL
/* oneDNN 2.6's JIT kernels on this CPU (OMP_NUM_THREADS=1) agree with
 * gemmgen.h's formula bit for bit where alpha is 1 and beta 0 or 1, and
 * otherwise up to K = 64; past it they round once per block of k they
 * compute (64 or 128 steps), so each result may be off by up to 1 per
 * extra block, or clamp a block's partial result that the next block
 * would bring back in range. Those cases are held to that bound on C away
 * from the limits, the others to equality. */
static int64_t dnnl_slack(float alpha, float beta, int64_t k)
{
    if (alpha == 1 && (beta == 0 || beta == 1)) return 0;
    return (k + 63) / 64 - 1;
}

static void test_u8s8_dnnl(void **state)
{
    (void)state;
    static const float alphas[] = { 1, 1, 0.5f, -2, 1.7f }, betas[] = { 0, 1, 0, 0.5f, -1.25f };
    FOR_EACH_SET {
        for (int it = 0; it < 120; it++) {
            const char ta = "NT"[rnd32() % 2], tb = "NT"[rnd32() % 2], oc = "FCR"[rnd32() % 3];
            const int64_t m = 1 + rnd32() % 70, n = 1 + rnd32() % 70,
                          k = 1 + rnd32() % (it % 2 ? 64 : 300);
            const int64_t lda = (ta == 'N' ? k : m) + rnd32() % 3, ldb = (tb == 'N' ? n : k) + rnd32() % 3,
                          ldc = n + rnd32() % 3;
            const float alpha = alphas[it % 5], beta = betas[(it / 5) % 5];
            const uint8_t ao = rnd32() % 2 ? 0 : (uint8_t)rnd32();
            const int8_t bo = rnd32() % 2 ? 0 : (int8_t)rnd32();
            /* C near the int32 limits: where oneDNN rounds once (past 64 k steps it
             * also saturates each block's partial result) */
            const int big = it % 7 == 6 && dnnl_slack(alpha, beta, k) == 0;
            const int64_t na = (ta == 'N' ? m : k) * lda, nb = (tb == 'N' ? k : n) * ldb, nc = m * ldc;
            uint8_t *a = malloc((size_t)na); int8_t *b = malloc((size_t)nb);
            int32_t *c = malloc((size_t)nc * 4), *d = malloc((size_t)nc * 4), *co = malloc((size_t)(m + n) * 4);
            for (int64_t x = 0; x < na; x++) a[x] = (uint8_t)rnd32();
            for (int64_t x = 0; x < nb; x++) b[x] = (int8_t)rnd32();
            for (int64_t x = 0; x < nc; x++) c[x] = d[x] = big ? (int32_t)rnd32() : (int32_t)(rnd32() % 100001) - 50000;
            for (int64_t x = 0; x < m + n; x++) co[x] = (int32_t)(rnd32() % 2001) - 1000;
            int s1 = gemmgen_gemm_u8s8s32(ta, tb, oc, m, n, k, alpha, a, lda, ao, b, ldb, bo, beta, c, ldc, co);
            int s2 = dnnl_gemm_u8s8s32(ta, tb, oc, m, n, k, alpha, a, lda, ao, b, ldb, bo, beta, d, ldc, co);
            assert_int_equal(s1, s2);
            int bad = 0;
            const int64_t slack = dnnl_slack(alpha, beta, k);
            for (int64_t x = 0; x < nc; x++)
                if (llabs((long long)c[x] - d[x]) > slack && bad++ < 3)
                    print_error("vs oneDNN %c%c %c m %ld n %ld k %ld alpha %g beta %g ao %d bo %d: "
                                "C[%ld] = %d, oneDNN %d\n", ta, tb, oc, (long)m, (long)n, (long)k,
                                alpha, beta, ao, bo, (long)x, c[x], d[x]);
            free(a); free(b); free(c); free(d); free(co);
            assert_int_equal(bad, 0);
        }
    }
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernel_choice),
        cmocka_unit_test(test_u8s8_bad_args),
        cmocka_unit_test(test_u8s8_sizes),
        cmocka_unit_test(test_u8s8_offsets),
        cmocka_unit_test(test_u8s8_limits),
        cmocka_unit_test(test_bf16_scale),
        cmocka_unit_test(test_bf16_sizes),
#ifdef HAVE_DNNL
        cmocka_unit_test(test_u8s8_dnnl),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
