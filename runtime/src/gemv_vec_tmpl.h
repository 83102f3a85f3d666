/* gemv_vec_tmpl.h: the vector loops of gemv_tmpl.h for one vector width
 * (T and FN(x) from the including file), included once per width by
 * gemv_tmpl.h, which sets GW_VB (the vectors' bytes: 64, 32, 16), GW(x)
 * (this width's names) and GW_TARGET (the functions' target attribute,
 * optional). GCC's generic vectors at the target's own width: 64-byte
 * ones in the x86-64-v3 clone went through the stack (docs/decisions.md,
 * GW_VB). */

#define GV_LANES (GW_VB / (int)sizeof(T))  /* one vector */
#define GV_ROWS (4 * GV_LANES)             /* rows per block: four vectors */
typedef T GW(gv) __attribute__((vector_size(GW_VB)));
typedef T GW(gvu) __attribute__((vector_size(GW_VB), aligned(sizeof(T)), may_alias));
#ifdef GW_TARGET
#define GW_ATTR __attribute__((target(GW_TARGET)))
#else
#define GW_ATTR
#endif

/* Blocks of rows (gemv_block_tmpl.h) in this width's vectors. */
#define GB_VB GW_VB
#define GB(x) GW(x)
#include "gemv_block_tmpl.h"

typedef T GW(q) __attribute__((vector_size(16)));
typedef T GW(qu) __attribute__((vector_size(16), aligned(sizeof(T)), may_alias));
#define GV_QLANES (16 / (int)sizeof(T))

/* Dot products read rows a leading dimension apart, seldom 64-byte
 * aligned: a 64-byte load across two cache lines costs two, so they take
 * vectors of at most 32 bytes (GW_DVB; ESIZE, T's bytes, from the
 * including file). */
#define GW_DVB (GW_VB > 32 ? 32 : GW_VB)
#define GD_LANES (GW_DVB / ESIZE)
typedef T GW(dv) __attribute__((vector_size(GW_DVB)));
typedef T GW(dvu) __attribute__((vector_size(GW_DVB), aligned(sizeof(T)), may_alias));

/* The lanes of the vector of `bytes` at vp (by address: a wide vector
 * argument outside its target trips -Wpsabi) and of q summed, the vector
 * by 16-byte quarters first: lane after lane, the adds' chain cost a short
 * row's dot product as much as its multiply-adds. */
static inline __attribute__((always_inline)) T GW(hsum)(const void *vp, const int bytes, GW(q) q)
{
    GW(q) t;
    memcpy(&t, vp, 16);
    for (int h = 16; h < bytes; h += 16) {
        GW(q) c;
        memcpy(&c, (const char *)vp + h, 16);
        t += c;
    }
    q += t;
    T s = 0;
    for (int l = 0; l < GV_QLANES; l++) s += q[l];
    return s;
}

/* The dot-product tiles (dots_tile_tmpl.h): 32-byte vectors where A's
 * rows are a leading dimension apart and stay in cache; 64-byte ones
 * where they are aligned (copied, or 64-byte multiples apart) or streamed
 * from past the caches, where fewer loads a line kept more in flight. */
#define DT_VB GW_DVB
#define DT(x) GW(dots_##x##_n)
#include "dots_tile_tmpl.h"
#define DT_VB GW_VB
#define DT(x) GW(dots_##x##_w)
#include "dots_tile_tmpl.h"

/* R rows' dot products with x, A's rows and x contiguous: the rows share
 * each load of x, and R vector sums run side by side, each in 4 / R
 * partial sums over alternate vectors when R < 4 (one chain waited on the
 * add's latency). */
