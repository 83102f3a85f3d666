/* cblas.c: cblas_dgemm, cblas_sgemm and cblas_sbgemm (LP64: int dimensions, the ABI of
 * the system cblas.h), so CBLAS programs run unchanged on libgemmgen.
 * Bad arguments are reported like reference CBLAS does: the position in
 * the CBLAS argument list (Order = 1), through xerbla_, and nothing is
 * computed. */
#include <string.h>
#include "args.h"
#include "gg_internal.h"

void xerbla_(const char *name, const int *info, size_t len);

/* T: alpha, beta and C; TX: A and B (bfloat16 bits for cblas_sbgemm,
 * OpenBLAS's signature) */
#define CBLAS(NAME, T, TX, CORE)                                               \
void NAME(int order, int transa, int transb, int m, int n, int k, T alpha,     \
          const TX *a, int lda, const TX *b, int ldb, T beta, T *c, int ldc)   \
{                                                                              \
    struct gg_strides s;                                                       \
    int info = gg_prepare(order, gg_trans_enum(transa), gg_trans_enum(transb), \
                          m, n, k, lda, ldb, ldc, &s);                         \
    if (info) {                                                                \
        xerbla_(#NAME, &info, strlen(#NAME));                                  \
        return;                                                                \
    }                                                                          \
    CORE(m, n, k, alpha, a, s.rs_a, s.cs_a, b, s.rs_b, s.cs_b, beta, c,        \
         s.rs_c, s.cs_c);                                                      \
}

CBLAS(cblas_dgemm, double, double, gg_dgemm)
CBLAS(cblas_sgemm, float, float, gg_sgemm)
CBLAS(cblas_sbgemm, float, uint16_t, b_gg_gemm)

/* cblas_zgemm, cblas_cgemm: scalars by address, CblasConjTrans conjugates. */
#define CBLAS_CPLX(NAME, T, CORE)                                              \
void NAME(int order, int transa, int transb, int m, int n, int k,             \
          const void *alpha, const void *a, int lda, const void *b, int ldb,   \
          const void *beta, void *c, int ldc)                                  \
{                                                                              \
    struct gg_strides s;                                                       \
    int info = gg_prepare(order, gg_trans_enum(transa), gg_trans_enum(transb), \
                          m, n, k, lda, ldb, ldc, &s);                         \
    if (info) {                                                                \
        xerbla_(#NAME, &info, strlen(#NAME));                                  \
        return;                                                                \
    }                                                                          \
    CORE(m, n, k, *(const T *)alpha, a, s.rs_a, s.cs_a, b, s.rs_b, s.cs_b,     \
         *(const T *)beta, c, s.rs_c, s.cs_c, gg_conj_enum(transa),           \
         gg_conj_enum(transb));                                                \
}

CBLAS_CPLX(cblas_zgemm, double _Complex, z_gg_gemm)
CBLAS_CPLX(cblas_cgemm, float _Complex, c_gg_gemm)
