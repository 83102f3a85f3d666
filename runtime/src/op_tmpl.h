/* op_tmpl.h: one GEMM problem as the loops see it, for one element type
 * (T and FN(x) from the including file: gemm_d.c / gemm_s.c, which then
 * include edge_tmpl.h, direct_tmpl.h and gemm_tmpl.h). The packed
 * operands' types TA and TB, alpha's and beta's TS and the k group KG (k
 * steps packed together, the kernel's G) are T, T and 1 unless the
 * including file sets them (gemm_bf16.c, gemm_u8s8.c). */
#ifndef TA
#define TA T
#define TB T
#endif
#ifndef TS
#define TS T
#endif
#ifndef KG
#define KG 1
#endif

#define GG_SWAP(TY, x, y) do { TY t_ = (x); (x) = (y); (y) = t_; } while (0)
/* C^T = B^T A^T: the same problem on the argument variables with the roles
 * of rows and columns swapped (a column-stored C becomes a row-stored one).
 * The operands through void: TA and TB differ only where the limits forbid
 * the swap (may_swap). */
#define GG_TRANSPOSE(m, n, a, b, rs_a, cs_a, rs_b, cs_b, rs_c, cs_c) do {                  \
        GG_SWAP(int64_t, m, n);                                                          \
        const void *ta_ = (a); (a) = (const void *)(b); (b) = ta_;                       \
        GG_SWAP(int64_t, rs_a, cs_b);                                                    \
        GG_SWAP(int64_t, cs_a, rs_b); GG_SWAP(int64_t, rs_c, cs_c);                      \
    } while (0)

typedef void FN(kernel_fn)(int64_t, int64_t, int64_t, const TS *, const TA *,
                           const TB *, const TS *, T *, int64_t, int64_t,
                           const TA *, const TB *);

typedef void FN(direct_fn)(int64_t, int64_t, int64_t, const TS *, const TA *, int64_t,
                           const TB *, int64_t, const TS *, T *, int64_t, int64_t);

/* _direct's parameters, then the next A tile to prefetch (NAME_stream) */
typedef void FN(stream_fn)(int64_t, int64_t, int64_t, const TS *, const TA *, int64_t,
                           const TB *, int64_t, const TS *, T *, int64_t, int64_t, const TA *);

struct FN(op) {
    int64_t m, n, k;
    TS alpha, beta;
    const TA *a; int64_t rs_a, cs_a;
    const TB *b; int64_t rs_b, cs_b;
    T *c; int64_t rs_c, cs_c;
    FN(kernel_fn) *kern;
    FN(direct_fn) *direct;          /* set: the unpacked small-problem path */
    FN(stream_fn) *stream;          /* set: the unpacked path for tall, narrow C */
    const EDGE_T *edges;            /* direct kernels for short last panels */
    int nedges;
    const PEDGE_T *pedges;          /* packed kernels for a short last row panel */
    int npedges;
    const struct gg_tail *tails;    /* direct path: the row tails (GG_TAILS), NULL: none */
    const struct gg_ukernel *tk;    /* B^T's row view: the small tile's, for the rows a tail would take */
    int b_cols;                     /* direct reads B(p,j) at b[p + j*ldb], else b[p*ldb + j] */
    int narrow_k;                   /* direct path: W-wide column panels up to this k */
    struct gg_blocking bk;
    int tm, tn;                     /* thread grid: tm row slabs x tn column slabs */
    int conj_a, conj_b;             /* complex: op(X) = conj(X), applied when packing */
};

#if !GG_COMPLEX
/* Real types have nothing to conjugate. */
static inline void FN(conj_block)(void *p, int64_t n, int on) { (void)p; (void)n; (void)on; }
#endif

static int64_t FN(min)(int64_t x, int64_t y) { return x < y ? x : y; }

/* The beta of the k block from pc on, as the kernels take it (by address):
 * the op's beta for the first block, 1 after it (later blocks accumulate).
 * An address that nothing rewrites between calls: a copy on the caller's
 * stack, stored before every tile's call, ran slower with the same kernel
 * code (docs/decisions.md, `block_beta`). */
static const TS *FN(block_beta)(const struct FN(op) *o, int64_t pc)
{
    static const TS one = 1;
    return pc ? &one : &o->beta;
}


/* Where part t of nt begins when `total` is split into whole units of
 * `unit` (the last part takes the rest): the threads' slabs. */
static int64_t FN(split)(int64_t total, int64_t unit, int t, int nt)
{
    return FN(min)(total, (total + unit - 1) / unit * t / nt * unit);
}

/* C = beta * C, the whole result when alpha = 0 or k = 0; beta = 0 writes
 * zeros without reading C. */
static void FN(scale_c)(int64_t m, int64_t n, TS beta, T *c, int64_t rs, int64_t cs)
{
    if (beta == 1)
        return;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++)
            c[i * rs + j * cs] = beta == 0 ? 0 : beta * c[i * rs + j * cs];
}

/* k rounded up to whole groups: a packed panel's depth (kc for KG = 1). */
static inline int64_t FN(kpad)(int64_t k)
{
    return (k + KG - 1) / KG * KG;
}

#ifndef GG_UNPACKED
#define GG_UNPACKED 1           /* edge_tmpl.h's and direct_tmpl.h's loops exist */
#endif
#ifndef GG_OWN_LOOPS
#define GG_OWN_LOOPS !GG_COMPLEX
#endif
/* The edge kernels are packed kernels (those of the complex and rank-G
 * types, whose A has no in-place layout), not direct ones. */
#define GG_PACKED_EDGES (!GG_UNPACKED || GG_COMPLEX)

#if KG == 1
/* A's and B's panels (gemm_tmpl.h): one packing for both operands when they
 * share the element type; the grouped types define their own pair. */
static inline __attribute__((always_inline)) void
FN(panels_a)(int64_t total, int64_t kc, const T *x, int64_t rs, int64_t cs, int w, T *dst)
{
    FN(pack)(total, kc, x, rs, cs, w, dst);
}

static inline __attribute__((always_inline)) void
FN(panels_b)(int64_t total, int64_t kc, const T *x, int64_t rs, int64_t cs, int w, T *dst)
{
    FN(pack)(total, kc, x, rs, cs, w, dst);
}
#endif
