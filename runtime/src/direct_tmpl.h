/* direct_tmpl.h: the unpacked path: the _direct kernels read A and B in
 * place, and when the runtime takes it (choose_path). */

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

/* The slab C[m0:m1, n0:n1] without the copies that pay off only when
 * panels are reused many times: full tiles read A and B in place through
 * the kernel's _direct variant. A is copied only when its rows are not
 * contiguous, a B panel only when its layout is not the one the kernel
 * reads, and the partial edge panels always (the kernel reads whole
 * MR x NR tiles, which must not run past the operands). */
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

/* Packing pays when panels are reused from cache many times. Without it
 * the kernel streams A in place for every NR columns and each B panel
 * should stay in L1 while the row tiles reuse it: so the unpacked path
 * runs while m*min(k, KC) is no larger than the packed A block (MC*KC,
 * half of L2) and the B panel fits its L1 sets; k goes in one block up to
 * 1.5 KC, in KC blocks beyond. Measured on the Emerald Rapids host, DGEMM
 * 1 thread (GFLOPS packed -> unpacked): 64^3 52.7 -> 71.6, 128^3 60.7 ->
 * 72.3, 320^3 71.1 -> 77.0, 128x4000x4000 59.3 -> 67.7. */
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

