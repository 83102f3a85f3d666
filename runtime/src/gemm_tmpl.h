/* gemm_tmpl.h: the Goto/BLIS five loops around the micro-kernel, for one
 * element type, and the entry point. The including file defines T, FN(x),
 * TYPE_CHAR ('d'/'s'), KSET_FIELD (d or s: which kernel of the set), SMALL_FIELD
 * (d_small or s_small: its small_tile kernel) and
 * EDGE_T (its edge kernels' struct), then includes pack_tmpl.h,
 * op_tmpl.h, edge_tmpl.h, direct_tmpl.h and this file.
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
 * minimizes the redundant packing it causes (see FN(grid)). */

/* The ir and jr loops over one packed A block and one packed B block. */
static void FN(macro_kernel)(const struct FN(op) *o, int64_t mc, int64_t nc,
                             int64_t kc, const T *ap, const T *bp, const T *beta, T *c)
{
    const int mr = o->bk.mr, nr = o->bk.nr;
    const struct FN(cols) cs = FN(col_split)(o, nc, 0);
    for (int64_t jr = 0, nn; jr < nc; jr += nn) {
        int w = FN(width_at)(&cs, jr);
        const T *b = bp + jr * kc;
        nn = FN(min)(w, nc - jr);
        if (w < nr) {
            FN(edge_panel)(o, mc, nn, kc, w, ap, b, beta, c + jr * o->cs_c);
            continue;
        }
        for (int64_t ir = 0; ir < mc; ir += mr) {
            int64_t mm = FN(min)(mr, mc - ir);
            const T *a = ap + ir * kc;
            /* prefetch hints: the next A panel, or back to the first one
             * together with the next B panel when this column is done */
            int last = ir + mr >= mc;
            const T *a_next = last ? ap : a + mr * kc;
            const T *b_next = last ? b + nr * kc : b;
            FN(packed_for)(o, mm)(mm, nn, kc, &o->alpha, a, b, beta,
                    c + ir * o->rs_c + jr * o->cs_c, o->rs_c, o->cs_c, a_next, b_next);
        }
    }
}

/* B's kc x nc block (x, strides of B) as the column panels the jr loop
 * takes (FN(col_split)): NR wide, then the narrower tail panels. */
static void FN(pack_b)(const struct FN(op) *o, int64_t nc, int64_t kc, const T *x, T *dst)
{
    const struct FN(cols) cs = FN(col_split)(o, nc, 0);
    int64_t jr = FN(min)(cs.wide, nc);    /* the last NR panel may be partial */
    if (jr) FN(pack)(jr, kc, x, o->cs_b, o->rs_b, cs.nr, dst);
    for (int64_t nn; jr < nc; jr += nn) {
        int w = FN(width_at)(&cs, jr);
        nn = FN(min)(w, nc - jr);
        FN(pack)(nn, kc, x + jr * o->cs_b, o->cs_b, o->rs_b, w, dst + jr * kc);
    }
}

/* A's mc x kc block (x, strides of A) as MR-row panels, the short last
 * one FN(a_height) rows high. */
static void FN(pack_a)(const struct FN(op) *o, int64_t mc, int64_t kc, const T *x, T *dst)
{
    const int mr = o->bk.mr;
    int64_t full = mc / mr * mr;
    if (full) FN(pack)(full, kc, x, o->rs_a, o->cs_a, mr, dst);
    if (mc > full)
        FN(pack)(mc - full, kc, x + full * o->rs_a, o->rs_a, o->cs_a, FN(a_height)(o, mc - full),
                 dst + full * kc);
}

/* With C's tile crowding its L1 sets (columns a multiple of 4 KB apart:
 * every column on the same two or three sets), each tile's update of C
 * misses L1 however C is prefetched; fewer, deeper k blocks update C
 * fewer times: KC doubled, MC halved (the A block keeps its share of L2).
 * Zen 4, 1 thread, gemmab B/A: DGEMM 512^3 1.020-1.028, 1024^3
 * 1.020-1.029, SGEMM 1024^3 1.016; C's columns 4 KB + 64 B apart lose
 * nothing to the crowding and keep KC. Only k beyond KC can go deeper:
 * that test comes first, the set count (a loop over the tile) after it. */
