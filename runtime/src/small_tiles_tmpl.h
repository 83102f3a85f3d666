/* small_tiles_tmpl.h: the small path's tiles for one vector width (T, IT,
 * ESIZE and FN(x) from the including file, small_defs_tmpl.h included
 * first), included once per width by small_levels_tmpl.h, which sets:
 *   SM_VB     the vectors' bytes (64, 32, 16): GCC's generic vectors of
 *             this size, the target's own registers (64-byte vectors in
 *             the x86-64-v3 and baseline functions were lowered through
 *             the stack: docs/decisions.md, SM_VB)
 *   SMF(x)    the names of this width's functions and types
 *   SM_NC     a tile's columns
 *   SM_TARGET the functions' target attribute (optional)
 *   SM_ENTRY  the entry point; SM_ENTRY_T (optional) the one that stores
 *             C transposed (small_ct) */

#undef SM_LANES
#define SM_LANES (SM_VB / (int)sizeof(T))
typedef T SMF(sv) __attribute__((vector_size(SM_VB)));
typedef T SMF(svu) __attribute__((vector_size(SM_VB), aligned(sizeof(T)), may_alias));
typedef IT SMF(si) __attribute__((vector_size(SM_VB)));
/* half a vector: the last rows of a tile when they fill no more than half
 * of one (24 f32 rows: 16 + 8, not 2 x 16); on Zen 4 a 64-byte FMA holds
 * its pipe twice as long as a 32-byte one */
#define SM_HALF (SM_LANES / 2)
typedef T SMF(hv) __attribute__((vector_size(SM_VB / 2)));
typedef T SMF(hvu) __attribute__((vector_size(SM_VB / 2), aligned(sizeof(T)), may_alias));
typedef IT SMF(hi) __attribute__((vector_size(SM_VB / 2)));

/* One vector (type VT, L lanes) of C's column at cp from its sums r
 * (already times alpha): lanes [lo, hi) are this tile's. Lanes below lo
 * belong to a vector stored before (the shifted last vector): they are
 * written back as read (with beta = 0 the other lanes are read too, but
 * their values are not used). Defined for the whole and the half vector. */
#define SM_PUT(NAME, VT, VU, VI, L)                                                        \
static inline __attribute__((always_inline)) void NAME(const int BZ, T *cp, VT r, T beta,  \
                                                       int lo, int hi)                     \
{                                                                                          \
    if (hi < (L)) {                               /* C shorter than a vector */            \
        for (int l = 0; l < hi; l++) cp[l] = BZ ? r[l] : r[l] + beta * cp[l];              \
        return;                                                                            \
    }                                                                                      \
    if (lo == 0) {                                                                         \
        if (!BZ) r += *(const VU *)cp * beta;                                              \
        *(VU *)cp = r;                                                                     \
        return;                                                                            \
    }                                                                                      \
    VT old = *(const VU *)cp;                                                              \
    if (!BZ) r += old * beta;                                                              \
    VI lane, keep;                                                                         \
    for (int l = 0; l < (L); l++) lane[l] = (IT)l;                                         \
    keep = lane < (IT)lo;                         /* -1 in the lanes stored before */      \
    *(VU *)cp = (VT)(((VI)old & keep) | ((VI)r & ~keep));                                  \
}
SM_PUT(SMF(sm_put), SMF(sv), SMF(svu), SMF(si), SM_LANES)
SM_PUT(SMF(sm_puth), SMF(hv), SMF(hvu), SMF(hi), SM_HALF)
#undef SM_PUT

/* C stored transposed (CT, gg_sm_v4t): the tile's rows are C's columns,
 * so each vector's NC sums are transposed in registers, 8 x 8 at a time,
 * and a lane's NC sums stored as NC contiguous elements of one C column. */
typedef T SMF(ev) __attribute__((vector_size(8 * sizeof(T))));
typedef T SMF(evu) __attribute__((vector_size(8 * sizeof(T)), aligned(sizeof(T)), may_alias));

