/* pack_cplx_tmpl.h: packing for the complex types (T a C99 _Complex type,
 * FN(x) from the including file): the layout of pack_tmpl.h, A into
 * MR-row and B into NR-column micro-panels, zero past the operand, in
 * complex elements. The real types' 16-byte transposes hold less than
 * one pair of complex elements, so this copies column pieces whole where
 * they are contiguous and element by element elsewhere. */
#include <string.h>

static inline void FN(copy_bytes)(void *restrict d, const void *restrict s, size_t b)
{
    memcpy(d, s, b);
}

static inline void FN(zero_bytes)(void *d, size_t b)
{
    memset(d, 0, b);
}

static inline int FN(wide_ok)(int64_t total, int64_t kc, int64_t rs, int64_t cs)
{
    (void)total; (void)kc; (void)rs; (void)cs;
    return 0;
}

/* The first `whole` (a multiple of w) rows, w a constant in each case,
 * so that a panel's piece is a few moves inline: a copy of a run-time
 * width is a memcpy call to GCC and clang, and an element assigned as a
 * complex float is two scalar moves; both cost more than the copy.
 * Contiguous columns (rs == 1) go column by column down all the panels,
 * each column of the block read in order. 0 where w has no case. */
#define PACK_CASE(W)                                                          \
    case W:                                                                   \
        if (rs == 1)                                                          \
            for (int64_t p = 0; p < kc; p++) {                                \
                const T *col = x + p * cs;                                    \
                T *d = dst + p * W;                                           \
                for (int64_t i0 = 0; i0 < whole; i0 += W, d += W * kc)        \
                    memcpy(d, col + i0, W * sizeof(T));                       \
            }                                                                 \
        else                                                                  \
            for (int64_t i0 = 0; i0 < whole; i0 += W) {                       \
                T *d = dst + i0 * kc;                                         \
                for (int64_t p = 0; p < kc; p++, d += W)                      \
                    for (int i = 0; i < W; i++)                               \
                        memcpy(d + i, x + (i0 + i) * rs + p * cs, sizeof(T)); \
            }                                                                 \
        return 1;

static int FN(pack_whole)(int64_t whole, int64_t kc, const T *x, int64_t rs, int64_t cs, int w,
                          T *restrict dst)
{
    switch (w) {
    PACK_CASE(2) PACK_CASE(3) PACK_CASE(4) PACK_CASE(6) PACK_CASE(7) PACK_CASE(8)
    PACK_CASE(16)
    default: return 0;
    }
}
#undef PACK_CASE

/* One panel of `rows` (<= w) rows: dst[i + p*w], zero below rows. */
static void FN(pack_panel)(int64_t rows, int64_t kc, const T *x, int64_t rs, int64_t cs,
                           int w, T *restrict dst)
{
    for (int64_t p = 0; p < kc; p++, dst += w) {
        const T *col = x + p * cs;
        if (rs == 1) memcpy(dst, col, (size_t)rows * sizeof(T));
        else for (int64_t i = 0; i < rows; i++) memcpy(dst + i, col + i * rs, sizeof(T));
        for (int64_t i = rows; i < w; i++) dst[i] = 0;
    }
}

/* Packs `total` rows (of A; or columns of B seen as rows of B^T) of a
 * kc-long block into panels of width w. x(i,p) = x[i*rs + p*cs]. */
static void FN(pack)(int64_t total, int64_t kc, const T *x, int64_t rs, int64_t cs, int w,
                     T *dst)
{
    int64_t i0 = 0, whole = total / w * w;
    if (whole && FN(pack_whole)(whole, kc, x, rs, cs, w, dst)) i0 = whole;
    for (; i0 < total; i0 += w) {
        int64_t rows = total - i0 < w ? total - i0 : w;
        FN(pack_panel)(rows, kc, x + i0 * rs, rs, cs, w, dst + i0 * kc);
    }
}

/* op(X) = conj(X): the packed block conjugated in place. */
static void FN(conj_block)(T *p, int64_t n, int on)
{
    if (!on) return;
    for (int64_t i = 0; i < n; i++) p[i] = conj(p[i]);
}
