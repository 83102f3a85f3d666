/* lowp_case.h: one case of the reduced-precision GEMMs against a
 * reference, shared by test_lowp.c (cmocka) and cross_check.c (under
 * qemu): gemmgen_gemm_u8s8s32 exactly (offsets, co as F, C, R, alpha and
 * beta through oneDNN's double formula, C's padding), gemmgen_sbgemm and
 * cblas_sbgemm within f32 summation error of a double sum on the same
 * bf16 inputs (NaN in C when beta = 0, C's padding). LOWP_REPORT prints a
 * wrong cell (printf-like; stderr unless the includer says otherwise). */
#ifndef LOWP_CASE_H
#define LOWP_CASE_H
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gemmgen.h"
#ifndef LOWP_REPORT
#define LOWP_REPORT(...) fprintf(stderr, __VA_ARGS__)
#endif

void cblas_sbgemm(int order, int transa, int transb, int m, int n, int k, float alpha,
                  const uint16_t *a, int lda, const uint16_t *b, int ldb, float beta, float *c,
                  int ldc);

static uint64_t lowp_rng = 0x9e3779b97f4a7c15ULL;
static uint32_t rnd32(void)
{
    lowp_rng ^= lowp_rng << 13; lowp_rng ^= lowp_rng >> 7; lowp_rng ^= lowp_rng << 17;
    return (uint32_t)(lowp_rng >> 32);
}

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

/* Runs case t; returns the number of wrong cells (and says which). */
static int run_i(const struct icase *t)
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
    int bad = st != 0;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < ldc; j++) {
            int32_t want = c0[i * ldc + j];
            if (j < n && k > 0) {
                int32_t o = co[t->oc == 'F' ? 0 : t->oc == 'C' ? i : j];
                want = expect_i(t, a, b, c0[i * ldc + j], o, i, j);
            }
            if (c[i * ldc + j] != want && bad++ < 3)
                LOWP_REPORT("u8s8s32 %c%c %c m %ld n %ld k %ld alpha %g beta %g ao %d bo %d "
                            "set %s: C(%ld,%ld) = %d, want %d\n", t->ta, t->tb, t->oc,
                            (long)m, (long)n, (long)k, t->alpha, t->beta, t->ao, t->bo,
                            gemmgen_kernel_current_for('i'), (long)i, (long)j,
                            c[i * ldc + j], want);
        }
    free(a); free(as); free(b); free(bs); free(c); free(c0); free(co);
    return bad;
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

/* Runs case t; returns the number of wrong cells (and says which). */
static int run_b(const struct bcase *t)
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
    int bad = 0;
    if (t->cblas)
        cblas_sbgemm(layout, ta, tb, (int)m, (int)n, (int)k, t->alpha, a, (int)lda, b, (int)ldb,
                     t->beta, c, (int)ldc);
    else
        bad = gemmgen_sbgemm(layout, ta, tb, m, n, k, t->alpha, a, lda, b, ldb, t->beta, c,
                             ldc) != 0;
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
                LOWP_REPORT("sbgemm %s %c%c m %ld n %ld k %ld alpha %g beta %g set %s: "
                            "C(%ld,%ld) = %.9g, want %.9g tol %g\n", t->row_major ? "row" : "col",
                            "NT"[t->ta], "NT"[t->tb], (long)m, (long)n, (long)k, t->alpha,
                            t->beta, gemmgen_kernel_current_for('b'), (long)i, (long)j,
                            c[at], want, tol);
        }
    /* C's padding untouched (NaN compares unequal: compare the bits) */
    for (int64_t x = 0; x < clen; x++)
        if (x % ldc >= (t->row_major ? n : m) && memcmp(&c[x], &c0[x], 4) && bad++ < 3)
            LOWP_REPORT("sbgemm wrote C's padding at %ld\n", (long)x);
    free(a); free(b); free(c); free(c0);
    return bad;
}

#endif