static void FN(deepen_for_c)(struct FN(op) *o)
{
    const int64_t S = (int64_t)sizeof(T);
    struct gg_blocking *bk = &o->bk;
    if (o->k <= bk->kc) return;
    int crowded = o->rs_c == 1 ? FN(crowds_l1)(bk, o->c, bk->nr, bk->mr * S, o->cs_c * S, 1)
                : o->cs_c == 1 ? FN(crowds_l1)(bk, o->c, bk->mr, bk->nr * S, o->rs_c * S, 1)
                : 0;
    if (!crowded) return;
    int64_t mc = bk->mc / 2 / bk->mr * bk->mr;
    bk->kc *= 2;
    bk->mc = (int)(mc > bk->mr ? mc : bk->mr);
}

/* The jc, pc and ic loops on the slab C[m0:m1, n0:n1]. */
static void FN(five_loops)(const struct FN(op) *o, int64_t m0, int64_t m1,
                           int64_t n0, int64_t n1)
{
    const struct gg_blocking *bk = &o->bk;
    int64_t mcmax = FN(min)(bk->mc, (m1 - m0 + bk->mr - 1) / bk->mr * bk->mr);
    int64_t ncmax = FN(min)(bk->nc, (n1 - n0 + bk->nr - 1) / bk->nr * bk->nr);
    int64_t kcmax = FN(min)(bk->kc, o->k);
    T *ap = gg_pack_buffer(0, (size_t)(mcmax * kcmax) * sizeof(T));
    T *bp = gg_pack_buffer(1, (size_t)(ncmax * kcmax) * sizeof(T));
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
    if (o->stream)
        FN(stream_loops)(o, m0, m1, n0, n1);
    else if (o->direct)
        FN(direct_loops)(o, m0, m1, n0, n1);
    else
        FN(five_loops)(o, m0, m1, n0, n1);
}

/* Chooses tm x tn = nt minimizing the packing that splitting adds: each
 * of the tn column slabs packs all of A (m*k), each of the tm row slabs
 * all of B (k*n). Small problems use fewer threads: each thread gets at
 * least 96^3 multiply-adds when the pool may be asleep (waking a thread
 * costs tens of microseconds), 48^3 when calls come back to back and its
 * threads spin (DGEMM 2 threads, back-to-back calls: 64^3 80 -> 104
 * GFLOPS, 96^3 81 -> 126 with a 40^3 bound). f32 needs more multiply-adds
 * for the same time, but not twice as many: Zen 5, separate processes, 2
 * threads against 1 at back-to-back SGEMM 64^3 0.93-1.00x (0.85x in a
 * gemmbench run), 72^3 1.03-1.08x, 80^3 1.26-1.30x; DGEMM 64^3 1.01-1.04x,
 * 72^3 1.22x. Hence edges of 56 and 112 for f32. */
static int FN(grid)(struct FN(op) *o, int nt)
{
    o->tm = 1; o->tn = 1;
    if (nt <= 1) return 1;
    double work = (double)o->m * o->n * o->k;
    const double edge = (sizeof(T) == 4 ? 56.0 : 48.0) * (gg_calls_back_to_back() ? 1 : 2);
    const double least = edge * edge * edge;
    int64_t mu = (o->m + o->bk.mr - 1) / o->bk.mr, nu = (o->n + o->bk.nr - 1) / o->bk.nr;
    while (nt > 1 && (work / nt < least || mu * nu < nt))
        nt--;
    double best = -1;
    for (int tm = 1; tm <= nt; tm++) {
        if (nt % tm || tm > mu || nt / tm > nu)
            continue;
        double cost = (double)(nt / tm) * o->m + (double)tm * o->n;
        if (best < 0 || cost < best) {
            best = cost; o->tm = tm; o->tn = nt / tm;
        }
    }
    return best < 0 ? 1 : nt;
}

