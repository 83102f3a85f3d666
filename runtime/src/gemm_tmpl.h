/* gemm_tmpl.h: the Goto/BLIS five loops around the micro-kernel, for one
 * element type, and the entry point. The including file defines T, FN(x),
 * GG_TYPE (its enum gg_type) and EDGE_T (its edge
 * kernels' struct), then includes pack_tmpl.h,
 * op_tmpl.h, edge_tmpl.h, direct_tmpl.h and this file. The packed A and B
 * are TA and TB, k packed in groups of KG steps (op_tmpl.h): a packed
 * panel is FN(kpad)(kc) deep. GG_UNPACKED 0 (packed kernels only, no
 * edge_tmpl.h or direct_tmpl.h) leaves the unpacked loops out; GG_OWN_LOOPS
 * 0 the runtime's own loops (tiny, matrix-vector, small tiles).
 *
 *   jc: NC columns of C and B           (B block kc x nc -> L3)
 *     pc: KC of the k dimension         (pack B block)
 *       ic: MC rows of C and A          (pack A block  -> L2)
 *         jr: NR columns                (B micro-panel -> L1)
 *           ir: MR rows -> kernel       (C tile in registers)
 *
 * Threads split C into a grid of independent slabs (rows = the ic loop,
 * columns = the jc loop); each thread runs the five loops on its slab with
 * its own packing buffers, so there is no barrier at all. The grid shape
 * minimizes the redundant packing it causes (plan.c, grid). The path and
 * its parameters come from the call's plan (plan.h); FN(run) does what it
 * says. */

/* The rows x k of a packed path's panels, as col_split weighs them: the
 * same for FN(pack_b) and FN(macro_kernel), which must split alike. */
static inline int64_t FN(packed_work)(const struct FN(op) *o, int64_t kc)
{
    return FN(min)(o->m, o->bk.mc) * kc;
}

/* The ir and jr loops over one packed A block and one packed B block. */
static void FN(macro_kernel)(const struct FN(op) *o, int64_t mc, int64_t nc,
                             int64_t kc, const TA *ap, const TB *bp, const TS *beta, T *c)
{
    const int mr = o->bk.mr;
    const int64_t kp = FN(kpad)(kc);
    const struct FN(cols) cs = FN(col_split)(o, nc, 0, 1, FN(packed_work)(o, kc));
    for (int64_t jr = 0, nn; jr < nc; jr += nn) {
        int w = FN(width_at)(&cs, jr);
        const TB *b = bp + jr * kp;
        nn = FN(min)(w, nc - jr);
#if !GG_PACKED_EDGES
        if (w < o->bk.nr) {
            FN(edge_panel)(o, mc, nn, kc, w, ap, b, beta, c + jr * o->cs_c);
            continue;
        }
#endif
        for (int64_t ir = 0; ir < mc; ir += mr) {
            int64_t mm = FN(min)(mr, mc - ir);
            const TA *a = ap + ir * kp;
            /* prefetch hints: the next A panel, or back to the first one
             * together with the next B panel when this column is done */
            int last = ir + mr >= mc;
            const TA *a_next = last ? ap : a + mr * kp;
            const TB *b_next = last ? b + w * kp : b;
            FN(packed_at)(o, mm, w)(mm, nn, kc, &o->alpha, a, b, beta,
                    c + ir * o->rs_c + jr * o->cs_c, o->rs_c, o->cs_c, a_next, b_next);
        }
    }
}

/* B's kc x nc block (x, strides of B) as the column panels the jr loop
 * takes (FN(col_split)): NR wide, then the narrower tail panels. */
static void FN(pack_b)(const struct FN(op) *o, int64_t nc, int64_t kc, const TB *x, TB *dst)
{
    const int64_t kp = FN(kpad)(kc);
    const struct FN(cols) cs = FN(col_split)(o, nc, 0, 1, FN(packed_work)(o, kc));
    int64_t jr = FN(min)(cs.wide, nc);    /* the last NR panel may be partial */
    if (jr) FN(panels_b)(jr, kc, x, o->cs_b, o->rs_b, cs.nr, dst);
    int64_t end = (jr + cs.nr - 1) / cs.nr * cs.nr;     /* packed columns, padding included */
    for (int64_t nn; jr < nc; jr += nn) {
        int w = FN(width_at)(&cs, jr);
        nn = FN(min)(w, nc - jr);
        FN(panels_b)(nn, kc, x + jr * o->cs_b, o->cs_b, o->rs_b, w, dst + jr * kp);
        end = jr + w;
    }
    FN(conj_block)(dst, end * kp, o->conj_b);
}

