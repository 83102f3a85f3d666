/* direct_tmpl.h: the unpacked path: the _direct kernels read A and B in
 * place (plan.c decides when). */

/* The slab C[m0:m1, n0:n1] without the copies that pay off only when
 * panels are reused many times: full tiles read A and B in place through
 * the kernel's _direct variant. A is copied only when its rows are not
 * contiguous, a B panel only when its layout is not the one the kernel
 * reads, and a short edge panel when the kernel that covers it reads
 * more rows or columns than it has (they must not run past the operands). */

/* The rows of a block past its last whole MR panel (a block of one short
 * panel without the division, which small calls feel; docs/decisions.md). */
static int64_t FN(short_rows)(const struct FN(op) *o, int64_t rows)
{
    return rows < o->bk.mr ? rows : rows % o->bk.mr;
}

/* The A operand of one k block: in place where its rows are contiguous,
 * the rows from `from` on copied into `ap` (panels ldp rows high). */
struct FN(ablock) { const T *a0; T *ap; int64_t from, k; int ldp; };

/* With contiguous rows only a short last panel is copied, and only when
 * its kernels read more rows than it has, into a panel as high as they
 * read (not MR): SGEMM 16^3 spent a fifth of its time copying A into a
 * 32-row panel for a 16-row kernel. */
static struct FN(ablock) FN(a_block)(const struct FN(op) *o, const struct FN(cols) *cs,
                                     int64_t m0, int64_t m1, int64_t pc, int64_t k)
{
    int h = o->bk.mr;                          /* height of the copied panels */
    int64_t rows = m1 - m0;                    /* rows that are copied */
    if (o->rs_a == 1) {
        rows = FN(short_rows)(o, rows);
        if (rows) {
            h = FN(rows_read)(o, cs, rows);
            if (h == rows) rows = 0;              /* read in place */
        }
    }
    struct FN(ablock) A = { o->a + pc * o->cs_a, NULL, m1 - rows, k, h };
    if (rows) {
        /* rows rounded up to whole panels is below rows + h (no division) */
        A.ap = gg_pack_buffer(0, (size_t)((rows + h) * k) * sizeof(T));
        FN(pack)(rows, k, A.a0 + A.from * o->rs_a, o->rs_a, o->cs_a, h, A.ap);
    }
    return A;
}

/* One tile: rows ir.. of A (in place or copied), the B panel b / ldb of
 * width w, C at (ir, jr), by kernel kf (NULL: the one direct_for picks). */
static void FN(run_tile)(const struct FN(op) *o, const struct FN(ablock) *A, int64_t ir,
                         int64_t mm, int64_t jr, int64_t nn, int w, const T *b, int64_t ldb,
                         const T *beta, FN(direct_fn) *kf)
{
    const T *a = A->a0 + ir;
    int64_t lda = o->cs_a;
    if (ir >= A->from) {
        a = A->ap + (ir - A->from) * A->k; lda = A->ldp;
    }
    if (!kf) kf = FN(direct_for)(o, mm, w, NULL);
    kf(mm, nn, A->k, &o->alpha, a, lda, b, ldb, beta, o->c + ir * o->rs_c + jr * o->cs_c,
       o->rs_c, o->cs_c);
}

/* B's layout is the kernels' (B(p,j) at b[p + j*ldb] when they read it by
 * columns, b[p*ldb + j] when by rows): whole panels are read in place. */
static inline int FN(b_as_read)(const struct FN(op) *o)
{
    return o->b_cols ? o->rs_b == 1 : o->cs_b == 1;
}

/* B's leading dimension as the kernels read it in place (b_as_read). */
static inline int64_t FN(b_ld)(const struct FN(op) *o)
{
    return o->b_cols ? o->cs_b : o->rs_b;
}

/* The B panel at column jr (nn columns, the kernels read w) of a k block
 * starting at b0: in place when B's layout is the kernel's and the panel
 * is whole, else its copy in the B buffer (fetched only then). Inlined,
 * as width_at: once stream_block called it too, GCC made both calls, and
 * a call per panel costs small problems (docs/decisions.md, `width_at`). */
