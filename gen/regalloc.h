/* regalloc.h: register transfer graph (POCA Algorithm 2), its partition
 * into cycles, the unroll factor UF = LCM of the periods, and the
 * rotating assignment: value v in unrolled copy e gets one fixed register. */
#ifndef GEMMGEN_REGALLOC_H
#define GEMMGEN_REGALLOC_H
#include "sched.h"

struct rtg_edge { int from, to, cross; };   /* node ids; cross = iterations crossed */

struct rtg {                  /* one register class */
    int nnode, npseudo;       /* nodes: values of the class, then pseudo F0.. */
    int *node_val;            /* value id, or -1 for pseudo */
    int nedge;
    struct rtg_edge *e;
    int max_regs, live_in;
    /* the chosen partition, for --explain=svg: per node, its edge on its
     * cycle and that cycle's index in rot.cycle_text (-1: pinned, or a
     * cycle of pseudo nodes only) */
    int *cover_edge, *cycle;
};

struct rot {
    bool rotating;            /* false: no partition found, names per value */
    int uf;                   /* unroll factor */
    int *reg0;                /* per value: first register of its cycle */
    int *period;              /* per value: registers on its cycle (1: fixed) */
    int *off;                 /* per value: offset along its cycle */
    int nregs[RC_COUNT];      /* registers named per class */
    struct rtg g[RC_COUNT];
    int ncycles, *cycle_period;   /* the chosen partition, for --explain */
    char (*cycle_text)[256];
};

/* want_uf > 0: unroll that many copies if the rotation allows; r->uf says
 * what it got (a multiple when a value outlives want_uf copies, which the
 * caller must refuse or accept). */
void regalloc(struct rot *r, const struct kernel *k, const struct pipe *p, int want_uf);
void rot_free(struct rot *r, const struct kernel *k);
/* Physical register (within the class) of value v defined in copy `copy`. */
int rot_reg(const struct rot *r, int v, int copy);
#endif