/* A's mc x kc block (x, strides of A) as MR-row panels, the short last
 * one FN(a_height) rows high. */
static void FN(pack_a)(const struct FN(op) *o, int64_t mc, int64_t kc, const TA *x, TA *dst)
{
    const int mr = o->bk.mr;
    const int64_t kp = FN(kpad)(kc);
    int64_t full = mc / mr * mr;
    if (full) FN(panels_a)(full, kc, x, o->rs_a, o->cs_a, mr, dst);
    if (mc > full)
        FN(panels_a)(mc - full, kc, x + full * o->rs_a, o->rs_a, o->cs_a,
                     FN(a_height)(o, mc - full), dst + full * kp);
    FN(conj_block)(dst, (full + (mc > full ? FN(a_height)(o, mc - full) : 0)) * kp, o->conj_a);
}

static void FN(five_loops)(const struct FN(op) *o, int64_t m0, int64_t m1,
                           int64_t n0, int64_t n1)
{
    const struct gg_blocking *bk = &o->bk;
    int64_t mcmax = FN(min)(bk->mc, (m1 - m0 + bk->mr - 1) / bk->mr * bk->mr);
    int64_t ncmax = FN(min)(bk->nc, (n1 - n0 + bk->nr - 1) / bk->nr * bk->nr);
    int64_t kpmax = FN(kpad)(FN(min)(bk->kc, o->k));
    TA *ap = gg_pack_buffer(0, (size_t)(mcmax * kpmax) * sizeof(TA));
    TB *bp = gg_pack_buffer(1, (size_t)(ncmax * kpmax) * sizeof(TB));
    for (int64_t jc = n0; jc < n1; jc += bk->nc) {
        int64_t nc = FN(min)(bk->nc, n1 - jc);
        for (int64_t pc = 0; pc < o->k; pc += bk->kc) {
            int64_t kc = FN(min)(bk->kc, o->k - pc);
            FN(pack_b)(o, nc, kc, o->b + pc * o->rs_b + jc * o->cs_b, bp);
            for (int64_t ic = m0; ic < m1; ic += bk->mc) {
                int64_t mc = FN(min)(bk->mc, m1 - ic);
                FN(pack_a)(o, mc, kc, o->a + ic * o->rs_a + pc * o->cs_a, ap);
                FN(macro_kernel)(o, mc, nc, kc, ap, bp, FN(block_beta)(o, pc),
                                 o->c + ic * o->rs_c + jc * o->cs_c);
            }
        }
    }
}

/* Slab t of the grid: rows and columns split in whole MR / NR units. */
static void FN(slab)(void *arg, int t, int nt)
{
    (void)nt;
    const struct FN(op) *o = arg;
    int64_t m0 = 0, m1 = o->m, n0 = 0, n1 = o->n;
    if (o->tm * o->tn > 1) {          /* one slab: no division on the small-call path */
        int ti = t % o->tm, tj = t / o->tm;
        m0 = FN(split)(o->m, o->bk.mr, ti, o->tm);
        m1 = FN(split)(o->m, o->bk.mr, ti + 1, o->tm);
        n0 = FN(split)(o->n, o->bk.nr, tj, o->tn);
        n1 = FN(split)(o->n, o->bk.nr, tj + 1, o->tn);
    }
    if (m0 >= m1 || n0 >= n1)
        return;
#if GG_UNPACKED
    if (o->stream)
        FN(stream_loops)(o, m0, m1, n0, n1);
    else if (o->direct)
        FN(direct_loops)(o, m0, m1, n0, n1);
    else
#endif
        FN(five_loops)(o, m0, m1, n0, n1);
}

/* The op of the kernels path from its plan (the call's operands already
 * swapped where the plan says). Every field named: with some left to
 * zero-filling GCC cleared the whole op with `rep stos` first. */
