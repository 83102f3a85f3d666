/* gemm_tmpl.h: the Goto/BLIS five loops around the micro-kernel, for one
 * element type. The including file defines T, FN(x), TYPE_CHAR ('d'/'s'),
 * KSET_FIELD (d or s: which kernel of the set) and EDGE_T (its edge
 * kernels' struct), then includes pack_tmpl.h and this file.
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
    int b_cols;                     /* direct reads B(p,j) at b[p + j*ldb], else b[p*ldb + j] */
    struct gg_blocking bk;
    int tm, tn;                     /* thread grid: tm row slabs x tn column slabs */
};

static int64_t FN(min)(int64_t x, int64_t y) { return x < y ? x : y; }

/* nn (<= nr) columns of B, k deep, as dst[p + j*k], columns past nn zero:
 * the column-stored panel a _direct kernel with b_cols reads. */
static void FN(pack_cols)(int64_t nn, int64_t k, const T *b, int64_t rs, int64_t cs,
                          int nr, T *dst)
{
    for (int64_t j = 0; j < nr; j++, dst += k) {
        if (j >= nn) memset(dst, 0, (size_t)k * sizeof(T));
        else if (rs == 1) memcpy(dst, b + j * cs, (size_t)k * sizeof(T));
        else for (int64_t p = 0; p < k; p++) dst[p] = b[p * rs + j * cs];
    }
}

/* Width of the kernels for a column panel of nn columns: the narrowest
 * full-height kernel (the main one, or an MR x NR' edge kernel) that
 * covers it. */
static int FN(width_for)(const struct FN(op) *o, int64_t nn)
{
    int w = o->bk.nr;
    for (int e = 0; e < o->nedges; e++)
        if (o->edges[e].mr == o->bk.mr && o->edges[e].nr >= nn && o->edges[e].nr < w)
            w = o->edges[e].nr;
    return w;
}

/* The direct kernel of width w for a tile of mm rows: the one of fewest
 * rows that covers mm (the main kernel when w = NR and nothing shorter). */
static FN(direct_fn) *FN(kernel_for)(const struct FN(op) *o, int64_t mm, int w)
{
    FN(direct_fn) *k = w == o->bk.nr ? o->direct : NULL;
    int h = o->bk.mr + 1;
    if (k) h = o->bk.mr;
    for (int e = 0; e < o->nedges; e++)
        if (o->edges[e].nr == w && o->edges[e].mr >= mm && o->edges[e].mr < h) {
            k = o->edges[e].fn;
            h = o->edges[e].mr;
        }
    return k;
}

/* A last column panel that a narrower kernel covers (w < NR) in the
 * packed path: the edge kernels on the packed A panels (lda = MR) and this
 * B panel, read in place as rows (b[j + p*NR]) or copied into columns. */
static void FN(edge_panel)(const struct FN(op) *o, int64_t mc, int64_t nn, int64_t kc, int w,
                           const T *ap, const T *b, T beta, T *c)
{
    const int mr = o->bk.mr, nr = o->bk.nr;
    int64_t ldb = nr;
    if (o->b_cols) {
        T *bc = gg_pack_buffer(2, (size_t)(w * kc) * sizeof(T));
        FN(pack_cols)(nn, kc, b, nr, 1, w, bc);
        b = bc; ldb = kc;
    }
    for (int64_t ir = 0; ir < mc; ir += mr) {
        int64_t mm = FN(min)(mr, mc - ir);
        FN(kernel_for)(o, mm, w)(mm, nn, kc, &o->alpha, ap + ir * kc, mr, b, ldb, &beta,
                                 c + ir * o->rs_c, o->rs_c, o->cs_c);
    }
}

