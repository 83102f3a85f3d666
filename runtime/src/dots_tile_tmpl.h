/* dots_tile_tmpl.h: C = alpha*A*B + beta*C as dot products along k, for
 * A with contiguous rows and B with contiguous columns (A^T B in column
 * major) and few rows and columns of C: each element a vector sum along k,
 * R rows by NC columns side by side, so R + NC loads feed R*NC
 * multiply-adds. The kernels' tiles would mostly compute padding there,
 * and their packing cost as much as the multiply-adds. Included by
 * gemv_vec_tmpl.h for one vector width (the dot products' GW(dv)); T, IT,
 * ESIZE and FN(x) from the including file. */

#if GW_VB >= 64
#define DT_ROWS 4   /* 16 sums in 32 registers */
#else
#define DT_ROWS 2   /* 8 sums in 16 registers */
#endif
#define DT_COLS 4

/* C(0..R-1, 0..NC-1), k >= GD_LANES; R and NC constants where inlined.
 * The part of k past whole vectors is the vector ending at k with the
 * lanes already counted masked off in A and B. */
static inline __attribute__((always_inline)) void GW(dots_tile)(const int R, const int NC,
        int64_t k, T alpha, const T *a, int64_t rs_a, const T *b, int64_t cs_b, T beta, T *c,
        int64_t rs_c, int64_t cs_c)
{
    GW(dv) v[DT_ROWS][DT_COLS];
    for (int r = 0; r < R; r++)
        for (int j = 0; j < NC; j++) v[r][j] = (GW(dv)){ 0 };
    int64_t p = 0;
    for (; p + GD_LANES <= k; p += GD_LANES) {
        GW(dv) bv[DT_COLS];
        for (int j = 0; j < NC; j++) bv[j] = *(const GW(dvu) *)(b + j * cs_b + p);
        for (int r = 0; r < R; r++) {
            GW(dv) av = *(const GW(dvu) *)(a + r * rs_a + p);
            for (int j = 0; j < NC; j++) v[r][j] += av * bv[j];
        }
    }
    if (p < k) {
        typedef IT dvi __attribute__((vector_size(GW_DVB)));
        dvi keep = { 0 };
        for (int l = 0; l < GD_LANES; l++) keep[l] = l >= GD_LANES - (k - p) ? -1 : 0;
        p = k - GD_LANES;
        GW(dv) bv[DT_COLS];
        for (int j = 0; j < NC; j++)
            bv[j] = (GW(dv))((dvi)*(const GW(dvu) *)(b + j * cs_b + p) & keep);
        for (int r = 0; r < R; r++) {
            GW(dv) av = (GW(dv))((dvi)*(const GW(dvu) *)(a + r * rs_a + p) & keep);
            for (int j = 0; j < NC; j++) v[r][j] += av * bv[j];
        }
    }
    for (int r = 0; r < R; r++)
        for (int j = 0; j < NC; j++)
            FN(put)(c + r * rs_c + j * cs_c, alpha, GW(hsum)(&v[r][j], (GW(q)){ 0 }), beta);
}

#define DT_CASE(R, NC) case (R) * 8 + (NC): \
    GW(dots_tile)(R, NC, k, alpha, ai, rs_a, bj, cs_b, beta, cij, rs_c, cs_c); break;
#if DT_ROWS == 4
#define DT_CASES(NC) DT_CASE(1, NC) DT_CASE(2, NC) DT_CASE(3, NC) DT_CASE(4, NC)
#else
#define DT_CASES(NC) DT_CASE(1, NC) DT_CASE(2, NC)
#endif

/* C by tiles of DT_ROWS x DT_COLS, the last row and column tiles
 * narrower; k >= GD_LANES. */
GW_ATTR static void GW(gemm_dots)(int64_t m, int64_t n, int64_t k, T alpha, const T *a,
        int64_t rs_a, const T *b, int64_t cs_b, T beta, T *c, int64_t rs_c, int64_t cs_c)
{
    for (int64_t j = 0; j < n; j += DT_COLS)
        for (int64_t i = 0; i < m; i += DT_ROWS) {
            const int rr = (int)(m - i < DT_ROWS ? m - i : DT_ROWS);
            const int cc = (int)(n - j < DT_COLS ? n - j : DT_COLS);
            const T *ai = a + i * rs_a, *bj = b + j * cs_b;
            T *cij = c + i * rs_c + j * cs_c;
            switch (rr * 8 + cc) {
            DT_CASES(1) DT_CASES(2) DT_CASES(3) DT_CASES(4)
            default: break;
            }
        }
}

#undef DT_CASE
#undef DT_CASES
#undef DT_ROWS
#undef DT_COLS