static inline void FN(op_for)(struct FN(op) *o, const struct gg_plan *p, int64_t m, int64_t n,
                              int64_t k, TS alpha, const TA *a, int64_t rs_a, int64_t cs_a,
                              const TB *b, int64_t rs_b, int64_t cs_b, TS beta, T *c,
                              int64_t rs_c, int64_t cs_c, int conj_a, int conj_b)
{
    const struct gg_ukernel *uk = p->uk;
    *o = (struct FN(op)){ .m = m, .n = n, .k = k, .alpha = alpha, .beta = beta,
                          .a = a, .rs_a = rs_a, .cs_a = cs_a, .b = b, .rs_b = rs_b, .cs_b = cs_b,
                          .c = c, .rs_c = rs_c, .cs_c = cs_c,
                          .kern = (FN(kernel_fn) *)uk->fn,
                          .direct = p->loops != GG_PACKED ? (FN(direct_fn) *)uk->direct : NULL,
                          .stream = p->loops == GG_STREAM ? (FN(stream_fn) *)uk->stream : NULL,
                          .edges = uk->edges, .nedges = uk->nedges,
                          .pedges = uk->pedges, .npedges = uk->npedges,
                          .tails = p->tails ? uk->tails : NULL,
                          .tk = p->tk,
                          .b_cols = uk->direct_b_cols, .narrow_k = p->narrow_k,
                          .bk = p->bk, .tm = p->tm, .tn = p->tn,
                          .conj_a = conj_a, .conj_b = conj_b };
}

#if GG_UNPACKED
/* o moved to the small tile sk (whole tiles, no row tails), blocking bks. */
static inline void FN(to_small)(struct FN(op) *o, const struct gg_ukernel *sk,
                                const struct gg_blocking *bks)
{
    o->kern = (FN(kernel_fn) *)sk->fn;
    o->direct = (FN(direct_fn) *)sk->direct;
    o->stream = NULL;
    o->edges = sk->edges; o->nedges = sk->nedges;
    o->pedges = sk->pedges; o->npedges = sk->npedges;
    o->tails = NULL;
    o->b_cols = sk->direct_b_cols;
    o->bk = *bks;
}

/* Rows [0, ms) in whole small tiles (row tiles outside where the plan
 * says), the rest on the main kernel. */
static void FN(tiles_first)(const struct FN(op) *o, const struct gg_plan *p,
                            const struct gg_ctx *x)
{
    struct FN(op) s = *o;
    FN(to_small)(&s, p->sk, &x->bks);
    if (p->rows_outside) FN(direct_loops_rows)(&s, 0, p->ms, 0, o->n);
    else FN(direct_loops)(&s, 0, p->ms, 0, o->n);
    if (p->ms < o->m)
        FN(direct_loops)(o, p->ms, o->m, 0, o->n);
}
#endif

/* The generated kernels in the plan's loops, on its grid of threads. */
static void FN(run_kernels)(const struct gg_plan *p, const struct gg_ctx *x, int64_t m,
                            int64_t n, int64_t k, TS alpha, const TA *a, int64_t rs_a,
                            int64_t cs_a, const TB *b, int64_t rs_b, int64_t cs_b, TS beta,
                            T *c, int64_t rs_c, int64_t cs_c, int conj_a, int conj_b)
{
    struct FN(op) o;
    FN(op_for)(&o, p, m, n, k, alpha, a, rs_a, cs_a, b, rs_b, cs_b, beta, c, rs_c, cs_c,
               conj_a, conj_b);
#if !GG_UNPACKED
    (void)x;                   /* no small tile to run first */
#endif
    if (p->nt > 1) gg_parallel(p->nt, FN(slab), &o);
#if GG_UNPACKED
    else if (p->tiles_first) FN(tiles_first)(&o, p, x);
#endif
    else FN(slab)(&o, 0, 1);
}

/* C = alpha A B + beta C as the plan says. The operands are swapped in the
 * arguments, not on a struct: there GCC read the strides back in 16-byte
 * pairs right after storing them in 8-byte halves, a store-forwarding
 * stall on every call. */