static inline __attribute__((always_inline)) const T *
FN(b_panel)(const struct FN(op) *o, const T *b0, int64_t jr, int64_t nn, int w, int64_t k,
            int64_t *ldb)
{
    const T *b = b0 + jr * o->cs_b;
    if (FN(b_as_read)(o) && nn == w) {
        *ldb = FN(b_ld)(o);
        return b;
    }
    T *dst = gg_pack_buffer(1, (size_t)(o->bk.nr * k) * sizeof(T));
    if (o->b_cols) FN(pack_cols)(nn, k, b, o->rs_b, o->cs_b, w, dst, k);
    else FN(pack)(nn, k, b, o->cs_b, o->rs_b, w, dst);
    *ldb = o->b_cols ? k : w;
    return dst;
}

/* A's t rows from `from` on along k, as the dot kernel reads them: in
 * place when A's rows run along k (cs_a == 1) each starting a cache line,
 * else copied, each row padded to whole lines (t x k: the columns of A^T,
 * as pack_cols copies B's). Rows k apart leave most of the kernel's vector
 * loads across two lines, so A^T's misaligned rows are copied rather
 * than read in place (docs/decisions.md, `dot_a`). */
static const T *FN(dot_a)(const struct FN(op) *o, int64_t from, int64_t t, int64_t pc,
                          int64_t k, int64_t *lda)
{
    const T *a = o->a + from * o->rs_a + pc * o->cs_a;
    const size_t lb = o->bk.l1_line > 0 ? (size_t)o->bk.l1_line : 64;   /* line bytes */
    const int64_t line = (int64_t)(lb / sizeof(T));
    if (o->cs_a == 1 && o->rs_a % line == 0 && (uintptr_t)a % lb == 0) {
        *lda = o->rs_a;
        return a;
    }
    /* the buffer starts 64 bytes aligned: one line more, to start a line */
    const int64_t ld = (k + line - 1) / line * line;
    uintptr_t r0 = (uintptr_t)gg_pack_buffer(3, (size_t)(t * ld + line) * sizeof(T));
    T *r = (T *)((r0 + lb - 1) / lb * lb);
    FN(pack_cols)(t, k, a, o->cs_a, o->rs_a, (int)t, r, ld);
    *lda = ld;
    return r;
}

/* A's t rows from `from` on as a column panel h rows high, as the half-
 * width tail reads them (h rows, t <= h): in place when the rows are
 * contiguous and t == h, else copied with the rows past t zero. */
static const T *FN(col_a)(const struct FN(op) *o, int64_t from, int64_t t, int64_t pc,
                          int64_t k, int h, int64_t *lda)
{
    const T *a = o->a + from * o->rs_a + pc * o->cs_a;
    if (o->rs_a == 1 && t == h) {
        *lda = o->cs_a;
        return a;
    }
    T *r = gg_pack_buffer(3, (size_t)(h * k) * sizeof(T));
    FN(pack)(t, k, a, o->rs_a, o->cs_a, h, r);
    *lda = h;
    return r;
}

/* One group of g k steps (steps <= g of them real) of A's t rows at a,
 * as row i's g elements at d[g*i..]; the rest of the h-row group zero.
 * Inlined with g a constant, so the copy vectorizes (docs/decisions.md,
 * `group_one`). */
static inline __attribute__((always_inline)) void FN(group_one)(const T *a, int64_t rs,
        int64_t cs, int64_t t, const int g, int h, int steps, T *d)
{
    for (int64_t i = 0; i < t; i++)
        for (int s = 0; s < g; s++)
            d[g * i + s] = s < steps ? a[s * cs + i * rs] : (T)0;
    for (int64_t x = g * t; x < (int64_t)g * h; x++) d[x] = 0;
}