static inline __attribute__((always_inline)) void SMF(tr8)(SMF(ev) x[8])
{
    SMF(ev) t[8], u[8];
#pragma GCC unroll 4
    for (int r = 0; r < 8; r += 2) {         /* pairs of rows, element by element */
        t[r] = __builtin_shufflevector(x[r], x[r + 1], 0, 8, 2, 10, 4, 12, 6, 14);
        t[r + 1] = __builtin_shufflevector(x[r], x[r + 1], 1, 9, 3, 11, 5, 13, 7, 15);
    }
#pragma GCC unroll 2
    for (int r = 0; r < 8; r += 4)           /* pairs of pairs */
#pragma GCC unroll 2
        for (int h = 0; h < 2; h++) {
            u[r + h] = __builtin_shufflevector(t[r + h], t[r + h + 2], 0, 1, 8, 9, 4, 5, 12, 13);
            u[r + h + 2] = __builtin_shufflevector(t[r + h], t[r + h + 2], 2, 3, 10, 11, 6, 7, 14, 15);
        }
#pragma GCC unroll 4
    for (int h = 0; h < 4; h++) {            /* halves: x[l] holds lane l of every row */
        x[h] = __builtin_shufflevector(u[h], u[h + 4], 0, 1, 2, 3, 8, 9, 10, 11);
        x[h + 4] = __builtin_shufflevector(u[h], u[h + 4], 4, 5, 6, 7, 12, 13, 14, 15);
    }
}

/* One row of the transposed tile: r's first NC sums (times alpha) to d. */
static inline __attribute__((always_inline)) void SMF(put_row)(const int NC, const int BZ, T *d,
        SMF(ev) r, T alpha, T beta)
{
    r *= alpha;
    if (NC == 8) {
        if (!BZ) r += *(const SMF(evu) *)d * beta;
        *(SMF(evu) *)d = r;
    } else {
#pragma GCC unroll 8
        for (int c = 0; c < NC; c++) d[c] = BZ ? r[c] : r[c] + beta * d[c];
    }
}

/* Eight lanes of NC columns' sums x: lanes [lo, hi) go to cp + l*ldc, NC
 * elements each. */
static inline __attribute__((always_inline)) void SMF(put_t8)(const int NC, const int BZ, T *cp,
        int64_t ldc, SMF(ev) x[8], T alpha, T beta, int lo, int hi)
{
    SMF(tr8)(x);
#pragma GCC unroll 8
    for (int l = 0; l < 8; l++)
        if (l >= lo && l < hi) SMF(put_row)(NC, BZ, cp + l * ldc, x[l], alpha, beta);
}

/* One vector of at most 8 lanes per column (v[c], c < NC; lanes [lo, hi)
 * this tile's), stored from cp on; a shorter one (f64's half) padded. */
#define SM_PUT_T(NAME, VT, L)                                                              \
static inline __attribute__((always_inline)) void NAME(const int NC, const int BZ,        \
        T *cp, int64_t ldc, T alpha, T beta, const VT *v, int lo, int hi)                  \
{                                                                                          \
    SMF(ev) x[8];                                                                           \
    _Pragma("GCC unroll 8")                                                                \
    for (int c = 0; c < 8; c++) {                                                          \
        x[c] = (SMF(ev)){ 0 };                                                              \
        if (c < NC) memcpy(&x[c], &v[c], (L) * sizeof(T));                                 \
    }                                                                                      \
    SMF(put_t8)(NC, BZ, cp, ldc, x, alpha, beta, lo, hi);                                   \
}
#if ESIZE == 4 && SM_VB == 64
/* f32's 16 lanes: the 8 x 8 network on both halves at once, lanes 0-7 of
 * x[h] becoming row h and lanes 8-15 row h + 8 (24 shuffles of 64 bytes
 * where two 8 x 8 transposes took 48 of 32 bytes and 16 extracts). */
static inline __attribute__((always_inline)) void SMF(tr16)(SMF(sv) x[8])
{
    SMF(sv) t[8], u[8];
#pragma GCC unroll 4
    for (int r = 0; r < 8; r += 2) {
        t[r] = __builtin_shufflevector(x[r], x[r + 1],
                0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30);
        t[r + 1] = __builtin_shufflevector(x[r], x[r + 1],
                1, 17, 3, 19, 5, 21, 7, 23, 9, 25, 11, 27, 13, 29, 15, 31);
    }
#pragma GCC unroll 2
    for (int r = 0; r < 8; r += 4)
#pragma GCC unroll 2
        for (int h = 0; h < 2; h++) {
            u[r + h] = __builtin_shufflevector(t[r + h], t[r + h + 2],
                    0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29);
            u[r + h + 2] = __builtin_shufflevector(t[r + h], t[r + h + 2],
                    2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31);
        }
#pragma GCC unroll 4
    for (int h = 0; h < 4; h++) {
        x[h] = __builtin_shufflevector(u[h], u[h + 4],
                0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27);
        x[h + 4] = __builtin_shufflevector(u[h], u[h + 4],
                4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31);
    }
}

