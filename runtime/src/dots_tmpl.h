/* dots_tmpl.h: the dot-product path's run (plan.c: GG_DOTS) on the tiles
 * of dots_tile_tmpl.h (entry points in gemv_tmpl.h): op(A)'s rows in
 * place, or copied first where its columns are the contiguous ones;
 * threads split the longer of C's sides. T and FN(x) from the including
 * file. */

struct FN(dt_op) {
    int64_t m, n, k, rs_a, cs_b, rs_c, cs_c;
    T alpha, beta;
    const T *a, *b;
    T *c;
    int wide;
};

static void FN(dots_slab)(void *arg, int t, int nt)
{
    const struct FN(dt_op) *o = arg;
    int64_t m = o->m, n = o->n;
    const T *a = o->a, *b = o->b;
    T *c = o->c;
    if (m >= n) {                  /* whole tiles of four rows or columns each */
        int64_t i0 = FN(split)(m, 4, t, nt), i1 = FN(split)(m, 4, t + 1, nt);
        m = i1 - i0;
        a += i0 * o->rs_a;
        c += i0 * o->rs_c;
    } else {
        int64_t j0 = FN(split)(n, 4, t, nt), j1 = FN(split)(n, 4, t + 1, nt);
        n = j1 - j0;
        b += j0 * o->cs_b;
        c += j0 * o->cs_c;
    }
    if (m <= 0 || n <= 0) return;
    if (o->wide)
        FN(gemm_dots_w)(m, n, o->k, o->alpha, a, o->rs_a, b, o->cs_b, o->beta, c, o->rs_c, o->cs_c);
    else
        FN(gemm_dots)(m, n, o->k, o->alpha, a, o->rs_a, b, o->cs_b, o->beta, c, o->rs_c, o->cs_c);
}

/* op(A)'s m rows copied contiguous in k, a whole number of 64-byte lines
 * plus one apart: aligned for the wide tiles, and rows a power of two
 * apart would fill the same L1 sets as B's columns. */
static const T *FN(dots_rows)(int64_t m, int64_t k, const T *a, int64_t rs_a, int64_t cs_a,
                              int64_t *ld)
{
    const int64_t line = 64 / (int64_t)sizeof(T), w = (k + line - 1) / line * line + line;
    T *r = gg_pack_buffer(0, (size_t)(m * w) * sizeof(T));
    for (int64_t p = 0; p < k; p++)
        for (int64_t i = 0; i < m; i++) r[i * w + p] = a[i * rs_a + p * cs_a];
    *ld = w;
    return r;
}

static void FN(dots_run)(const struct gg_plan *p, int64_t m, int64_t n, int64_t k, T alpha,
                         const T *a, int64_t rs_a, int64_t cs_a, const T *b, int64_t cs_b,
                         T beta, T *c, int64_t rs_c, int64_t cs_c)
{
    struct FN(dt_op) o = { m, n, k, rs_a, cs_b, rs_c, cs_c, alpha, beta, a, b, c, p->dots_wide };
    if (cs_a != 1) o.a = FN(dots_rows)(m, k, a, rs_a, cs_a, &o.rs_a);
    if (p->nt > 1) gg_parallel(p->nt, FN(dots_slab), &o);
    else FN(dots_slab)(&o, 0, 1);
}
