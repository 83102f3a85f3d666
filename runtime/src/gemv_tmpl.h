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
 * vectors, cloned per x86 vector width (GG_CLONES): the runtime is
 * compiled for the baseline ISA, and a matrix-vector product is too simple
 * to need a generated kernel. */

/* One clone per x86 vector width, picked when the library loads (ifunc). */
#ifndef GG_CLONES
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define GG_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define GG_CLONES
#endif
#endif

#define GV_LANES (64 / (int)sizeof(T))     /* one 64-byte vector */
#define GV_ROWS (4 * GV_LANES)             /* rows per block: four vectors */
typedef T FN(gv) __attribute__((vector_size(64)));
typedef T FN(gvu) __attribute__((vector_size(64), aligned(sizeof(T)), may_alias));

/* y(i..i+V*GV_LANES-1): V vectors of sums over the columns of A (V a
 * constant where inlined). */
static inline __attribute__((always_inline)) void FN(gemv_block)(const int V, int64_t k,
        T alpha, const T *a, int64_t cs_a, const T *x, int64_t inc_x, T beta, T *y,
        int64_t inc_y)
{
    FN(gv) v[4];
    T s[4 * GV_LANES];
    for (int q = 0; q < V; q++) v[q] = (FN(gv)){ 0 };
    for (int64_t p = 0; p < k; p++) {
        const T *ap = a + p * cs_a;
        T xp = x[p * inc_x];
        for (int q = 0; q < V; q++) v[q] += *(const FN(gvu) *)(ap + q * GV_LANES) * xp;
    }
    for (int q = 0; q < V; q++) *(FN(gvu) *)(s + q * GV_LANES) = v[q];
    for (int i = 0; i < V * GV_LANES; i++) FN(put)(y + i * inc_y, alpha, s[i], beta);
}

/* R rows' dot products with x, A's rows and x contiguous: the rows share
 * each load of x, and R vector sums run side by side. */
static inline __attribute__((always_inline)) void FN(gemv_dots)(const int R, int64_t k,
        T alpha, const T *a, int64_t rs_a, const T *x, T beta, T *y, int64_t inc_y)
{
    FN(gv) v[8];
    T s[8];
    for (int r = 0; r < R; r++) v[r] = (FN(gv)){ 0 };
    int64_t p = 0;
    for (; p + GV_LANES <= k; p += GV_LANES) {
        FN(gv) xv = *(const FN(gvu) *)(x + p);
        for (int r = 0; r < R; r++) v[r] += *(const FN(gvu) *)(a + r * rs_a + p) * xv;
    }
    for (int r = 0; r < R; r++) {
        s[r] = 0;
        for (int l = 0; l < GV_LANES; l++) s[r] += v[r][l];
        for (int64_t q = p; q < k; q++) s[r] += a[r * rs_a + q] * x[q];
        FN(put)(y + r * inc_y, alpha, s[r], beta);
    }
}

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

GG_CLONES static void FN(gemv)(int64_t m, int64_t k, T alpha, const T *a, int64_t rs_a,
                               int64_t cs_a, const T *x, int64_t inc_x, T beta, T *y,
                               int64_t inc_y)
{
    int64_t i = 0;
    if (rs_a == 1 && inc_y == 1 && (double)m * k * sizeof(T) > GV_STREAM_BYTES) {
        FN(gemv_stream)(m, k, alpha, a, cs_a, x, inc_x, beta, y);
        return;
    }
    if (rs_a == 1) {
        for (; i + GV_ROWS <= m; i += GV_ROWS)
            FN(gemv_block)(4, k, alpha, a + i, cs_a, x, inc_x, beta, y + i * inc_y, inc_y);
        for (; i + GV_LANES <= m; i += GV_LANES)
            FN(gemv_block)(1, k, alpha, a + i, cs_a, x, inc_x, beta, y + i * inc_y, inc_y);
        if (i < m) {          /* fewer rows than a vector: their sums side by side */
            T s[GV_LANES] = { 0 };
            int r = (int)(m - i);
            for (int64_t p = 0; p < k; p++) {
                const T *ap = a + i + p * cs_a;
                T xp = x[p * inc_x];
                for (int q = 0; q < r; q++) s[q] += ap[q] * xp;
            }
            for (int q = 0; q < r; q++) FN(put)(y + (i + q) * inc_y, alpha, s[q], beta);
            i = m;
        }
    }
    if (cs_a == 1 && inc_x == 1) {
        for (; i + 8 <= m; i += 8)
            FN(gemv_dots)(8, k, alpha, a + i * rs_a, rs_a, x, beta, y + i * inc_y, inc_y);
        for (; i < m; i++)
            FN(gemv_dots)(1, k, alpha, a + i * rs_a, rs_a, x, beta, y + i * inc_y, inc_y);
    }
    if (i < m)        /* the rest, any strides: the tiny loops, four rows at a time */
        FN(tiny)(m - i, 1, k, alpha, a + i * rs_a, rs_a, cs_a, x, inc_x, 0, beta,
                 y + i * inc_y, inc_y, 0);
}

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

/* C of NC columns (2: few_cols), `rows` rows from row 0 of a, b, c (more than
 * V - 1 vectors, at most V): V x NC vector sums while A's columns run,
 * each A vector shared by the NC columns; a last partial vector is
 * shifted back to end at `rows`, its rows stored before not stored again.
 * V and NC are constants where inlined. */
