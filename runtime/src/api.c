/* api.c: the gemmgen_* C API (include/gemmgen.h) on top of the five loops. */
#include "../include/gemmgen.h"
#include "args.h"
#include "gg_internal.h"

/* T: alpha, beta and C; TX: A and B (bfloat16 bits for sbgemm) */
#define API(NAME, T, TX, CORE)                                                 \
int NAME(gemmgen_layout layout, gemmgen_trans transa, gemmgen_trans transb,    \
         int64_t m, int64_t n, int64_t k, T alpha, const TX *a, int64_t lda,   \
         const TX *b, int64_t ldb, T beta, T *c, int64_t ldc)                  \
{                                                                              \
    struct gg_strides s;                                                       \
    int bad = gg_prepare(layout, gg_trans_enum(transa), gg_trans_enum(transb), \
                         m, n, k, lda, ldb, ldc, &s);                          \
    if (bad)                                                                   \
        return -bad;                                                           \
    CORE(m, n, k, alpha, a, s.rs_a, s.cs_a, b, s.rs_b, s.cs_b, beta, c,        \
         s.rs_c, s.cs_c);                                                      \
    return 0;                                                                  \
}

API(gemmgen_dgemm, double, double, gg_dgemm)
API(gemmgen_sgemm, float, float, gg_sgemm)
API(gemmgen_sbgemm, float, uint16_t, b_gg_gemm)

/* Complex: alpha and beta by address (as CBLAS takes them); ConjTrans
 * conjugates the operand. */
#define API_CPLX(NAME, T, CORE)                                                \
int NAME(gemmgen_layout layout, gemmgen_trans transa, gemmgen_trans transb,    \
         int64_t m, int64_t n, int64_t k, const void *alpha, const void *a,    \
         int64_t lda, const void *b, int64_t ldb, const void *beta, void *c,   \
         int64_t ldc)                                                          \
{                                                                              \
    struct gg_strides s;                                                       \
    int bad = gg_prepare(layout, gg_trans_enum(transa), gg_trans_enum(transb), \
                         m, n, k, lda, ldb, ldc, &s);                          \
    if (bad)                                                                   \
        return -bad;                                                           \
    CORE(m, n, k, *(const T *)alpha, a, s.rs_a, s.cs_a, b, s.rs_b, s.cs_b,     \
         *(const T *)beta, c, s.rs_c, s.cs_c, gg_conj_enum(transa),           \
         gg_conj_enum(transb));                                                \
    return 0;                                                                  \
}

API_CPLX(gemmgen_zgemm, double _Complex, z_gg_gemm)
API_CPLX(gemmgen_cgemm, float _Complex, c_gg_gemm)

void gemmgen_dgemm_strided(int64_t m, int64_t n, int64_t k, double alpha,
                           const double *a, int64_t rs_a, int64_t cs_a,
                           const double *b, int64_t rs_b, int64_t cs_b,
                           double beta, double *c, int64_t rs_c, int64_t cs_c)
{
    gg_dgemm(m, n, k, alpha, a, rs_a, cs_a, b, rs_b, cs_b, beta, c, rs_c, cs_c);
}

void gemmgen_sgemm_strided(int64_t m, int64_t n, int64_t k, float alpha,
                           const float *a, int64_t rs_a, int64_t cs_a,
                           const float *b, int64_t rs_b, int64_t cs_b,
                           float beta, float *c, int64_t rs_c, int64_t cs_c)
{
    gg_sgemm(m, n, k, alpha, a, rs_a, cs_a, b, rs_b, cs_b, beta, c, rs_c, cs_c);
}
