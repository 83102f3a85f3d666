/* pack_tmpl.h: packing of A and B into the layout the kernel ABI reads,
 * for one element type (T, its size ESIZE and FN(x) naming functions come
 * from the including file).
 *   A block (mc x kc) -> MR-row micro-panels:    ap[i + p*MR], panel after panel
 *   B block (kc x nc) -> NR-column micro-panels: bp[j + p*NR], panel after panel
 * Rows of A past m and columns of B past n are zero, so the kernel always
 * computes a full tile without reading garbage; it stores only m x n.
 *
 * The two unit-stride cases of full panels get their own code: w
 * contiguous elements per p are one fixed-size copy (column by column
 * across all panels, FN(pack_by_columns)); rows contiguous in p
 * (column-major B, row-major A) are transposed VN x VN at a time in
 * 16-byte vectors, which every target has (SSE2, NEON, VSX), several times
 * faster than element by element (docs/decisions.md). Edge panels and
 * general strides take the element loop. The panel width is a
 * compile-time constant for the common MR/NR values so the loops unroll. */
#include <string.h>

#if GG_SHUFFLES
#define PACK_VECTORS 1
#define PACK_VB 16
enum { FN(vn) = PACK_VB / ESIZE };
typedef T FN(vec) __attribute__((vector_size(PACK_VB)));

/* r[i] holds row i (VN consecutive p); afterwards r[q] holds column q. */
static inline __attribute__((always_inline)) void FN(transpose)(FN(vec) *r)
{
#if ESIZE == 8
    FN(vec) a = r[0], b = r[1];
    r[0] = GG_SHUF2(a, b, 0, 2);
    r[1] = GG_SHUF2(a, b, 1, 3);
#else
    GG_TRANSPOSE4(r);
#endif
}

/* ni (<= VN) rows of VN consecutive p each -> dst[i + q*w]. */
static inline __attribute__((always_inline)) void
FN(tile)(const T *x, int64_t rs, T *restrict dst, int w, const int ni)
{
    FN(vec) r[FN(vn)];
    _Pragma("GCC unroll 4") for (int i = 0; i < FN(vn); i++) {
        if (i < ni) memcpy(&r[i], x + i * rs, sizeof r[i]);
        else r[i] = (FN(vec)){0};
    }
    FN(transpose)(r);
    _Pragma("GCC unroll 4") for (int q = 0; q < FN(vn); q++)
        memcpy(dst + q * w, &r[q], (size_t)ni * sizeof(T));
}

/* The same for ni (< VN, not a constant) rows, storing VN elements per q,
 * zero past ni: the copies stay fixed-size moves. */
static inline __attribute__((always_inline)) void
FN(tile_pad)(const T *x, int64_t rs, T *restrict dst, int w, int ni)
{
    FN(vec) r[FN(vn)];
    _Pragma("GCC unroll 4") for (int i = 0; i < FN(vn); i++) {
        r[i] = (FN(vec)){0};
        if (i < ni) memcpy(&r[i], x + i * rs, sizeof r[i]);
    }
    FN(transpose)(r);
    _Pragma("GCC unroll 4") for (int q = 0; q < FN(vn); q++)
        memcpy(dst + q * w, &r[q], sizeof r[q]);
}
#endif

/* A full panel whose rows are contiguous in p: x(i, p) = x[i*rs + p]. */
static inline __attribute__((always_inline)) void
FN(pack_rows)(int64_t kc, const T *x, int64_t rs, const int w, T *restrict dst)
{
    int64_t p = 0;
#ifdef PACK_VECTORS
    const int vn = FN(vn);
    for (; p + vn <= kc; p += vn) {
        _Pragma("GCC unroll 32") for (int i0 = 0; i0 < w; i0 += vn)
            FN(tile)(x + i0 * rs + p, rs, dst + i0 + p * w, w, w - i0 < vn ? w - i0 : vn);
    }
#endif
    for (; p < kc; p++)
        for (int i = 0; i < w; i++)
            dst[i + p * w] = x[i * rs + p];
}

/* b (> 0) bytes from s to d in fixed-size moves that GCC inlines: 32 at a
 * time and one overlapping last move (16, 8 or 4 below 32). */
static inline __attribute__((always_inline)) void
FN(move_short)(char *restrict d, const char *restrict s, size_t b)
{
    if (b >= 32) {
        for (size_t o = 0; o + 32 < b; o += 32) memcpy(d + o, s + o, 32);
        memcpy(d + b - 32, s + b - 32, 32);
    } else if (b >= 16) {
        memcpy(d, s, 16); memcpy(d + b - 16, s + b - 16, 16);
    } else if (b >= 8) {
        memcpy(d, s, 8); memcpy(d + b - 8, s + b - 8, 8);
    } else {
        memcpy(d, s, 4); memcpy(d + b - 4, s + b - 4, 4);
    }
}

/* Up to SHORT_BYTES, copies and zeroing are inlined moves (zeroing copies
 * from FN(zeros)); beyond, the library's memcpy and memset. */
enum { SHORT_BYTES = 256 };
static const char FN(zeros)[SHORT_BYTES];

