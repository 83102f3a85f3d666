/* dots_tile_tmpl.h: C = alpha*A*B + beta*C as dot products along k, for
 * A with contiguous rows and B with contiguous columns (A^T B in column
 * major) and few rows or columns of C: each element a vector sum along k,
 * R rows by NC columns side by side, so R + NC loads feed R*NC
 * multiply-adds. The kernels' tiles would mostly compute padding there,
 * and their packing cost as much as the multiply-adds. Included by
 * gemv_vec_tmpl.h for one vector width, which sets DT_VB (the vectors'
 * bytes) and DT(x) (this width's names); GW_VB (the registers' width),
 * GW(hsum), T, IT, ESIZE and FN(x) from the including files. */

#define DT_LANES (DT_VB / ESIZE)
typedef T DT(v) __attribute__((vector_size(DT_VB)));
typedef T DT(vu) __attribute__((vector_size(DT_VB), aligned(sizeof(T)), may_alias));
typedef IT DT(vi) __attribute__((vector_size(DT_VB)));

#if GW_VB >= 64
#define DT_ROWS 4   /* 16 sums in 32 registers */
#else
#define DT_ROWS 2   /* 8 sums in 16 registers */
#endif
#if GW_VB >= 64 && ESIZE == 8
#define DT_WIDE 8   /* or 2 x 8 where m <= 2: an A load for 8 columns (f32 lost) */
#else
#define DT_WIDE 4
#endif
#define DT_COLS 4

/* C(0..R-1, 0..NC-1), k >= DT_LANES; R and NC constants where inlined.
 * The part of k past whole vectors is the vector ending at k with the
 * lanes already counted masked off in A and B. */
static inline __attribute__((always_inline)) void DT(tile)(const int R, const int NC,
        int64_t k, T alpha, const T *a, int64_t rs_a, const T *b, int64_t cs_b, T beta, T *c,
        int64_t rs_c, int64_t cs_c)
{
    DT(v) v[DT_ROWS][DT_WIDE];
    for (int r = 0; r < R; r++)
        for (int j = 0; j < NC; j++) v[r][j] = (DT(v)){ 0 };
    int64_t p = 0;
    for (; p + DT_LANES <= k; p += DT_LANES) {
        DT(v) bv[DT_WIDE];
        for (int j = 0; j < NC; j++) bv[j] = *(const DT(vu) *)(b + j * cs_b + p);
        for (int r = 0; r < R; r++) {
            DT(v) av = *(const DT(vu) *)(a + r * rs_a + p);
            for (int j = 0; j < NC; j++) v[r][j] += av * bv[j];
        }
    }
    if (p < k) {
        DT(vi) keep = { 0 };
        for (int l = 0; l < DT_LANES; l++) keep[l] = l >= DT_LANES - (k - p) ? -1 : 0;
        p = k - DT_LANES;
        DT(v) bv[DT_WIDE];
        for (int j = 0; j < NC; j++)
            bv[j] = (DT(v))((DT(vi))*(const DT(vu) *)(b + j * cs_b + p) & keep);
        for (int r = 0; r < R; r++) {
            DT(v) av = (DT(v))((DT(vi))*(const DT(vu) *)(a + r * rs_a + p) & keep);
            for (int j = 0; j < NC; j++) v[r][j] += av * bv[j];
        }
    }
    for (int r = 0; r < R; r++)
        for (int j = 0; j < NC; j++)
            FN(put)(c + r * rs_c + j * cs_c, alpha, GW(hsum)(&v[r][j], DT_VB, (GW(q)){ 0 }), beta);
}

#define DT_CASE(R, NC) case (R) * 16 + (NC): \
    DT(tile)(R, NC, k, alpha, ai, rs_a, bj, cs_b, beta, cij, rs_c, cs_c); break;
#if DT_ROWS == 4
#define DT_CASES(NC) DT_CASE(1, NC) DT_CASE(2, NC) DT_CASE(3, NC) DT_CASE(4, NC)
#else
#define DT_CASES(NC) DT_CASE(1, NC) DT_CASE(2, NC)
#endif
#if DT_WIDE == 8
#define DT_WIDE_CASES DT_CASE(1, 5) DT_CASE(1, 6) DT_CASE(1, 7) DT_CASE(1, 8) \
                      DT_CASE(2, 5) DT_CASE(2, 6) DT_CASE(2, 7) DT_CASE(2, 8)
#else
#define DT_WIDE_CASES
#endif

/* C by tiles of DT_ROWS x DT_COLS, or of DT_ROWS / 2 x DT_WIDE where m
 * fits the former, the last row and column tiles narrower; k >= DT_LANES. */
GW_ATTR static void DT(gemm)(int64_t m, int64_t n, int64_t k, T alpha, const T *a,
        int64_t rs_a, const T *b, int64_t cs_b, T beta, T *c, int64_t rs_c, int64_t cs_c)
{
    const int cw = 2 * m <= DT_ROWS ? DT_WIDE : DT_COLS;
    for (int64_t j = 0; j < n; j += cw)
        for (int64_t i = 0; i < m; i += DT_ROWS) {
            const int rr = (int)(m - i < DT_ROWS ? m - i : DT_ROWS);
            const int cc = (int)(n - j < cw ? n - j : cw);
            const T *ai = a + i * rs_a, *bj = b + j * cs_b;
            T *cij = c + i * rs_c + j * cs_c;
            switch (rr * 16 + cc) {
            DT_CASES(1) DT_CASES(2) DT_CASES(3) DT_CASES(4) DT_WIDE_CASES
            default: break;
            }
        }
}

#undef DT_CASE
#undef DT_CASES
#undef DT_WIDE_CASES
#undef DT_WIDE
#undef DT_ROWS
#undef DT_COLS
#undef DT_LANES
#undef DT_VB
#undef DT