/* Prefer the kernel's C storage: C^T = B^T A^T swaps the roles of rows and
 * columns, turning a column-stored C into a row-stored one. */
static int FN(flips)(int64_t rs_c, int64_t cs_c, int row_pref)
{
    int64_t ars = rs_c < 0 ? -rs_c : rs_c, acs = cs_c < 0 ? -cs_c : cs_c;
    return (acs < ars) != !!row_pref;
}

/* sk, the set's small_tile kernel (a second kernel: on Zen 4 f64 32x4 beside
 * 16x14) takes the rows of its whole tiles (and of one of its edge kernels,
 * small_rows) on the unpacked path while k is at most SMALL_TILE_K (or the
 * machine's small_tile.max_k: Zen 5's 96), the main kernel the rows left
 * (C no wider than its tile, at any k: FN(one_panel));
 * row tiles outside where its A tile stays in L1 (direct_block_rows). Returns 0 when
 * it does not run: no such kernel, another C storage, the streamed path
 * (direct_tmpl.h), the call split among threads, or n not whole tiles
 * (DGEMM 65^3, 97^3, 129^3 lost 0.5-1.3% on a last 4-wide panel of one
 * column). Beyond SMALL_TILE_K its A block (read from L2 for every NR = 4
 * columns) outgrows half of L2: Zen 4 DGEMM 384^3 ran 0.97x of 16x14,
 * 128x4000x4000 0.92x; 256^3 1.03x, 64^3 1.02x. */
enum { SMALL_TILE_K = 256 };

/* The rows past sk's whole tiles: its own when they are exactly one of its
 * full-width edge kernels (f32 64x4's 32 x 4: SGEMM 96^3 +0.7%; f64 32x4's
 * 16 x 4: DGEMM 48^3 +3%, 80^3 +0.9%), else the main kernel's, whose
 * tails and wide panels took any other count better (with sk's edges and
 * row tails on every 4-column panel: SGEMM 80^3 -18%, 88^3 -7%, DGEMM 72^3
 * -11%, 100^3 -3%). */
static int64_t FN(small_rows)(const struct FN(op) *o, const struct gg_ukernel *sk)
{
    int64_t ms = o->m / sk->mr * sk->mr;
    const EDGE_T *e = sk->edges;
    for (int i = 0; i < sk->nedges; i++)
        if (e[i].nr == sk->nr && e[i].mr == o->m - ms) return o->m;
    return ms;
}

/* Does one of these row tails (NULL: none) take t rows (at some k)? */
static int FN(tail_takes)(const struct gg_tail *tails, int64_t t)
{
    for (int i = 0; tails && i < GG_TAILS; i++)
        if (tails[i].fn && t <= tails[i].rows) return 1;
    return 0;
}

/* Can the set's small tile sk stand in for its main kernel uk at all
 * (one exists with a _direct variant and the same C storage, not
 * turned off by GEMMGEN_SMALL_TILE=0)? */
static int FN(small_usable)(const struct gg_ukernel *uk, const struct gg_ukernel *sk)
{
    return sk->direct && sk->row_pref == uk->row_pref && !gg_small_tile_off();
}

/* o's problem moved to the small tile sk: its kernels, edges and
 * blocking; its row tails too when asked (not with GEMMGEN_DOT=0).
 * In place: a copy of the op returned by value (not inlined) was 2% of
 * SGEMM 100x2x100. */
static inline void FN(to_small)(struct FN(op) *o, const struct gg_ukernel *sk, int tails)
{
    o->kern = (FN(kernel_fn) *)sk->fn;
    o->direct = (FN(direct_fn) *)sk->direct;
    o->stream = NULL;
    o->edges = sk->edges; o->nedges = sk->nedges;
    o->pedges = sk->pedges; o->npedges = sk->npedges;
    o->tails = tails ? sk->tails : NULL;
    o->b_cols = sk->direct_b_cols;
    o->bk = *gg_blocking_small(TYPE_CHAR);
}

