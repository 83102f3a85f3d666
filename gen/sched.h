/* sched.h: the resource model, liveness, single-iteration list scheduling
 * (POCA §3.2.1) and two-iteration pipelining (Algorithm 1). */
#ifndef GEMMGEN_SCHED_H
#define GEMMGEN_SCHED_H
#include "dag.h"

/* Reservation table: issue slots and unit occupancy per cycle. */
struct rtab {
    const struct machine *m;
    int cap;
    int *issued;
    unsigned char (*busy)[MAX_UNITS];
    int last;        /* in-order dispatch: cycle of the latest instruction */
};
void rt_init(struct rtab *r, const struct machine *m);
void rt_copy(struct rtab *dst, const struct rtab *src);
void rt_free(struct rtab *r);
/* EarliestCycle: first cycle >= ready when a unit and an issue slot are
 * free; `pos` is the program position (the front end decodes in order,
 * `dispatch.width` per cycle). */
int rt_earliest(struct rtab *r, const struct timing *t, int ready, int pos);
/* Returns the unit it takes (index into machine.units). */
int rt_place(struct rtab *r, const struct timing *t, int cycle);

/* A straight-line sequence of instruction instances. */
struct seq {
    int n;
    int *inst;    /* instruction */
    int *iter;    /* iteration it belongs to, relative */
    int *cycle;   /* dispatch cycle */
    int *live;    /* LiveReg after it (vector-register units) */
    int *unit;    /* unit it issues to (machine.units), for --explain=svg */
};
void seq_alloc(struct seq *s, int n);
void seq_free(struct seq *s);

/* LiveReg after each entry, in units; class -1 counts all classes.
 * Instances used before their definition in the trace are live-in;
 * instances defined and not used later stay live to the end. Returns
 * the maximum. */
int trace_liveness(const struct kernel *k, const int *inst, const int *iter, int n,
                   int rclass, int *live_after);

struct sched_opts { bool list_schedule; };   /* false: keep IR order */
/* Single-iteration schedule S; returns its length in cycles. */
int schedule_single(struct seq *s, const struct kernel *k, const struct dag *g,
                    struct sched_opts o);

struct pipe {
    int j;             /* instructions of the next iteration moved up */
    struct seq pro;    /* prologue: S[0..j-1] */
    struct seq q;      /* kernel Pµ: iter 0 = this iteration, 1 = next */
    struct seq rest;   /* S'[j..]: iteration 1 after the kernel, as Algorithm 1 counts it */
    int single_cycles, kernel_cycles;
    int max_live;
};
/* Algorithm 1; max_j < 0 means unbounded, 0 turns pipelining off. */
void pipeline(struct pipe *p, const struct kernel *k, const struct dag *g,
              const struct seq *s, int max_j);
void pipe_free(struct pipe *p);
#endif
