/* dag.h: dependence graph of one iteration, with loop-carried edges to the
 * next iteration kept apart (the pipeliner needs them). */
#ifndef GEMMGEN_DAG_H
#define GEMMGEN_DAG_H
#include "ir.h"

struct edge { int from, to, lat; bool carried; };

struct dag {
    int n, nedge;
    struct edge *e;
    int *height;   /* longest latency path to EXIT, including own latency */
    int *depth;    /* longest latency path from ENTRY */
    int *npred;    /* non-carried predecessors */
    int *succ_at;  /* successors of i (non-carried): succ[succ_at[i] .. succ_at[i+1]) */
    int *succ;
};

void dag_build(struct dag *g, const struct kernel *k);
void dag_free(struct dag *g);
#endif
