/* micro.h: the in-L1 micro-kernel mode of gemmbench. */
#ifndef GB_MICRO_H
#define GB_MICRO_H
struct gg_ukernel;
/* How deep the packed panels go: half of L1 for A and B (the rule that
 * leaves room for C and the next panels, as a GEMM's KC does), or as deep
 * as A, B and the C tile together still fit in L1. */
enum gb_kc_rule { GB_KC_HALF_L1, GB_KC_FILL_L1 };
/* GFLOPS of one kernel ('d', 's', complex 'z', 'c' counted in their real
 * FMAs, 'b' bf16, 'i' u8s8s32 in GOPS) on one full MR x NR tile
 * with packed A and B of the rule's depth (kc is returned), called back
 * to back with beta = 1, so loads hit L1 and only the kernel counts. */
double gb_micro_kernel(const struct gg_ukernel *uk, char type, enum gb_kc_rule rule, int *kc_out);
/* the same for the current kernel set's kernel */
double gb_micro(char type, enum gb_kc_rule rule, int *kc_out);
#endif
