/* u8s8s32.c: gemmgen_gemm_u8s8s32, oneDNN's dnnl_gemm_u8s8s32 (gemmgen.h
 * gives the semantics, as measured against libdnnl) on the 8-bit kernels.
 * C is row major: the loops compute C^T = op(B)^T op(A)^T, column major,
 * on kernels with the int8 operand on A's side (gemm_u8s8.c), so that
 * they store C's columns as vectors. alpha 1 and beta 0 or 1 are int32
 * arithmetic: the kernels write C, the offsets' terms are added after
 * (no pass at all when they are zero). Otherwise the products go to a
 * workspace (C itself when beta is 0) and one pass applies the offsets,
 * alpha and beta in double, rounds and saturates, and adds co. */
#include <stdlib.h>
#include "../include/gemmgen.h"
#include "gg_internal.h"

enum { SUCCESS = 0, OUT_OF_MEMORY = 1, INVALID_ARGUMENTS = 2 };   /* dnnl_status_t */

static int64_t max1(int64_t x) { return x > 1 ? x : 1; }

static int trans_of(char t)
{
    return t == 'N' || t == 'n' ? 0 : t == 'T' || t == 't' ? 1 : -1;
}

/* co's step along C's rows and columns: 'F' one value, 'C' one per row
 * (co[i]), 'R' one per column (co[j]); 0 when invalid. */
struct co_steps { int64_t row, col; int ok; };
static struct co_steps co_steps_of(char o)
{
    switch (o) {
    case 'F': case 'f': return (struct co_steps){ 0, 0, 1 };
    case 'C': case 'c': return (struct co_steps){ 1, 0, 1 };
    case 'R': case 'r': return (struct co_steps){ 0, 1, 1 };
    default: return (struct co_steps){ 0, 0, 0 };
    }
}

/* The call in general strides (row-major C: C(i,j) at c[i*ldc + j]). */
struct u8s8 {
    int64_t m, n, k;
    const uint8_t *a; int64_t rs_a, cs_a;
    const int8_t *b; int64_t rs_b, cs_b;
    int32_t *c; int64_t ldc;
    const int32_t *co; struct co_steps cs;
    uint8_t ao; int8_t bo;
    float alpha, beta;
};

/* The terms of the offsets for element (i, j): sum over p of
 * (A - ao)(B - bo) - A B = -bo rowsum_i(A) - ao colsum_j(B) + k ao bo, in
 * wrapping int32, from the sums (NULL where their offset is 0). */
struct sums { uint32_t *row, *col; };

static int sums_of(const struct u8s8 *x, struct sums *s)
{
    s->row = x->bo ? calloc((size_t)x->m, sizeof *s->row) : NULL;
    s->col = x->ao ? calloc((size_t)x->n, sizeof *s->col) : NULL;
    if ((x->bo && !s->row) || (x->ao && !s->col)) return 0;
    for (int64_t i = 0; s->row && i < x->m; i++)
        for (int64_t p = 0; p < x->k; p++) s->row[i] += x->a[i * x->rs_a + p * x->cs_a];
    for (int64_t j = 0; s->col && j < x->n; j++)
        for (int64_t p = 0; p < x->k; p++)
            s->col[j] += (uint32_t)(int32_t)x->b[p * x->rs_b + j * x->cs_b];
    return 1;
}

static uint32_t offset_terms(const struct u8s8 *x, const struct sums *s, int64_t i, int64_t j)
{
    uint32_t t = (uint32_t)x->k * x->ao * (uint32_t)(int32_t)x->bo;
    if (s->row) t -= (uint32_t)(int32_t)x->bo * s->row[i];
    if (s->col) t -= (uint32_t)x->ao * s->col[j];
    return t;
}

static int32_t co_at(const struct u8s8 *x, int64_t i, int64_t j)
{
    return x->co[i * x->cs.row + j * x->cs.col];
}

/* Rounded to nearest, ties away from zero, and saturated, as oneDNN. */
static int32_t saturate(double v)
{
    if (v >= 2147483647.0) return INT32_MAX;
    if (v <= -2147483648.0) return INT32_MIN;
    int64_t t = (int64_t)v;             /* toward zero; v - t is exact here */
    double f = v - (double)t;
    return (int32_t)(f >= 0.5 ? t + 1 : f <= -0.5 ? t - 1 : t);
}

