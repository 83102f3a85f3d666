/* gemmgen_blis: run a gemmgen micro-kernel inside an installed BLIS (0.9).
 *
 * Two lines, before the first BLIS call of the process:
 *
 *     #include "gemmgen_blis.h"
 *     gemmgen_blis_register(BLIS_DOUBLE, (void_fp)NAME_blis, NAME_MR, NAME_NR,
 *                           NAME_ROW_PREF, NULL);
 *
 * After that every BLIS entry point of the process (bli_gemm, bli_dgemm,
 * dgemm_, cblas_dgemm; complex types through the 1m method) runs NAME. A
 * complex kernel (gemmgen --type c64, c32 --blis) registered for
 * BLIS_DCOMPLEX or BLIS_SCOMPLEX runs bli_zgemm, bli_cgemm natively.
 * To leave BLIS's global context alone, patch a private copy instead
 * (gemmgen_blis_copy_cntx + gemmgen_blis_set) and call gemmgen_blis_gemm. */
#ifndef GEMMGEN_BLIS_H
#define GEMMGEN_BLIS_H

#include <blis.h>

/* Cache levels in bytes (size) and associativity (ways); line in bytes.
 * A zero size means "unknown": the block size it bounds keeps BLIS's value. */
typedef struct gemmgen_blis_caches {
    long l1d_size, l1d_ways;
    long l2_size, l2_ways;
    long l3_size, l3_ways;
    long line;
} gemmgen_blis_caches;

/* Cache block sizes for one kernel; mc % mr == 0, nc % nr == 0. */
typedef struct gemmgen_blis_blocks {
    dim_t mc, kc, nc;
} gemmgen_blis_blocks;

/* Caches of the host from sysconf (glibc); zeros where unknown. */
gemmgen_blis_caches gemmgen_blis_host_caches(void);

/* MC/KC/NC for an mr x nr kernel on elem-byte data, by the runtime's rule
 * (seed 000 §3.1, gemmgen_blis_blk.c): B's kc x nr micro-panel in half of
 * L1, A's mc x kc block in half of L2, B's kc x nc block in half of L3
 * (it replaced the model of Low et al., ACM TOMS 43(2) 2016, that BLIS's
 * own block sizes follow). Zero fields where the caches do not say. */
gemmgen_blis_blocks gemmgen_blis_blocksizes(const gemmgen_blis_caches *caches,
                                            int elem, int mr, int nr);

/* Install ukr (a NAME_blis wrapper, BLIS 0.9 signature) for datatype dt
 * (BLIS_DOUBLE, BLIS_FLOAT, or BLIS_DCOMPLEX, BLIS_SCOMPLEX for a complex
 * kernel of gemmgen --type c64, c32) in cntx: kernel + preference, MR/NR (default
 * and packed leading dimension), MC/KC/NC (blk: zero fields = derive from
 * the host caches; NULL = all derived), reference gemmtrsm/trsm kernels that
 * call it, and sup thresholds of zero so small sizes also reach it.
 * Returns 0, or -1 on bad arguments. */
int gemmgen_blis_set(cntx_t *cntx, num_t dt, void_fp ukr, int mr, int nr,
                     int row_pref, const gemmgen_blis_blocks *blk);

/* gemmgen_blis_set on BLIS's global context (bli_gks_query_cntx()). Call it
 * before any other BLIS call: the complex (1m) context is derived from the
 * native one the first time it is used. */
int gemmgen_blis_register(num_t dt, void_fp ukr, int mr, int nr, int row_pref,
                          const gemmgen_blis_blocks *blk);

/* Copy BLIS's global context into dst, to patch without side effects. */
void gemmgen_blis_copy_cntx(cntx_t *dst);

/* C := beta*C + alpha*op(A)*op(B) through bli_gemm_ex with cntx (NULL: the
 * global one) and the small-matrix (sup) path off, so the kernel in cntx
 * computes every size. nthreads <= 0 keeps BLIS's default. */
void gemmgen_blis_gemm(obj_t *alpha, obj_t *a, obj_t *b, obj_t *beta, obj_t *c,
                       cntx_t *cntx, int nthreads);

#endif
