/* plan.c: the one place where a GEMM call's path is chosen (plan.h). The
 * order is that of increasing set-up: plain loops, matrix-vector loops,
 * the small tiles in place, then the generated kernels, unpacked or
 * packed, on a grid of threads. Each test below names the bound it reads
 * from struct gg_limits; docs/decisions.md holds why each is where it is. */
#include "plan.h"

/* The tests before the kernels' are inlined with gg_plan_for: calls to
 * them cost the smallest GEMMs measurably. */
#define HOT static inline __attribute__((always_inline))

#define SWAP(TY, x, y) do { TY t_ = (x); (x) = (y); (y) = t_; } while (0)

/* C^T = B^T A^T: the same problem with rows and columns swapped. */
static void transpose(struct gg_call *c)
{
    SWAP(int64_t, c->m, c->n);
    SWAP(const void *, c->a, c->b);
    SWAP(int64_t, c->rs_a, c->cs_b);
    SWAP(int64_t, c->cs_a, c->rs_b);
    SWAP(int64_t, c->rs_c, c->cs_c);
}

/* ---- the paths before the kernels ---- */

/* The threads wanted, asked only where a path depends on them. */
HOT int threads_of(const struct gg_call *c)
{
    return c->threads > 0 ? c->threads : gg_threads_wanted();
}

HOT int is_tiny(const struct gg_call *c, const struct gg_limits *l)
{
    const int64_t t = l->tiny_mnk;
    return c->m <= t && c->n <= t && c->k <= t && c->m * c->n * c->k <= t;
}

/* Threads for a matrix-vector product of m rows: each gets gv_per_thread
 * elements of A and a block of rows at least. */
HOT int gemv_threads(const struct gg_call *c, const struct gg_limits *l, int64_t m)
{
    const int64_t rows = 4 * l->lanes;
    int nt = threads_of(c);
    while (nt > 1 && (m * c->k / nt < l->gv_per_thread || (m + rows - 1) / rows < nt))
        nt--;
    return nt;
}

HOT int few_k(const struct gg_call *c, const struct gg_limits *l, int64_t s)
{
    return c->k <= l->few_k && c->rs_a == 1 && c->rs_c == 1 && c->m >= l->lanes
        && (double)c->m * c->n * s >= l->rank_k_c_bytes
        && (double)c->m * c->k * s <= l->rank_k_a_bytes;
}

HOT int few_cols(const struct gg_call *c, const struct gg_limits *l, int64_t s)
{
    return c->n == 2 && c->rs_a == 1 && c->rs_c == 1 && c->m >= l->lanes
        && (double)c->m * c->k * s <= l->gv_stream_bytes
        && (threads_of(c) == 1 || c->m * c->k < l->gv_per_thread);
}

/* A^T B (A's rows and B's columns contiguous) with few rows or columns,
 * neither many, and k long: dot products along k (GG_DOTS), where the
 * kernels' tiles computed padding. k past 16 of the dot products' 32-byte
 * vectors, so that a sum's multiply-adds outweigh its horizontal sum, and
 * past 32 times the fewer of m and n, below which the kernels kept up. */
HOT int dots_fit(const struct gg_call *c, const struct gg_limits *l)
{
    const int64_t lo = c->m < c->n ? c->m : c->n, hi = c->m < c->n ? c->n : c->m;
    return c->cs_a == 1 && c->rs_b == 1 && lo <= l->dots_lo && hi <= l->dots_hi
        && c->k >= 16 * (l->lanes / 2) && c->k >= 32 * lo;
}

/* Rows below a 32-byte vector, A's columns contiguous: each column of A
 * read once for several of C's (GG_FEW_ROWS), where the kernels' tiles
 * computed padding; with k short against n the small tiles kept up. */
HOT int rows_below_vector(const struct gg_call *c, const struct gg_limits *l)
{
    return c->rs_a == 1 && c->m < l->lanes / 2 && c->n <= l->below_vector_n && c->k >= 16
        && c->k >= 2 * c->n;
}

/* The matrix-vector paths: one column, or up to gemv_cols columns of
 * fewer rows than a vector, one after another (the kernels' tiles would
 * compute mostly padding); one row as C^T's column, where op(B)^T has
 * contiguous columns, or contiguous rows and op(A)'s row is contiguous
 * (the dot products); a rank-k update; two columns. 0: none of them. */
