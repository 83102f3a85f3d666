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

/* A^T B^T (A's rows and B's columns contiguous) with C stored by columns
 * runs as C^T = B A: the tiles' rows are C's n columns (at least a vector),
 * their columns its m rows, both operands read in place and each tile
 * stored transposed in registers (small_tiles_tmpl.h, gg_sm_v4t: x86-64-v4
 * only) instead of A^T copied by transposes first (small_transposes) or,
 * past SMALL_MNK, the kernel path's copy of A^T. Zen 5, 1 thread, gemmab
 * against both: DGEMM 16^3 1.20x, 24^3 1.18x, 32^3 1.07x, 17x19x23 2.18x,
 * 40^3 1.13x, 64^3 1.07x, 96^3 1.13x, 128^3 1.05x, 200x64x64 1.19x,
 * 100x400x100 1.15x, 300^3 1.04x, 500^3 1.02x, 1000^3 0.87x (the rows'
 * vectors stream from memory for every 8 columns); SGEMM 8x32x64 2.9x,
 * 12x16x40 1.5x, 20x30x25 2.2x, 40^3 1.14x, 48^3 1.04x, but 56^3 0.98x,
 * 64^3 0.99x against the kernels and where small_transposes takes A^T
 * (m a multiple of 8 up to 32) 16x20x30 0.90x, 32x20x32 0.63x, 32x48x16
 * 0.83x (16^3 1.13x, 24x40x24 1.18x: its tile rows, m, fill vectors
 * better or worse than C^T's, n). So up to CT_MNK (f64 300^3, f32 48^3),
 * for f32 where small_transposes does not take it, and within one
 * thread's share (FN(grid) gives a thread at least 48^3). */
#if SM_X86
static int FN(small_ct)(int64_t m, int64_t n, int64_t k, int64_t rs_a, int64_t cs_a,
                        int64_t rs_b, int64_t cs_b, int64_t rs_c)
{
    const int64_t mnk = m * n * k, ct_mnk = sizeof(T) == 8 ? 300 * 300 * 300 : 48 * 48 * 48;
    return rs_c == 1 && cs_a == 1 && rs_a != 1 && cs_b == 1 && rs_b != 1 && n >= SM_LANES
        && mnk <= ct_mnk && (mnk <= 2 * 48 * 48 * 48 || gg_threads_wanted() == 1)
        && !(sizeof(T) == 4 && FN(small_transposes)(m, n, k, cs_a, cs_b))
        && gg_x86_level() >= 4;
}
#endif

/* k > 0, the path left to size (gg_gemm). C stored by columns or by rows
 * (then as C^T = B^T A^T); 0 when the call is not small, or A would need a
 * copy and m*n*k is past SMALL_COPY_MNK (small_transposes excepted). */
static int FN(small_call)(int64_t m, int64_t n, int64_t k, T alpha,
                          const T *a, int64_t rs_a, int64_t cs_a,
                          const T *b, int64_t rs_b, int64_t cs_b,
                          T beta, T *c, int64_t rs_c, int64_t cs_c)
{
#if SM_X86
    if (FN(small_ct)(m, n, k, rs_a, cs_a, rs_b, cs_b, rs_c)) {   /* C^T = B A */
        struct FN(sm) t = { n, n, m, k, rs_b, 1, rs_a, cs_c, alpha, beta, b, a, c };
        FN(gg_sm_v4t)(&t);
        return 1;
    }
#endif
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
