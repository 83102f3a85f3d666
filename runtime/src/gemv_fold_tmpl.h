/* gemv_fold_tmpl.h: dot products of A's contiguous rows with x, a vector
 * of rows' sums at a time, for one vector width: included by
 * gemv_vec_tmpl.h with GF_VB (the vectors' bytes) and GF(x) (this width's
 * names); T, IT (an integer as wide as T), ESIZE (T's bytes) and FN(x)
 * from the including file. */

#define GF_LANES (GF_VB / ESIZE)
#define GF_ROWS 8          /* rows a call: x's loads shared by 8; more streams ran slower */
#define GF_GROUP (GF_LANES < GF_ROWS ? GF_LANES : GF_ROWS)   /* rows a vector of sums */
typedef T GF(v) __attribute__((vector_size(GF_VB)));
typedef T GF(o) __attribute__((vector_size(GF_GROUP * ESIZE)));
typedef T GF(ou) __attribute__((vector_size(GF_GROUP * ESIZE), aligned(sizeof(T)), may_alias));
typedef T GF(vu) __attribute__((vector_size(GF_VB), aligned(sizeof(T)), may_alias));
typedef IT GF(vi) __attribute__((vector_size(GF_VB)));
#if GF_VB / ESIZE == 16
#define GF_EVENS 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30
#define GF_ODDS 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31
#define GF_IOTA 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
#elif GF_VB / ESIZE == 8
#define GF_EVENS 0, 2, 4, 6, 8, 10, 12, 14
#define GF_ODDS 1, 3, 5, 7, 9, 11, 13, 15
#define GF_IOTA 0, 1, 2, 3, 4, 5, 6, 7
#elif GF_VB / ESIZE == 4
#define GF_EVENS 0, 2, 4, 6
#define GF_ODDS 1, 3, 5, 7
#define GF_IOTA 0, 1, 2, 3
#else
#define GF_EVENS 0, 2
#define GF_ODDS 1, 3
#define GF_IOTA 0, 1
#endif
#define GF_SHUFFLE(a, b, ...) GG_SHUFFLE(GF(vi), a, b, __VA_ARGS__)

/* GF_ROWS rows' dot products with x (k >= GF_LANES). Each GF_GROUP
 * vectors of rows' sums are folded pairwise, even lanes plus odd ones,
 * rows kept in order, down to one vector, which folds onto itself until
 * its first GF_GROUP lanes hold a row's sum each: two shuffles and an add
 * a row where a horizontal sum a row cost as much as a short row's
 * multiply-adds. The part of k past whole vectors is the vector ending at
 * k with the lanes already counted masked off in A and in x (a product
 * would turn an infinity there into a NaN). */
static inline __attribute__((always_inline)) void GF(rows)(int64_t k, T alpha, const T *a,
        int64_t rs_a, const T *x, T beta, T *y, int64_t inc_y)
{
    enum { R = GF_ROWS, G = GF_ROWS / GF_GROUP };
    GF(v) v[R];
    for (int r = 0; r < R; r++) v[r] = (GF(v)){ 0 };
    int64_t p = 0;
    for (; p + GF_LANES <= k; p += GF_LANES) {
        GF(v) xv = *(const GF(vu) *)(x + p);
        for (int r = 0; r < R; r++) v[r] += *(const GF(vu) *)(a + r * rs_a + p) * xv;
    }
    if (p < k) {
        const GF(vi) keep = (GF(vi)){ GF_IOTA } >= (IT)(GF_LANES - (k - p));
        p = k - GF_LANES;
        GF(v) xv = (GF(v))((GF(vi))*(const GF(vu) *)(x + p) & keep);
        for (int r = 0; r < R; r++)
            v[r] += (GF(v))((GF(vi))*(const GF(vu) *)(a + r * rs_a + p) & keep) * xv;
    }
    for (int g = 0; g < G; g++) {
        GF(v) *w = v + g * GF_GROUP;
        for (int n = GF_GROUP; n > 1; n /= 2)
            for (int r = 0; r < n / 2; r++)
                w[r] = GF_SHUFFLE(w[2 * r], w[2 * r + 1], GF_EVENS)
                       + GF_SHUFFLE(w[2 * r], w[2 * r + 1], GF_ODDS);
        for (int l = GF_LANES / GF_GROUP; l > 1; l /= 2)
            w[0] = GF_SHUFFLE(w[0], w[0], GF_EVENS) + GF_SHUFFLE(w[0], w[0], GF_ODDS);
        GF(o) s;
        memcpy(&s, &w[0], sizeof s);
        T *yg = y + g * GF_GROUP * inc_y;
        if (inc_y == 1) {
            s *= alpha;
            if (beta != 0) s += *(const GF(ou) *)yg * beta;
            *(GF(ou) *)yg = s;
        } else {
            for (int i = 0; i < GF_GROUP; i++) FN(put)(yg + i * inc_y, alpha, s[i], beta);
        }
    }
}

/* y's rows by GF_ROWS while they last, when k holds a vector; returns the
 * rows done. */
static inline __attribute__((always_inline)) int64_t GF(gemv_fold)(int64_t m, int64_t k,
        T alpha, const T *a, int64_t rs_a, const T *x, T beta, T *y, int64_t inc_y)
{
    int64_t i = 0;
    if (k >= GF_LANES)
        for (; i + GF_ROWS <= m; i += GF_ROWS)
            GF(rows)(k, alpha, a + i * rs_a, rs_a, x, beta, y + i * inc_y, inc_y);
    return i;
}

#undef GF_LANES
#undef GF_ROWS
#undef GF_GROUP
#undef GF_EVENS
#undef GF_ODDS
#undef GF_IOTA
#undef GF_SHUFFLE
#undef GF_VB
#undef GF