HOT int vector_path(const struct gg_call *c, const struct gg_ctx *x, struct gg_plan *p)
{
    const struct gg_limits *l = &x->lim;
    if (c->n == 1) {
        p->path = GG_GEMV;
        p->nt = gemv_threads(c, l, c->m);
    } else if (c->m == 1 && (c->cs_b == 1 || (c->rs_b == 1 && c->cs_a == 1))) {
        p->path = GG_GEMV;
        p->swap = 1;
        p->nt = gemv_threads(c, l, c->n);
    } else if (dots_fit(c, l)) {
        p->path = GG_DOTS;
        p->dots_wide = 0;
    } else if (rows_below_vector(c, l)) {
        p->path = GG_FEW_ROWS;
    } else if (c->n <= l->gemv_cols && c->m < l->lanes) {
        p->path = GG_GEMV;
        p->nt = gemv_threads(c, l, c->m);
    } else if (few_k(c, l, x->esize)) {
        p->path = GG_RANK_K;
        int nt = threads_of(c);
        while (nt > 1 && (double)c->m * (c->n / nt) * x->esize < l->rank_k_c_bytes / 2)
            nt--;
        p->nt = nt;
    } else if (few_cols(c, l, x->esize)) {
        p->path = GG_GEMV_COLS;
    }
    return p->path != GG_NOTHING;
}

/* Can the small tile stand in for the main kernel at all? */
HOT int small_usable(const struct gg_ukernel *uk, const struct gg_ukernel *sk,
                        const struct gg_limits *l)
{
    return sk->direct && sk->row_pref == uk->row_pref && l->small_tile;
}

/* C whole tiles of a small tile with a k bound: its loops beat the small path. */
HOT int tiles_whole(const struct gg_call *c, const struct gg_ctx *x)
{
    const struct gg_ukernel *sk = x->sk;
    if (c->rs_a != 1 || c->rs_c != 1) return 0;
    return x->lim.small_tile_whole && c->k <= x->lim.small_tile_k && sk->mr
        && c->m >= sk->mr && c->n >= 4 * sk->nr && small_usable(x->uk, sk, &x->lim)
        && c->m % sk->mr == 0 && c->n % sk->nr == 0;
}

/* A^T copied by the packing's transposes rather than element by element. */
HOT int small_transposes(const struct gg_call *c, const struct gg_limits *l)
{
    const int64_t m = c->m;
    return c->cs_a == 1 && m >= l->lanes && m <= 32 && m % 8 == 0 && c->n >= 8
        && m * c->n * c->k <= (c->cs_b == 1 && m < 4 * l->lanes ? l->small_mnk
                                                                  : l->small_transposed_mnk);
}

HOT int small_ct(const struct gg_call *c, const struct gg_ctx *x)
{
    const struct gg_limits *l = &x->lim;
    const int64_t mnk = c->m * c->n * c->k;
    return l->small_ct && c->rs_c == 1 && c->cs_a == 1 && c->rs_a != 1 && c->cs_b == 1
        && c->rs_b != 1 && c->n >= l->lanes && mnk <= l->ct_mnk
        && (mnk <= l->ct_shared_mnk || threads_of(c) == 1)
        && !(x->esize == 4 && small_transposes(c, l));
}

/* The small tiles on the operands in place; C by columns (or by rows, as
 * C^T); A copied where its columns are not contiguous or short. */
HOT int small_path(const struct gg_call *call, const struct gg_ctx *x, struct gg_plan *p)
{
    const struct gg_limits *l = &x->lim;
    if (small_ct(call, x)) {
        p->path = GG_SMALL_CT;
        return 1;
    }
    const int64_t m = call->m, n = call->n, k = call->k;
    if (m > l->small_mnk || n > l->small_mnk || k > l->small_k || m * n * k > l->small_mnk)
        return 0;
    struct gg_call c = *call;
    int swap = c.rs_c != 1 && c.cs_c == 1;
    if (swap) transpose(&c);
    if (c.rs_c != 1) return 0;
    enum gg_small_a a = GG_A_IN_PLACE;
    if (c.rs_a != 1 || c.m < l->lanes) {
        if (small_transposes(&c, l)) a = GG_A_TRANSPOSED;
        else if (m * n * k > l->small_copy_mnk) return 0;
        else a = GG_A_COPIED;
    }
    p->path = GG_SMALL;
    p->swap = swap;
    p->small_a = a;
    return 1;
}

/* ---- the kernels ---- */