/* The ir and jr loops over one packed A block and one packed B block. */
static void FN(macro_kernel)(const struct FN(op) *o, int64_t mc, int64_t nc,
                             int64_t kc, const T *ap, const T *bp, T beta, T *c)
{
    const int mr = o->bk.mr, nr = o->bk.nr;
    for (int64_t jr = 0; jr < nc; jr += nr) {
        int64_t nn = FN(min)(nr, nc - jr);
        const T *b = bp + jr * kc;
        int w = FN(width_for)(o, nn);
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
            o->kern(mm, nn, kc, &o->alpha, a, b, &beta,
                    c + ir * o->rs_c + jr * o->cs_c, o->rs_c, o->cs_c, a_next, b_next);
        }
    }
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
            T beta = pc == 0 ? o->beta : (T)1;   /* later blocks accumulate */
            FN(pack)(nc, kc, o->b + pc * o->rs_b + jc * o->cs_b, o->cs_b, o->rs_b,
                     bk->nr, bp);
            for (int64_t ic = m0; ic < m1; ic += bk->mc) {
                int64_t mc = FN(min)(bk->mc, m1 - ic);
                FN(pack)(mc, kc, o->a + ic * o->rs_a + pc * o->cs_a, o->rs_a,
                         o->cs_a, bk->mr, ap);
                FN(macro_kernel)(o, mc, nc, kc, ap, bp, beta,
                                 o->c + ic * o->rs_c + jc * o->cs_c);
            }
        }
    }
}

/* The slab C[m0:m1, n0:n1] without the copies that pay off only when
 * panels are reused many times: full tiles read A and B in place through
 * the kernel's _direct variant. A is copied only when its rows are not
 * contiguous, a B panel only when its layout is not the one the kernel
 * reads, and the partial edge panels always (the kernel reads whole
 * MR x NR tiles, which must not run past the operands). */
/* Would the B panel read in place (nseg segments of len bytes from
 * address base, stride bytes apart) put more lines on the L1 sets it uses
 * than they hold, on average (a straddling line or two per column does
 * not matter)? Then it does not stay in L1 while every row tile reuses it.
 * It happens with B's columns 4 KB apart: DGEMM 512^3 ran 66.2 GFLOPS
 * unpacked against 71.3 packed, while 480, 500, 520 and 544 ran within 1
 * GFLOPS either way. (A read in place crowds sets too at such strides,
 * but each A micro-panel is read once per tile: 256^3, lda 2 KB, ran 74.7
 * unpacked against 67.6 packed.) */
static int FN(crowds_l1)(const struct gg_blocking *bk, const void *base, int64_t nseg,
                         int64_t len, int64_t stride)
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
        uintptr_t x = first % (uintptr_t)sets;     /* one division per segment */
        for (uintptr_t l = first; l <= last; l++, lines++) {
            uint64_t bit = (uint64_t)1 << (x % 64);
            if (!(used[x / 64] & bit)) { used[x / 64] |= bit; nsets++; }
            if (++x == (uintptr_t)sets) x = 0;
        }
    }
    return lines > nsets * bk->l1_ways;
}

static void FN(direct_block)(const struct FN(op) *o, int64_t m0, int64_t m1, int64_t n0,
                             int64_t n1, int64_t pc, int64_t k, T beta)
{
    const int mr = o->bk.mr, nr = o->bk.nr;
    const int64_t mt = m1 - m0;
    const int a_here = o->rs_a == 1;
    const int b_here = o->b_cols ? o->rs_b == 1 : o->cs_b == 1;
    const T *a0 = o->a + pc * o->cs_a, *b0 = o->b + pc * o->rs_b;
    int64_t a_rows = a_here ? mt % mr : mt;          /* rows that are copied */
    int64_t a_from = m1 - a_rows;
    T *ap = gg_pack_buffer(0, (size_t)((a_rows + mr - 1) / mr * mr * k) * sizeof(T));
    T *bp = gg_pack_buffer(1, (size_t)(nr * k) * sizeof(T));
    if (a_rows)
        FN(pack)(a_rows, k, a0 + a_from * o->rs_a, o->rs_a, o->cs_a, mr, ap);
    for (int64_t jr = n0; jr < n1; jr += nr) {
        int64_t nn = FN(min)(nr, n1 - jr);
        int w = FN(width_for)(o, nn);      /* B columns the kernels read */
        const T *b = b0 + jr * o->cs_b;
        int64_t ldb = o->b_cols ? o->cs_b : o->rs_b;
        if (!b_here || nn < w) {
            if (o->b_cols) FN(pack_cols)(nn, k, b, o->rs_b, o->cs_b, w, bp);
            else FN(pack)(nn, k, b, o->cs_b, o->rs_b, w, bp);
            b = bp; ldb = o->b_cols ? k : w;
        }
        for (int64_t ir = m0; ir < m1; ir += mr) {
            int64_t mm = FN(min)(mr, m1 - ir);
            const T *a = a0 + ir;
            int64_t lda = o->cs_a;
            if (ir >= a_from) {
                a = ap + (ir - a_from) * k; lda = mr;
            }
            FN(kernel_for)(o, mm, w)(mm, nn, k, &o->alpha, a, lda, b, ldb, &beta,
                                     o->c + ir * o->rs_c + jr * o->cs_c, o->rs_c, o->cs_c);
        }
    }
}

