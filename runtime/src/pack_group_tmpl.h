/* pack_group_tmpl.h: packing into the k-grouped panels of the reduced-
 * precision kernels (gg_internal.h): panel element (i, p) at
 * dst[(p/GKG)*w*GKG + i*GKG + p%GKG], GKG consecutive k steps of a row side by
 * side, k padded with zeros to kpad = a multiple of KG, rows past the
 * operand zero; panels w*kpad elements apart. For one operand type: the
 * including file defines GT (the element type), GP(x) (names of the
 * helpers), GPANELS (the name of the packing function) and KG, and may
 * include this file once per operand type. GKG, where defined, is the
 * operand's own group below KG (AMX's VNNI side): groups of GKG, the panel
 * still KG-padded deep, zero past its groups. */
#ifndef GKG
#define GKG KG
#endif
#include <string.h>

#if GG_SHUFFLES && !defined(GG_GROUP_WORDS)
#define GG_GROUP_WORDS 1
typedef uint32_t gg_w4 __attribute__((vector_size(16)));

/* A group of 4 bytes is one 32-bit word, so rows contiguous in k pack as
 * a transpose of words: 4 rows x 4 groups at a time, as pack_tmpl.h's. */
static inline __attribute__((always_inline)) void
gg_group_tile(const char *x, int64_t rs_bytes, char *restrict dst, int64_t w_bytes)
{
    gg_w4 r[4];
    for (int i = 0; i < 4; i++) memcpy(&r[i], x + i * rs_bytes, 16);
    GG_TRANSPOSE4(r);
    for (int q = 0; q < 4; q++) memcpy(dst + q * w_bytes, &r[q], 16);
}
#endif

/* The last, partial group of a panel (dst at its place): kc % GKG steps,
 * zeros after them and in rows past `rows`. */
static inline __attribute__((always_inline)) void
GP(last_group)(int64_t rows, int64_t kc, const GT *x, int64_t rs, int64_t cs, const int w,
               GT *restrict dst)
{
    const int64_t whole = kc / GKG;
    const int steps = (int)(kc - whole * GKG);
    if (!steps) return;
    const GT *col = x + whole * GKG * cs;
    for (int64_t i = 0; i < rows; i++)
        for (int q = 0; q < GKG; q++) dst[i * GKG + q] = q < steps ? col[i * rs + q * cs] : 0;
    if (w > rows) memset(dst + rows * GKG, 0, (size_t)(w - rows) * GKG * sizeof(GT));
}

/* One panel of `rows` (<= w) rows, kc steps, x(i, p) = x[i*rs + p*cs]. */
static inline __attribute__((always_inline)) void
GP(panel)(int64_t rows, int64_t kc, const GT *x, int64_t rs, int64_t cs, const int w,
          GT *restrict dst)
{
    const int64_t whole = kc / GKG;
    const size_t pad = (size_t)(w - rows) * GKG * sizeof(GT);
    int64_t g = 0;
#ifdef GG_GROUP_WORDS
    if (GKG * sizeof(GT) == 4 && cs == 1 && rows == w)
        for (; g + 4 <= whole; g += 4, dst += (int64_t)w * GKG * 4) {
            int i = 0;
            for (; i + 4 <= w; i += 4)
                gg_group_tile((const char *)(x + i * rs + g * GKG), rs * (int64_t)sizeof(GT),
                              (char *)(dst + i * GKG), (int64_t)w * GKG * sizeof(GT));
            for (; i < w; i++)          /* the rows past the last 4 */
                for (int q = 0; q < 4; q++)
                    memcpy(dst + (q * w + i) * GKG, x + i * rs + (g + q) * GKG, 4);
        }
#endif
    for (; g < whole; g++, dst += (int64_t)w * GKG) {
        const GT *col = x + g * GKG * cs;
        if (cs == 1)                    /* a group is GKG contiguous elements */
            for (int64_t i = 0; i < rows; i++) memcpy(dst + i * GKG, col + i * rs, GKG * sizeof(GT));
        else if (rs == 1)               /* GKG contiguous rows interleaved: the stride known, it vectorizes */
            for (int64_t i = 0; i < rows; i++)
                for (int q = 0; q < GKG; q++) dst[i * GKG + q] = col[i + q * cs];
        else
            for (int64_t i = 0; i < rows; i++)
                for (int q = 0; q < GKG; q++) dst[i * GKG + q] = col[i * rs + q * cs];
        if (pad) memset(dst + rows * GKG, 0, pad);
    }
    GP(last_group)(rows, kc, x, rs, cs, w, dst);
}