static inline __attribute__((always_inline)) void SMF(sm_put_t)(const int NC, const int BZ,
        T *cp, int64_t ldc, T alpha, T beta, const SMF(sv) *v, int lo, int hi)
{
    SMF(sv) x[8];
#pragma GCC unroll 8
    for (int c = 0; c < 8; c++) x[c] = c < NC ? v[c] : (SMF(sv)){ 0 };
    SMF(tr16)(x);
#pragma GCC unroll 8
    for (int h = 0; h < 8; h++) {
        if (h >= lo && h < hi)
            SMF(put_row)(NC, BZ, cp + h * ldc,
                        __builtin_shufflevector(x[h], x[h], 0, 1, 2, 3, 4, 5, 6, 7), alpha, beta);
        if (h + 8 >= lo && h + 8 < hi)
            SMF(put_row)(NC, BZ, cp + (h + 8) * ldc,
                        __builtin_shufflevector(x[h], x[h], 8, 9, 10, 11, 12, 13, 14, 15),
                        alpha, beta);
    }
}
SM_PUT_T(SMF(sm_puth_t), SMF(hv), SM_HALF)
#else
SM_PUT_T(SMF(sm_put_t), SMF(sv), SM_LANES)
SM_PUT_T(SMF(sm_puth_t), SMF(hv), SM_HALF)
#endif
#undef SM_PUT_T

/* Where a vector of L lanes meant for row r goes: r itself, or shifted
 * back to end at row m (A's rows, at least SM_LANES). */
static inline int64_t SMF(sm_off)(int64_t r, int L, int64_t m) { return r + L <= m ? r : m - L; }

/* The tile of rows i.. (V vectors and, when H, a half vector after them,
 * the last shifted back to end at row m) and columns j..j+NC-1; BZ:
 * beta = 0. V, H, NC and BZ are constants where inlined. The fields are
 * read into locals once: C's stores could alias alpha and beta in the
 * struct. */