static inline __attribute__((always_inline)) void
FN(copy_bytes)(void *restrict d, const void *restrict s, size_t b)
{
    if (b <= SHORT_BYTES) FN(move_short)(d, s, b);
    else memcpy(d, s, b);
}

static inline __attribute__((always_inline)) void
FN(zero_bytes)(void *d, size_t b)
{
    if (b <= SHORT_BYTES) FN(move_short)(d, FN(zeros), b);
    else memset(d, 0, b);
}

/* n (0 < n < w) contiguous elements, then zeros up to w, all in inlined
 * moves: the element loop became a memcpy and a memset call per p, and a
 * memset of the whole panel row first became `rep stos`, both dear on
 * small problems (docs/decisions.md). */
static inline __attribute__((always_inline)) void
FN(copy_short)(T *restrict d, const T *restrict s, int64_t n, const int w)
{
    FN(move_short)((char *)d, (const char *)s, (size_t)n * sizeof(T));
    FN(zero_bytes)(d + n, (size_t)(w - n) * sizeof(T));
}

/* Steps p0..kc-1 of a panel element by element (edge panels, general
 * strides, the last steps of pack_rows_short): rows elements, then zeros
 * up to w. */
static inline __attribute__((always_inline)) void
FN(pack_elems)(int64_t rows, int64_t p0, int64_t kc, const T *x, int64_t rs, int64_t cs,
               const int w, T *restrict dst)
{
    const size_t tail = (size_t)(w - rows) * sizeof(T);
    for (int64_t p = p0; p < kc; p++) {
        for (int64_t i = 0; i < rows; i++)
            dst[i + p * w] = x[i * rs + p * cs];
        /* inlined zeros: the zero loop had become a memset call per p */
        if (tail) FN(zero_bytes)(dst + rows + p * w, tail);
    }
}

/* A short panel (rows < w) whose rows are contiguous in p: the rows by the
 * same transposes, the rest of each p zero: element by element it was a
 * large share of A^T B^T with a short last panel (docs/decisions.md). */
static void FN(pack_rows_short)(int64_t rows, int64_t kc, const T *x, int64_t rs, int w,
                                T *restrict dst)
{
    int64_t p = 0;
#ifdef PACK_VECTORS
    const int vn = FN(vn);
    const int64_t whole = rows / vn * vn, up = (rows + vn - 1) / vn * vn;
    const size_t rest = (size_t)(w - up) * sizeof(T);
    for (; up <= w && p + vn <= kc; p += vn) {   /* up > w: w not a multiple of VN */
        for (int64_t i0 = 0; i0 < whole; i0 += vn)
            FN(tile)(x + i0 * rs + p, rs, dst + i0 + p * w, w, vn);
        if (whole < rows)
            FN(tile_pad)(x + whole * rs + p, rs, dst + whole + p * w, w, (int)(rows - whole));
        if (rest)
            for (int q = 0; q < vn; q++) FN(zero_bytes)(dst + up + (p + q) * w, rest);
    }
#endif
    FN(pack_elems)(rows, p, kc, x, rs, 1, w, dst);
}

/* A full or short panel (rows <= w) whose rows are contiguous in p by
 * pack_x86.c's AVX-512 transposes (FN(wide_ok)), the last kc % 8 steps
 * element by element. A call apart from FN(pack_rows), whose loops GCC
 * compiled differently, slower, when they could start past p = 0. */
static inline __attribute__((always_inline)) void
FN(pack_rows_wide)(int64_t rows, int64_t kc, const T *x, int64_t rs, const int w,
                   T *restrict dst)
{
#if GG_PACK_X86
    int64_t p = FN(gg_rows_v4)(kc, x, rs, rows, w, w, dst);
    if (p < kc) FN(pack_elems)(rows, p, kc, x, rs, 1, w, dst);
#else
    FN(pack_elems)(rows, 0, kc, x, rs, 1, w, dst);     /* not called: wide is 0 */
#endif
}

static inline __attribute__((always_inline)) void
FN(pack_panel)(int64_t rows, int64_t kc, const T *x, int64_t rs, int64_t cs,
               const int w, T *restrict dst, int wide)
{
    if (wide) {                            /* rows contiguous in p, full or short */
        FN(pack_rows_wide)(rows, kc, x, rs, w, dst);
    } else if (rows == w && rs == 1) {     /* w contiguous elements per p */
        for (int64_t p = 0; p < kc; p++)
            memcpy(dst + p * w, x + p * cs, (size_t)w * sizeof(T));
    } else if (rows == w && cs == 1) {     /* each row contiguous in p */
        FN(pack_rows)(kc, x, rs, w, dst);
    } else if (rs == 1 && rows > 0 && rows < w) {     /* a short panel of contiguous rows */
        for (int64_t p = 0; p < kc; p++)
            FN(copy_short)(dst + p * w, x + p * cs, rows, w);
    } else if (cs == 1 && rs != 1 && rows > 0 && rows < w) {   /* a short panel, rows contiguous in p */
        FN(pack_rows_short)(rows, kc, x, rs, w, dst);
    } else {                               /* edge panel or general strides */
        FN(pack_elems)(rows, 0, kc, x, rs, cs, w, dst);
    }
}

