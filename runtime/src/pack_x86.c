/* pack_x86.c: the packing's transposes in AVX-512 (x86-64-v4), for panels
 * whose rows are contiguous in p (A^T, column-major B; B^T's columns for
 * the _direct kernels that read B by columns): 8 rows x 8 p at a time, f64
 * in 64-byte vectors, f32 in 32-byte ones, the last rows of a panel by
 * masked stores. pack_tmpl.h's 16-byte transposes are what GCC's generic
 * vectors make of any target, 2 x 2 (f64) or 4 x 4 (f32) at a time; an
 * 8 x 8 block here is 8 loads, 24 shuffles and 8 stores for 64 elements,
 * a third of their instructions. pack_tmpl.h and edge_tmpl.h call these
 * when gg_x86_level() is 4, on the blocks FN(wide_ok) picks. */
#include <stdint.h>
#include "gg_internal.h"

#if GG_PACK_X86
#include <immintrin.h>

#define V4 __attribute__((target("arch=x86-64-v4")))

/* ni (0..8) rows x[i*rs + 0..7] -> dst[i + q*ld], q = 0..7, and zeros in
 * rows ni..no-1 (no: 1..8 rows stored). */
static inline __attribute__((always_inline)) V4 void
tile_d(const double *x, int64_t rs, double *dst, int64_t ld, int ni, int no)
{
    __m512d r[8], t[8], u[8];
    _Pragma("GCC unroll 8") for (int i = 0; i < 8; i++)
        r[i] = i < ni ? _mm512_loadu_pd(x + i * rs) : _mm512_setzero_pd();
    _Pragma("GCC unroll 8") for (int i = 0; i < 8; i += 2) {   /* pairs of rows, element by element */
        t[i] = _mm512_unpacklo_pd(r[i], r[i + 1]);
        t[i + 1] = _mm512_unpackhi_pd(r[i], r[i + 1]);
    }
    const __m512i lo = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
    const __m512i hi = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
    _Pragma("GCC unroll 8") for (int h = 0; h < 8; h += 4) {   /* four rows: columns q and q + 4 */
        u[h] = _mm512_permutex2var_pd(t[h], lo, t[h + 2]);
        u[h + 1] = _mm512_permutex2var_pd(t[h + 1], lo, t[h + 3]);
        u[h + 2] = _mm512_permutex2var_pd(t[h], hi, t[h + 2]);
        u[h + 3] = _mm512_permutex2var_pd(t[h + 1], hi, t[h + 3]);
    }
    const __mmask8 m = (__mmask8)((1u << no) - 1);
    _Pragma("GCC unroll 8") for (int q = 0; q < 4; q++) {      /* rows 0-3 and 4-7 of each column */
        __m512d c0 = _mm512_shuffle_f64x2(u[q], u[q + 4], 0x44);
        __m512d c4 = _mm512_shuffle_f64x2(u[q], u[q + 4], 0xEE);
        if (no == 8) {
            _mm512_storeu_pd(dst + q * ld, c0);
            _mm512_storeu_pd(dst + (q + 4) * ld, c4);
        } else {
            _mm512_mask_storeu_pd(dst + q * ld, m, c0);
            _mm512_mask_storeu_pd(dst + (q + 4) * ld, m, c4);
        }
    }
}

static inline __attribute__((always_inline)) V4 void
tile_s(const float *x, int64_t rs, float *dst, int64_t ld, int ni, int no)
{
    __m256 r[8], t[8], u[8];
    _Pragma("GCC unroll 8") for (int i = 0; i < 8; i++)
        r[i] = i < ni ? _mm256_loadu_ps(x + i * rs) : _mm256_setzero_ps();
    _Pragma("GCC unroll 8") for (int i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
    }
    _Pragma("GCC unroll 8") for (int h = 0; h < 8; h += 4) {
        u[h] = _mm256_shuffle_ps(t[h], t[h + 2], 0x44);
        u[h + 1] = _mm256_shuffle_ps(t[h], t[h + 2], 0xEE);
        u[h + 2] = _mm256_shuffle_ps(t[h + 1], t[h + 3], 0x44);
        u[h + 3] = _mm256_shuffle_ps(t[h + 1], t[h + 3], 0xEE);
    }
    const __mmask8 m = (__mmask8)((1u << no) - 1);
    _Pragma("GCC unroll 8") for (int q = 0; q < 4; q++) {
        __m256 c0 = _mm256_permute2f128_ps(u[q], u[q + 4], 0x20);
        __m256 c4 = _mm256_permute2f128_ps(u[q], u[q + 4], 0x31);
        if (no == 8) {
            _mm256_storeu_ps(dst + q * ld, c0);
            _mm256_storeu_ps(dst + (q + 4) * ld, c4);
        } else {
            _mm256_mask_storeu_ps(dst + q * ld, m, c0);
            _mm256_mask_storeu_ps(dst + (q + 4) * ld, m, c4);
        }
    }
}

/* zeros in rows 0..no-1 of 8 columns dst[i + q*ld] */
static inline __attribute__((always_inline)) V4 void
zeros_d(double *dst, int64_t ld, int no)
{
    _Pragma("GCC unroll 8") for (int q = 0; q < 8; q++)
        _mm512_mask_storeu_pd(dst + q * ld, (__mmask8)((1u << no) - 1), _mm512_setzero_pd());
}

static inline __attribute__((always_inline)) V4 void
zeros_s(float *dst, int64_t ld, int no)
{
    _Pragma("GCC unroll 8") for (int q = 0; q < 8; q++)
        _mm256_mask_storeu_ps(dst + q * ld, (__mmask8)((1u << no) - 1), _mm256_setzero_ps());
}

/* dst[i + p*ld] = x[i*rs + p] for i < rows and 0 for rows <= i < pad,
 * p up to the last multiple of 8 in np; returns that p (the caller does
 * the rest). */
#define ROWS_WIDE(NAME, T, TILE, ZEROS)                                           \
    V4 int64_t NAME(int64_t np, const T *x, int64_t rs, int64_t rows, int64_t pad, \
                    int64_t ld, T *dst)                                           \
    {                                                                             \
        int64_t p = 0;                                                            \
        for (; p + 8 <= np; p += 8) {                                             \
            int64_t i = 0;                                                        \
            for (; i + 8 <= rows; i += 8) TILE(x + i * rs + p, rs, dst + i + p * ld, ld, 8, 8); \
            if (i < rows) {                                                       \
                int no = pad - i < 8 ? (int)(pad - i) : 8;                        \
                TILE(x + i * rs + p, rs, dst + i + p * ld, ld, (int)(rows - i), no); \
                i += no;                                                          \
            }                                                                     \
            for (; i < pad; i += 8) ZEROS(dst + i + p * ld, ld, pad - i < 8 ? (int)(pad - i) : 8); \
        }                                                                         \
        return p;                                                                 \
    }
ROWS_WIDE(d_gg_rows_v4, double, tile_d, zeros_d)
ROWS_WIDE(s_gg_rows_v4, float, tile_s, zeros_s)
#endif
