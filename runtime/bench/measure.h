/* measure.h: timing of a GEMM call the way gemmbench reports it. */
#ifndef GB_MEASURE_H
#define GB_MEASURE_H
#include <stdint.h>

double gb_now(void);                              /* seconds, monotonic */

/* Times fn(ctx), a call of `flops` floating-point operations: one warm-up
 * call, then samples of enough back-to-back calls to last >= 1 ms, until
 * `budget` seconds are spent (at least 2 samples unless one call alone
 * exceeds the budget). Returns the best sample in GFLOPS. */
double gb_measure(void (*fn)(void *), void *ctx, double flops, double budget);

/* Column-major operands of an m x n x k GEMM, filled with values in
 * [-1, 1]; elem is 4 or 8. */
struct gb_mats { void *a, *b, *c; int64_t m, n, k; int elem; };
int gb_mats_alloc(struct gb_mats *x, int64_t m, int64_t n, int64_t k, int elem);
/* The same for a GEMM type: 'd', 's', or complex 'z', 'c' (each element
 * two reals of elem bytes: B and C twice as wide, A twice as deep), or
 * 'b' (bf16 A and B, elem 2, float C) and 'i' (random bytes as A and B,
 * elem 1, C of 4 bytes). */
int gb_mats_alloc_type(struct gb_mats *x, char type, int64_t m, int64_t n, int64_t k);
/* The real type whose FMAs a type's multiply-adds are ('z': 'd', 'c': 's'),
 * and its flops for m x n x k (a complex multiply-add is four real ones). */
char gb_real_type(char type);
double gb_flops(char type, int64_t m, int64_t n, int64_t k);
void gb_mats_free(struct gb_mats *x);

#endif
