/* plan.c: runs the stages in order and checks the user's sizes. */
#include "plan.h"
#include "util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_timings(const struct plan *pl);

static void choose_shape(struct plan *pl, const struct options *o)
{
    const struct machine *m = &pl->m;
    int force = o->force_bs >= 0 ? o->force_bs : m->b_strategy;
    if (o->mr && o->nr) {
        struct shape s = shape_choose(m, pl->t, o->elem, o->mr, o->nr, m->max_regs, force, false);
        if (s.mr) { kernel_build(&pl->k, m, pl->t, o->elem, s.bs, s.mr, s.nr, m->max_regs); return; }
        /* say why with the first strategy allowed */
        for (int bs = 0; bs < BS_COUNT; bs++) {
            if (force >= 0 && bs != force) continue;
            if (!(pl->t->strategies & (1u << bs))) continue;
            const char *why = kernel_shape_error(m, pl->t, bs, o->elem, o->mr, o->nr);
            if (why) die_input("--mr %d --nr %d: %s (%s)", o->mr, o->nr, why, m->path);
            if (kernel_min_regs(m, pl->t, bs, o->elem, o->mr, o->nr) > m->max_regs)
                die_input("--mr %d --nr %d: needs at least %d vector registers, %s allows %d",
                          o->mr, o->nr, kernel_min_regs(m, pl->t, bs, o->elem, o->mr, o->nr),
                          m->path, m->max_regs);
            kernel_build(&pl->k, m, pl->t, o->elem, (enum bstrat)bs, o->mr, o->nr, m->max_regs);
            check_timings(pl);   /* names the instruction class the file lacks */
        }
        die_input("%s: b_strategy: the %s instruction set does not offer it", m->path, pl->t->name);
    }
    /* --blis: shapes BLIS packs fast, when one fits */
    struct shape s = shape_choose(m, pl->t, o->elem, o->mr, o->nr, m->max_regs, force, o->blis);
    if (!s.mr && o->blis) s = shape_choose(m, pl->t, o->elem, o->mr, o->nr, m->max_regs, force, false);
    if (!s.mr)
        die_input("%s: no %s micro-kernel%s fits in %d vector registers", m->path,
                  elem_names[o->elem], o->mr || o->nr ? " of the requested size" : "", m->max_regs);
    kernel_build(&pl->k, m, pl->t, o->elem, s.bs, s.mr, s.nr, m->max_regs);
}

static void check_timings(const struct plan *pl)
{
    for (int i = 0; i < pl->k.ninst; i++)
        machine_timing(&pl->m, pl->k.inst[i].ic, op_names[pl->k.inst[i].op]);
}

static void predict(struct plan *pl)
{
    pl->resource_bound = kernel_resource_bound(&pl->k);
    pl->fp_bound = kernel_fp_bound(&pl->k);
    double c = pl->p.kernel_cycles;
    if (c < pl->resource_bound) c = pl->resource_bound;
    pl->cycles_per_iter = c;
    pl->fp_utilization = pl->fp_bound / c;
}

void plan_build(struct plan *pl, const struct options *o)
{
    memset(pl, 0, sizeof *pl);
    machine_load(&pl->m, o->machine_path);
    if (o->max_regs) {
        if (o->max_regs < 2 || o->max_regs > pl->m.vector_registers)
            die_input("--max-regs %d: must be within [2, %d] (vector_registers of %s)",
                      o->max_regs, pl->m.vector_registers, pl->m.path);
        pl->m.max_regs = o->max_regs;
    }
    pl->t = target_for(&pl->m);
    choose_shape(pl, o);
    check_timings(pl);
    dag_build(&pl->g, &pl->k);
    pl->single_cycles = schedule_single(&pl->s, &pl->k, &pl->g,
                                        (struct sched_opts){ .list_schedule = !o->no_sched });
    trace_liveness(&pl->k, pl->s.inst, pl->s.iter, pl->s.n, -1, pl->s.live);
    pipeline(&pl->p, &pl->k, &pl->g, &pl->s, o->no_pipeline ? 0 : -1);
    regalloc(&pl->r, &pl->k, &pl->p, o->unroll);
    predict(pl);
}

void plan_free(struct plan *pl)
{
    rot_free(&pl->r, &pl->k);
    pipe_free(&pl->p);
    seq_free(&pl->s);
    dag_free(&pl->g);
    kernel_free(&pl->k);
}

const char *plan_default_name(const struct plan *pl, char *buf, size_t size)
{
    char mname[64];
    snprintf(mname, sizeof mname, "%s", pl->m.name);
    for (char *p = mname; *p; p++) if (*p == '-') *p = '_';
    snprintf(buf, size, "%s_%cgemm_%dx%d", mname, pl->k.elem == ELEM_F64 ? 'd' : 's',
             pl->k.mr, pl->k.nr);
    return buf;
}
