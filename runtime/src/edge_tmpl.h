/* edge_tmpl.h: which kernel computes a tile at the edges: the main one
 * or one of the generated edge kernels (MR x NR', MR' x NR, MR' x NR'),
 * and the packed path's narrow last column panels. */

/* nn (<= nr) columns of B, k deep, as dst[p + j*ld], columns past nn zero:
 * the column-stored panel a _direct kernel with b_cols reads (also A's
 * last rows along k for the dot kernel, as the columns of A^T). Out of line:
 * inlined into the slab function it cost the smallest calls, which never
 * make it (docs/decisions.md, `pack_cols`). */
static __attribute__((noinline)) void FN(pack_cols)(int64_t nn, int64_t k, const T *b,
                                                    int64_t rs, int64_t cs, int nr, T *dst, int64_t ld)
{
    const size_t bytes = (size_t)k * sizeof(T);    /* k > 0: the path has returned before */
    int64_t j = 0;
#if GG_PACK_X86 && !GG_COMPLEX
    if (FN(wide_ok)(nn, k, rs, cs)) {         /* 8 columns at a time (pack_x86.c) */
        j = FN(gg_rows_v4)(nn, b, rs, k, k, ld, dst);
        dst += j * ld;
    }
#endif
#ifdef PACK_VECTORS
    /* each p's columns adjacent (A's rows for the dot kernel, col-major A):
     * VN x VN transposes, much faster than element by element. Not
     * pack_rows with k as its width: its tiles' lengths vary at run time
     * there, and it ran slower (docs/decisions.md, `pack_cols`). */
    const int vn = FN(vn);
    for (; cs == 1 && j + vn <= nn; j += vn, dst += vn * ld) {
        int64_t p = 0;
        for (; p + vn <= k; p += vn) FN(tile)(b + p * rs + j, rs, dst + p, (int)ld, vn);
        for (; p < k; p++)
            for (int q = 0; q < vn; q++) dst[q * ld + p] = b[p * rs + j + q];
    }
#endif
    /* strided columns four at a time: a row of them per element of k
     * (docs/decisions.md: faster than one column per pass) */
    for (; rs != 1 && j + 4 <= nn; j += 4, dst += 4 * ld)
        for (int64_t p = 0; p < k; p++) {
            const T *bp = b + p * rs + j * cs;
            dst[p] = bp[0];
            dst[ld + p] = bp[cs];
            dst[2 * ld + p] = bp[2 * cs];
            dst[3 * ld + p] = bp[3 * cs];
        }
    for (; j < nr; j++, dst += ld) {
        if (j >= nn) FN(zero_bytes)(dst, bytes);
        else if (rs == 1) FN(copy_bytes)(dst, b + j * cs, bytes);
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

/* The column panels of a block of n columns: NR panels over [0, wide),
 * then panels of the narrow edge width W, in the split that computes the
 * fewest columns, a panel counting 1 more (a kernel call) and a padded
 * last one 2 more (its copy). So 128 columns with NR 14, W 8 run
 * 8 x 14 + 2 x 8, not 9 x 14 + 8 for the last 2, and 24 run 3 x 8 in place rather than
 * 14 + 14 with 10 copied. The split is searched over the last 6 NR
 * columns (before them, NR panels): 48 columns run 6 x 8, not 3 x 14 + 8
 * with 2 padded; searched over 3 NR, no split past 42 columns began with
 * W panels. Searched once per block, not per panel (docs/decisions.md,
 * `cols` split, for the measurements behind each of these).
 * narrow (the unpacked path up to the machine's narrow_panels k, where
 * its W-wide edge kernels run faster per column than the main kernel):
 * W panels, with NR panels only where W panels cannot tile the columns
 * (each counting 1 more again), searched over all n; fewer than W of
 * them, as W NR panels hold the columns of NR cheaper W panels. */
struct FN(cols) { int64_t wide; int nr, w; };   /* NR panels cover [0, wide), W after */

static struct FN(cols) FN(col_split)(const struct FN(op) *o, int64_t n, int narrow)
{
    const int nr = o->bk.nr, w = FN(width_for)(o, 1);
    struct FN(cols) s = { n, nr, w };
    if (w == nr) return s;
    int64_t big = narrow || n < 6 * nr ? 0 : ((n - 6 * nr) / nr + 1) * nr;
    int64_t r = n - big, best = -1, wide = 0;
    for (int64_t a = 0; a * nr < r + nr && (!narrow || a < w); a++) {   /* a NR panels, then b W */
        int64_t left = r - a * nr, b = left > 0 ? (left + w - 1) / w : 0;
        int64_t cols = a * nr + b * w, cost = cols + (a + b) + (cols > r ? 2 : 0) + (narrow ? a : 0);
        if (best < 0 || cost <= best) { best = cost; wide = a; }
    }
    s.wide = big + wide * nr;
    return s;
}

/* Width of the panel at column x of the block. */
static inline int FN(width_at)(const struct FN(cols) *s, int64_t x)
{
    return x < s->wide ? s->nr : s->w;
}

/* The packed row-edge kernel for a short last panel of `rows` rows: the
 * lowest that covers it, or -1 for the main kernel (full panels, or none
 * covers it). f32 32x14 with a 16-row edge: m = 1000 leaves 8 rows, which
 * the main kernel computed 32 high. */
static int FN(pedge_for)(const struct FN(op) *o, int64_t rows)
{
    int best = -1;
    if (rows >= o->bk.mr) return best;
    for (int e = 0; e < o->npedges; e++)
        if (o->pedges[e].mr >= rows && (best < 0 || o->pedges[e].mr < o->pedges[best].mr))
            best = e;
    return best;
}

/* Height of the packed A panel holding the last `rows` rows of a block. */
static int FN(a_height)(const struct FN(op) *o, int64_t rows)
{
    int e = FN(pedge_for)(o, rows);
    return e < 0 ? o->bk.mr : o->pedges[e].mr;
}

/* The packed kernel for a tile of mm rows (its A panel FN(a_height) high). */
static FN(kernel_fn) *FN(packed_for)(const struct FN(op) *o, int64_t mm)
{
    int e = FN(pedge_for)(o, mm);
    return e < 0 ? o->kern : o->pedges[e].fn;
}

/* The direct kernel of width w for a tile of mm rows: the one of fewest
 * rows that covers mm (the main kernel when w = NR and nothing shorter);
 * *height (if not NULL) gets the rows it reads. */
static FN(direct_fn) *FN(direct_for)(const struct FN(op) *o, int64_t mm, int w, int *height)
{
    FN(direct_fn) *k = NULL;
    int h = o->bk.mr + 1;
    if (w == o->bk.nr && o->direct) { k = o->direct; h = o->bk.mr; }
    for (int e = 0; e < o->nedges; e++)
        if (o->edges[e].nr == w && o->edges[e].mr >= mm && o->edges[e].mr < h) {
            k = o->edges[e].fn;
            h = o->edges[e].mr;
        }
    if (height) *height = h;
    return k;
}

/* The most rows that the direct kernels of any width read for a tile of
 * mm rows (a short last row panel). */
static int FN(rows_read)(const struct FN(op) *o, int64_t mm)
{
    int h, most;
    FN(direct_for)(o, mm, o->bk.nr, &most);
    for (int e = 0; e < o->nedges; e++) {
        if (o->edges[e].mr != o->bk.mr) continue;     /* a width col_split never picks */
        FN(direct_for)(o, mm, o->edges[e].nr, &h);
        if (h > most) most = h;
    }
    return most;
}

/* A last column panel that a narrower kernel covers (w < NR) in the
 * packed path: the edge kernels on the packed A panels (lda = MR) and this
 * B panel, read in place as rows (b[j + p*NR]) or copied into columns. */
static void FN(edge_panel)(const struct FN(op) *o, int64_t mc, int64_t nn, int64_t kc, int w,
                           const T *ap, const T *b, const T *beta, T *c)
{
    const int mr = o->bk.mr;
    int64_t ldb = w;                    /* packed w wide (FN(pack_b)) */
    if (o->b_cols) {
        T *bc = gg_pack_buffer(2, (size_t)(w * kc) * sizeof(T));
        FN(pack_cols)(nn, kc, b, w, 1, w, bc, kc);
        b = bc; ldb = kc;
    }
    for (int64_t ir = 0; ir < mc; ir += mr) {
        int64_t mm = FN(min)(mr, mc - ir);
        FN(direct_for)(o, mm, w, NULL)(mm, nn, kc, &o->alpha, ap + ir * kc, FN(a_height)(o, mm), b,
                                 ldb, beta, c + ir * o->rs_c, o->rs_c, o->cs_c);
    }
}