/* k in one block while k <= 1.5 KC, else in KC blocks (later blocks
 * accumulate into C). */
static void FN(direct_loops)(const struct FN(op) *o, int64_t m0, int64_t m1,
                             int64_t n0, int64_t n1)
{
    int64_t kb = 2 * o->k <= 3 * (int64_t)o->bk.kc ? o->k : o->bk.kc;
    for (int64_t pc = 0; pc < o->k; pc += kb)
        FN(direct_block)(o, m0, m1, n0, n1, pc, FN(min)(kb, o->k - pc), pc ? (T)1 : o->beta);
}

/* Slab t of the grid: rows and columns split in whole MR / NR units. */
static void FN(slab)(void *arg, int t, int nt)
{
    (void)nt;
    const struct FN(op) *o = arg;
    if (o->tm * o->tn == 1) {         /* one slab: no division on the small-call path */
        if (o->direct) FN(direct_loops)(o, 0, o->m, 0, o->n);
        else FN(five_loops)(o, 0, o->m, 0, o->n);
        return;
    }
    int ti = t % o->tm, tj = t / o->tm;
    int64_t mu = (o->m + o->bk.mr - 1) / o->bk.mr, nu = (o->n + o->bk.nr - 1) / o->bk.nr;
    int64_t m0 = FN(min)(o->m, mu * ti / o->tm * o->bk.mr);
    int64_t m1 = FN(min)(o->m, mu * (ti + 1) / o->tm * o->bk.mr);
    int64_t n0 = FN(min)(o->n, nu * tj / o->tn * o->bk.nr);
    int64_t n1 = FN(min)(o->n, nu * (tj + 1) / o->tn * o->bk.nr);
    if (m0 >= m1 || n0 >= n1)
        return;
    if (o->direct)
        FN(direct_loops)(o, m0, m1, n0, n1);
    else
        FN(five_loops)(o, m0, m1, n0, n1);
}

/* Chooses tm x tn = nt minimizing the packing that splitting adds: each
 * of the tn column slabs packs all of A (m*k), each of the tm row slabs
 * all of B (k*n). Small problems use fewer threads: waking a thread costs
 * about as much as 2 * 64^3 flops. */
static int FN(grid)(struct FN(op) *o, int nt)
{
    o->tm = 1; o->tn = 1;
    if (nt <= 1) return 1;
    double work = (double)o->m * o->n * o->k;
    int64_t mu = (o->m + o->bk.mr - 1) / o->bk.mr, nu = (o->n + o->bk.nr - 1) / o->bk.nr;
    while (nt > 1 && (work / nt < 96.0 * 96 * 96 || mu * nu < nt))
        nt--;
    double best = -1;
    o->tm = 1; o->tn = 1;
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

/* C = beta * C, the whole result when alpha = 0 or k = 0; beta = 0 writes
 * zeros without reading C. */
static void FN(scale_c)(int64_t m, int64_t n, T beta, T *c, int64_t rs, int64_t cs)
{
    if (beta == 1)
        return;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++)
            c[i * rs + j * cs] = beta == 0 ? 0 : beta * c[i * rs + j * cs];
}

