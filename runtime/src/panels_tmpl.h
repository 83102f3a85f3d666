/* panels_tmpl.h: the widths of the column panels and the heights of the
 * packed row panels (the main kernel's, or its edge kernels'), and which
 * kernel computes a tile of them, for one element type (FN(x) and struct
 * FN(op) from op_tmpl.h). Included by edge_tmpl.h, or alone by the types
 * whose kernels have packed panels only.
 */

/* The edge kernel h x w's index in o->edges, or -1. */
static int FN(edge_at)(const struct FN(op) *o, int h, int w)
{
    for (int e = 0; e < o->nedges; e++)
        if (o->edges[e].nr == w && o->edges[e].mr == h) return e;
    return -1;
}

#if GG_PACKED_EDGES
/* A packed-only type's packed edge kernel h x w, or NULL. */
static FN(kernel_fn) *FN(packed_edge)(const struct FN(op) *o, int h, int w)
{
    int e = FN(edge_at)(o, h, w);
    return e < 0 ? NULL : (FN(kernel_fn) *)o->edges[e].fn;
}
#endif

/* A panel w wide can run at every height the loops give it: a
 * packed-only type's at every height of A's packed panels; a real type's
 * in the packed path (packed: its edge kernels read A's packed panels,
 * so the kernel of each packed height), anywhere else in place. */
static int FN(width_ok)(const struct FN(op) *o, int w, int packed)
{
#if !GG_PACKED_EDGES
    if (!packed) return 1;
#else
    (void)packed;
#endif
    for (int p = 0; p < o->npedges; p++)
        if (FN(edge_at)(o, o->pedges[p].mr, w) < 0) return 0;
    return 1;
}

enum { GG_FINE = 2 };   /* the generator's fine widths (4 and 6) */
/* the least bytes of A (rows x k) a panel reads for which fine panels
 * are searched: below it the search cost more than the columns it saved
 * (SGEMM 40x37x40, the same split either way, 5% slower searched; SGEMM
 * 33^3 1%; DGEMM 33^3 gained 3.5%) */
enum { GG_FINE_WORK = 8192 };

/* The column panels of a block of n columns: NR panels over [0, wide),
 * then panels of the narrow edge width W (the widest below NR) over
 * [wide, wend), then at most two of the fine widths f0, f1 (narrower
 * edges, 0: none), in the split that computes the fewest columns, a panel
 * counting 1 more (a kernel call), a fine one half more again (fewer
 * FMAs in flight) and a padded last one 2 more (its copy). So 128
 * columns with NR 14, W 8 run 8 x 14 + 2 x 8, not 9 x 14 + 8 for the last
 * 2; 24 run 3 x 8 in place rather than 14 + 14 with 10 copied; 10 run
 * 6 + 4 and 11 run 8 + 4 (one padded), not 14 with 4 or 3 padded. The
 * split is searched over the last 6 NR columns (before them, NR panels):
 * 48 columns run 6 x 8, not 3 x 14 + 8 with 2 padded; searched over 3 NR,
 * no split past 42 columns began with W panels. Searched once per block,
 * not per panel (docs/decisions.md, `cols` split and fine widths, for the
 * measurements behind each of these).
 * narrow (the unpacked path up to the machine's narrow_panels k, where
 * its W-wide edge kernels run faster per column than the main kernel):
 * W panels, with NR panels only where W panels cannot tile the columns
 * (each counting 1 more again), searched over all n; fewer than W of
 * them, as W NR panels hold the columns of NR cheaper W panels; no fine
 * ones. packed: the packed path's split (FN(width_ok)). work: rows
 * times k of each panel (fine panels from GG_FINE_WORK bytes of A). */
struct FN(cols) { int64_t wide, wend; int nr, w, f0, f1; };

/* The cheapest tail of x > 0 columns in one or two fine panels (the
 * larger first, a second only where the first falls short): its cost as
 * col_split counts it, in half columns, or -1 where there are no fine
 * widths. */