/* Prefer the kernel's C storage. */
static int flips(const struct gg_call *c, int row_pref)
{
    int64_t ars = c->rs_c < 0 ? -c->rs_c : c->rs_c, acs = c->cs_c < 0 ? -c->cs_c : c->cs_c;
    return (acs < ars) != !!row_pref;
}

/* Does one of these row tails (NULL: none) take t rows (at some k)? */
static int tail_takes(const struct gg_tail *tails, int64_t t)
{
    for (int i = 0; tails && i < GG_TAILS; i++)
        if (tails[i].fn && t <= tails[i].rows) return 1;
    return 0;
}

/* A^T times a few columns: n rows of dot products as C^T = B^T A^T. */
static int as_rows(const struct gg_call *c, const struct gg_ukernel *uk)
{
    return c->n < c->m && c->cs_a == 1 && c->rs_a != 1 && c->rs_b == 1
        && tail_takes(uk->tails, c->n);
}

/* A few rows of C times B^T: B's columns read in place as C^T's A. */
static int few_rows(const struct gg_call *c, const struct gg_limits *l)
{
    return c->m <= l->few_rows && c->n > c->m && c->cs_b == 1 && c->rs_b != 1;
}

/* n rows fill two thirds of the tiles of mr rows that cover them. */
static int fills_tiles(int64_t n, int64_t mr)
{
    return 2 * ((n + mr - 1) / mr * mr) <= 3 * n;
}

/* B^T read in place by rows (the kernels' row view). */
static int rows_view(const struct gg_call *c, const struct gg_ctx *x)
{
    if (c->cs_b != 1 || c->rs_b == 1) return 0;
    const struct gg_ukernel *sk = x->sk;
    if (!sk->mr || fills_tiles(c->n, sk->mr)) return 1;
    const int64_t t = c->m % x->uk->mr;        /* rows a row tail would take */
    return c->m < x->lim.tailless_max_m && c->n % sk->nr == 0
        && !(t && tail_takes(x->uk->tails, t));
}

static const struct gg_ukernel *by_rows(const struct gg_ukernel *k, int view)
{
    return view && k->b_rows ? k->b_rows : k;
}

/* B as the unpacked kernels read it: whole panels in place. */
static int b_as_read(const struct gg_call *c, const struct gg_ukernel *uk)
{
    return uk->direct_b_cols ? c->rs_b == 1 : c->cs_b == 1;
}

/* The unpacked path's k block: all of k up to 1.5 KC, else KC. */
static int64_t direct_kb(int64_t k, const struct gg_blocking *bk)
{
    return 2 * k <= 3 * (int64_t)bk->kc ? k : bk->kc;
}

int gg_crowds_l1(const struct gg_blocking *bk, const void *base, int64_t nseg, int64_t len,
                 int64_t stride, int slack)
{
    enum { MAXWORDS = 64 };        /* up to 4096 sets; a bitmap, as this runs per call */
    int sets = bk->l1_sets, line = bk->l1_line;
    if (sets <= 0 || sets > 64 * MAXWORDS || line <= 0 || nseg <= bk->l1_ways) return 0;
    uint64_t used[MAXWORDS];
    for (int w = 0; w < (sets + 63) / 64; w++) used[w] = 0;
    uintptr_t b0 = (uintptr_t)base;
    int64_t lines = 0, nsets = 0;
    for (int64_t g = 0; g < nseg; g++) {
        uintptr_t first = (b0 + (uintptr_t)(g * stride)) / (uintptr_t)line;
        uintptr_t last = (b0 + (uintptr_t)(g * stride + len - 1)) / (uintptr_t)line;
        if (last - first >= (uintptr_t)sets) last = first + (uintptr_t)sets - 1;
        uintptr_t s = first % (uintptr_t)sets;     /* one division per segment */
        for (uintptr_t ln = first; ln <= last; ln++, lines++) {
            uint64_t bit = (uint64_t)1 << (s % 64);
            if (!(used[s / 64] & bit)) { used[s / 64] |= bit; nsets++; }
            if (++s == (uintptr_t)sets) s = 0;
        }
    }
    return lines > nsets * bk->l1_ways * slack;
}