static inline __attribute__((always_inline)) void FN(gemv_cols_block)(const int V, const int NC,
        int64_t rows, int64_t k, T alpha, const T *a, int64_t cs_a, const T *b, int64_t rs_b,
        int64_t cs_b, T beta, T *c, int64_t cs_c)
{
    FN(gv) v[4][2];
    T s[GV_LANES];
    int64_t off[4];
    for (int q = 0; q < V; q++) {
        off[q] = q < V - 1 ? q * GV_LANES : rows - GV_LANES;
        for (int j = 0; j < NC; j++) v[q][j] = (FN(gv)){ 0 };
    }
    for (int64_t p = 0; p < k; p++) {
        const T *ap = a + p * cs_a;
        for (int q = 0; q < V; q++) {
            FN(gv) av = *(const FN(gvu) *)(ap + off[q]);
            for (int j = 0; j < NC; j++) v[q][j] += av * b[p * rs_b + j * cs_b];
        }
    }
    for (int j = 0; j < NC; j++)
        for (int q = 0; q < V; q++) {
            int lo = q < V - 1 ? 0 : (int)((V - 1) * GV_LANES - off[q]);
            *(FN(gvu) *)s = v[q][j];
            for (int l = lo; l < GV_LANES; l++)
                FN(put)(c + off[q] + l + j * cs_c, alpha, s[l], beta);
        }
}

/* All rows of an NC-column C (at least a vector): blocks of four vectors,
 * then the rest as one block of up to four, its last vector shifted. */
static inline __attribute__((always_inline)) void FN(gemv_cols_nc)(const int NC, int64_t m,
        int64_t k, T alpha, const T *a, int64_t cs_a, const T *b, int64_t rs_b, int64_t cs_b,
        T beta, T *c, int64_t cs_c)
{
    int64_t i = 0;
    for (; i + 4 * GV_LANES <= m; i += 4 * GV_LANES)
        FN(gemv_cols_block)(4, NC, 4 * GV_LANES, k, alpha, a + i, cs_a, b, rs_b, cs_b, beta,
                            c + i, cs_c);
    const int64_t r = m - i;
    const T *ai = a + i;
    T *ci = c + i;
    switch ((r + GV_LANES - 1) / GV_LANES) {
    case 4: FN(gemv_cols_block)(4, NC, r, k, alpha, ai, cs_a, b, rs_b, cs_b, beta, ci, cs_c); break;
    case 3: FN(gemv_cols_block)(3, NC, r, k, alpha, ai, cs_a, b, rs_b, cs_b, beta, ci, cs_c); break;
    case 2: FN(gemv_cols_block)(2, NC, r, k, alpha, ai, cs_a, b, rs_b, cs_b, beta, ci, cs_c); break;
    case 1: FN(gemv_cols_block)(1, NC, r, k, alpha, ai, cs_a, b, rs_b, cs_b, beta, ci, cs_c); break;
    default: break;
    }
}

GG_CLONES static void FN(gemv_cols)(int64_t m, int64_t k, T alpha, const T *a, int64_t cs_a,
                                    const T *b, int64_t rs_b, int64_t cs_b, T beta, T *c,
                                    int64_t cs_c)
{
    FN(gemv_cols_nc)(2, m, k, alpha, a, cs_a, b, rs_b, cs_b, beta, c, cs_c);
}

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

/* Column j of C for k = K (a constant where inlined): beta times C(:, j)
 * plus the K columns of A times alpha B(p, j), a vector at a time (A stays
 * in L1 while C streams through once); beta = 0 does not read C. */
static inline __attribute__((always_inline)) void FN(rank_k_col)(const int K, int64_t m,
        T alpha, const T *a, int64_t cs_a, const T *bj, int64_t rs_b, T beta, T *cj)
{
    T x[4];
    for (int p = 0; p < K; p++) x[p] = alpha * bj[p * rs_b];
    int64_t i = 0;
    for (; i + GV_LANES <= m; i += GV_LANES) {
        FN(gv) s = (FN(gv)){ 0 };
        if (beta != 0) s = *(const FN(gvu) *)(cj + i) * beta;
        for (int p = 0; p < K; p++) s += *(const FN(gvu) *)(a + i + p * cs_a) * x[p];
        *(FN(gvu) *)(cj + i) = s;
    }
    for (; i < m; i++) {
        T s = beta == 0 ? 0 : beta * cj[i];
        for (int p = 0; p < K; p++) s += a[i + p * cs_a] * x[p];
        cj[i] = s;
    }
}

GG_CLONES static void FN(rank_k)(int64_t m, int64_t n, int64_t k, T alpha, const T *a,
                                 int64_t cs_a, const T *b, int64_t rs_b, int64_t cs_b, T beta,
                                 T *c, int64_t cs_c)
{
    for (int64_t j = 0; j < n; j++) {
        const T *bj = b + j * cs_b;
        T *cj = c + j * cs_c;
        switch (k) {
        case 1: FN(rank_k_col)(1, m, alpha, a, cs_a, bj, rs_b, beta, cj); break;
        case 2: FN(rank_k_col)(2, m, alpha, a, cs_a, bj, rs_b, beta, cj); break;
        case 3: FN(rank_k_col)(3, m, alpha, a, cs_a, bj, rs_b, beta, cj); break;
        default: FN(rank_k_col)(4, m, alpha, a, cs_a, bj, rs_b, beta, cj); break;
        }
    }
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
