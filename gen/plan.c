/* plan.c: runs the stages in order and checks the user's sizes. */
#include "plan.h"
#include "util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_timings(const struct plan *pl);

/* No shape was found: say why, for the first candidate in POCA's order
 * that gets furthest (geometry, then registers, then a timing class the
 * machine file lacks, which check_timings names with its line). */
static _Noreturn void explain_no_shape(struct plan *pl, const struct options *o, int force)
{
    const struct machine *m = &pl->m;
    const char *why = NULL;
    int need = 0, slack = o->mr && o->nr ? 0 : 1;   /* as shape_choose counts */
    for (int bs = 0; bs < BS_COUNT; bs++) {
        if ((force >= 0 && bs != force) || bstrat_complex((enum bstrat)bs) != o->cplx ||
            !target_offers(pl->t, (enum bstrat)bs, o->elem, o->cplx)) continue;
        for (int mr = o->mr ? o->mr : 1; mr <= (o->mr ? o->mr : 64); mr++)
            for (int nr = o->nr ? o->nr : 1; nr <= (o->nr ? o->nr : 32); nr++) {
                const char *w = kernel_shape_error(m, pl->t, (enum bstrat)bs, o->elem, mr, nr);
                if (w) { if (!why) why = w; continue; }
                int regs = kernel_min_regs(m, pl->t, (enum bstrat)bs, o->elem, mr, nr) + slack;
                if (regs > m->max_regs) { if (!need || regs < need) need = regs; continue; }
                kernel_build(&pl->k, m, pl->t, o->elem, (enum bstrat)bs, mr, nr, m->max_regs);
                check_timings(pl);
                kernel_free(&pl->k);
            }
    }
    char req[640] = "";        /* what asked for this shape */
    if (o->small_tile) {
        strfmt(req, sizeof req, "%s:%d: runtime.small_tile.%s [%d, %d]", m->path,
               m->runtime.small_tile[o->elem].line, elem_names[o->elem], o->mr, o->nr);
    } else {
        if (o->mr) strfmt(req, sizeof req, "--mr %d", o->mr);
        if (o->nr) strfmt(req + strlen(req), sizeof req - strlen(req), "%s--nr %d", o->mr ? " " : "", o->nr);
    }
    const char *tname = o->cplx ? (o->elem == ELEM_F64 ? "c64" : "c32") : elem_names[o->elem];
    if (need && req[0])
        die_input("%s: needs at least %d vector registers for %s, %s allows %d", req, need,
                  tname, m->path, m->max_regs);
    if (need && o->cplx && !o->max_regs)
        die_input("%s:%d: vector_registers: no %s micro-kernel fits in %d vector registers "
                  "(the smallest needs %d)", m->path, m->vreg_line, tname, m->max_regs, need);
    if (need)
        die_input("no %s micro-kernel fits in %d vector registers (the smallest needs %d; %s)",
                  tname, m->max_regs, need, m->path);
    if (why) die_input("%s%s%s (%s)", req, req[0] ? ": " : "", why, m->path);
    if (o->force_bs >= 0)
        die_input("--b-strategy %s: the %s instruction set of %s does not offer it",
                  bstrat_names[o->force_bs], pl->t->name, m->path);
    die_input("%s: b_strategy: the %s instruction set does not offer %s", m->path, pl->t->name,
              bstrat_names[force]);
}

/* The strategy a complex kernel is forced to (-1: the cost model picks
 * among the target's, by its table). */