/* A's t rows from `from` on in groups of g k steps, as a k-group kernel
 * of h rows reads them: group q at r[q*g*h], row i's g elements at g*i..;
 * the steps past k and the rows past t zero. */
static const T *FN(group_a)(const struct FN(op) *o, int64_t from, int64_t t, int64_t pc,
                            int64_t k, int g, int h, int64_t *lda)
{
    const int64_t v = (int64_t)g * h, rs = o->rs_a, cs = o->cs_a;
    const T *a = o->a + from * rs + pc * cs;
    T *r = gg_pack_buffer(3, (size_t)((k + g - 1) / g * v) * sizeof(T)), *d = r;
    int64_t p = 0;
    if (g == 4)
        for (; p + 4 <= k; p += 4, d += v) FN(group_one)(a + p * cs, rs, cs, t, 4, h, 4, d);
    else
        for (; p + 2 <= k; p += 2, d += v) FN(group_one)(a + p * cs, rs, cs, t, 2, h, 2, d);
    if (p < k) FN(group_one)(a + p * cs, rs, cs, t, g, h, (int)(k - p), d);
    *lda = v;
    return r;
}

/* The last rows of a block that a row-tail kernel takes, and A's rows as
 * it reads them: the first of the set's row tails (dot products, four k
 * steps per vector, half-width row vectors, two) that takes that many
 * rows at this k (rows, min_k: the generator's estimates of where each
 * beats a row vector computing MR' rows for a few, and the tails after
 * it); t = 0 when none.
 * A short panel taller than the row edges (MR') keeps whole MR' tiles
 * for them and leaves only the rest to the tail: SGEMM m = 84 (32 + 32 +
 * 20) computed its last 20 rows 32 high, now 16 high and 4 by a tail. */
struct FN(tail) { FN(direct_fn) *fn; int64_t t; const T *a; int64_t lda; };

/* The rows of a block past its whole tiles and whole edge tiles. */
static int64_t FN(past_edges)(const struct FN(op) *o, int64_t rows)
{
    int64_t t = FN(short_rows)(o, rows);
    for (int e = 0; e < o->nedges && t; e++)   /* no division: t < MR, a few steps */
        while (t >= o->edges[e].mr) t -= o->edges[e].mr;
    return t;
}

static struct FN(tail) FN(row_tail)(const struct FN(op) *o, int64_t m1, int64_t rows,
                                    int64_t pc, int64_t k)
{
    struct FN(tail) r = { NULL, 0, NULL, 0 };
    int64_t t = o->tails ? FN(past_edges)(o, rows) : 0;
    for (int i = 0; t && i < GG_TAILS; i++) {
        const struct gg_tail *x = &o->tails[i];
        if (!x->fn || t > x->rows || k < x->min_k || (k < x->all_k && k % x->kstep)) continue;
        if (x->group == 1) r.a = FN(col_a)(o, m1 - t, t, pc, k, x->rows, &r.lda);
        else if (x->group) r.a = FN(group_a)(o, m1 - t, t, pc, k, x->group, x->rows, &r.lda);
        else r.a = FN(dot_a)(o, m1 - t, t, pc, k, &r.lda);
        r.fn = (FN(direct_fn) *)x->fn;
        r.t = t;
        break;
    }
    return r;
}

/* n rows fill two thirds of the tiles of mr rows that cover them. */
static inline int FN(fills_tiles)(int64_t n, int64_t mr)
{
    return 2 * ((n + mr - 1) / mr * mr) <= 3 * n;
}

/* B^T's row view has no row tails (they read B's columns), so its edge
 * kernels computed a 4-row tail 16 rows high (f32). Instead such rows (up
 * to the small tile's NR, where the edges would read four times as many)
 * run as C^T = B^T A^T on the small tile's row view o->tk: B^T in place
 * as its A (a short last tile copied, as the kernel reads MR rows), A's t
 * rows as its B (copied NR wide, zero past t), C^T row-stored (the
 * kernel's element-wise store). Not where the edges read less than 4t
 * rows nor where C^T's rows (n) fill less than two thirds of their tiles:
 * there the edges were faster (docs/decisions.md, `cols_tail_rows`). */
