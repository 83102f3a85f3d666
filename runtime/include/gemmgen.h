/* gemmgen.h: the C API of libgemmgen, a BLAS-style GEMM built around the
 * micro-kernels that gemmgen generates for a machine.
 *
 *   C = alpha * op(A) * op(B) + beta * C      op(X) = X or X^T
 *
 * BLAS semantics: beta = 0 never reads C (NaN there does not propagate);
 * alpha = 0 or k = 0 only scales C by beta; m = 0 or n = 0 does nothing.
 * The CBLAS (cblas_dgemm, cblas_sgemm) and Fortran (dgemm_, sgemm_) entry
 * points are also exported; they are declared by the system's cblas.h. */
#ifndef GEMMGEN_H
#define GEMMGEN_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Same values as CBLAS, so a CBLAS enum converts unchanged. */
typedef enum { GEMMGEN_ROW_MAJOR = 101, GEMMGEN_COL_MAJOR = 102 } gemmgen_layout;
typedef enum { GEMMGEN_NO_TRANS = 111, GEMMGEN_TRANS = 112, GEMMGEN_CONJ_TRANS = 113 } gemmgen_trans;

/* Returns 0, or -i when argument i (1-based, in this order) is invalid;
 * nothing is computed then. lda/ldb/ldc follow the BLAS rules for the
 * layout (e.g. column major, no transpose: lda >= max(1, m)). */
int gemmgen_dgemm(gemmgen_layout layout, gemmgen_trans transa, gemmgen_trans transb,
                  int64_t m, int64_t n, int64_t k,
                  double alpha, const double *a, int64_t lda,
                  const double *b, int64_t ldb,
                  double beta, double *c, int64_t ldc);
int gemmgen_sgemm(gemmgen_layout layout, gemmgen_trans transa, gemmgen_trans transb,
                  int64_t m, int64_t n, int64_t k,
                  float alpha, const float *a, int64_t lda,
                  const float *b, int64_t ldb,
                  float beta, float *c, int64_t ldc);

/* General strides (BLIS style): X(i,j) is at x[i*rs_x + j*cs_x]; A is
 * m x k, B is k x n, C is m x n. Strides may be any value, including
 * negative; C's strides must not make two elements alias. */
/* Complex GEMM (interleaved re/im: double _Complex / float _Complex, or
 * std::complex): alpha and beta by address, as CBLAS takes them;
 * GEMMGEN_CONJ_TRANS is op(X) = X^H (GEMMGEN_TRANS: X^T). Returns 0, or
 * minus the position of the first bad argument, as gemmgen_dgemm. */
int gemmgen_zgemm(gemmgen_layout layout, gemmgen_trans transa, gemmgen_trans transb,
                  int64_t m, int64_t n, int64_t k,
                  const void *alpha, const void *a, int64_t lda,
                  const void *b, int64_t ldb,
                  const void *beta, void *c, int64_t ldc);
int gemmgen_cgemm(gemmgen_layout layout, gemmgen_trans transa, gemmgen_trans transb,
                  int64_t m, int64_t n, int64_t k,
                  const void *alpha, const void *a, int64_t lda,
                  const void *b, int64_t ldb,
                  const void *beta, void *c, int64_t ldc);

/* bf16 GEMM: A and B bfloat16 (the upper 16 bits of a float, as uint16_t),
 * C, alpha and beta float, sums in float; arguments and return as
 * gemmgen_sgemm. cblas_sbgemm (OpenBLAS's signature: CBLAS order and
 * transposes, int sizes, bfloat16 = uint16_t) is exported too. */
int gemmgen_sbgemm(gemmgen_layout layout, gemmgen_trans transa, gemmgen_trans transb,
                   int64_t m, int64_t n, int64_t k,
                   float alpha, const uint16_t *a, int64_t lda,
                   const uint16_t *b, int64_t ldb,
                   float beta, float *c, int64_t ldc);

