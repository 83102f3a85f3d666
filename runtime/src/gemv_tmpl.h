/* gemv_tmpl.h: C of one column, y = alpha*A*x + beta*y with x = B's only
 * column (T and FN(x) from the including file, FN(put) from tiny_tmpl.h).
 * The kernels compute NR columns at a time, so one column wasted 7/8 of
 * an 8-wide edge kernel and copied x into a panel: DGEMM 200x1x200 ran at
 * 0.34x of OpenBLAS, 1000x1x1000 at 0.37x.
 *
 * A with contiguous columns (rs_a = 1): y by blocks of GV_ROWS rows, each
 * block's sums in vectors while x runs down the columns, or, A past the
 * caches, y updated column after column; A with contiguous rows: dot
 * products eight rows at a time; threads split the rows. GCC's generic
 * vectors, one copy per x86 vector width (gemv_vec_tmpl.h): the runtime is
 * compiled for the baseline ISA, and a matrix-vector product is too simple
 * to need a generated kernel. */

/* A too big for the caches (GV_STREAM_BYTES): the reads down A's columns
 * decide, so they run sequentially, four columns at a time, y updated in
 * memory (it stays in cache); the blocks above read every column in
 * 256-byte strips, a page apart each (DGEMM 4000x1x4000: 3.6 GFLOPS,
 * streamed 4.9, OpenBLAS 3.9-4.2). As reference BLAS does, y = beta*y
 * first, then alpha*x(p) times column p added. */
enum { GV_STREAM_BYTES = 1 << 21 };

static void FN(gemv_stream)(int64_t m, int64_t k, T alpha, const T *a, int64_t cs_a,
                            const T *x, int64_t inc_x, T beta, T *y)
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

/* One copy of the loops per x86 vector width (GCC), picked by
 * gg_x86_level() (GEMMGEN_X86_LEVEL caps it, so tests cover each on one
 * machine); elsewhere one of 16-byte vectors (NEON, VSX). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
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

/* n = 1 (n = 2: few_cols; k <= 4: few_k), or m = 1 with A's row and B's columns
 * contiguous (as C^T = B^T A^T: the dot products of B's columns with A's
 * row; DGEMM 1x64x64 1.94x, 1x200x200 1.80x, 1x1000x1000 1.15x the
 * row-tail kernels; f64 only: SGEMM 1x200x200 ran 0.81x of them, 16-lane
 * horizontal sums per row against k / 16 vector steps); k > 0, the path
 * left to size (gg_gemm).
 * Threads split the rows when each gets at least GV_PER_THREAD elements
 * of A: below that, waking the pool costs more than a second core adds
 * (DGEMM 1000x1x1000: 7.3-7.7 GFLOPS on one thread, 12.4-14.6 on two;
 * 4000x1x4000 4.9 and 5.6, where the memory bandwidth of this VM decides). */
enum { GV_PER_THREAD = 1 << 16 };


/* C of two columns (B's as x), A's and C's columns contiguous, A within
 * the caches, one thread's work: the matrix-vector loops sharing each
 * load of A. On the small tile (4 columns, the kernels' one panel) half
 * of its multiply-adds were wasted. Zen 5, gemmab against it: DGEMM
 * 100x2x100 1.19x, 64x2x64 1.38x, 200x2x200 1.43x, 500x2x500 1.09x;
 * SGEMM 1.19x, 1.34x, 1.25x, 1.55x. Three columns (a quarter wasted
 * there) ran 0.72-0.84x this way. */
static int FN(few_cols)(int64_t m, int64_t n, int64_t k, int64_t rs_a, int64_t rs_c)
{
    return n == 2 && rs_a == 1 && rs_c == 1 && m >= GV_LANES
        && (double)m * k * sizeof(T) <= GV_STREAM_BYTES
        && (gg_threads_wanted() == 1 || m * k < GV_PER_THREAD);
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

/* k of at most four (a rank-k update), A's and C's columns contiguous, C
 * past RANK_K_C_BYTES (then streamed once beats the kernels' tiles) and A
 * within RANK_K_A_BYTES (it stays in L1 while C streams):
 * C column after column, threads splitting the columns while each gets
 * half of RANK_K_C_BYTES. Zen 5, gemmab against the kernel path: DGEMM
 * 500x500x2 1.38x, 500x500x1 1.66x, 1000x1000x2 1.76x, 400x400x4 1.35x,
 * 300x300x3 1.14-1.22x, SGEMM 500x500x2 1.41x, 1000x1000x2 1.53x, 2000x2000x2
 * 1.31x; with C in L2 (SGEMM 200x200x4, 100x100x3, 64x64x4) 0.82-0.92x,
 * with A of 32 KB (DGEMM 2000x2000x2) 0.65x; C of 256-512 KB mixed (DGEMM
 * 200x200x4 1.26-1.37x, SGEMM 300x300x3 0.95x). Two threads, against the
 * kernels' two: DGEMM 500x500x2 1.22x, 1000x1000x1 2.39x, 400x400x4
 * 1.39-1.41x, 300x300x3 1.48x, SGEMM 500x500x2 1.54x, 2000x2000x2 1.50x,
 * but 1000x1000x4 0.77-0.97x. */
enum { FEW_K = 4, RANK_K_C_BYTES = 512 << 10, RANK_K_A_BYTES = 16 << 10 };
static int FN(few_k)(int64_t m, int64_t n, int64_t k, int64_t rs_a, int64_t rs_c)
{
    return k <= FEW_K && rs_a == 1 && rs_c == 1 && m >= GV_LANES
        && (double)m * n * sizeof(T) >= RANK_K_C_BYTES
        && (double)m * k * sizeof(T) <= RANK_K_A_BYTES;
}

static int FN(gemv_call)(int64_t m, int64_t n, int64_t k, T alpha,
                         const T *a, int64_t rs_a, int64_t cs_a,
                         const T *b, int64_t rs_b, int64_t cs_b,
                         T beta, T *c, int64_t rs_c, int64_t cs_c)
{
    struct FN(gv_op) o;
    if (n == 1)
        o = (struct FN(gv_op)){ m, k, rs_a, cs_a, rs_b, rs_c, alpha, beta, a, b, c };
    else if (m == 1 && rs_b == 1 && cs_a == 1 && sizeof(T) == 8)
        o = (struct FN(gv_op)){ n, k, cs_b, rs_b, cs_a, cs_c, alpha, beta, b, a, c };
    else if (FN(few_k)(m, n, k, rs_a, rs_c)) {
        struct FN(rk_op) r = { m, n, k, cs_a, rs_b, cs_b, cs_c, alpha, beta, a, b, c };
        int nt = gg_threads_wanted();
        while (nt > 1 && (double)m * (n / nt) * sizeof(T) < RANK_K_C_BYTES / 2)
            nt--;
        if (nt > 1) gg_parallel(nt, FN(rank_k_slab), &r);
        else FN(rank_k_slab)(&r, 0, 1);
        return 1;
    }
    else if (FN(few_cols)(m, n, k, rs_a, rs_c)) {
        FN(gemv_cols)(m, k, alpha, a, cs_a, b, rs_b, cs_b, beta, c, cs_c);
        return 1;
    } else
        return 0;
    int nt = gg_threads_wanted();
    while (nt > 1 && (o.m * k / nt < GV_PER_THREAD || (o.m + GV_ROWS - 1) / GV_ROWS < nt))
        nt--;
    if (nt > 1)
        gg_parallel(nt, FN(gemv_slab), &o);
    else
        FN(gemv_slab)(&o, 0, 1);
    return 1;
}

#undef GV_LANES
#undef GV_ROWS
