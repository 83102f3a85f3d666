/* split_cplx.h: gemmbench --ablation's complex rows: ZGEMM and CGEMM on
 * gemmgen's complex kernels against seed 001's own method, the real and
 * imaginary parts packed apart and multiplied by four real GEMMs. */
#ifndef GB_SPLIT_CPLX_H
#define GB_SPLIT_CPLX_H
void gb_ablation_complex(void);
#endif