/* Full panels of unit row stride (column-major A), COLS columns of x at a
 * time: their w-element pieces go to every panel, and the next COLS
 * columns are prefetched into L2. Panel by panel, each panel read w
 * elements from each of kc columns 8*lda bytes apart, a pattern the
 * hardware prefetchers do not follow; one column at a time is one
 * sequential stream, which leaves memory idle between misses; four, as
 * OpenBLAS's itcopy reads, keep it busy (docs/decisions.md, COLS). */
static inline __attribute__((always_inline)) void
FN(pack_by_columns)(int64_t panels, int64_t kc, const T *x, int64_t cs, const int w, T *dst)
{
    enum { COLS = 4 };
    int64_t p = 0;
    for (; p + COLS <= kc; p += COLS) {
        const T *col = x + p * cs;
        T *d = dst + p * w;
        for (int64_t q = 0; q < panels; q++) {
            _Pragma("GCC unroll 4") for (int c = 0; c < COLS; c++) {
                const T *next = col + (c + COLS) * cs + q * w;
                __builtin_prefetch(next, 0, 2);
                __builtin_prefetch(next + w - 1, 0, 2);
            }
            _Pragma("GCC unroll 4") for (int c = 0; c < COLS; c++)
                memcpy(d + q * w * kc + c * w, col + c * cs + q * w, (size_t)w * sizeof(T));
        }
    }
    for (; p < kc; p++)
        for (int64_t q = 0; q < panels; q++)
            memcpy(dst + q * w * kc + p * w, x + p * cs + q * w, (size_t)w * sizeof(T));
}

/* Full panels whose rows are contiguous in p take pack_x86.c's AVX-512
 * transposes where they ran faster than the 16-byte ones: f32 always; f64
 * only while the block and its copy fit L1 (beyond, as if the 64-byte
 * loads waited on L2 where the 16-byte ones overlap). Not for one 8 x 8
 * block: the call costs more than it saves (docs/decisions.md). */
enum { PACK_WIDE_F64_BYTES = 24 << 10 };
static inline int FN(wide_ok)(int64_t total, int64_t kc, int64_t rs, int64_t cs)
{
#if GG_PACK_X86
    return cs == 1 && rs != 1 && total * kc > 64
        && (ESIZE == 4 || total * kc * ESIZE <= PACK_WIDE_F64_BYTES)
        && gg_x86_level() >= 4;
#else
    (void)total; (void)kc; (void)rs; (void)cs;
    return 0;
#endif
}

/* Packs `total` rows (of A; or columns of B seen as rows of B^T) of a
 * kc-long block into panels of width w. x(i,p) = x[i*rs + p*cs]. */
static void FN(pack)(int64_t total, int64_t kc, const T *x, int64_t rs,
                     int64_t cs, int w, T *dst)
{
    if (rs == 1 && cs != 1 && total >= 2 * w) {
        int64_t full = total / w;
        switch (w) {
        case 8:  FN(pack_by_columns)(full, kc, x, cs, 8, dst); break;
        case 12: FN(pack_by_columns)(full, kc, x, cs, 12, dst); break;
        case 14: FN(pack_by_columns)(full, kc, x, cs, 14, dst); break;
        case 16: FN(pack_by_columns)(full, kc, x, cs, 16, dst); break;
        case 32: FN(pack_by_columns)(full, kc, x, cs, 32, dst); break;
        default: FN(pack_by_columns)(full, kc, x, cs, w, dst); break;
        }
        x += full * w; dst += full * w * kc; total -= full * w;
    }
    const int wide = FN(wide_ok)(total, kc, rs, cs);
    for (int64_t i0 = 0; i0 < total; i0 += w) {
        int64_t rows = total - i0 < w ? total - i0 : w;
        const T *src = x + i0 * rs;
        T *d = dst + i0 * kc;
        switch (w) {                        /* constant widths unroll */
        case 4:  FN(pack_panel)(rows, kc, src, rs, cs, 4, d, wide); break;
        case 6:  FN(pack_panel)(rows, kc, src, rs, cs, 6, d, wide); break;
        case 8:  FN(pack_panel)(rows, kc, src, rs, cs, 8, d, wide); break;
        case 12: FN(pack_panel)(rows, kc, src, rs, cs, 12, d, wide); break;
        case 14: FN(pack_panel)(rows, kc, src, rs, cs, 14, d, wide); break;
        case 16: FN(pack_panel)(rows, kc, src, rs, cs, 16, d, wide); break;
        case 24: FN(pack_panel)(rows, kc, src, rs, cs, 24, d, wide); break;
        case 32: FN(pack_panel)(rows, kc, src, rs, cs, 32, d, wide); break;
        case 48: FN(pack_panel)(rows, kc, src, rs, cs, 48, d, wide); break;
        case 64: FN(pack_panel)(rows, kc, src, rs, cs, 64, d, wide); break;
        default: FN(pack_panel)(rows, kc, src, rs, cs, w, d, wide); break;
        }
    }
}
