/* micro.h: the in-L1 micro-kernel mode of gemmbench. */
#ifndef GB_MICRO_H
#define GB_MICRO_H
/* GFLOPS of the current kernel set's 'd' or 's' kernel on one full MR x NR
 * tile with packed A and B that fit in half of L1 (kc is returned), called
 * back to back with beta = 1, so loads hit L1 and only the kernel counts. */
double gb_micro(char type, int *kc_out);
#endif
