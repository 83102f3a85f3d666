/* ablation.h: gemmbench --ablation, seed 001 Figures 9-10 on this CPU. */
#ifndef GB_ABLATION_H
#define GB_ABLATION_H
/* Times, in L1 like gb_micro, the kernels of the first -Dmachine that
 * gemmgen made with each POCA step switched off and with the unroll
 * factor forced to 1..8, next to the full method. */
void gb_ablation(void);
#endif
