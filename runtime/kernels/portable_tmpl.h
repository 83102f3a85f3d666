/* portable_tmpl.h: the portable micro-kernels in plain C, for one element
 * type. portable_f64.c / portable_f32.c define PK_T, PK_NAME, PK_MR, PK_NR
 * and the edge sizes PK_MH, PK_NH, and include it. They follow the gemmgen
 * kernel ABI exactly (runtime/README.md), so the runtime cannot tell them
 * from generated ones; they are the fallback on CPUs none of the generated
 * kernels support:
 *   PK_NAME            packed A and B
 *   PK_NAME_direct     A and B in place, B read as rows (b[p*ldb + j], as
 *                      the generated kernels that load B vectors do)
 *   PK_NAME_e<m>x<n>   edge kernels of half height / half width
 *
 * The tile is MR rows of NR/VL vectors: each k step loads the B row as
 * vectors and adds a[i] * row to row i of the accumulator. Vectors are
 * GCC's generic 16-byte vector type, which the compiler lowers to what the
 * build's baseline has (SSE2 on x86-64, NEON, VSX) and to scalars
 * elsewhere; 6 x 2 vectors plus the B row and one A value use 15 of the 16
 * registers of the smallest of those (x86-64). Measured on the Emerald
 * Rapids host, DGEMM 1000^3 1 thread, GEMMGEN_KERNEL=portable: 2.5 GFLOPS
 * with the 8 x 6 scalar-array kernel this replaces (GCC kept its 48
 * accumulators in memory), 11.7 with these. Compilers without vector
 * extensions get the same loops on one-element "vectors". */
#include <stdint.h>
#include <string.h>

#define PK_CAT_(a, b) a##b
#define PK_CAT(a, b) PK_CAT_(a, b)

#if defined(__GNUC__)
#define PK_VL (16 / (int)sizeof(PK_T))
typedef PK_T PK_CAT(PK_NAME, _v) __attribute__((vector_size(16)));
#else
#define PK_VL 1
typedef PK_T PK_CAT(PK_NAME, _v);
#endif
#define PK_V PK_CAT(PK_NAME, _v)
#define PK_NV (PK_NR / PK_VL)

_Static_assert(PK_NR % PK_VL == 0 && PK_NH % PK_VL == 0,
               "the portable tile widths must be whole vectors");

/* Only the m x n corner of the tile is stored; beta == 0 must not read C. */
static inline __attribute__((always_inline)) void
PK_CAT(PK_NAME, _store)(PK_V acc[PK_MR][PK_NV], int64_t m, int64_t n, const PK_T *alpha,
                        const PK_T *beta, PK_T *c, int64_t rs_c, int64_t cs_c)
{
    for (int64_t i = 0; i < m; i++) {
        PK_T row[PK_NR];
        memcpy(row, acc[i], sizeof row);
        for (int64_t j = 0; j < n; j++) {
            PK_T *cij = c + i * rs_c + j * cs_c;
            PK_T v = *alpha * row[j];
            *cij = (*beta == 0) ? v : v + *beta * *cij;
        }
    }
}

/* An mr x nr tile (constants once inlined) on operands in place. */
static inline __attribute__((always_inline)) void
PK_CAT(PK_NAME, _tile)(const int mr, const int nr, int64_t m, int64_t n, int64_t k,
                       const PK_T *alpha, const PK_T *a, int64_t lda, const PK_T *b,
                       int64_t ldb, const PK_T *beta, PK_T *c, int64_t rs_c, int64_t cs_c)
{
    const int nv = nr / PK_VL;
    PK_V acc[PK_MR][PK_NV];
    memset(acc, 0, sizeof acc);
    for (int64_t p = 0; p < k; p++) {
        const PK_T *ap = a + p * lda, *bp = b + p * ldb;
        PK_V bv[PK_NV];
        _Pragma("GCC unroll 8") for (int v = 0; v < nv; v++)
            memcpy(&bv[v], bp + v * PK_VL, sizeof bv[v]);
        _Pragma("GCC unroll 16") for (int i = 0; i < mr; i++) {
            PK_T ai = ap[i];
            _Pragma("GCC unroll 8") for (int v = 0; v < nv; v++)
                acc[i][v] += ai * bv[v];
        }
    }
    PK_CAT(PK_NAME, _store)(acc, m, n, alpha, beta, c, rs_c, cs_c);
}

/* Packed panels are the in-place layout with lda = MR and B as rows,
 * ldb = NR (zero padded, so the full tile is computed). */
void PK_NAME(int64_t m, int64_t n, int64_t k, const PK_T *alpha,
             const PK_T *a, const PK_T *b, const PK_T *beta, PK_T *c,
             int64_t rs_c, int64_t cs_c, const PK_T *a_next, const PK_T *b_next)
{
    (void)a_next; (void)b_next;
    PK_CAT(PK_NAME, _tile)(PK_MR, PK_NR, m, n, k, alpha, a, PK_MR, b, PK_NR, beta, c, rs_c, cs_c);
}

#define PK_DIRECT(fname, mr, nr)                                                           \
    void fname(int64_t m, int64_t n, int64_t k, const PK_T *alpha, const PK_T *a,         \
               int64_t lda, const PK_T *b, int64_t ldb, const PK_T *beta, PK_T *c,        \
               int64_t rs_c, int64_t cs_c)                                                 \
    {                                                                                      \
        PK_CAT(PK_NAME, _tile)(mr, nr, m, n, k, alpha, a, lda, b, ldb, beta, c, rs_c, cs_c); \
    }

PK_DIRECT(PK_CAT(PK_NAME, _direct), PK_MR, PK_NR)
PK_DIRECT(PK_CAT(PK_NAME, _en), PK_MR, PK_NH)
PK_DIRECT(PK_CAT(PK_NAME, _em), PK_MH, PK_NR)
PK_DIRECT(PK_CAT(PK_NAME, _emn), PK_MH, PK_NH)