static inline __attribute__((always_inline)) void SMF(sm_tile)(const int V, const int H,
        const int NC, const int BZ, const int CT, const struct FN(sm) *s, int64_t i, int64_t j)
{
    const int64_t m = s->m, k = s->k, lda = s->lda, rs_b = s->rs_b, cs_b = s->cs_b;
    const T alpha = s->alpha, beta = s->beta, *a = s->a, *b = s->b + j * cs_b;
    SMF(sv) acc[4][8];
    SMF(hv) acch[8];
    int64_t off[4], offh = SMF(sm_off)(i + V * SM_LANES, SM_HALF, m);
#pragma GCC unroll 4
    for (int q = 0; q < V; q++) {
        off[q] = SMF(sm_off)(i + q * SM_LANES, SM_LANES, m);
#pragma GCC unroll 8
        for (int c = 0; c < NC; c++) acc[q][c] = (SMF(sv)){ 0 };
    }
#pragma GCC unroll 8
    for (int c = 0; c < NC; c++) acch[c] = (SMF(hv)){ 0 };
    /* B(p, j+c) at base c/3 plus (c%3) column strides: x86 addresses
     * base + 1 or 2 times an index, so four registers reach eight columns
     * (seven stride multiples spilled) */
    const int64_t cs8 = cs_b * (int64_t)sizeof(T), rs8 = rs_b * (int64_t)sizeof(T);
    const char *b0 = (const char *)b, *b3 = b0 + 3 * cs8, *b6 = b0 + 6 * cs8;
    for (int64_t p = 0; p < k; p++, b0 += rs8, b3 += rs8, b6 += rs8) {
        const T *ap = a + p * lda;
        const char *bc[3] = { b0, b3, b6 };
        SMF(sv) av[4];
        SMF(hv) avh = { 0 };
        if (H) avh = *(const SMF(hvu) *)(ap + offh);
#pragma GCC unroll 4
        for (int q = 0; q < V; q++) av[q] = *(const SMF(svu) *)(ap + off[q]);
#pragma GCC unroll 8
        for (int c = 0; c < NC; c++) {
            T x = *(const T *)(bc[c / 3] + (c % 3) * cs8);
#pragma GCC unroll 4
            for (int q = 0; q < V; q++) acc[q][c] += av[q] * x;
            if (H) acch[c] += avh * x;
        }
    }
    const int64_t ldc = s->ldc, rows = s->rows;
    if (CT) {                        /* row r, column j of the tile at c[j + r*ldc] */
#pragma GCC unroll 4
        for (int q = 0; q < V; q++) {
            int lo = (int)(i + q * SM_LANES - off[q]);
            int hi = rows - off[q] < SM_LANES ? (int)(rows - off[q]) : SM_LANES;
            SMF(sm_put_t)(NC, BZ, s->c + j + off[q] * ldc, ldc, alpha, beta, acc[q], lo, hi);
        }
        if (H) {
            int lo = (int)(i + V * SM_LANES - offh);
            int hi = rows - offh < SM_HALF ? (int)(rows - offh) : SM_HALF;
            SMF(sm_puth_t)(NC, BZ, s->c + j + offh * ldc, ldc, alpha, beta, acch, lo, hi);
        }
        return;
    }
    T *cj = s->c + j * s->ldc;
    /* lo and hi per vector here, not in sm_put from the rows: there they
     * ran slower */
#pragma GCC unroll 4
    for (int q = 0; q < V; q++) {
        int lo = (int)(i + q * SM_LANES - off[q]);
        int hi = rows - off[q] < SM_LANES ? (int)(rows - off[q]) : SM_LANES;
#pragma GCC unroll 8
        for (int c = 0; c < NC; c++)
            SMF(sm_put)(BZ, cj + off[q] + c * ldc, acc[q][c] * alpha, beta, lo, hi);
    }
    if (H) {
        int lo = (int)(i + V * SM_LANES - offh);
        int hi = rows - offh < SM_HALF ? (int)(rows - offh) : SM_HALF;
#pragma GCC unroll 8
        for (int c = 0; c < NC; c++)
            SMF(sm_puth)(BZ, cj + offh + c * ldc, acch[c] * alpha, beta, lo, hi);
    }
}

/* Columns j..j+NC-1, all rows: whole V-vector tiles, then one tile of as
 * many vectors as the rest needs, the last a half vector when the rows
 * it adds fill no more than half (V <= 2, as sm_v4 uses). */
static inline __attribute__((always_inline)) void SMF(sm_cols)(const int V, const int NC,
        const int BZ, const int CT, const struct FN(sm) *s, int64_t j)
{
    int64_t i = 0;
    for (; i + V * SM_LANES <= s->rows; i += V * SM_LANES) SMF(sm_tile)(V, 0, NC, BZ, CT, s, i, j);
    if (i == s->rows) return;
    int64_t r = s->rows - i, vq = (r + SM_LANES - 1) / SM_LANES;
    if (r - (vq - 1) * SM_LANES <= SM_HALF) {     /* vq <= V <= 2 */
        if (V == 1 || vq == 1) SMF(sm_tile)(0, 1, NC, BZ, CT, s, i, j);   /* V == 1: no 1+half tile */
        else SMF(sm_tile)(1, 1, NC, BZ, CT, s, i, j);
    } else {
        if (V > 1 && vq == 1) SMF(sm_tile)(1, 0, NC, BZ, CT, s, i, j);
        else SMF(sm_tile)(V, 0, NC, BZ, CT, s, i, j);
    }
}

#ifdef SM_TARGET
#define SM_ATTR __attribute__((target(SM_TARGET)))
#else
#define SM_ATTR
#endif

/* Each (V, NC, BZ, CT) column block as a function of its own: inlined
 * into one body the 96 unrolled tiles an entry needs made GCC's passes
 * that grow faster than a function's size take most of the compile. The
 * table is constant and indexed by constants: the calls are direct. */