/* The in-place B panel of kb rows fits its L1 sets (checked from 160^3). */
static int b_fits_l1(const struct gg_call *c, const struct gg_ukernel *uk,
                     const struct gg_blocking *bk, int64_t kb, int64_t s)
{
    if ((double)c->m * c->n * c->k < 160.0 * 160 * 160) return 1;
    if (uk->direct_b_cols && c->rs_b == 1)
        return !gg_crowds_l1(bk, c->b, bk->nr, kb * s, c->cs_b * s, 1);
    return 1;                       /* by rows, or copied panel by panel anyway */
}

/* Tall, narrow C: B's block in L2, A streamed in place past the panels;
 * A's tile must keep its L1 sets for the next panel, where there is one
 * (narrower than one panel: packing A for it copied all of A to read
 * it once). */
static int streams(const struct gg_call *c, const struct gg_ukernel *uk,
                   const struct gg_blocking *bk, int64_t kb, int64_t s)
{
    return uk->stream && uk->direct && c->rs_a == 1 && b_as_read(c, uk)
        && c->n * kb <= (int64_t)bk->mc * bk->kc && c->n < (int64_t)(GG_STREAM_PANELS - 1) * bk->nr
        && (c->n < bk->nr || !gg_crowds_l1(bk, c->a, kb, bk->mr * s, c->cs_a * s, 2));
}

/* Packed, unpacked (A in half of L2, B's panel in L1) or streamed loops. */
static enum gg_loops choose_loops(const struct gg_call *c, const struct gg_ukernel *uk,
                                  const struct gg_blocking *bk, const struct gg_limits *l,
                                  int64_t s)
{
    const int mode = l->direct_mode;
    const int64_t kb = direct_kb(c->k, bk);
    const int a_fits = c->m * kb <= (int64_t)(bk->mc + bk->mr) * bk->kc;
    const int fits = a_fits && b_fits_l1(c, uk, bk, kb, s);
    const int stream = (mode == 2 || (mode < 0 && !a_fits)) && streams(c, uk, bk, kb, s);
    /* narrower than a panel, A's tile is read once: in place, where the
     * stream does not take it (B^T: its one panel copied, or by rows) */
    const int once = mode < 0 && c->n < bk->nr && c->rs_a == 1;
    if (!uk->direct || !(mode == 1 || (mode < 0 && fits) || stream || once)) return GG_PACKED;
    return stream ? GG_STREAM : GG_DIRECT;
}

/* The rows past the small tile's whole tiles go to it too when they are
 * exactly one of its full-width edge kernels. */
static int64_t small_rows(int64_t m, const struct gg_ukernel *sk)
{
    int64_t ms = m / sk->mr * sk->mr;
    const struct gg_dedge *e = sk->edges;   /* the same layout for every type */
    for (int i = 0; i < sk->nedges; i++)
        if (e[i].nr == sk->nr && e[i].mr == m - ms) return m;
    return ms;
}

/* C no wider than the small tile is one column panel of it. */
static int one_panel(const struct gg_call *c, const struct gg_plan *p, const struct gg_limits *l)
{
    const struct gg_ukernel *sk = p->sk;
    return (p->loops != GG_PACKED || l->direct_mode < 0) && small_usable(p->uk, sk, l)
        && c->rs_a == 1 && c->n <= sk->nr && (c->m >= sk->mr || small_rows(c->m, sk) == c->m);
}

/* With C's tile crowding its L1 sets, fewer, deeper k blocks update C
 * fewer times: KC doubled, MC halved. */
static void deepen_for_c(const struct gg_call *c, struct gg_blocking *bk, int64_t s)
{
    if (c->k <= bk->kc) return;
    int crowded = c->rs_c == 1 ? gg_crowds_l1(bk, c->c, bk->nr, bk->mr * s, c->cs_c * s, 1)
                : c->cs_c == 1 ? gg_crowds_l1(bk, c->c, bk->mr, bk->nr * s, c->rs_c * s, 1)
                : 0;
    if (!crowded) return;
    int64_t mc = bk->mc / 2 / bk->mr * bk->mr;
    bk->kc *= 2;
    bk->mc = (int)(mc > bk->mr ? mc : bk->mr);
}

/* tm x tn = nt slabs minimizing the packing that splitting adds; each
 * thread gets at least thread_edge^3 multiply-adds (twice the edge when
 * the pool may be asleep). */