static int complex_strategy(const struct plan *pl, const struct options *o)
{
    const struct cstrat *cs = target_cstrat(pl->t, o->elem);
    const char *tname = o->elem == ELEM_F64 ? "c64" : "c32";
    if (!cs)
        die_input("%s:%d: extensions: the %s instruction set has no complex strategy yet "
                  "(--type %s)", pl->m.path, pl->m.ext_line, pl->t->name, tname);
    /* a file that times FCMLA but lacks its extension contradicts itself */
    unsigned missing = cs->cmla_requires & ~pl->m.ext;
    if ((cs->strategies & (1u << BS_CMLA)) && pl->m.ic[IC_VCMLA].present && missing)
        die_input("%s:%d: instructions.%s: timed, but extensions does not list %s, which "
                  "the instruction needs (--type %s)", pl->m.path, pl->m.ic[IC_VCMLA].line,
                  iclass_names[IC_VCMLA], ext_name(missing), tname);
    if (o->force_bs >= 0 && !(cs->strategies & (1u << o->force_bs)))
        die_input("--b-strategy %s: not a complex strategy of the %s instruction set (--type %s)",
                  bstrat_names[o->force_bs], pl->t->name, tname);
    return o->force_bs;
}

/* A rank-G type needs the target's spelling of its multiply-add and the
 * machine's extension for it. */
static void check_type(const struct plan *pl, const struct options *o)
{
    const struct spell *sp = &pl->t->sp[o->elem];
    const struct machine *m = &pl->m;
    if (elem_group(o->elem) == 1) return;
    if (o->blis) die_input("--blis: BLIS has no %s micro-kernels", elem_names[o->elem]);
    if (!sp->fma && !sp->fma_lane && !sp->ger)   /* no multiply-add of any form */
        die_input("%s:%d: extensions: no %s multiply-add in the %s instruction set these "
                  "extensions give (--type %s)", m->path, m->ext_line, elem_names[o->elem],
                  pl->t->name, elem_names[o->elem]);
    unsigned missing = sp->requires & ~m->ext;
    if (missing)
        die_input("%s:%d: extensions: --type %s needs %s, which the file does not list",
                  m->path, m->ext_line, elem_names[o->elem], ext_name(missing));
}

