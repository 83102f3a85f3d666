/* fblas.c: the Fortran 77 BLAS dgemm_ and sgemm_ (gfortran calling
 * convention: everything by reference, LP64 integers, hidden lengths of
 * the character arguments at the end), so Fortran programs and anything
 * linked against libblas.so.3 run on libgemmgen. Argument checks and their
 * numbers are those of reference BLAS DGEMM; errors go to xerbla_. */
#include <stddef.h>
#include "args.h"
#include "gg_internal.h"

void xerbla_(const char *name, const int *info, size_t len);

/* Reference DGEMM numbers its arguments without the CBLAS layout, so the
 * column-major check's position is one less. */
/* EXTRA: the complex cores' conjugation flags after C's strides (NO_EXTRA:
 * none). 'C' is the conjugate transpose. */
#define NO_EXTRA
#define CONJ_EXTRA , gg_conj_char(*transa), gg_conj_char(*transb)
#define FBLAS(NAME, T, CORE, RNAME, EXTRA)                                     \
void NAME(const char *transa, const char *transb, const int *m, const int *n,  \
          const int *k, const T *alpha, const T *a, const int *lda,            \
          const T *b, const int *ldb, const T *beta, T *c, const int *ldc,     \
          size_t la, size_t lb)                                                \
{                                                                              \
    (void)la; (void)lb;                                                        \
    struct gg_strides s;                                                       \
    int info = gg_prepare(GG_COL, gg_trans_char(*transa), gg_trans_char(*transb), \
                          *m, *n, *k, *lda, *ldb, *ldc, &s);                   \
    if (info) {                                                                \
        info -= 1;                                                             \
        xerbla_(RNAME, &info, sizeof RNAME - 1);                               \
        return;                                                                \
    }                                                                          \
    CORE(*m, *n, *k, *alpha, a, s.rs_a, s.cs_a, b, s.rs_b, s.cs_b, *beta, c,   \
         s.rs_c, s.cs_c EXTRA);                                                \
}

FBLAS(dgemm_, double, gg_dgemm, "DGEMM ", NO_EXTRA)
FBLAS(sgemm_, float, gg_sgemm, "SGEMM ", NO_EXTRA)
FBLAS(zgemm_, double _Complex, z_gg_gemm, "ZGEMM ", CONJ_EXTRA)
FBLAS(cgemm_, float _Complex, c_gg_gemm, "CGEMM ", CONJ_EXTRA)
