/* `gemmbench --blis`: BLIS as Debian runs it, BLIS forced to its best x86
 * kernel, and BLIS with the gemmgen kernel registered; 1 and 2 threads.
 * argv may hold argv[0] and "--blis" (both ignored) and the options
 *   --quick        n = 600, best of 3 (default: n = 2000, best of 5)
 *   --n N          problem size N^3
 *   --reps R       runs per configuration; the best one counts
 *   --type f64|f32 DGEMM (default) or SGEMM
 *   --mc/--kc/--nc B  block sizes for the gemmgen kernel (default: derived
 *                  from the host caches by gemmgen_blis_blocksizes)
 * Needs no BLIS header: gemmbench includes it as is. Returns 0 on success. */
#ifndef GEMMBENCH_BLIS_H
#define GEMMBENCH_BLIS_H
int gemmbench_blis(int argc, char **argv);
#endif
