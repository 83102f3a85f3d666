/* small_tmpl.h: GEMM of small operands straight from A, B and C (T, IT
 * and FN(x) from the including file). On the kernel path a call of a few
 * thousand multiply-adds spent more time on its set-up than on its
 * arithmetic: at DGEMM 10^3, `perf` gave the kernels 38% of the time, the
 * slab's look-ups and loops 38%, copies of A and B into edge panels 18%
 * (0.31-0.41x of OpenBLAS; 6^3 0.37x, 12^3 0.41x, 16^3 0.70x).
 *
 * Here C is computed in tiles of V vectors (rows) by NC columns, sums in
 * registers while k runs, A's columns loaded as vectors in place and B's
 * elements broadcast, any strides. Rows past the last whole vector are
 * reached by shifting that vector back so it ends at row m (it recomputes
 * a few rows and stores only its own: no copy, no scalar loop), or by a
 * half vector when they fill no more than half of one; A is
 * copied only when its columns are not contiguous or shorter than a
 * vector. GCC's generic vectors; the tile shape per x86 vector width (the
 * sums of a V x NC tile must stay in registers), picked once per process.
 * The tiles are in small_tiles_tmpl.h (small_d.c, small_s.c). */

#include "small_defs_tmpl.h"

/* The tile code this CPU runs, picked once per process. */
#if SM_X86
static void FN(sm_go)(const struct FN(sm) *s)
{
    static void (*fn)(const struct FN(sm) *);
    void (*f)(const struct FN(sm) *) = __atomic_load_n(&fn, __ATOMIC_RELAXED);
    if (!f) {
        int level = gg_x86_level();
        f = level >= 4 ? FN(gg_sm_v4) : level >= 3 ? FN(gg_sm_v3) : FN(gg_sm_v1);
        __atomic_store_n(&fn, f, __ATOMIC_RELAXED);
    }
    f(s);
}
#else
static void FN(sm_go)(const struct FN(sm) *s) { FN(gg_sm_any)(s); }
#endif

/* A^T copied by the packing's transposes (pack_tmpl.h) rather than element
 * by element, past SMALL_COPY_MNK: where m is a width they unroll for (a
 * multiple of 8 up to 32, at least a vector) and n repays the copy.
 * Zen 5, gemmab against the kernel path: A^T 16^3 DGEMM 1.18x, SGEMM
 * 1.74x; 24^3 1.25x, 1.33x; A^T B^T 16^3 1.52x, 2.09x; but DGEMM A^T
 * 32x4x64 0.69x, 32^3 0.98x, m = 20 or 30 (variable width) 0.43-0.69x.
 * With B^T too, up to SMALL_MNK where m is under 4 vectors (the kernel
 * path copies B^T's panels as well): against the kernel path, 400 windows,
 * SGEMM A^T B^T 32^3 1.27-1.35x, 32x16x64 1.24x, 16x40x48 1.57x, 24x24x56
 * 1.30x, DGEMM 8x128x32 1.25x, 32x16x64 1.18x, 24x24x56 1.08x; DGEMM
 * m = 32 (4 vectors) 32^3 0.98x, 32x64x16 0.93x. */
static int FN(small_transposes)(int64_t m, int64_t n, int64_t k, int64_t cs_a, int64_t cs_b)
{
    return cs_a == 1 && m >= SM_LANES && m <= 32 && m % 8 == 0 && n >= 8
        && m * n * k <= (cs_b == 1 && m < 4 * SM_LANES ? SMALL_MNK : SMALL_TRANSPOSED_MNK);
}

/* k > 0, the path left to size (gg_gemm). C stored by columns or by rows
 * (then as C^T = B^T A^T); 0 when the call is not small, or A would need a
 * copy and m*n*k is past SMALL_COPY_MNK (small_transposes excepted). */
static int FN(small_call)(int64_t m, int64_t n, int64_t k, T alpha,
                          const T *a, int64_t rs_a, int64_t cs_a,
                          const T *b, int64_t rs_b, int64_t cs_b,
                          T beta, T *c, int64_t rs_c, int64_t cs_c)
{
    if (m > SMALL_MNK || n > SMALL_MNK || k > SMALL_K || m * n * k > SMALL_MNK)
        return 0;
    if (rs_c != 1 && cs_c == 1)
        GG_TRANSPOSE(T, m, n, a, b, rs_a, cs_a, rs_b, cs_b, rs_c, cs_c);
    if (rs_c != 1)
        return 0;
    struct FN(sm) s = { m, m, n, k, cs_a, rs_b, cs_b, cs_c, alpha, beta, a, b, c };
    T ap[SMALL_COPY_MNK];
    if (rs_a != 1 || m < SM_LANES) {              /* A copied by columns, zero below m */
        s.m = s.lda = m < SM_LANES ? SM_LANES : m;
        if (FN(small_transposes)(m, n, k, cs_a, cs_b)) {
            T *buf = m * n * k > SMALL_COPY_MNK
                ? gg_pack_buffer(0, (size_t)(m * k) * sizeof(T)) : ap;
            FN(pack)(m, k, a, rs_a, cs_a, (int)m, buf);
            s.a = buf;
        } else if (m * n * k > SMALL_COPY_MNK) {
            return 0;
        } else {
            for (int64_t p = 0; p < k; p++)
                for (int64_t i = 0; i < s.m; i++)
                    ap[p * s.m + i] = i < m ? a[i * rs_a + p * cs_a] : (T)0;
            s.a = ap;
        }
    }
    FN(sm_go)(&s);
    return 1;
}

#undef SM_X86
#undef SM_LANES
