/* args.h: BLAS argument rules shared by the C, CBLAS and Fortran entry
 * points: validation (reference BLAS rules) and the mapping of layout and
 * transposes onto the general strides the five loops take. */
#ifndef GG_ARGS_H
#define GG_ARGS_H
#include <stdint.h>

enum { GG_COL = 102, GG_ROW = 101 };          /* CBLAS order values */

struct gg_strides { int64_t rs_a, cs_a, rs_b, cs_b, rs_c, cs_c; };

/* trans: 0 = no, 1 = yes, anything else invalid. Returns 0, or the
 * 1-based position of the first bad argument in the CBLAS argument order
 * (layout, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc). */
int gg_check(int layout, int ta, int tb, int64_t m, int64_t n, int64_t k,
             int64_t lda, int64_t ldb, int64_t ldc);

struct gg_strides gg_strides_of(int layout, int ta, int tb, int64_t lda,
                                int64_t ldb, int64_t ldc);
/* Both: gg_check's result, and *s filled when it is 0. */
int gg_prepare(int layout, int ta, int tb, int64_t m, int64_t n, int64_t k, int64_t lda,
               int64_t ldb, int64_t ldc, struct gg_strides *s);

/* CBLAS / gemmgen_trans value -> 0, 1 or -1 (ConjTrans is Trans for reals) */
int gg_trans_enum(int t);
/* Fortran character -> 0, 1 or -1 */
int gg_trans_char(char t);
/* 1 for the conjugate transpose (ConjTrans, 'C'): complex types conjugate */
int gg_conj_enum(int t);
int gg_conj_char(char t);

#endif