static void grid(const struct gg_call *c, const struct gg_limits *l, struct gg_plan *p)
{
    int nt = threads_of(c);
    p->tm = p->tn = 1;
    p->nt = 1;
    if (nt <= 1) return;
    const double work = (double)c->m * c->n * c->k;
    const double edge = (double)l->thread_edge * (gg_calls_back_to_back() ? 1 : 2);
    const double least = edge * edge * edge;
    const int64_t mu = (c->m + p->bk.mr - 1) / p->bk.mr, nu = (c->n + p->bk.nr - 1) / p->bk.nr;
    while (nt > 1 && (work / nt < least || mu * nu < nt))
        nt--;
    double best = -1;
    for (int tm = 1; tm <= nt; tm++) {
        if (nt % tm || tm > mu || nt / tm > nu)
            continue;
        double cost = (double)(nt / tm) * c->m + (double)tm * c->n;
        if (best < 0 || cost < best) {
            best = cost; p->tm = tm; p->tn = nt / tm;
        }
    }
    p->nt = best < 0 ? 1 : nt;
}

/* An MR x k tile of A in place in half of L1 without crowding its sets,
 * by arithmetic: columns a whole number of lines apart start on
 * sets / gcd(step, sets) sets, each filling `per` sets from there. */
static int rows_outside(const struct gg_call *c, const struct gg_ukernel *sk,
                        const struct gg_blocking *bk, int64_t s)
{
    const int64_t tile = bk->mr * c->k * s, sets = bk->l1_sets, line = bk->l1_line;
    if (!b_as_read(c, sk) || c->rs_a != 1 || sets <= 0 || line <= 0
        || 2 * tile > sets * bk->l1_ways * line)
        return 0;
    if ((c->cs_a * s) % line)
        return 1;
    int64_t g = sets, x = (c->cs_a * s / line) % sets, per = (bk->mr * s + line - 1) / line;
    while (x) { int64_t t = g % x; g = x; x = t; }     /* gcd(step, sets) */
    int64_t used = per >= g ? sets : sets / g * per;
    return c->k * per <= used * bk->l1_ways;
}

/* Whole small tiles first, unpacked, at small k; the rest on the main kernel. */
static void tiles_first(const struct gg_call *c, const struct gg_ctx *x, struct gg_plan *p)
{
    const struct gg_ukernel *sk = p->sk;
    const struct gg_limits *l = &x->lim;
    if (p->loops != GG_DIRECT || !small_usable(p->uk, sk, l) || c->k > l->small_tile_k
        || c->n % sk->nr)
        return;
    const int64_t ms = l->small_tile_whole ? c->m / sk->mr * sk->mr : small_rows(c->m, sk);
    const struct gg_tail *tails = p->tails ? p->uk->tails : NULL;
    if (!ms || (l->small_tile_whole && c->m < 2 * sk->mr && c->m != sk->mr
                && !tail_takes(tails, c->m - ms)))
        return;
    p->tiles_first = 1;
    p->ms = ms;
    p->rows_outside = rows_outside(c, sk, &x->bks, x->esize);
}

/* B's NR columns at one k on too few L1 sets to hold their lines. */
static int b_crowds_l1(const struct gg_call *c, const struct gg_ctx *x)
{
    const int64_t s = x->esize;
    return gg_crowds_l1(&x->bk, c->b, x->bk.nr, s, c->cs_b * s, 1);
}

/* Dot products where one side is long (GG_DOTS): many rows of A^T B
 * against few columns, the kernels' tiles mostly padding; few rows of A
 * with contiguous columns, copied into rows, against B's columns, where
 * the kernels packed all of B for those rows, or read it in place with
 * NR columns' lines at one k on too few L1 sets (a power-of-two ldb) and
 * missed L1 on every broadcast (the copy up to gv_stream_bytes, as the
 * buffer stays); few rows of A^T against such columns of B. Few: up to
 * dots_lo, or dots_crowded_lo rows against crowded columns. The 64-byte
 * tiles (dots_wide) where A's rows are copied or 64-byte multiples apart,
 * or streamed from past the caches. Tried on the kernels' way,
 * past the small path (whose k is shorter): a call to it in gg_plan_for
 * cost the smallest GEMMs measurably. */
