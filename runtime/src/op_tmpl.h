/* op_tmpl.h: one GEMM problem as the loops see it, for one element type
 * (T and FN(x) from the including file: gemm_d.c / gemm_s.c, which then
 * include edge_tmpl.h, direct_tmpl.h and gemm_tmpl.h). */

typedef void FN(kernel_fn)(int64_t, int64_t, int64_t, const T *, const T *,
                           const T *, const T *, T *, int64_t, int64_t,
                           const T *, const T *);

typedef void FN(direct_fn)(int64_t, int64_t, int64_t, const T *, const T *, int64_t,
                           const T *, int64_t, const T *, T *, int64_t, int64_t);

struct FN(op) {
    int64_t m, n, k;
    T alpha, beta;
    const T *a; int64_t rs_a, cs_a;
    const T *b; int64_t rs_b, cs_b;
    T *c; int64_t rs_c, cs_c;
    FN(kernel_fn) *kern;
    FN(direct_fn) *direct;          /* set: the unpacked small-problem path */
    const EDGE_T *edges;            /* direct kernels for short last panels */
    int nedges;
    const PEDGE_T *pedges;          /* packed kernels for a short last row panel */
    int npedges;
    const struct gg_tail *tails;    /* direct path: the row tails (GG_TAILS), NULL: none */
    int b_cols;                     /* direct reads B(p,j) at b[p + j*ldb], else b[p*ldb + j] */
    struct gg_blocking bk;
    int tm, tn;                     /* thread grid: tm row slabs x tn column slabs */
};

static int64_t FN(min)(int64_t x, int64_t y) { return x < y ? x : y; }