static int64_t FN(cols_tail_rows)(const struct FN(op) *o, const struct FN(cols) *cs,
                                  int64_t rows, int64_t n)
{
    if (!o->tk) return 0;
    const int64_t t = FN(past_edges)(o, rows);
    return t && t <= o->tk->nr && FN(rows_read)(o, cs, t) >= 4 * t && FN(fills_tiles)(n, o->tk->mr)
        ? t : 0;
}

static void FN(cols_tail)(const struct FN(op) *o, int64_t mt, int64_t t, int64_t n0, int64_t n1,
                          int64_t pc, int64_t k, const T *beta)
{
    const int mr = o->tk->mr, nr = o->tk->nr;
    FN(direct_fn) *kf = (FN(direct_fn) *)o->tk->direct;
    T *bt = gg_pack_buffer(3, (size_t)(nr * k) * sizeof(T));
    FN(pack)(t, k, o->a + mt * o->rs_a + pc * o->cs_a, o->rs_a, o->cs_a, nr, bt);
    const T *b0 = o->b + pc * o->rs_b;         /* cs_b == 1: B^T's columns are B's rows */
    T *c0 = o->c + mt * o->rs_c;
    for (int64_t i = n0; i < n1; i += mr) {
        int64_t mm = FN(min)(mr, n1 - i), lda = o->rs_b;
        const T *a = b0 + i;
        if (mm < mr) {
            T *ap = gg_pack_buffer(2, (size_t)(mr * k) * sizeof(T));
            FN(pack)(mm, k, a, 1, o->rs_b, mr, ap);
            a = ap; lda = mr;
        }
        kf(mm, t, k, &o->alpha, a, lda, bt, nr, beta, c0 + i * o->cs_c, o->cs_c, o->rs_c);
    }
}

/* One k block: column panels outside, row tiles inside, so each B panel
 * stays in L1 while the A block (in L2) streams past it. (The mirror
 * order, row tiles outside for tall narrow problems with A read once in
 * place, lost to the packed path: columns 32 KB apart defeat the TLB and
 * the prefetchers; docs/decisions.md, `direct_block` order.) */
static void FN(direct_block)(const struct FN(op) *o, int64_t m0, int64_t m1, int64_t n0,
                             int64_t n1, int64_t pc, int64_t k, const T *beta)
{
    const int mr = o->bk.mr;
    struct FN(tail) tl = FN(row_tail)(o, m1, m1 - m0, pc, k);
    const struct FN(cols) cs = FN(col_split)(o, n1 - n0, k <= o->narrow_k, 0, (m1 - m0) * k);
    const int64_t ct = tl.t ? 0 : FN(cols_tail_rows)(o, &cs, m1 - m0, n1 - n0);
    const int64_t mt = m1 - tl.t - ct;         /* rows mt.. by the row tail or cols_tail */
    struct FN(ablock) A = FN(a_block)(o, &cs, m0, mt, pc, k);
    /* B's columns in place: the tail rows in one call after the tiles, in
     * blocks of the tail's width rather than of each panel's: one call,
     * not one per narrow panel (docs/decisions.md, `tail_once`) */
    const int tail_once = tl.t && o->rs_b == 1;
    for (int64_t jr = n0, nn; jr < n1 && (mt > m0 || (tl.t && !tail_once)); jr += nn) {
        int w = FN(width_at)(&cs, jr - n0);   /* B columns the kernels read */
        int64_t ldb;
        nn = FN(min)(w, n1 - jr);
        const T *b = FN(b_panel)(o, o->b + pc * o->rs_b, jr, nn, w, k, &ldb);
        FN(direct_fn) *full = FN(direct_for)(o, mr, w, NULL);   /* looked up per panel */
        for (int64_t ir = m0; ir < mt; ir += mr) {
            int64_t mm = FN(min)(mr, mt - ir);
            FN(run_tile)(o, &A, ir, mm, jr, nn, w, b, ldb, beta, mm == mr ? full : NULL);
        }
        if (tl.t && !tail_once)
            tl.fn(tl.t, nn, k, &o->alpha, tl.a, tl.lda, b, ldb, beta,
                  o->c + mt * o->rs_c + jr * o->cs_c, o->rs_c, o->cs_c);
    }
    if (tail_once)
        tl.fn(tl.t, n1 - n0, k, &o->alpha, tl.a, tl.lda, o->b + pc + n0 * o->cs_b, o->cs_b, beta,
              o->c + mt * o->rs_c + n0 * o->cs_c, o->rs_c, o->cs_c);
    if (ct)
        FN(cols_tail)(o, mt, ct, n0, n1, pc, k, beta);
}

