/* micro.h: the in-L1 micro-kernel mode of gemmbench. */
#ifndef GB_MICRO_H
#define GB_MICRO_H
struct gg_ukernel;
/* GFLOPS of one kernel ('d' or 's') on one full MR x NR tile with packed
 * A and B that fit in half of L1 (kc is returned), called back to back
 * with beta = 1, so loads hit L1 and only the kernel counts. */
double gb_micro_kernel(const struct gg_ukernel *uk, char type, int *kc_out);
/* the same for the current kernel set's kernel */
double gb_micro(char type, int *kc_out);
#endif
