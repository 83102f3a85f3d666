/* panels_tmpl.h: the widths of the packed column panels and the heights of
 * the packed row panels (the main kernel's, or its edge kernels'), for one
 * element type (FN(x) and struct FN(op) from op_tmpl.h). Included by
 * edge_tmpl.h, or alone by the types whose kernels have packed panels only.
 */

#if GG_PACKED_EDGES
/* A packed-only type's packed edge kernel h x w, or NULL. */
static FN(kernel_fn) *FN(packed_edge)(const struct FN(op) *o, int h, int w)
{
    for (int e = 0; e < o->nedges; e++)
        if (o->edges[e].nr == w && o->edges[e].mr == h) return (FN(kernel_fn) *)o->edges[e].fn;
    return NULL;
}
#endif

/* A packed-only type runs a panel w wide at every height of A's panels
 * (FN(packed_at)): a width whose kernel some height lacks is no choice. */
static int FN(width_ok)(const struct FN(op) *o, int w)
{
#if GG_PACKED_EDGES
    for (int p = 0; p < o->npedges; p++)
        if (!FN(packed_edge)(o, o->pedges[p].mr, w)) return 0;
#else
    (void)o; (void)w;
#endif
    return 1;
}

/* Width of the kernels for a column panel of nn columns: the narrowest
 * full-height kernel (the main one, or an MR x NR' edge kernel) that
 * covers it. */
static int FN(width_for)(const struct FN(op) *o, int64_t nn)
{
    int w = o->bk.nr;
    for (int e = 0; e < o->nedges; e++)
        if (o->edges[e].mr == o->bk.mr && o->edges[e].nr >= nn && o->edges[e].nr < w
            && FN(width_ok)(o, o->edges[e].nr))
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

/* The same in a column panel w wide: a packed-only type's narrower panels
 * run its packed column edges, the one as high as A's panel (for real
 * types w is NR here: their narrow panels run the direct edges). */
static FN(kernel_fn) *FN(packed_at)(const struct FN(op) *o, int64_t mm, int w)
{
#if GG_PACKED_EDGES
    FN(kernel_fn) *k = w < o->bk.nr ? FN(packed_edge)(o, FN(a_height)(o, mm), w) : NULL;
    if (k) return k;
#else
    (void)w;
#endif
    return FN(packed_for)(o, mm);
}