/* The mirror order for a small tile (gemm_tmpl.h, tiles_first): row
 * tiles outside, column panels inside, B read in place (n whole panels).
 * A 32 x 4 f64 tile loads 256 bytes of A per 16 FMAs: streamed from L2
 * past each B panel that is 32 bytes a cycle, so its A tile must stay in
 * L1 while B's narrow panels stream instead (docs/decisions.md,
 * `rows_outside`). */
static void FN(direct_block_rows)(const struct FN(op) *o, int64_t m0, int64_t m1, int64_t n0,
                                  int64_t n1, int64_t pc, int64_t k, const T *beta)
{
    const int mr = o->bk.mr, nr = o->bk.nr;
    const int64_t ldb = FN(b_ld)(o);
    const struct FN(cols) whole = { n1 - n0, INT64_MAX, nr, nr, 0, 0 };   /* NR panels only */
    struct FN(ablock) A = FN(a_block)(o, &whole, m0, m1, pc, k);
    for (int64_t ir = m0; ir < m1; ir += mr) {
        int64_t mm = FN(min)(mr, m1 - ir);
        FN(direct_fn) *kf = FN(direct_for)(o, mm, nr, NULL);   /* once per row tile */
        for (int64_t jr = n0; jr < n1; jr += nr)
            FN(run_tile)(o, &A, ir, mm, jr, nr, nr, o->b + pc * o->rs_b + jr * o->cs_b, ldb,
                         beta, kf);
    }
}

/* The unpacked path's k block: all of k up to 1.5 KC, else KC. */
static int64_t FN(direct_kb)(const struct FN(op) *o)
{
    return 2 * o->k <= 3 * (int64_t)o->bk.kc ? o->k : o->bk.kc;
}

/* k in one block while k <= 1.5 KC, else in KC blocks (later blocks
 * accumulate into C). */
static void FN(direct_loops)(const struct FN(op) *o, int64_t m0, int64_t m1,
                             int64_t n0, int64_t n1)
{
    int64_t kb = FN(direct_kb)(o);
    for (int64_t pc = 0; pc < o->k; pc += kb) {
        int64_t k = FN(min)(kb, o->k - pc);
        FN(direct_block)(o, m0, m1, n0, n1, pc, k, FN(block_beta)(o, pc));
    }
}

/* direct_loops with row tiles outside (direct_block_rows). */
static void FN(direct_loops_rows)(const struct FN(op) *o, int64_t m0, int64_t m1,
                                  int64_t n0, int64_t n1)
{
    int64_t kb = FN(direct_kb)(o);
    for (int64_t pc = 0; pc < o->k; pc += kb) {
        int64_t k = FN(min)(kb, o->k - pc);
        FN(direct_block_rows)(o, m0, m1, n0, n1, pc, k, FN(block_beta)(o, pc));
    }
}

/* The tall, narrow path (plan.c, streams): C has few column panels and
 * B's k block stays in L2, but A is taller than the unpacked path's L2
 * block. Row tiles outside, column panels inside: each A tile, read in
 * place, serves every panel from L1, and the whole tiles' calls
 * (NAME_stream) prefetch the next tile as they go, so A comes from memory
 * once and under the arithmetic, without the packed path's copy of A
 * (docs/decisions.md, `streams`). The panels (at most
 * GG_STREAM_PANELS) are read in place but for a padded last one, copied
 * once per k block. */