#define SM_COLS_FN(V, NC, BZ, CT)                                                          \
static SM_ATTR __attribute__((noinline, unused)) void                                     \
SMF(cols_##V##_##NC##_##BZ##_##CT)(const struct FN(sm) *s, int64_t j)                      \
{                                                                                          \
    SMF(sm_cols)(V, NC, BZ, CT, s, j);                                                     \
}
#define SM_COLS_FN4(V, NC) SM_COLS_FN(V, NC, 0, 0) SM_COLS_FN(V, NC, 0, 1)                \
                           SM_COLS_FN(V, NC, 1, 0) SM_COLS_FN(V, NC, 1, 1)
#define SM_COLS_FN8(V) SM_COLS_FN4(V, 1) SM_COLS_FN4(V, 2) SM_COLS_FN4(V, 3)               \
    SM_COLS_FN4(V, 4) SM_COLS_FN4(V, 5) SM_COLS_FN4(V, 6) SM_COLS_FN4(V, 7) SM_COLS_FN4(V, 8)
SM_COLS_FN8(1)
SM_COLS_FN8(2)
#define SM_COLS_AT(V, NC) [V - 1][NC] = { { SMF(cols_##V##_##NC##_0_0), SMF(cols_##V##_##NC##_0_1) }, \
                                          { SMF(cols_##V##_##NC##_1_0), SMF(cols_##V##_##NC##_1_1) } }
#define SM_COLS_AT8(V) SM_COLS_AT(V, 1), SM_COLS_AT(V, 2), SM_COLS_AT(V, 3), SM_COLS_AT(V, 4), \
                       SM_COLS_AT(V, 5), SM_COLS_AT(V, 6), SM_COLS_AT(V, 7), SM_COLS_AT(V, 8)
static void (*const SMF(cols_fn)[2][9][2][2])(const struct FN(sm) *, int64_t) = {
    SM_COLS_AT8(1), SM_COLS_AT8(2)
};
#undef SM_COLS_FN
#undef SM_COLS_FN4
#undef SM_COLS_FN8
#undef SM_COLS_AT
#undef SM_COLS_AT8
#define SM_COLS(V, NC, BZ, CT, s, j) SMF(cols_fn)[(V) - 1][NC][BZ][CT](s, j)

static inline __attribute__((always_inline)) void SMF(sm_cols_all)(const int V, const int NC,
        const int BZ, const int CT, const struct FN(sm) *s)
{
    int64_t j = 0;
    for (; j + NC <= s->n; j += NC) SM_COLS(V, NC, BZ, CT, s, j);
    switch (s->n - j) {                       /* the last columns: a narrower tile */
    case 7: if (NC > 7) SM_COLS(V, 7, BZ, CT, s, j); break;
    case 6: if (NC > 6) SM_COLS(V, 6, BZ, CT, s, j); break;
    case 5: if (NC > 5) SM_COLS(V, 5, BZ, CT, s, j); break;
    case 4: if (NC > 4) SM_COLS(V, 4, BZ, CT, s, j); break;
    case 3: if (NC > 3) SM_COLS(V, 3, BZ, CT, s, j); break;
    case 2: if (NC > 2) SM_COLS(V, 2, BZ, CT, s, j); break;
    case 1: if (NC > 1) SM_COLS(V, 1, BZ, CT, s, j); break;
    default: break;
    }
}
#undef SM_COLS

static inline __attribute__((always_inline)) void SMF(sm_run)(const int V, const int NC,
        const int CT, const struct FN(sm) *s)
{
    if (s->beta == 0) SMF(sm_cols_all)(V, NC, 1, CT, s);
    else SMF(sm_cols_all)(V, NC, 0, CT, s);
}

/* Tile shapes: V x NC sums plus V loads and a broadcast in the registers;
 * one vector (V = 1) where A's rows fit it. */
SM_ATTR void SM_ENTRY(const struct FN(sm) *s)
{
    if (s->m <= SM_LANES) SMF(sm_run)(1, SM_NC, 0, s);
    else SMF(sm_run)(2, SM_NC, 0, s);
}
#ifdef SM_ENTRY_T
/* C stored transposed (CT: small_ct): its own copy of the tiles, as the
 * transposes beside the plain stores in one body made GCC spill a sum in
 * the k loop (docs/decisions.md). */
SM_ATTR void SM_ENTRY_T(const struct FN(sm) *s)
{
    if (s->m <= SM_LANES) SMF(sm_run)(1, SM_NC, 1, s);
    else SMF(sm_run)(2, SM_NC, 1, s);
}
#endif

#undef SM_ATTR
#undef SM_HALF
#undef SM_LANES
#undef SM_VB
#undef SMF
#undef SM_NC
#undef SM_TARGET
#undef SM_ENTRY
#undef SM_ENTRY_T