/* C no wider than the small tile sk (n <= 4) is one column panel: A is
 * read once whatever k, so neither k bound applies, and the tile wastes
 * less than the main kernel's 8-wide edges; its own edges and row tails
 * take the rows past whole tiles, and threads split the rows in its
 * tiles. Zen 5, gemmab against the main kernel: SGEMM 100x4x100 1.69x,
 * 100x2x100 1.71x, 100x3x100 1.74x, 500x4x500 1.26x, 1000x4x1000 1.68x;
 * DGEMM 100x4x100 2.03x, 500x2x500 1.60x, 4000x3x500 1.75x. With fewer
 * rows than a tile (an edge taking them) SGEMM 16x4x1000 ran 0.56x: not
 * taken, unless they are one of its edge kernels (DGEMM 16x4x1000 2.2x).
 * A read in place (contiguous columns) only: A^T's rows copied into the
 * tile's panels every call ran SGEMM A^T 100x4x100 0.24x. Whichever
 * path the size chose, unless one is forced (GEMMGEN_DIRECT): with B^T
 * (not read in place, so not streamed) the packed path copied all of A
 * for two columns, DGEMM B^T 300x2x300 3.66x, 1000x4x1000 3.19x. */
static int FN(one_panel)(const struct FN(op) *o, const struct gg_ukernel *uk,
                         const struct gg_ukernel *sk)
{
    return (o->direct || gg_direct_mode() < 0) && FN(small_usable)(uk, sk)
        && o->rs_a == 1 && o->n <= sk->nr && (o->m >= sk->mr || FN(small_rows)(o, sk) == o->m);
}

static int FN(small_tile_loops)(const struct FN(op) *o, const struct gg_ukernel *uk,
                                const struct gg_ukernel *sk, int max_k)
{
    if (!o->direct || o->stream || !FN(small_usable)(uk, sk)
        || o->k > (max_k ? max_k : SMALL_TILE_K) || o->n % sk->nr)
        return 0;
    /* with a k limit (Zen 5) only whole tiles: DGEMM 80^3's last 16 rows
     * ran 1.6% faster on the main kernel, SGEMM 96^3's 32 level */
    int64_t ms = max_k ? o->m / sk->mr * sk->mr : FN(small_rows)(o, sk);
    /* With a k limit (Zen 5's, where A must stay in L1), one whole tile
     * and rows past it go to the main kernel, unless those rows are only
     * its row tail (they are computed so either way): Zen 5, gemmab
     * against all on the main kernel, DGEMM 36^3 (32 + 4) 1.021-1.035,
     * SGEMM 68^3 1.018, 72^3 1.016-1.027; with more rows past, DGEMM 40^3
     * 0.982-0.985, 44^3 0.987, 48^3 0.988-0.993 (stop 31: 0.97), SGEMM
     * 76-96^3 0.996-1.006, 88^3 1.016. (SGEMM 64^3, one tile, 1.03x; on
     * Zen 4 48^3 gained 1.2% on sk, stop 29.) */
    if (!ms || (max_k && o->m < 2 * sk->mr && o->m != sk->mr && !FN(tail_takes)(o->tails, o->m - ms)))
        return 0;
    struct FN(op) s = *o;
    FN(to_small)(&s, sk, 0);        /* whole tiles: no rows left for a tail */
    if (FN(rows_outside)(&s)) FN(direct_loops_rows)(&s, 0, ms, 0, o->n);
    else FN(direct_loops)(&s, 0, ms, 0, o->n);
    if (ms < o->m)
        FN(direct_loops)(o, ms, o->m, 0, o->n);
    return 1;
}

/* A^T times a few columns (A's rows and B's columns contiguous, n no
 * more than a row tail takes) runs as C^T = B^T A^T: n rows of dot
 * products, B's columns as their rows, A's rows in place as their
 * columns. Computed as columns they copied A^T into panels every call
 * (Zen 5, SGEMM A^T 100x4x100 0.35x of OpenBLAS). */
static int FN(as_rows)(int64_t m, int64_t n, int64_t rs_a, int64_t cs_a, int64_t rs_b,
                       const struct gg_ukernel *uk)
{
    return n < m && cs_a == 1 && rs_a != 1 && rs_b == 1 && FN(tail_takes)(uk->tails, n);
}