static int64_t FN(fine_tail)(const int *fw, int nf, int64_t x, struct FN(cols) *s)
{
    int64_t best = -1;
    for (int i = 0; i < nf; i++)
        for (int j = -1; j < nf; j++) {
            int a = fw[i], b = j < 0 ? 0 : fw[j];
            if (b > a || (b && a >= x) || a + b < x) continue;
            int64_t cost = 2 * (a + b) + (b ? 6 : 3) + (a + b > x ? 4 : 0);
            if (best < 0 || cost < best) { best = cost; s->f0 = a; s->f1 = b; }
        }
    return best;
}

/* A split ending in a fine tail (fewer W panels, W whole or one less,
 * then fine_tail) where one costs less than best, the cheapest padded
 * split of r columns without (in half columns): tried only then (where
 * NR and W tile the columns exactly, fine panels never ran faster: SGEMM
 * 48^3 as 3 x 14 + 6 lost to 6 x 8), as the search costs the smallest
 * calls. */
static void FN(fine_split)(struct FN(cols) *s, const int *fw, int nf, int64_t r, int64_t big,
                           int64_t best)
{
    const int nr = s->nr, w = s->w;
    struct FN(cols) t = *s;
    for (int64_t a = 0; a * nr < r; a++) {
        int64_t left = r - a * nr;
        for (int64_t q = left / w; q >= 0 && q >= left / w - 1; q--) {
            int64_t f = left > q * w ? FN(fine_tail)(fw, nf, left - q * w, &t) : -1;
            if (f < 0 || 2 * (a * nr + q * w + a + q) + f >= best) continue;
            best = 2 * (a * nr + q * w + a + q) + f;
            s->wide = big + a * nr; s->wend = s->wide + q * w; s->f0 = t.f0; s->f1 = t.f1;
        }
    }
}

static struct FN(cols) FN(col_split)(const struct FN(op) *o, int64_t n, int narrow, int packed,
                                     int64_t work)
{
    const int nr = o->bk.nr;
    int w = nr, fw[GG_FINE], nf = 0;
    for (int e = 0; e < o->nedges; e++) {     /* W the widest narrower width, the rest fine */
        int x = o->edges[e].nr;
        if (o->edges[e].mr != o->bk.mr || x >= nr || !FN(width_ok)(o, x, packed)) continue;
        if (w == nr) { w = x; continue; }
        int lo = x < w ? x : w;
        if (x > w) w = x;
        if (nf < GG_FINE && !narrow && work * (int64_t)sizeof(TA) >= GG_FINE_WORK) fw[nf++] = lo;
    }
    struct FN(cols) s = { n, INT64_MAX, nr, w, 0, 0 };
    if (w == nr) return s;
    int64_t big = narrow || n < 6 * nr ? 0 : ((n - 6 * nr) / nr + 1) * nr;
    int64_t r = n - big, best = -1, pad = 0;
    for (int64_t a = 0; a * nr < r + nr && (!narrow || a < w); a++) {   /* a NR panels, then b W */
        int64_t left = r - a * nr, b = left > 0 ? (left + w - 1) / w : 0;
        int64_t cols = a * nr + b * w, cost = cols + (a + b) + (cols > r ? 2 : 0) + (narrow ? a : 0);
        if (best < 0 || cost <= best) { best = cost; pad = cols > r; s.wide = big + a * nr; }
    }
    if (nf && pad) FN(fine_split)(&s, fw, nf, r, big, 2 * best);
    return s;
}

/* Width of the panel at column x of the block. */
static inline int FN(width_at)(const struct FN(cols) *s, int64_t x)
{
    return x < s->wide ? s->nr : x < s->wend ? s->w : x < s->wend + s->f0 ? s->f0 : s->f1;
}

#if GG_UNPACKED
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

/* The most rows that the direct kernels of a split's widths (NR, W and
 * its fine ones) read for a tile of mm rows (a short last row panel). */
static int FN(rows_read)(const struct FN(op) *o, const struct FN(cols) *cs, int64_t mm)
{
    const int w[4] = { o->bk.nr, cs->w, cs->f0, cs->f1 };
    int h, most = 0;
    for (int i = 0; i < 4; i++) {
        if (!w[i] || !FN(direct_for)(o, mm, w[i], &h)) continue;
        if (h > most) most = h;
    }
    return most;
}
#endif

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