/* Every offset term and co is zero: the kernels' sums are the result. */
static int nothing_to_add(const struct u8s8 *x)
{
    if (x->ao || x->bo) return 0;
    int64_t n = x->cs.row ? x->m : x->cs.col ? x->n : 1;
    for (int64_t i = 0; i < n; i++)
        if (x->co[i]) return 0;
    return 1;
}

/* alpha 1, beta 0 or 1: C holds the kernels' sums; offsets and co wrap. */
static void finish_exact(const struct u8s8 *x, const struct sums *s)
{
    if (nothing_to_add(x)) return;
    for (int64_t i = 0; i < x->m; i++)
        for (int64_t j = 0; j < x->n; j++) {
            int32_t *c = x->c + i * x->ldc + j;
            *c = (int32_t)((uint32_t)*c + offset_terms(x, s, i, j) + (uint32_t)co_at(x, i, j));
        }
}

/* The sums in w (ld n; C itself when beta is 0) -> C in double. */
static void finish_scaled(const struct u8s8 *x, const struct sums *s, const int32_t *w,
                          int64_t ldw)
{
    for (int64_t i = 0; i < x->m; i++)
        for (int64_t j = 0; j < x->n; j++) {
            int32_t *c = x->c + i * x->ldc + j;
            int32_t acc = (int32_t)((uint32_t)w[i * ldw + j] + offset_terms(x, s, i, j));
            double v = (double)x->alpha * acc + (x->beta == 0 ? 0.0 : (double)x->beta * *c);
            *c = (int32_t)((uint32_t)saturate(v) + (uint32_t)co_at(x, i, j));
        }
}

static int run(const struct u8s8 *x)
{
    struct sums s;
    int ok = sums_of(x, &s);
    const int exact = x->alpha == 1.0f && (x->beta == 0.0f || x->beta == 1.0f);
    int32_t *w = exact || x->beta == 0 ? x->c : malloc((size_t)(x->m * x->n) * sizeof *w);
    int64_t ldw = w == x->c ? x->ldc : x->n;
    if (ok && w) {
        /* C^T (n x m, column major in w) = op(B)^T op(A)^T */
        i_gg_gemm(x->n, x->m, x->k, 1, x->b, x->cs_b, x->rs_b, x->a, x->cs_a, x->rs_a,
                  exact && x->beta == 1.0f, w, 1, ldw);
        if (exact) finish_exact(x, &s);
        else finish_scaled(x, &s, w, ldw);
    }
    if (w != x->c) free(w);
    free(s.row);
    free(s.col);
    return ok && w ? SUCCESS : OUT_OF_MEMORY;
}

int gemmgen_gemm_u8s8s32(char transa, char transb, char offsetc, int64_t M, int64_t N,
                         int64_t K, float alpha, const uint8_t *A, int64_t lda, uint8_t ao,
                         const int8_t *B, int64_t ldb, int8_t bo, float beta, int32_t *C,
                         int64_t ldc, const int32_t *co)
{
    const int ta = trans_of(transa), tb = trans_of(transb);
    const struct co_steps cs = co_steps_of(offsetc);
    if (ta < 0 || tb < 0 || !cs.ok || M < 0 || N < 0 || K < 0 || !A || !B || !C || !co
        || lda < max1(ta ? M : K) || ldb < max1(tb ? K : N) || ldc < max1(N))
        return INVALID_ARGUMENTS;
    if (M == 0 || N == 0 || K == 0)            /* oneDNN leaves C as it is */
        return SUCCESS;
    const struct u8s8 x = {
        .m = M, .n = N, .k = K,
        .a = A, .rs_a = ta ? 1 : lda, .cs_a = ta ? lda : 1,
        .b = B, .rs_b = tb ? 1 : ldb, .cs_b = tb ? ldb : 1,
        .c = C, .ldc = ldc, .co = co, .cs = cs, .ao = ao, .bo = bo,
        .alpha = alpha, .beta = beta,
    };
    return run(&x);
}