static inline __attribute__((always_inline)) void GW(gemv_dots)(const int R, int64_t k,
        T alpha, const T *a, int64_t rs_a, const T *x, T beta, T *y, int64_t inc_y)
{
    const int U = R >= 4 ? 1 : 4 / R;
    GW(dv) v[8][4];
    T s[8];
    for (int r = 0; r < R; r++)
        for (int u = 0; u < U; u++) v[r][u] = (GW(dv)){ 0 };
    int64_t p = 0;
    for (; p + U * GD_LANES <= k; p += U * GD_LANES)
        for (int u = 0; u < U; u++) {
            GW(dv) xv = *(const GW(dvu) *)(x + p + u * GD_LANES);
            for (int r = 0; r < R; r++)
                v[r][u] += *(const GW(dvu) *)(a + r * rs_a + p + u * GD_LANES) * xv;
        }
    for (; p + GD_LANES <= k; p += GD_LANES) {
        GW(dv) xv = *(const GW(dvu) *)(x + p);
        for (int r = 0; r < R; r++) v[r][0] += *(const GW(dvu) *)(a + r * rs_a + p) * xv;
    }
    for (int r = 0; r < R; r++)
        for (int u = 1; u < U; u++) v[r][0] += v[r][u];
    GW(q) w[8];                 /* the rest 16 bytes at a time */
    for (int r = 0; r < R; r++) w[r] = (GW(q)){ 0 };
    for (; p + GV_QLANES <= k; p += GV_QLANES) {
        GW(q) xq = *(const GW(qu) *)(x + p);
        for (int r = 0; r < R; r++) w[r] += *(const GW(qu) *)(a + r * rs_a + p) * xq;
    }
    for (int r = 0; r < R; r++) {
        s[r] = GW(hsum)(&v[r][0], GW_DVB, w[r]);
        for (int64_t q = p; q < k; q++) s[r] += a[r * rs_a + q] * x[q];
        FN(put)(y + r * inc_y, alpha, s[r], beta);
    }
}

/* The folded dot products (gemv_fold_tmpl.h): 32-byte vectors where A's
 * rows stay in cache; 64-byte ones for rows streamed from memory, where
 * fewer loads a line kept more lines in flight. */
#if GG_SHUFFLES
#define GF_VB GW_DVB
#define GF(x) GW(x##_n)
#include "gemv_fold_tmpl.h"
#if GW_VB > GW_DVB
#define GF_VB GW_VB
#define GF(x) GW(x##_w)
#include "gemv_fold_tmpl.h"
#endif
#endif

#if GW_VB > GW_DVB
/* Fewer rows than a vector, at least a dot product's vector: blocks in
 * those narrower vectors. */
#define GB_VB GW_DVB
#define GB(x) GW(x##_n)
#include "gemv_block_tmpl.h"
#endif

/* C(0..r-1, 0..NC-1), r <= GD_LANES rows of A's contiguous columns: each
 * column of A read once as one vector where that stays inside A (the lanes
 * past row r hold other elements of A and are never summed) and
 * multiplied by NC elements of B; 8 / NC partial sums over alternate
 * columns of A (at least one, at most four); the last columns of A one
 * element at a time. NC a constant where inlined. */
static inline __attribute__((always_inline)) void GW(few_cols)(const int NC, int r, int64_t k,
        T alpha, const T *a, int64_t cs_a, const T *b, int64_t rs_b, int64_t cs_b, T beta,
        T *c, int64_t rs_c, int64_t cs_c)
{
    const int U = NC >= 8 ? 1 : NC >= 4 ? 2 : 4;
    /* column p's vector ends at p*cs_a + GD_LANES - 1, A at (k-1)*cs_a + r - 1;
     * the strided API may hand columns that do not advance */
    const int64_t end = (k - 1) * cs_a + r - GD_LANES;
    const int64_t kv = end < 0 || cs_a <= 0 ? 0 : end / cs_a + 1;
    GW(dv) v[8][4];
    for (int j = 0; j < NC; j++)
        for (int u = 0; u < U; u++) v[j][u] = (GW(dv)){ 0 };
    int64_t p = 0;
    for (; p + U <= kv; p += U)
        for (int u = 0; u < U; u++) {
            GW(dv) av = *(const GW(dvu) *)(a + (p + u) * cs_a);
            for (int j = 0; j < NC; j++) v[j][u] += av * b[(p + u) * rs_b + j * cs_b];
        }
    for (; p < kv; p++) {
        GW(dv) av = *(const GW(dvu) *)(a + p * cs_a);
        for (int j = 0; j < NC; j++) v[j][0] += av * b[p * rs_b + j * cs_b];
    }
    for (int j = 0; j < NC; j++) {
        T s[GD_LANES];
        for (int u = 1; u < U; u++) v[j][0] += v[j][u];
        memcpy(s, &v[j][0], sizeof s);
        for (int64_t q = p; q < k; q++)
            for (int i = 0; i < r; i++) s[i] += a[i + q * cs_a] * b[q * rs_b + j * cs_b];
        for (int i = 0; i < r; i++) FN(put)(c + i * rs_c + j * cs_c, alpha, s[i], beta);
    }
}