struct FN(panel) { int64_t jr, nn, ldb; int w; const T *b; };

/* The panels of columns n0..n1 of the k block at pc, as direct_block
 * walks them; returns how many, 0 when more than GG_STREAM_PANELS (narrow
 * last panels can outnumber what FN(streams) allows for). */
static int FN(panels)(const struct FN(op) *o, int64_t rows, int64_t n0, int64_t n1, int64_t pc,
                      int64_t k, struct FN(panel) *p, struct FN(cols) *cs)
{
    int np = 0;
    *cs = FN(col_split)(o, n1 - n0, 0, 0, rows * k);
    for (int64_t jr = n0; jr < n1; jr += p[np++].nn) {
        if (np == GG_STREAM_PANELS) return 0;
        int w = FN(width_at)(cs, jr - n0);
        p[np].jr = jr; p[np].w = w; p[np].nn = FN(min)(w, n1 - jr);
        p[np].b = FN(b_panel)(o, o->b + pc * o->rs_b, jr, p[np].nn, w, k, &p[np].ldb);
    }
    return np;
}

/* One k block: row tiles outside; `after` is the A tile that follows the
 * block's last (the next k block's first, or that tile itself). */
static void FN(stream_block)(const struct FN(op) *o, int64_t m0, int64_t m1, int64_t n0,
                             int64_t n1, int64_t pc, int64_t k, const T *beta, const T *after)
{
    const int mr = o->bk.mr, nr = o->bk.nr;
    struct FN(panel) p[GG_STREAM_PANELS];
    struct FN(cols) cs;
    int np = FN(panels)(o, m1 - m0, n0, n1, pc, k, p, &cs);
    if (!np) {
        FN(direct_block)(o, m0, m1, n0, n1, pc, k, beta);
        return;
    }
    struct FN(tail) tl = FN(row_tail)(o, m1, m1 - m0, pc, k);
    const int64_t mt = m1 - tl.t;              /* rows mt.. by the row tail */
    struct FN(ablock) A = FN(a_block)(o, &cs, m0, mt, pc, k);
    for (int64_t ir = m0; ir < mt; ir += mr) {
        int64_t mm = FN(min)(mr, mt - ir);
        const T *a = A.a0 + ir, *next = ir + mr < A.from ? a + mr : after;
        for (int q = 0; q < np; q++) {
            if (mm < mr || p[q].w != nr || ir >= A.from)
                FN(run_tile)(o, &A, ir, mm, p[q].jr, p[q].nn, p[q].w, p[q].b, p[q].ldb, beta, NULL);
            else
                o->stream(mm, p[q].nn, k, &o->alpha, a, o->cs_a, p[q].b, p[q].ldb, beta,
                          o->c + ir * o->rs_c + p[q].jr * o->cs_c, o->rs_c, o->cs_c, next);
        }
    }
    for (int q = 0; tl.t && q < np; q++)
        tl.fn(tl.t, p[q].nn, k, &o->alpha, tl.a, tl.lda, p[q].b, p[q].ldb, beta,
              o->c + mt * o->rs_c + p[q].jr * o->cs_c, o->rs_c, o->cs_c);
}

static void FN(stream_loops)(const struct FN(op) *o, int64_t m0, int64_t m1,
                             int64_t n0, int64_t n1)
{
    int64_t kb = FN(direct_kb)(o);
    for (int64_t pc = 0; pc < o->k; pc += kb) {
        int64_t k = FN(min)(kb, o->k - pc);
        const T *after = o->a + m0 + (pc + k < o->k ? pc + k : pc) * o->cs_a;
        FN(stream_block)(o, m0, m1, n0, n1, pc, k, FN(block_beta)(o, pc), after);
    }
}