static void choose_shape(struct plan *pl, const struct options *o)
{
    const struct machine *m = &pl->m;
    int force = o->cplx ? complex_strategy(pl, o) : o->force_bs >= 0 ? o->force_bs : m->b_strategy;
    if (!o->cplx && force >= 0 && bstrat_complex((enum bstrat)force))
        die_input("--b-strategy %s: only for --type c64 or c32", bstrat_names[force]);
    bool exact = o->mr && o->nr;
    /* --blis: shapes BLIS packs fast, when one fits */
    struct shape (*pick)(const struct machine *, const struct target *, enum elem, int, int, int,
                         int, bool) = o->cplx ? shape_choose_complex : shape_choose;
    struct shape s = pick(m, pl->t, o->elem, o->mr, o->nr, m->max_regs, force, o->blis && !exact);
    if (!s.mr && o->blis && !exact)
        s = pick(m, pl->t, o->elem, o->mr, o->nr, m->max_regs, force, false);
    if (!s.mr) explain_no_shape(pl, o, force);
    /* the schedule the target's spare registers short of the file's budget
     * where the shape still fits: on x86, with every register live, GCC's
     * allocator copies and spills accumulators in the loop (docs/decisions.md) */
    int budget = m->max_regs, spare = pl->t->spare_regs;
    if (!o->max_regs && !o->paper && spare &&
        kernel_min_regs(m, pl->t, s.bs, o->elem, s.mr, s.nr) <= m->max_regs - spare)
        budget = m->max_regs - spare;
    kernel_build(&pl->k, m, pl->t, o->elem, s.bs, s.mr, s.nr, budget);
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

/* Where no value outlives an iteration, rotation only renames, which an
 * out-of-order core does itself and an in-order one never needs (no
 * register is written before its earlier readers issue). One copy of the
 * body then, unless the machine file asks for more, where the rotated body
 * cost GCC copies in the loop: in order (each copy a stall), and in a full
 * 16-register file without FMA, whose product registers GCC copied. */
static bool one_copy(const struct plan *pl)
{
    const struct kernel *k = &pl->k;
    return pl->m.order == DISPATCH_IN_ORDER ||
           (kernel_plain_loop(k) && !k->t->sp[k->elem].fma);
}

static void allocate(struct plan *pl, const struct options *o)
{
    if (!o->unroll && one_copy(pl) && !o->paper) {
        regalloc(&pl->r, &pl->k, &pl->p, 1);
        if (pl->r.uf == 1) return;
        rot_free(&pl->r, &pl->k);
    }
    regalloc(&pl->r, &pl->k, &pl->p, o->unroll);
}

/* --small-tile: the machine's small_tile for the type, as if given by
 * --mr and --nr (which it excludes). */
_Static_assert(ELEM_F32 == 0 && ELEM_F64 == 1, "runtime_knobs.h: small_tile is indexed f32, f64");
static void take_small_tile(struct options *so, const struct machine *m)
{
    if (so->mr || so->nr) die_input("--small-tile: not together with --mr or --nr");
    int mr = m->runtime.small_tile[so->elem].mr, nr = m->runtime.small_tile[so->elem].nr;
    if (!mr) die_input("--small-tile: %s: runtime.small_tile: no %s tile given", m->path, elem_names[so->elem]);
    so->mr = mr; so->nr = nr;
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
    struct options so;           /* o with the small tile's sizes */
    if (o->small_tile && (o->cplx || elem_group(o->elem) > 1))
        die_input("--small-tile: no small tile for complex or %s kernels", elem_names[o->elem]);
    if (o->small_tile) {
        so = *o;
        take_small_tile(&so, &pl->m);
        o = &so;
    }
    pl->t = target_for(&pl->m);
    check_type(pl, o);
    choose_shape(pl, o);
    if (o->paper) kernel_paper(&pl->k);
    check_timings(pl);
    dag_build(&pl->g, &pl->k);
    pl->single_cycles = schedule_single(&pl->s, &pl->k, &pl->g,
                                        (struct sched_opts){ .list_schedule = !o->no_sched });
    trace_liveness(&pl->k, pl->s.inst, pl->s.iter, pl->s.n, -1, pl->s.live);
    pipeline(&pl->p, &pl->k, &pl->g, &pl->s, o->no_pipeline ? 0 : -1);
    allocate(pl, o);
    pl->rtg_uf = pl->r.uf;
    if (!o->unroll && pl->m.unroll > pl->r.uf) {    /* the machine asks for a longer body */
        int want = (pl->m.unroll + pl->r.uf - 1) / pl->r.uf * pl->r.uf;
        rot_free(&pl->r, &pl->k);
        regalloc(&pl->r, &pl->k, &pl->p, want);
    }
    if (o->unroll && pl->r.uf != o->unroll)   /* a value outlives the copies asked for */
        die_input("--unroll %d: some values stay live across iterations; the k loop must be "
                  "unrolled a multiple of %d here", o->unroll, pl->r.uf);
    predict(pl);
    if (!kernel_packed_only(&pl->k)) tails_choose(pl->tails, pl);
}

/* The in-place kernels keep the whole budget: their addressing takes
 * general registers, not vector ones, and with one vector register short
 * their schedule ran slower; not in a small file, where GCC then spills
 * (the target's direct_spare_below; docs/decisions.md). */
int plan_build_direct(struct plan *dp, struct plan *pl, const struct options *o)
{
    if (kernel_packed_only(&pl->k) || pl->k.max_regs == pl->m.max_regs
        || pl->m.max_regs < pl->t->direct_spare_below)
        return 0;
    struct options od = *o;
    od.max_regs = pl->m.max_regs;
    od.mr = pl->k.mr; od.nr = pl->k.nr; od.force_bs = (int)pl->k.bs; od.small_tile = false;
    od.blis = false;
    plan_build(dp, &od);
    pl->direct = dp;
    return 1;
}

/* The narrowest valid size from half of `full` up (A rows or B columns
 * of an edge kernel), 0 when none below `full` is valid. Multiples of
 * `mult` only: 4 for columns (problem sizes are mostly multiples of 4 and
 * 8, so are their remainders), 1 for rows (the A granularity decides). */
static int half_size(const struct plan *pl, int full, int mult, bool rows)
{
    const struct kernel *k = &pl->k;
    for (int x = (full + 1) / 2; x < full; x++) {
        if (x % mult) continue;
        int mr = rows ? x : k->mr, nr = rows ? k->nr : x;
        if (!kernel_shape_error(&pl->m, pl->t, k->bs, k->elem, mr, nr)) return x;
    }
    return 0;
}

/* The narrow column widths beside NR': 4 and 6, so that NR, NR' and
 * they tile every even width (NR 14: 10 as 6 + 4, not 14 with 4 padded).
 * Real, unpacked types: the packed-only ones run every width at every
 * height of A's panels. */
static int fine_widths(const struct plan *pl, int nh, int out[2])
{
    const struct kernel *k = &pl->k;
    int n = 0;
    if (kernel_packed_only(k) || !nh) return 0;
    for (int x = 4; x <= 6; x += 2)
        if (x != nh && x < k->nr && !kernel_shape_error(&pl->m, pl->t, k->bs, k->elem, k->mr, x))
            out[n++] = x;
    return n;
}

/* The edge kernels: for the last, short row panel (MR' x NR), the last,
 * narrow column panel (MR x NR') and their corner (MR' x NR'), MR' and
 * NR' from half_size, and the fine widths' panels and corners (MR x 4,
 * MR x 6, MR' x 4, MR' x 6: fine_widths; without the corners a short
 * last row panel ran them MR high), each with its own POCA plan.
 * Register budget: 1/8
 * below MaxReg when the shape leaves room, because a smaller shape lets
 * the pipelined schedule keep every register busy with loads in flight,
 * and GCC, re-allocating the named variables, then spills in the loop
 * (docs/decisions.md). Returns how many (0..MAX_EDGES). */
int plan_edges(const struct plan *pl, struct edge_spec out[MAX_EDGES])
{
    const struct kernel *k = &pl->k;
    int mh = half_size(pl, k->mr, 1, true), nh = half_size(pl, k->nr, 4, false);
    /* packed-only types run a narrow column panel's short rows on the
     * corner kernel (their packed A has no other height): no column edge
     * without it */
    if (kernel_packed_only(k) && mh && nh
        && kernel_min_regs(&pl->m, pl->t, k->bs, k->elem, mh, nh) > pl->m.max_regs)
        nh = 0;
    int fine[2], nf = fine_widths(pl, nh, fine);
    const int f0 = nf > 0 ? fine[0] : 0, f1 = nf > 1 ? fine[1] : 0;
    const int cand[MAX_EDGES][2] = { { k->mr, nh }, { mh, k->nr }, { mh, nh },
                                     { k->mr, f0 }, { k->mr, f1 }, { mh, f0 }, { mh, f1 } };
    int n = 0;
    for (int c = 0; c < MAX_EDGES; c++) {
        int mr = cand[c][0], nr = cand[c][1];
        if (!mr || !nr) continue;
        int need = kernel_min_regs(&pl->m, pl->t, k->bs, k->elem, mr, nr);
        if (need > pl->m.max_regs) continue;
        int budget = pl->m.max_regs - pl->m.max_regs / 8;
        out[n++] = (struct edge_spec){ mr, nr, need > budget ? need : budget };
    }
    return n;
}

/* The plan of edge kernel es of pl, made with o's machine and POCA
 * switches and pl's B strategy. */
void plan_build_edge(struct plan *ep, const struct plan *pl, const struct options *o,
                     const struct edge_spec *es)
{
    struct options eo = *o;
    eo.mr = es->mr; eo.nr = es->nr; eo.max_regs = es->max_regs;
    eo.force_bs = (int)pl->k.bs; eo.unroll = 0; eo.blis = false; eo.small_tile = false;
    plan_build(ep, &eo);
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
    strfmt(mname, sizeof mname, "%s", pl->m.name);
    for (char *p = mname; *p; p++) if (*p == '-') *p = '_';
    const char *r = pl->k.cplx ? (pl->k.elem == ELEM_F64 ? "zgemm" : "cgemm") : elem_routine(pl->k.elem);
    strfmt(buf, size, "%s_%s_%dx%d", mname, r, pl->k.mr, pl->k.nr);
    return buf;
}