/* A few rows of C (m <= 4) times B^T (B's rows contiguous) run as C^T =
 * B^T A^T: a few columns (the small tile's one panel) of B's columns read
 * in place, C^T stored by rows. As rows they ran on edge kernels 8 or 16
 * rows high (DGEMM) or as cols_tail (SGEMM at k 500: level). */
enum { FEW_ROWS = 4 };

static int FN(few_rows)(int64_t m, int64_t n, int64_t rs_b, int64_t cs_b)
{
    return m <= FEW_ROWS && n > m && cs_b == 1 && rs_b != 1;
}

/* B^T (B's rows contiguous, its columns not) on a set whose _direct kernels
 * read B by columns: their _rows view reads it in place, where they copied
 * every panel into columns (Zen 5: a ninth of SGEMM B^T 100^3). Only where
 * the small tile sk can take the row view's tails (cols_tail: n fills its
 * tiles): the view has no row tails, and narrow C copies little of B (SGEMM
 * B^T 100x4x100 ran 0.60x, 100x5x100 0.83x, 100x16x100 0.96x). Or where
 * no rows are left for a row tail (tailless: m % MR is 0 or more than the
 * tails take) and n is whole small-tile panels: against copying B^T's
 * panels, DGEMM B^T 40^3 1.13x, 96x4x96 1.05-1.07x, A^T B^T 40^3 1.12x,
 * SGEMM B^T 80^3 1.10x, 96x16x96 1.09x, A^T B^T 80^3 1.10-1.14x; a ragged
 * last panel lost (DGEMM B^T 96x5x96 0.965x, 32x10x200 0.95x), and so did
 * tall C, over which the copies are spread (m = 128: SGEMM B^T 128x12x128
 * 0.95x, DGEMM 0.97x; DGEMM A^T B^T 512x36x64 0.95x): m below 128. */
enum { TAILLESS_MAX_M = 128 };
static int FN(rows_view)(int64_t m, int64_t n, int64_t rs_b, int64_t cs_b,
                         const struct gg_ukernel *uk, const struct gg_ukernel *sk)
{
    if (cs_b != 1 || rs_b == 1) return 0;
    if (!sk->mr || FN(fills_tiles)(n, sk->mr)) return 1;
    const int64_t t = m % uk->mr;              /* rows a row tail would take */
    return m < TAILLESS_MAX_M && n % sk->nr == 0 && !(t && FN(tail_takes)(uk->tails, t));
}

/* Kernel k in its row view, where FN(rows_view) says so and it has one. */
static inline const struct gg_ukernel *FN(by_rows)(const struct gg_ukernel *k, int view)
{
    return view && k->b_rows ? k->b_rows : k;
}

/* Where C is whole tiles of the small tile (m a multiple of its MR, n of
 * its NR and at least 4 NR, k within its max_k, A's columns and C's
 * contiguous), the kernel path's small_tile_loops run it faster than the
 * small path's loops: Zen 5, 1 thread, gemmab against the small path,
 * DGEMM 32^3 1.04x, 64x16x32 1.07x, 32x32x8 1.07x, 64x64x8 1.16x, 64x32x16
 * 1.12x, SGEMM 64x64x8 1.19x, 64x32x16 1.07x; with fewer columns (apart)
 * DGEMM 32x8x64 0.99x, 32x4x32 0.92x (hence 4 NR). */
static int FN(tiles_whole)(int64_t m, int64_t n, int64_t k, int64_t rs_a, int64_t rs_c)
{
    if (rs_a != 1 || rs_c != 1) return 0;
    const struct gg_kernel_set *set = gg_set_quick();
    const struct gg_ukernel *sk = &set->SMALL_FIELD;
    /* comparisons first: the remainders are divisions, which cost SGEMM 16^3 4% */
    return k <= set->small_max_k && sk->mr && m >= sk->mr && n >= 4 * sk->nr
        && FN(small_usable)(&set->KSET_FIELD, sk) && m % sk->mr == 0 && n % sk->nr == 0;
}

