/* tails.h: the row tails of a kernel, the few rows of a short last row
 * panel (tails.c decides which run from which k; emit_dot.c and
 * emit_kgroup.c spell them). */
#ifndef GEMMGEN_TAILS_H
#define GEMMGEN_TAILS_H

/* In the order the runtime tries them. */
enum tail { TAIL_DOT, TAIL_QUAD, TAIL_HALF, TAIL_PAIR, TAIL_COUNT };
enum { DOT_ROWS = 4 };   /* the dot kernel's rows, as emit_dot.c spells them */

/* rows 0: not emitted. Below all_k (0: none) the tail runs only for k a
 * multiple of kstep. */
struct tail_choice { int rows, min_k, kstep, all_k; };

struct plan;
/* The choice for each tail, by the generator's count of instructions. */
void tails_choose(struct tail_choice out[TAIL_COUNT], const struct plan *pl);
/* A k-group tail's cost per column in full-width FMAs (G = 1, 2, 4). */
double kgroup_cost(const struct plan *pl, int g, int k);
#endif
