/* pack_tmpl.h: packing of A and B into the layout the kernel ABI reads,
 * for one element type (T, and FN(x) naming functions, come from the
 * including file).
 *   A block (mc x kc) -> MR-row micro-panels:    ap[i + p*MR], panel after panel
 *   B block (kc x nc) -> NR-column micro-panels: bp[j + p*NR], panel after panel
 * Rows of A past m and columns of B past n are zero, so the kernel always
 * computes a full tile without reading garbage; it stores only m x n.
 * The two unit-stride cases get their own loops (contiguous reads, which
 * the compiler vectorizes); any other stride takes the general loop. The
 * panel width is made a compile-time constant for the common MR/NR values
 * so those loops unroll fully. */

static inline __attribute__((always_inline)) void
FN(pack_panel)(int64_t rows, int64_t kc, const T *x, int64_t rs, int64_t cs,
               const int w, T *restrict dst)
{
    if (rows == w && rs == 1) {            /* w contiguous elements per p */
        for (int64_t p = 0; p < kc; p++)
            for (int i = 0; i < w; i++)
                dst[i + p * w] = x[i + p * cs];
    } else if (rows == w && cs == 1) {     /* each row contiguous in p */
        for (int64_t p = 0; p < kc; p++)
            for (int i = 0; i < w; i++)
                dst[i + p * w] = x[i * rs + p];
    } else {                               /* edge panel or general strides */
        for (int64_t p = 0; p < kc; p++) {
            int64_t i = 0;
            for (; i < rows; i++)
                dst[i + p * w] = x[i * rs + p * cs];
            for (; i < w; i++)
                dst[i + p * w] = 0;
        }
    }
}

/* Packs `total` rows (of A; or columns of B seen as rows of B^T) of a
 * kc-long block into panels of width w. x(i,p) = x[i*rs + p*cs]. */
static void FN(pack)(int64_t total, int64_t kc, const T *x, int64_t rs,
                     int64_t cs, int w, T *dst)
{
    for (int64_t i0 = 0; i0 < total; i0 += w) {
        int64_t rows = total - i0 < w ? total - i0 : w;
        const T *src = x + i0 * rs;
        T *d = dst + i0 * kc;
        switch (w) {                        /* constant widths unroll */
        case 4:  FN(pack_panel)(rows, kc, src, rs, cs, 4, d); break;
        case 6:  FN(pack_panel)(rows, kc, src, rs, cs, 6, d); break;
        case 8:  FN(pack_panel)(rows, kc, src, rs, cs, 8, d); break;
        case 12: FN(pack_panel)(rows, kc, src, rs, cs, 12, d); break;
        case 14: FN(pack_panel)(rows, kc, src, rs, cs, 14, d); break;
        case 16: FN(pack_panel)(rows, kc, src, rs, cs, 16, d); break;
        case 24: FN(pack_panel)(rows, kc, src, rs, cs, 24, d); break;
        case 32: FN(pack_panel)(rows, kc, src, rs, cs, 32, d); break;
        case 48: FN(pack_panel)(rows, kc, src, rs, cs, 48, d); break;
        default: FN(pack_panel)(rows, kc, src, rs, cs, w, d); break;
        }
    }
}