/* C of few rows (a 32-byte vector's at most), A's columns contiguous, by
 * rows of GD_LANES: eight columns of C at a time, then four, two, one. */
GW_ATTR static void GW(gemm_few)(int64_t m, int64_t n, int64_t k, T alpha, const T *a,
        int64_t cs_a, const T *b, int64_t rs_b, int64_t cs_b, T beta, T *c, int64_t rs_c,
        int64_t cs_c)
{
    for (int64_t i = 0; i < m; i += GD_LANES) {
        const int r = (int)(m - i < GD_LANES ? m - i : GD_LANES);
        const T *ai = a + i;
        T *ci = c + i * rs_c;
        int64_t j = 0;
#define GW_FEW(NC) GW(few_cols)(NC, r, k, alpha, ai, cs_a, b + j * cs_b, rs_b, cs_b, beta, \
                                ci + j * cs_c, rs_c, cs_c)
        for (; j + 8 <= n; j += 8) GW_FEW(8);
        if (n - j >= 4) {
            GW_FEW(4);
            j += 4;
        }
        if (n - j >= 2) {
            GW_FEW(2);
            j += 2;
        }
        if (j < n) GW_FEW(1);
#undef GW_FEW
    }
}

GW_ATTR static void GW(gemv)(int64_t m, int64_t k, T alpha, const T *a, int64_t rs_a,
                               int64_t cs_a, const T *x, int64_t inc_x, T beta, T *y,
                               int64_t inc_y)
{
    int64_t i = 0;
    if (rs_a == 1 && inc_y == 1 && ((double)m * k * sizeof(T) > GV_STREAM_BYTES
                                    || (m > 2 * GV_ROWS && 2 * k >= m))) {
        FN(gemv_stream)(m, k, alpha, a, cs_a, x, inc_x, beta, y);
        return;
    }
    if (rs_a == 1) {
        for (; i + GV_ROWS <= m; i += GV_ROWS)
            GW(gemv_block)(4, GV_ROWS, k, alpha, a + i, cs_a, x, inc_x, beta, y + i * inc_y, inc_y);
        const int64_t r = m - i;
        if (r > 0 && (i > 0 || r >= GV_LANES)) {   /* the rest in one pass */
            const T *ai = a + i;
            T *yi = y + i * inc_y;
            switch ((r + GV_LANES - 1) / GV_LANES) {
            case 1: GW(gemv_block)(1, r, k, alpha, ai, cs_a, x, inc_x, beta, yi, inc_y); break;
            case 2: GW(gemv_block)(2, r, k, alpha, ai, cs_a, x, inc_x, beta, yi, inc_y); break;
            case 3: GW(gemv_block)(3, r, k, alpha, ai, cs_a, x, inc_x, beta, yi, inc_y); break;
            default: GW(gemv_block)(4, r, k, alpha, ai, cs_a, x, inc_x, beta, yi, inc_y);
            }
            i = m;
        }
#if GW_VB > GW_DVB
        if (i < m && m - i >= GD_LANES) {   /* below a vector: narrower ones, the last shifted back */
            if (m - i == GD_LANES)
                GW(gemv_block_n)(1, m - i, k, alpha, a + i, cs_a, x, inc_x, beta, y + i * inc_y, inc_y);
            else
                GW(gemv_block_n)(2, m - i, k, alpha, a + i, cs_a, x, inc_x, beta, y + i * inc_y, inc_y);
            i = m;
        }
#endif
        if (i < m && !(cs_a == 1 && inc_x == 1)) {   /* below a dot vector of rows, not a dot */
            GW(few_cols)(1, (int)(m - i), k, alpha, a + i, cs_a, x, inc_x, 0, beta, y + i * inc_y,
                         inc_y, 0);
            i = m;
        }
    }
    if (cs_a == 1 && inc_x == 1) {
#if GG_SHUFFLES
#if GW_VB > GW_DVB
        if ((double)(m - i) * k * sizeof(T) > GV_STREAM_BYTES)
            i += GW(gemv_fold_w)(m - i, k, alpha, a + i * rs_a, rs_a, x, beta, y + i * inc_y, inc_y);
        else
#endif
            i += GW(gemv_fold_n)(m - i, k, alpha, a + i * rs_a, rs_a, x, beta, y + i * inc_y, inc_y);
#endif
        for (; i + 8 <= m; i += 8)
            GW(gemv_dots)(8, k, alpha, a + i * rs_a, rs_a, x, beta, y + i * inc_y, inc_y);
        for (int r = 4; r >= 1; r /= 2)   /* the last rows, at most seven */
            if (m - i >= r) {
                switch (r) {
                case 4: GW(gemv_dots)(4, k, alpha, a + i * rs_a, rs_a, x, beta, y + i * inc_y, inc_y); break;
                case 2: GW(gemv_dots)(2, k, alpha, a + i * rs_a, rs_a, x, beta, y + i * inc_y, inc_y); break;
                default: GW(gemv_dots)(1, k, alpha, a + i * rs_a, rs_a, x, beta, y + i * inc_y, inc_y);
                }
                i += r;
            }
    }
    if (i < m)        /* the rest, any strides: the tiny loops, four rows at a time */
        FN(tiny)(m - i, 1, k, alpha, a + i * rs_a, rs_a, cs_a, x, inc_x, 0, beta,
                 y + i * inc_y, inc_y, 0);
}