static inline __attribute__((always_inline)) void
FN(run)(const struct gg_plan *p, const struct gg_ctx *x, int64_t m, int64_t n, int64_t k,
        TS alpha, const TA *a, int64_t rs_a, int64_t cs_a, const TB *b, int64_t rs_b,
        int64_t cs_b, TS beta, T *c, int64_t rs_c, int64_t cs_c, int conj_a, int conj_b)
{
    if (p->swap) {
        GG_TRANSPOSE(m, n, a, b, rs_a, cs_a, rs_b, cs_b, rs_c, cs_c);
        GG_SWAP(int, conj_a, conj_b);
    }
    switch (p->path) {
    case GG_NOTHING:
        return;
    case GG_SCALE:
        FN(scale_c)(m, n, beta, c, rs_c, cs_c);
        return;
#if GG_OWN_LOOPS              /* the runtime's own loops: f64 and f32 only */
    case GG_TINY:
        FN(tiny)(m, n, k, alpha, a, rs_a, cs_a, b, rs_b, cs_b, beta, c, rs_c, cs_c);
        return;
    case GG_GEMV:
        for (int64_t j = 0; j < n; j++)
            FN(gemv_run)(p->nt, m, k, alpha, a, rs_a, cs_a, b + j * cs_b, rs_b, beta, c + j * cs_c,
                         rs_c);
        return;
    case GG_RANK_K:
        FN(rank_k_run)(p->nt, m, n, k, alpha, a, cs_a, b, rs_b, cs_b, beta, c, cs_c);
        return;
    case GG_FEW_ROWS:
        FN(gemm_few)(m, n, k, alpha, a, cs_a, b, rs_b, cs_b, beta, c, rs_c, cs_c);
        return;
    case GG_DOTS:
        FN(dots_run)(p, m, n, k, alpha, a, rs_a, cs_a, b, cs_b, beta, c, rs_c, cs_c);
        return;
    case GG_GEMV_COLS:
        FN(gemv_cols)(m, k, alpha, a, cs_a, b, rs_b, cs_b, beta, c, cs_c);
        return;
    case GG_SMALL_CT:
    case GG_SMALL:
        FN(small_run)(p, m, n, k, alpha, a, rs_a, cs_a, b, rs_b, cs_b, beta, c, rs_c, cs_c);
        return;
#endif
    case GG_KERNELS:
        FN(run_kernels)(p, x, m, n, k, alpha, a, rs_a, cs_a, b, rs_b, cs_b, beta, c, rs_c, cs_c,
                        conj_a, conj_b);
        return;
    default:                   /* a path the type has no loops for: its limits exclude it */
        return;
    }
}

#if GG_COMPLEX
#define GG_CONJ_PARAMS , int conj_a, int conj_b
#else
#define GG_CONJ_PARAMS
enum { conj_a = 0, conj_b = 0 };
#endif
void FN(gg_gemm)(int64_t m, int64_t n, int64_t k, TS alpha,
                 const TA *a, int64_t rs_a, int64_t cs_a,
                 const TB *b, int64_t rs_b, int64_t cs_b,
                 TS beta, T *c, int64_t rs_c, int64_t cs_c GG_CONJ_PARAMS)
{
    const struct gg_ctx *x = gg_ctx_current(GG_TYPE);
#ifdef GG_OTHER_GEMMS
    /* a set packing other k groups (gg_ukernel kg, kg_a): their instance */
    static const struct { int kg, kg_a; void (*fn)(int64_t, int64_t, int64_t, TS, const TA *,
                                                 int64_t, int64_t, const TB *, int64_t, int64_t,
                                                 TS, T *, int64_t, int64_t); } others[] = {
        GG_OTHER_GEMMS };
    for (size_t i = 0; x->uk->kg && i < sizeof others / sizeof *others; i++)
        if (x->uk->kg == others[i].kg && x->uk->kg_a == others[i].kg_a) {
            others[i].fn(m, n, k, alpha, a, rs_a, cs_a, b, rs_b, cs_b, beta, c, rs_c, cs_c);
            return;
        }
#endif
    const struct gg_call call = { m, n, k, a, b, c, rs_a, cs_a, rs_b, cs_b, rs_c, cs_c,
                                  alpha == 0, 0 };
    struct gg_plan p;
    gg_plan_for(&call, x, &p);
    FN(run)(&p, x, m, n, k, alpha, a, rs_a, cs_a, b, rs_b, cs_b, beta, c, rs_c, cs_c,
            conj_a, conj_b);
}
#undef GG_CONJ_PARAMS
