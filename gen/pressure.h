/* pressure.h: register pressure while scheduling one iteration: which
 * values are live, what scheduling an instruction would free or define,
 * and whether the rest can still be scheduled within MaxReg. */
#ifndef GEMMGEN_PRESSURE_H
#define GEMMGEN_PRESSURE_H
#include "dag.h"

struct press {
    const struct kernel *k;
    const struct dag *g;
    bool *done;
    int *left;        /* per value: uses of this iteration's instance left */
    int *left_prev;   /* per value: uses of the previous instance left */
    int *preds_left;  /* per instruction: unscheduled non-carried predecessors */
    int live;         /* LiveReg in vector-register units */
};

void press_init(struct press *p, const struct kernel *k, const struct dag *g);
void press_copy(struct press *dst, const struct press *src);
void press_free(struct press *p);
int press_delta(const struct press *p, int i);     /* units after i minus before */
void press_commit(struct press *p, int i);
bool press_ready(const struct press *p, int i);
/* Can every unscheduled instruction still be scheduled, after i, without
 * LiveReg exceeding MaxReg? (A minimum-pressure completion decides.) */
bool press_completable(const struct press *p, int i);
#endif
