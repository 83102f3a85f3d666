/* gemv_tmpl.h: C of one column, y = alpha*A*x + beta*y with x = B's only
 * column (T and FN(x) from the including file; m = 1 arrives transposed).
 * The kernels compute NR columns at a time, so one column wasted 7/8 of
 * an 8-wide edge kernel and copied x into a panel: DGEMM 200x1x200 ran at
 * 0.34x of OpenBLAS, 1000x1x1000 at 0.37x.
 *
 * A with contiguous columns (rs_a = 1): y by blocks of GV_ROWS rows, each
 * block's sums in vectors while x runs down the columns; otherwise each
 * y(i) is a dot product along A's row. GCC's generic vectors, cloned per
 * x86 vector width (GG_CLONES): the runtime is compiled for the baseline
 * ISA, and a matrix-vector product is too simple to need a generated
 * kernel. */

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
    for (int i = 0; i < V * GV_LANES; i++) {
        T *yi = y + i * inc_y;
        *yi = beta == 0 ? alpha * s[i] : alpha * s[i] + beta * *yi;
    }
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
        T *yi = y + r * inc_y;
        *yi = beta == 0 ? alpha * s[r] : alpha * s[r] + beta * *yi;
    }
}

GG_CLONES static void FN(gemv)(int64_t m, int64_t k, T alpha, const T *a, int64_t rs_a,
                               int64_t cs_a, const T *x, int64_t inc_x, T beta, T *y,
                               int64_t inc_y)
{
    int64_t i = 0;
    if (rs_a == 1) {
        for (; i + GV_ROWS <= m; i += GV_ROWS)
            FN(gemv_block)(4, k, alpha, a + i, cs_a, x, inc_x, beta, y + i * inc_y, inc_y);
        for (; i + GV_LANES <= m; i += GV_LANES)
            FN(gemv_block)(1, k, alpha, a + i, cs_a, x, inc_x, beta, y + i * inc_y, inc_y);
        if (i < m) {                       /* fewer rows than a vector: columns too */
            T s[GV_LANES] = { 0 };
            int r = (int)(m - i);
            for (int64_t p = 0; p < k; p++) {
                const T *ap = a + i + p * cs_a;
                T xp = x[p * inc_x];
                for (int q = 0; q < r; q++) s[q] += ap[q] * xp;
            }
            for (int q = 0; q < r; q++) {
                T *yi = y + (i + q) * inc_y;
                *yi = beta == 0 ? alpha * s[q] : alpha * s[q] + beta * *yi;
            }
            i = m;
        }
    }
    if (cs_a == 1 && inc_x == 1) {
        for (; i + 8 <= m; i += 8)
            FN(gemv_dots)(8, k, alpha, a + i * rs_a, rs_a, x, beta, y + i * inc_y, inc_y);
        for (; i < m; i++)
            FN(gemv_dots)(1, k, alpha, a + i * rs_a, rs_a, x, beta, y + i * inc_y, inc_y);
    }
    for (; i < m; i++) {                   /* the rest: any strides */
        T s = 0, *yi = y + i * inc_y;
        for (int64_t p = 0; p < k; p++) s += a[i * rs_a + p * cs_a] * x[p * inc_x];
        *yi = beta == 0 ? alpha * s : alpha * s + beta * *yi;
    }
}

/* n = 1, with the path left to size (k > 0). (m = 1 stays with the
 * kernels: as C^T = B^T A^T it is this with rows of B^T 8 or more apart,
 * and the row-tail kernels already read B's columns in place.) */
static int FN(gemv_call)(int64_t m, int64_t n, int64_t k, T alpha,
                         const T *a, int64_t rs_a, int64_t cs_a,
                         const T *b, int64_t rs_b, T beta, T *c, int64_t rs_c)
{
    if (n != 1 || gg_direct_mode() >= 0)
        return 0;
    FN(gemv)(m, k, alpha, a, rs_a, cs_a, b, rs_b, beta, c, rs_c);
    return 1;
}

#undef GV_LANES
#undef GV_ROWS