/* oneDNN's dnnl_gemm_u8s8s32: the same signature, and its results as its
 * documentation defines them (measured against libdnnl 2.6, test_lowp.c):
 *
 *   C := alpha * (op(A) - ao) * (op(B) - bo) + beta * C + co
 *
 * row major (X(i,j) at x[i*ldx + j]); op(A) M x K unsigned bytes, op(B)
 * K x N signed bytes, C M x N int32. transa, transb: 'N'/'n' or 'T'/'t'.
 * offsetc: 'F'/'f' one offset co[0]; 'C'/'c' one per row of C, co[i]
 * (co holds M values); 'R'/'r' one per column, co[j] (N values).
 * alpha 1 with beta 0 or 1: int32 arithmetic, wrapping on overflow
 * (products, sums, offsets, beta C and co alike). Otherwise alpha times the
 * int32 sum plus beta times C in double, rounded to nearest with ties
 * away from zero, saturated to int32, then co added (wrapping). beta 0
 * never reads C. M, N or K 0: C is left as it is (oneDNN does not apply
 * beta or co then either). oneDNN's JIT kernels agree bit for bit with
 * this for alpha 1 and beta 0 or 1, and for K <= 64; past that they round
 * and saturate once per k block of their own (64 or 128 steps), so their
 * results may differ by 1 per extra block (or more where a block's partial
 * result saturated); this function rounds once.
 * Returns 0 (dnnl_success), 1 (dnnl_out_of_memory: a workspace, for alpha
 * not 1 or beta not 0 or 1), or 2 (dnnl_invalid_arguments, nothing done):
 * a transpose or offsetc not listed, M, N or K negative, lda < max(1, K)
 * (transa 'N') or max(1, M) ('T'), ldb < max(1, N) ('N') or max(1, K)
 * ('T'), ldc < max(1, N) (all checked even when M, N or K is 0), A, B or
 * C NULL, and co NULL (oneDNN reads it anyway). */
int gemmgen_gemm_u8s8s32(char transa, char transb, char offsetc,
                         int64_t M, int64_t N, int64_t K, float alpha,
                         const uint8_t *A, int64_t lda, uint8_t ao,
                         const int8_t *B, int64_t ldb, int8_t bo,
                         float beta, int32_t *C, int64_t ldc, const int32_t *co);

void gemmgen_dgemm_strided(int64_t m, int64_t n, int64_t k, double alpha,
                           const double *a, int64_t rs_a, int64_t cs_a,
                           const double *b, int64_t rs_b, int64_t cs_b,
                           double beta, double *c, int64_t rs_c, int64_t cs_c);
void gemmgen_sgemm_strided(int64_t m, int64_t n, int64_t k, float alpha,
                           const float *a, int64_t rs_a, int64_t cs_a,
                           const float *b, int64_t rs_b, int64_t cs_b,
                           float beta, float *c, int64_t rs_c, int64_t cs_c);

/* Threads: by default GEMMGEN_NUM_THREADS, else OMP_NUM_THREADS, else the
 * number of online CPUs. n <= 0 returns to that default. */
void gemmgen_set_num_threads(int n);
int gemmgen_get_num_threads(void);

/* Kernels: the library holds the kernels generated for one or more
 * machines plus a portable C kernel; at first use it takes the best one
 * the CPU supports (cpuid), or the one named by GEMMGEN_KERNEL. */
int gemmgen_kernel_count(void);
const char *gemmgen_kernel_name(int i);     /* NULL when i is out of range */
int gemmgen_kernel_supported(int i);        /* 1 if this CPU can run it */
const char *gemmgen_kernel_current(void);
/* Selects the kernel set by name; returns 0, or -1 if unknown or the CPU
 * cannot run it (the selection is then unchanged). Not thread safe with
 * respect to concurrent GEMM calls. */
int gemmgen_kernel_select(const char *name);
/* The kernel set whose kernel runs for type 'd', 's', 'z', 'c', 'b' or 'i':
 * the current set, or "portable" where it has no kernel for the type or
 * the CPU lacks the instructions that kernel needs (bf16, VNNI). */
const char *gemmgen_kernel_current_for(char type);

/* The blocking in use for type 'd', 's', 'z', 'c', 'b' (bf16) or 'i' (u8s8s32)
 * (register block MR x NR, cache blocks MC, KC, NC); any pointer may be NULL. */
void gemmgen_blocking(char type, int *mr, int *nr, int *mc, int *kc, int *nc);
/* The second, small_tile kernel of the set in use for type 'd' or 's' (taking
 * whole MR x NR tiles of single-threaded calls at small k): 1 and its tile,
 * or 0 when the set has none. */
int gemmgen_small_tile(char type, int *mr, int *nr);

#ifdef __cplusplus
}
#endif
#endif