static __attribute__((noinline)) int dots_long(const struct gg_call *c, const struct gg_ctx *x,
                                               struct gg_plan *p)
{
    const struct gg_limits *l = &x->lim;
    const int64_t lo = c->m < c->n ? c->m : c->n, s = x->esize;
    if (c->rs_b != 1 || lo > l->dots_crowded_lo || c->k < 16 * (l->lanes / 2)
        || c->k < 32 * lo)
        return 0;
    const int few = lo <= l->dots_lo;
    if (few && c->cs_a == 1 && c->n == lo) {
        p->dots_wide = (double)c->m * c->k * s > (double)l->gv_stream_bytes;
    } else if (c->m != lo) {
        return 0;
    } else if (c->rs_a == 1 && (double)c->m * c->k * s <= l->gv_stream_bytes
               && ((few && 2 * c->m <= l->lanes) || b_crowds_l1(c, x))) {
        p->dots_wide = 1;
    } else if (c->cs_a == 1 && b_crowds_l1(c, x)) {
        p->dots_wide = (c->rs_a * s) % 64 == 0;
    } else {
        return 0;
    }
    p->path = GG_DOTS;
    const double work = (double)c->m * c->n * c->k, edge = l->thread_edge;
    const int64_t units = ((c->m > c->n ? c->m : c->n) + 3) / 4;
    int nt = threads_of(c);
    while (nt > 1 && (work / nt < edge * edge * edge || units < nt))
        nt--;
    p->nt = nt;
    return 1;
}

/* The dot products on the call or, where B's columns are not contiguous,
 * on C^T = B^T A^T (A^T B^T with few columns is few rows of B against
 * A's columns). With B's columns contiguous C^T's dot products are the
 * call's own, which dots_long has refused. */
static int dots_of_either(struct gg_call *c, const struct gg_ctx *x, struct gg_plan *p)
{
    if (dots_long(c, x, p)) return 1;
    if (!x->lim.may_swap || c->rs_b == 1) return 0;
    transpose(c);
    if (dots_long(c, x, p)) {
        p->swap = 1;
        return 1;
    }
    transpose(c);
    return 0;
}

/* Out of line: the paths before it must not pay for its frame. */
static __attribute__((noinline)) void kernels_path(struct gg_call *c, const struct gg_ctx *x,
                                                   struct gg_plan *p)
{
    const struct gg_limits *l = &x->lim;
    if (l->direct_mode < 0 && l->own_loops && dots_of_either(c, x, p)) return;
    p->path = GG_KERNELS;
    p->tk = NULL;
    p->one_panel = p->tiles_first = p->rows_outside = 0;
    p->ms = 0;
    if (l->may_swap && (flips(c, x->uk->row_pref) || as_rows(c, x->uk) || few_rows(c, l))) {
        p->swap = 1;
        transpose(c);
    }
    const int view = rows_view(c, x);
    p->uk = by_rows(x->uk, view);
    p->sk = by_rows(x->sk, view);
    p->bk = x->bk;
    p->loops = choose_loops(c, p->uk, &p->bk, l, x->esize);
    p->tails = p->loops != GG_PACKED && l->row_tails;
    if (p->uk != x->uk && p->sk != x->sk && l->row_tails && l->small_tile)
        p->tk = p->sk;                   /* both in their row views */
    p->narrow_k = l->narrow_k < 0 ? p->uk->narrow_k : l->narrow_k;   /* the main kernel's */
    p->one_panel = one_panel(c, p, l);
    if (p->one_panel) {
        p->uk = p->sk;
        p->loops = GG_DIRECT;
        p->tails = l->row_tails;
        p->bk = x->bks;
    }
    if (p->loops == GG_PACKED) deepen_for_c(c, &p->bk, x->esize);
    grid(c, l, p);
    if (p->nt <= 1 && !p->one_panel) tiles_first(c, x, p);
}

/* Only the fields of the chosen path are set. Inlined into each entry
 * point (LTO): a call here cost the smallest calls a tenth of their time. */
__attribute__((always_inline)) inline void gg_plan_for(const struct gg_call *call, const struct gg_ctx *x, struct gg_plan *p)
{
    p->swap = 0;
    p->nt = 1;
    if (call->m <= 0 || call->n <= 0) {
        p->path = GG_NOTHING;
        return;
    }
    if (call->alpha_zero || call->k <= 0) {
        p->path = GG_SCALE;
        return;
    }
    if (x->lim.direct_mode < 0 && x->lim.own_loops) {   /* the path left to size */
        if (is_tiny(call, &x->lim)) {
            p->path = GG_TINY;
            return;
        }
        p->path = GG_NOTHING;
        if (vector_path(call, x, p)) return;
        if (!tiles_whole(call, x) && small_path(call, x, p)) return;
    }
    struct gg_call c = *call;      /* only here in memory: the tests above keep it in registers */
    kernels_path(&c, x, p);
}