/* The operands are swapped in the arguments, before the op is built: on
 * the struct, GCC read the strides back in 16-byte pairs right after
 * storing them in 8-byte halves, a store-forwarding stall on every call.
 * When the grid gives one thread (one wanted, or too little work for two)
 * the slab runs here, without the pool. */
void FN(gg_gemm)(int64_t m, int64_t n, int64_t k, T alpha,
                 const T *a, int64_t rs_a, int64_t cs_a,
                 const T *b, int64_t rs_b, int64_t cs_b,
                 T beta, T *c, int64_t rs_c, int64_t cs_c)
{
    if (m <= 0 || n <= 0)
        return;
    if (alpha == 0 || k <= 0) {
        FN(scale_c)(m, n, beta, c, rs_c, cs_c);
        return;
    }
    if (gg_direct_mode() < 0) {       /* the path left to size: loops for the smallest */
        if (FN(is_tiny)(m, n, k)) {
            FN(tiny)(m, n, k, alpha, a, rs_a, cs_a, b, rs_b, cs_b, beta, c, rs_c, cs_c);
            return;
        }
        if (FN(gemv_call)(m, n, k, alpha, a, rs_a, cs_a, b, rs_b, cs_b, beta, c, rs_c, cs_c))
            return;
        if (!FN(tiles_whole)(m, n, k, rs_a, rs_c)
            && FN(small_call)(m, n, k, alpha, a, rs_a, cs_a, b, rs_b, cs_b, beta, c, rs_c, cs_c))
            return;
    }
    const struct gg_kernel_set *set = gg_set_current();
    const struct gg_ukernel *uk = &set->KSET_FIELD;
    if (FN(flips)(rs_c, cs_c, uk->row_pref) || FN(as_rows)(m, n, rs_a, cs_a, rs_b, uk)
        || FN(few_rows)(m, n, rs_b, cs_b))
        GG_TRANSPOSE(T, m, n, a, b, rs_a, cs_a, rs_b, cs_b, rs_c, cs_c);
    const int view = FN(rows_view)(m, n, rs_b, cs_b, uk, &set->SMALL_FIELD);
    uk = FN(by_rows)(uk, view);
    struct FN(op) o = { .m = m, .n = n, .k = k, .alpha = alpha, .beta = beta,
                        .a = a, .rs_a = rs_a, .cs_a = cs_a, .b = b, .rs_b = rs_b, .cs_b = cs_b,
                        .c = c, .rs_c = rs_c, .cs_c = cs_c,
                        .kern = (FN(kernel_fn) *)uk->fn, .direct = NULL, .stream = NULL,
                        .edges = uk->edges, .nedges = uk->nedges,   /* both paths use them */
                        .pedges = uk->pedges, .npedges = uk->npedges,
                        .tails = NULL,
                        .tk = NULL,
                        .b_cols = uk->direct_b_cols, .narrow_k = gg_narrow_k(uk->narrow_k),
                        .bk = *gg_blocking_current(TYPE_CHAR), .tm = 1, .tn = 1 };
    /* every field named: with some left to zero-filling GCC cleared the
     * whole op with `rep stos` first, a fifth of the time of DGEMM 8^3 */
    FN(choose_path)(&o, uk);
    const struct gg_ukernel *sk = FN(by_rows)(&set->SMALL_FIELD, view);
    if (uk != &set->KSET_FIELD && sk != &set->SMALL_FIELD && !gg_row_tails_off()
        && !gg_small_tile_off())
        o.tk = sk;                /* both in their row views */
    int one = FN(one_panel)(&o, uk, sk);
    if (one) FN(to_small)(&o, sk, !gg_row_tails_off());
    if (!o.direct) FN(deepen_for_c)(&o);
    int nt = FN(grid)(&o, gg_threads_wanted());
    if (nt > 1)
        gg_parallel(nt, FN(slab), &o);
    else if (one || !FN(small_tile_loops)(&o, uk, sk, set->small_max_k))
        FN(slab)(&o, 0, 1);
}
