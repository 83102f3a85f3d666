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

#include "panels_tmpl.h"

#if !GG_PACKED_EDGES
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
#endif

