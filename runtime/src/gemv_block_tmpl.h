/* gemv_block_tmpl.h: a block of rows of y = alpha*A*x + beta*y, A's
 * columns contiguous, for one vector width: included by gemv_vec_tmpl.h
 * with GB_VB (the vectors' bytes) and GB(x) (this width's names); T, ESIZE
 * (T's bytes) and FN(x) from the including file. */

#define GB_LANES (GB_VB / ESIZE)
typedef T GB(v) __attribute__((vector_size(GB_VB)));
typedef T GB(vu) __attribute__((vector_size(GB_VB), aligned(sizeof(T)), may_alias));

/* y(0..r-1), (V-1)*GB_LANES < r <= V*GB_LANES: V vectors of sums over the
 * columns of A (V a constant where inlined), the last ending at row r
 * (before row 0 when r < GB_LANES: rows done, not stored again), so the
 * rows take one pass over A; each vector in 8 / V partial sums over
 * alternate columns: one chain per vector waited on the FMA's latency. */
static inline __attribute__((always_inline)) void GB(gemv_block)(const int V, int64_t r,
        int64_t k, T alpha, const T *a, int64_t cs_a, const T *x, int64_t inc_x, T beta,
        T *y, int64_t inc_y)
{
    enum { GB_SETS = 8 };
    const int S = V >= 4 ? 2 : 8 / V;
    GB(v) v[4][GB_SETS];
    int64_t off[4];
    T s[5 * GB_LANES];          /* row j at s[GB_LANES + j] */
    for (int q = 0; q < V; q++) {
        off[q] = q < V - 1 ? q * GB_LANES : r - GB_LANES;
        for (int t = 0; t < S; t++) v[q][t] = (GB(v)){ 0 };
    }
    int64_t p = 0;
    for (; p + S <= k; p += S)
        for (int t = 0; t < S; t++) {
            const T *ap = a + (p + t) * cs_a;
            T xp = x[(p + t) * inc_x];
            for (int q = 0; q < V; q++) v[q][t] += *(const GB(vu) *)(ap + off[q]) * xp;
        }
    for (; p < k; p++) {
        const T *ap = a + p * cs_a;
        T xp = x[p * inc_x];
        for (int q = 0; q < V; q++) v[q][0] += *(const GB(vu) *)(ap + off[q]) * xp;
    }
    for (int q = 0; q < V; q++)
        for (int t = 1; t < S; t++) v[q][0] += v[q][t];
    for (int q = 0; q < V; q++) *(GB(vu) *)(s + GB_LANES + off[q]) = v[q][0];
    for (int64_t j = 0; j < r; j++) FN(put)(y + j * inc_y, alpha, s[GB_LANES + j], beta);
}

#undef GB_LANES
#undef GB_VB
#undef GB
