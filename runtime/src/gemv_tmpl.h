/* gemv_tmpl.h: C of one column, y = alpha*A*x + beta*y with x = B's only
 * column (T and FN(x) from the including file, FN(put) from tiny_tmpl.h).
 * The kernels compute NR columns at a time, so one column wasted most of
 * an edge kernel and copied x into a panel (docs/decisions.md).
 *
 * A with contiguous columns (rs_a = 1): y by blocks of GV_ROWS rows, each
 * block's sums in vectors while x runs down the columns, or, A past the
 * caches or more than two blocks of rows with k at least m/2, y updated
 * four columns at a time; A with contiguous rows: dot
 * products eight rows at a time, their sums folded into one vector
 * (gemv_fold_tmpl.h); threads split the rows. GCC's generic
 * vectors, one copy per x86 vector width (gemv_vec_tmpl.h): the runtime is
 * compiled for the baseline ISA, and a matrix-vector product is too simple
 * to need a generated kernel. */

/* A too big for the caches (GV_STREAM_BYTES), or in them but with many
 * blocks of rows and long columns: the reads down A's columns decide, so
 * they run sequentially, four columns at a time, y updated in memory (it
 * stays in cache); the blocks above read every column in 256-byte strips,
 * a page apart each (docs/decisions.md, `gv_stream_bytes`). As reference
 * BLAS does, y = beta*y first, then alpha*x(p) times column p added.
 * Inlined into each vector width's gemv, so its loop takes that width. */
enum { GV_STREAM_BYTES = GG_GV_STREAM_BYTES };

static inline __attribute__((always_inline)) void
FN(gemv_stream)(int64_t m, int64_t k, T alpha, const T *a, int64_t cs_a, const T *x,
                int64_t inc_x, T beta, T *y)
{
    FN(scale_c)(m, 1, beta, y, 1, m);
    int64_t p = 0;
    for (; p + 4 <= k; p += 4) {
        const T *a0 = a + p * cs_a, *a1 = a0 + cs_a, *a2 = a1 + cs_a, *a3 = a2 + cs_a;
        T x0 = alpha * x[p * inc_x], x1 = alpha * x[(p + 1) * inc_x];
        T x2 = alpha * x[(p + 2) * inc_x], x3 = alpha * x[(p + 3) * inc_x];
        for (int64_t i = 0; i < m; i++) y[i] += a0[i] * x0 + a1[i] * x1 + a2[i] * x2 + a3[i] * x3;
    }
    for (; p < k; p++) {
        const T *a0 = a + p * cs_a;
        T x0 = alpha * x[p * inc_x];
        for (int64_t i = 0; i < m; i++) y[i] += a0[i] * x0;
    }
}

/* One copy of the loops per x86 vector width (GG_X86_LEVELS), picked by
 * gg_x86_level() (GEMMGEN_X86_LEVEL caps it, so tests cover each on one
 * machine); elsewhere one of 16-byte vectors (NEON, VSX). */