/* Prefer the kernel's C storage: C^T = B^T A^T swaps the roles of rows and
 * columns, turning a column-stored C into a row-stored one. */
static void FN(orient)(struct FN(op) *o, int row_pref)
{
    int64_t ars = o->rs_c < 0 ? -o->rs_c : o->rs_c, acs = o->cs_c < 0 ? -o->cs_c : o->cs_c;
    int c_is_row = acs < ars;
    if (c_is_row == !!row_pref)
        return;
    int64_t t;
    const T *p;
    t = o->m; o->m = o->n; o->n = t;
    p = o->a; o->a = o->b; o->b = p;
    int64_t rs_a = o->rs_a, cs_a = o->cs_a;
    o->rs_a = o->cs_b; o->cs_a = o->rs_b;
    o->rs_b = cs_a; o->cs_b = rs_a;
    t = o->rs_c; o->rs_c = o->cs_c; o->cs_c = t;
}

/* Packing pays when panels are reused from cache many times. Without it
 * the kernel streams A in place for every NR columns, and one B panel
 * should stay in L1 while it does: so the unpacked path runs while A is
 * no larger than the packed A block (m*k <= MC*KC, half of L2) and k at
 * most 1.5 KC (the B panel within about 3/4 of L1). Measured on the
 * Emerald Rapids host, DGEMM 1 thread (GFLOPS packed -> unpacked): 64^3
 * 52.7 -> 71.6, 128^3 60.7 -> 72.3, 320^3 71.1 -> 77.0; from 400^3 (k past
 * 1.5 KC) unpacked loses: 71.4 -> 66.8, 512^3 70.5 -> 44.2. */
/* The in-place B panel of kb rows fits its L1 sets (crowds_l1). Not
 * checked below 160^3: there the check would cost a few percent, and no
 * small case was found where it mattered. */
static int FN(b_fits_l1)(const struct FN(op) *o, const struct gg_ukernel *uk, int64_t kb)
{
    const int64_t S = (int64_t)sizeof(T);
    if ((double)o->m * o->n * o->k < 160.0 * 160 * 160) return 1;
    if (uk->direct_b_cols && o->rs_b == 1)
        return !FN(crowds_l1)(&o->bk, o->b, o->bk.nr, kb * S, o->cs_b * S);
    if (!uk->direct_b_cols && o->cs_b == 1)
        return !FN(crowds_l1)(&o->bk, o->b, kb, o->bk.nr * S, o->rs_b * S);
    return 1;                       /* B is copied panel by panel anyway */
}

static void FN(choose_path)(struct FN(op) *o, const struct gg_ukernel *uk)
{
    int mode = gg_direct_mode();
    const struct gg_blocking *bk = &o->bk;
    int64_t kb = 2 * o->k <= 3 * (int64_t)bk->kc ? o->k : bk->kc;   /* as direct_loops */
    int fits = o->m * kb <= (int64_t)bk->mc * bk->kc && FN(b_fits_l1)(o, uk, kb);
    o->b_cols = uk->direct_b_cols;
    o->edges = uk->edges;                   /* both paths use them */
    o->nedges = uk->nedges;
    if (uk->direct && (mode > 0 || (mode < 0 && fits)))
        o->direct = (FN(direct_fn) *)uk->direct;
}

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
    const struct gg_kernel_set *set = gg_set_current();
    struct FN(op) o = { m, n, k, alpha, beta, a, rs_a, cs_a, b, rs_b, cs_b,
                        c, rs_c, cs_c, (FN(kernel_fn) *)set->KSET_FIELD.fn, NULL, NULL, 0, 0,
                        *gg_blocking_current(TYPE_CHAR), 1, 1 };
    FN(orient)(&o, set->KSET_FIELD.row_pref);
    FN(choose_path)(&o, &set->KSET_FIELD);
    int nt = FN(grid)(&o, gg_threads_wanted());
    gg_parallel(nt, FN(slab), &o);
}
