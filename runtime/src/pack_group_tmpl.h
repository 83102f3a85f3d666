/* pack_group_tmpl.h: packing into the k-grouped panels of the reduced-
 * precision kernels (gg_internal.h): panel element (i, p) at
 * dst[(p/KG)*w*KG + i*KG + p%KG], KG consecutive k steps of a row side by
 * side, k padded with zeros to kpad = a multiple of KG, rows past the
 * operand zero; panels w*kpad elements apart. For one operand type: the
 * including file defines GT (the element type), GP(x) (names of the
 * helpers), GPANELS (the name of the packing function) and KG, and may
 * include this file once per operand type. */
#include <string.h>

/* One panel of `rows` (<= w) rows, kc steps, x(i, p) = x[i*rs + p*cs]. */
static inline __attribute__((always_inline)) void
GP(panel)(int64_t rows, int64_t kc, const GT *x, int64_t rs, int64_t cs, const int w,
          GT *restrict dst)
{
    const int64_t whole = kc / KG;
    const size_t pad = (size_t)(w - rows) * KG * sizeof(GT);
    for (int64_t g = 0; g < whole; g++, dst += (int64_t)w * KG) {
        const GT *col = x + g * KG * cs;
        if (cs == 1)                    /* a group is KG contiguous elements */
            for (int64_t i = 0; i < rows; i++) memcpy(dst + i * KG, col + i * rs, KG * sizeof(GT));
        else
            for (int64_t i = 0; i < rows; i++)
                for (int q = 0; q < KG; q++) dst[i * KG + q] = col[i * rs + q * cs];
        if (pad) memset(dst + rows * KG, 0, pad);
    }
    const int steps = (int)(kc - whole * KG);
    if (!steps) return;
    const GT *col = x + whole * KG * cs;   /* the last group, zero past kc */
    for (int64_t i = 0; i < rows; i++)
        for (int q = 0; q < KG; q++) dst[i * KG + q] = q < steps ? col[i * rs + q * cs] : 0;
    if (pad) memset(dst + rows * KG, 0, pad);
}

/* Packs `total` rows (of A; or columns of B seen as rows of B^T) of a
 * kc-long block into panels of width w. x(i,p) = x[i*rs + p*cs]. */
static void GPANELS(int64_t total, int64_t kc, const GT *x, int64_t rs, int64_t cs, int w,
                    GT *dst)
{
    const int64_t kp = (kc + KG - 1) / KG * KG;
    for (int64_t i0 = 0; i0 < total; i0 += w) {
        int64_t rows = total - i0 < w ? total - i0 : w;
        const GT *src = x + i0 * rs;
        GT *d = dst + i0 * kp;
        switch (w) {                        /* constant widths unroll */
        case 8:  GP(panel)(rows, kc, src, rs, cs, 8, d); break;
        case 16: GP(panel)(rows, kc, src, rs, cs, 16, d); break;
        case 32: GP(panel)(rows, kc, src, rs, cs, 32, d); break;
        default: GP(panel)(rows, kc, src, rs, cs, w, d); break;
        }
    }
}

#undef GT
#undef GP
#undef GPANELS