#if GG_X86_LEVELS
#define GW_VB 64
#define GW(x) FN(v4_##x)
#define GW_TARGET "arch=x86-64-v4"
#include "gemv_vec_tmpl.h"
#define GW_VB 32
#define GW(x) FN(v3_##x)
#define GW_TARGET "arch=x86-64-v3"
#include "gemv_vec_tmpl.h"
#define GW_VB 16
#define GW(x) FN(v1_##x)
#include "gemv_vec_tmpl.h"
#define GW_PICK(f, ...) (gg_x86_level() >= 4 ? FN(v4_##f)(__VA_ARGS__) \
                         : gg_x86_level() == 3 ? FN(v3_##f)(__VA_ARGS__) : FN(v1_##f)(__VA_ARGS__))
#else
#define GW_VB 16
#define GW(x) FN(any_##x)
#include "gemv_vec_tmpl.h"
#define GW_PICK(f, ...) FN(any_##f)(__VA_ARGS__)
#endif

/* The caller's view: the widest vector (64 bytes) decides the blocks
 * threads split and the least rows the loops take; each width's loops
 * read rows in their own vectors. */
#define GV_LANES (64 / (int)sizeof(T))
#define GV_ROWS (4 * GV_LANES)

static void FN(gemv)(int64_t m, int64_t k, T alpha, const T *a, int64_t rs_a, int64_t cs_a,
                     const T *x, int64_t inc_x, T beta, T *y, int64_t inc_y)
{
    GW_PICK(gemv, m, k, alpha, a, rs_a, cs_a, x, inc_x, beta, y, inc_y);
}

static void FN(gemv_cols)(int64_t m, int64_t k, T alpha, const T *a, int64_t cs_a,
                          const T *b, int64_t rs_b, int64_t cs_b, T beta, T *c, int64_t cs_c)
{
    GW_PICK(gemv_cols, m, k, alpha, a, cs_a, b, rs_b, cs_b, beta, c, cs_c);
}

static void FN(rank_k)(int64_t m, int64_t n, int64_t k, T alpha, const T *a, int64_t cs_a,
                       const T *b, int64_t rs_b, int64_t cs_b, T beta, T *c, int64_t cs_c)
{
    GW_PICK(rank_k, m, n, k, alpha, a, cs_a, b, rs_b, cs_b, beta, c, cs_c);
}
static void FN(gemm_dots)(int64_t m, int64_t n, int64_t k, T alpha, const T *a, int64_t rs_a,
                          const T *b, int64_t cs_b, T beta, T *c, int64_t rs_c, int64_t cs_c)
{
    GW_PICK(dots_gemm_n, m, n, k, alpha, a, rs_a, b, cs_b, beta, c, rs_c, cs_c);
}
static void FN(gemm_dots_w)(int64_t m, int64_t n, int64_t k, T alpha, const T *a, int64_t rs_a,
                            const T *b, int64_t cs_b, T beta, T *c, int64_t rs_c, int64_t cs_c)
{
    GW_PICK(dots_gemm_w, m, n, k, alpha, a, rs_a, b, cs_b, beta, c, rs_c, cs_c);
}
static void FN(gemm_few)(int64_t m, int64_t n, int64_t k, T alpha, const T *a, int64_t cs_a,
                         const T *b, int64_t rs_b, int64_t cs_b, T beta, T *c, int64_t rs_c,
                         int64_t cs_c)
{
    GW_PICK(gemm_few, m, n, k, alpha, a, cs_a, b, rs_b, cs_b, beta, c, rs_c, cs_c);
}
#undef GW_PICK

/* One thread's rows of a shared y = alpha*A*x + beta*y: whole blocks of
 * GV_ROWS rows each, the last thread the rest. */
struct FN(gv_op) {
    int64_t m, k, rs_a, cs_a, inc_x, inc_y;
    T alpha, beta;
    const T *a, *x;
    T *y;
};

static void FN(gemv_slab)(void *arg, int t, int nt)
{
    const struct FN(gv_op) *o = arg;
    int64_t i0 = FN(split)(o->m, GV_ROWS, t, nt), i1 = FN(split)(o->m, GV_ROWS, t + 1, nt);
    if (i0 < i1)
        FN(gemv)(i1 - i0, o->k, o->alpha, o->a + i0 * o->rs_a, o->rs_a, o->cs_a, o->x,
                 o->inc_x, o->beta, o->y + i0 * o->inc_y, o->inc_y);
}

/* y = alpha*A*x + beta*y on nt threads (plan.c: GG_GEMV; the m = 1 case
 * arrives as C^T's one column). */
static void FN(gemv_run)(int nt, int64_t m, int64_t k, T alpha, const T *a, int64_t rs_a,
                         int64_t cs_a, const T *x, int64_t inc_x, T beta, T *y, int64_t inc_y)
{
    struct FN(gv_op) o = { m, k, rs_a, cs_a, inc_x, inc_y, alpha, beta, a, x, y };
    if (nt > 1)
        gg_parallel(nt, FN(gemv_slab), &o);
    else
        FN(gemv_slab)(&o, 0, 1);
}

/* One thread's columns of a rank-k update (threads split C's columns). */
struct FN(rk_op) {
    int64_t m, n, k, cs_a, rs_b, cs_b, cs_c;
    T alpha, beta;
    const T *a, *b;
    T *c;
};

static void FN(rank_k_slab)(void *arg, int t, int nt)
{
    const struct FN(rk_op) *o = arg;
    int64_t j0 = FN(split)(o->n, 1, t, nt), j1 = FN(split)(o->n, 1, t + 1, nt);
    if (j0 < j1)
        FN(rank_k)(o->m, j1 - j0, o->k, o->alpha, o->a, o->cs_a, o->b + j0 * o->cs_b, o->rs_b,
                   o->cs_b, o->beta, o->c + j0 * o->cs_c, o->cs_c);
}

/* A rank-k update, C column after column (plan.c: GG_RANK_K). */
static void FN(rank_k_run)(int nt, int64_t m, int64_t n, int64_t k, T alpha, const T *a,
                           int64_t cs_a, const T *b, int64_t rs_b, int64_t cs_b, T beta, T *c,
                           int64_t cs_c)
{
    struct FN(rk_op) r = { m, n, k, cs_a, rs_b, cs_b, cs_c, alpha, beta, a, b, c };
    if (nt > 1) gg_parallel(nt, FN(rank_k_slab), &r);
    else FN(rank_k_slab)(&r, 0, 1);
}

#undef GV_LANES
#undef GV_ROWS
