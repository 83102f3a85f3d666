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

/* One panel of `rows` (<= w) rows: dst[i + p*w], zero below rows. Whole
 * contiguous columns by a loop of element copies: a memcpy call per
 * column of a few elements cost more than the copy. */
static void FN(pack_panel)(int64_t rows, int64_t kc, const T *x, int64_t rs, int64_t cs,
                           int w, T *restrict dst)
{
    if (rs == 1 && rows == w) {
        for (int64_t p = 0; p < kc; p++, dst += w)
            for (int i = 0; i < w; i++) dst[i] = x[p * cs + i];
        return;
    }
    for (int64_t p = 0; p < kc; p++, dst += w) {
        const T *col = x + p * cs;
        if (rs == 1) memcpy(dst, col, (size_t)rows * sizeof(T));
        else for (int64_t i = 0; i < rows; i++) dst[i] = col[i * rs];
        for (int64_t i = rows; i < w; i++) dst[i] = 0;
    }
}

/* Packs `total` rows (of A; or columns of B seen as rows of B^T) of a
 * kc-long block into panels of width w. x(i,p) = x[i*rs + p*cs]. */
static void FN(pack)(int64_t total, int64_t kc, const T *x, int64_t rs, int64_t cs, int w,
                     T *dst)
{
    for (int64_t i0 = 0; i0 < total; i0 += w) {
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