/* Full panels of unit row stride (column-major A, row-major B's rows as
 * the kernel's): one group of GKG columns at a time across every panel,
 * the next group's columns prefetched into L2, for the reason of
 * pack_tmpl.h's pack_by_columns. Panel by panel, a panel read w elements
 * of each of kc columns; the lines it shared with the next panel had left
 * L1 by the time that panel came to them. */
static inline __attribute__((always_inline)) void
GP(by_groups)(int64_t panels, int64_t kc, const GT *x, int64_t cs, const int w,
              GT *restrict dst)
{
    const int64_t whole = kc / GKG, kp = (kc + KG - 1) / KG * KG;
    for (int64_t g = 0; g < whole; g++) {
        const GT *col = x + g * GKG * cs;
        GT *d = dst + g * w * GKG;
        for (int64_t q = 0; q < panels; q++) {
            _Pragma("GCC unroll 4") for (int c = 0; c < GKG; c++) {
                const GT *next = col + (c + GKG) * cs + q * w;
                __builtin_prefetch(next, 0, 2);
                __builtin_prefetch(next + w - 1, 0, 2);
            }
            const GT *s = col + q * w;
            GT *restrict o = d + q * w * kp;
            GG_VECTORIZE for (int i = 0; i < w; i++)
                _Pragma("GCC unroll 8") for (int c = 0; c < GKG; c++) o[i * GKG + c] = s[i + c * cs];
        }
    }
    if (kc > whole * GKG)
        for (int64_t q = 0; q < panels; q++)
            GP(last_group)(w, kc, x + q * w, 1, cs, w, dst + q * w * kp + whole * w * GKG);
}

/* A panel's depth past its GKG groups, up to KG's padding: zeros. */
static inline __attribute__((always_inline)) void
GP(zero_tail)(int64_t kc, int w, GT *restrict panel)
{
    const int64_t kg = (kc + GKG - 1) / GKG * GKG, kp = (kc + KG - 1) / KG * KG;
    if (kp > kg) memset(panel + kg * w, 0, (size_t)((kp - kg) * w) * sizeof(GT));
}

/* Packs `total` rows (of A; or columns of B seen as rows of B^T) of a
 * kc-long block into panels of width w. x(i,p) = x[i*rs + p*cs]. */
static void GPANELS(int64_t total, int64_t kc, const GT *x, int64_t rs, int64_t cs, int w,
                    GT *dst)
{
    const int64_t kp = (kc + KG - 1) / KG * KG;
    int64_t i0 = 0;
    if (rs == 1 && cs != 1 && total >= 2 * w) {
        const int64_t full = total / w;
        switch (w) {                        /* constant widths unroll */
        case 8:  GP(by_groups)(full, kc, x, cs, 8, dst); break;
        case 14: GP(by_groups)(full, kc, x, cs, 14, dst); break;
        case 16: GP(by_groups)(full, kc, x, cs, 16, dst); break;
        case 32: GP(by_groups)(full, kc, x, cs, 32, dst); break;
        default: GP(by_groups)(full, kc, x, cs, w, dst); break;
        }
        for (int64_t q = 0; q < full; q++) GP(zero_tail)(kc, w, dst + q * w * kp);
        i0 = full * w;
    }
    for (; i0 < total; i0 += w) {
        int64_t rows = total - i0 < w ? total - i0 : w;
        const GT *src = x + i0 * rs;
        GT *d = dst + i0 * kp;
        switch (w) {
        case 8:  GP(panel)(rows, kc, src, rs, cs, 8, d); break;
        case 14: GP(panel)(rows, kc, src, rs, cs, 14, d); break;
        case 16: GP(panel)(rows, kc, src, rs, cs, 16, d); break;
        case 32: GP(panel)(rows, kc, src, rs, cs, 32, d); break;
        default: GP(panel)(rows, kc, src, rs, cs, w, d); break;
        }
        GP(zero_tail)(kc, w, d);
    }
}

#undef GT
#undef GKG
#undef GP
#undef GPANELS