/* C of NC columns (2: few_cols), `rows` rows from row 0 of a, b, c (more than
 * V - 1 vectors, at most V <= 8): V x NC vector sums while A's columns run,
 * each A vector shared by the NC columns; a last partial vector is
 * shifted back to end at `rows`, its rows stored before not stored again.
 * V and NC are constants where inlined. */
static inline __attribute__((always_inline)) void GW(gemv_cols_block)(const int V, const int NC,
        int64_t rows, int64_t k, T alpha, const T *a, int64_t cs_a, const T *b, int64_t rs_b,
        int64_t cs_b, T beta, T *c, int64_t cs_c)
{
    GW(gv) v[8][2];
    T s[GV_LANES];
    int64_t off[8];
    for (int q = 0; q < V; q++) {
        off[q] = q < V - 1 ? q * GV_LANES : rows - GV_LANES;
        for (int j = 0; j < NC; j++) v[q][j] = (GW(gv)){ 0 };
    }
    for (int64_t p = 0; p < k; p++) {
        const T *ap = a + p * cs_a;
        for (int q = 0; q < V; q++) {
            GW(gv) av = *(const GW(gvu) *)(ap + off[q]);
            for (int j = 0; j < NC; j++) v[q][j] += av * b[p * rs_b + j * cs_b];
        }
    }
    for (int j = 0; j < NC; j++)
        for (int q = 0; q < V; q++) {
            int lo = q < V - 1 ? 0 : (int)((V - 1) * GV_LANES - off[q]);
            *(GW(gvu) *)s = v[q][j];
            for (int l = lo; l < GV_LANES; l++)
                FN(put)(c + off[q] + l + j * cs_c, alpha, s[l], beta);
        }
}

/* All rows of an NC-column C (at least a vector): blocks of four vectors,
 * then the rest as one block of up to four, its last vector shifted. */
static inline __attribute__((always_inline)) void GW(gemv_cols_nc)(const int NC, int64_t m,
        int64_t k, T alpha, const T *a, int64_t cs_a, const T *b, int64_t rs_b, int64_t cs_b,
        T beta, T *c, int64_t cs_c)
{
    int64_t i = 0;
    for (; i + 4 * GV_LANES <= m; i += 4 * GV_LANES)
        GW(gemv_cols_block)(4, NC, 4 * GV_LANES, k, alpha, a + i, cs_a, b, rs_b, cs_b, beta,
                            c + i, cs_c);
    const int64_t r = m - i;
    const T *ai = a + i;
    T *ci = c + i;
    switch ((r + GV_LANES - 1) / GV_LANES) {
    case 4: GW(gemv_cols_block)(4, NC, r, k, alpha, ai, cs_a, b, rs_b, cs_b, beta, ci, cs_c); break;
    case 3: GW(gemv_cols_block)(3, NC, r, k, alpha, ai, cs_a, b, rs_b, cs_b, beta, ci, cs_c); break;
    case 2: GW(gemv_cols_block)(2, NC, r, k, alpha, ai, cs_a, b, rs_b, cs_b, beta, ci, cs_c); break;
    case 1: GW(gemv_cols_block)(1, NC, r, k, alpha, ai, cs_a, b, rs_b, cs_b, beta, ci, cs_c); break;
    default: break;
    }
}

