/* small_tmpl.h: GEMM of small operands straight from A, B and C (T, IT
 * and FN(x) from the including file). On the kernel path a call of a few
 * thousand multiply-adds spent more time on its set-up than on its
 * arithmetic: look-ups, loops and copies into edge panels outweighed the
 * kernels (docs/decisions.md, the small path).
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

/* The small tiles as the plan says (plan.c: GG_SMALL_CT, GG_SMALL; the
 * operands already swapped where C is stored by rows). A^T B^T as C^T = B A
 * runs on the tiles that store C transposed; otherwise A is read in place,
 * copied by columns onto the stack (zero below m), or copied by the
 * packing's transposes. */
static inline __attribute__((always_inline)) void FN(small_run)(const struct gg_plan *p, int64_t m, int64_t n, int64_t k, T alpha,
                          const T *a, int64_t rs_a, int64_t cs_a,
                          const T *b, int64_t rs_b, int64_t cs_b,
                          T beta, T *c, int64_t rs_c, int64_t cs_c)
{
    (void)rs_c;
#if SM_X86
    if (p->path == GG_SMALL_CT) {
        struct FN(sm) t = { n, n, m, k, rs_b, 1, rs_a, cs_c, alpha, beta, b, a, c };
        FN(gg_sm_v4t)(&t);
        return;
    }
#endif
    struct FN(sm) s = { m, m, n, k, cs_a, rs_b, cs_b, cs_c, alpha, beta, a, b, c };
    T ap[SMALL_COPY_MNK];
    if (p->small_a != GG_A_IN_PLACE)
        s.m = s.lda = m < SM_LANES ? SM_LANES : m;
    if (p->small_a == GG_A_TRANSPOSED) {
        T *buf = m * n * k > SMALL_COPY_MNK
            ? gg_pack_buffer(0, (size_t)(m * k) * sizeof(T)) : ap;
        FN(pack)(m, k, a, rs_a, cs_a, (int)m, buf);
        s.a = buf;
    } else if (p->small_a == GG_A_COPIED) {
        /* the stack holds it within the default limits; larger ones (tests) take the heap */
        T *buf = s.m * k > SMALL_COPY_MNK ? gg_pack_buffer(0, (size_t)(s.m * k) * sizeof(T)) : ap;
        for (int64_t q = 0; q < k; q++)
            for (int64_t i = 0; i < s.m; i++)
                buf[q * s.m + i] = i < m ? a[i * rs_a + q * cs_a] : (T)0;
        s.a = buf;
    }
    FN(sm_go)(&s);
}

#undef SM_X86
#undef SM_LANES