/* Blocks of eight vectors, where 64-byte ones come with 32 registers: A
 * read 512 contiguous bytes a column, not 256 (DGEMM 300x2x300 1.06-1.10x,
 * docs/decisions.md, `few_cols`). Out of line, so that C of fewer rows
 * keeps the four-vector code as it was (inlined, SGEMM 64x2x5 0.92x).
 * Returns the rows done. */
static __attribute__((noinline)) GW_ATTR int64_t GW(gemv_cols8)(int64_t m, int64_t k, T alpha,
        const T *a, int64_t cs_a, const T *b, int64_t rs_b, int64_t cs_b, T beta, T *c,
        int64_t cs_c)
{
    int64_t i = 0;
    for (; i + 8 * GV_LANES <= m; i += 8 * GV_LANES)
        GW(gemv_cols_block)(8, 2, 8 * GV_LANES, k, alpha, a + i, cs_a, b, rs_b, cs_b, beta,
                            c + i, cs_c);
    return i;
}

GW_ATTR static void GW(gemv_cols)(int64_t m, int64_t k, T alpha, const T *a, int64_t cs_a,
                                    const T *b, int64_t rs_b, int64_t cs_b, T beta, T *c,
                                    int64_t cs_c)
{
    int64_t i = GW_VB == 64 && m >= 8 * GV_LANES
        ? GW(gemv_cols8)(m, k, alpha, a, cs_a, b, rs_b, cs_b, beta, c, cs_c) : 0;
    if (i < m)
        GW(gemv_cols_nc)(2, m - i, k, alpha, a + i, cs_a, b, rs_b, cs_b, beta, c + i, cs_c);
}

/* Column j of C for k = K (a constant where inlined): beta times C(:, j)
 * plus the K columns of A times alpha B(p, j), a vector at a time (A stays
 * in L1 while C streams through once); beta = 0 does not read C. */
static inline __attribute__((always_inline)) void GW(rank_k_col)(const int K, int64_t m,
        T alpha, const T *a, int64_t cs_a, const T *bj, int64_t rs_b, T beta, T *cj)
{
    T x[4];
    for (int p = 0; p < K; p++) x[p] = alpha * bj[p * rs_b];
    int64_t i = 0;
    for (; i + GV_LANES <= m; i += GV_LANES) {
        GW(gv) s = (GW(gv)){ 0 };
        if (beta != 0) s = *(const GW(gvu) *)(cj + i) * beta;
        for (int p = 0; p < K; p++) s += *(const GW(gvu) *)(a + i + p * cs_a) * x[p];
        *(GW(gvu) *)(cj + i) = s;
    }
    for (; i < m; i++) {
        T s = beta == 0 ? 0 : beta * cj[i];
        for (int p = 0; p < K; p++) s += a[i + p * cs_a] * x[p];
        cj[i] = s;
    }
}

GW_ATTR static void GW(rank_k)(int64_t m, int64_t n, int64_t k, T alpha, const T *a,
                                 int64_t cs_a, const T *b, int64_t rs_b, int64_t cs_b, T beta,
                                 T *c, int64_t cs_c)
{
    for (int64_t j = 0; j < n; j++) {
        const T *bj = b + j * cs_b;
        T *cj = c + j * cs_c;
        switch (k) {
        case 1: GW(rank_k_col)(1, m, alpha, a, cs_a, bj, rs_b, beta, cj); break;
        case 2: GW(rank_k_col)(2, m, alpha, a, cs_a, bj, rs_b, beta, cj); break;
        case 3: GW(rank_k_col)(3, m, alpha, a, cs_a, bj, rs_b, beta, cj); break;
        default: GW(rank_k_col)(4, m, alpha, a, cs_a, bj, rs_b, beta, cj); break;
        }
    }
}

#undef GW_ATTR
#undef GD_LANES
#undef GW_DVB
#undef GV_LANES
#undef GV_QLANES
#undef GV_ROWS
#undef GW_VB
#undef GW
#undef GW_TARGET
