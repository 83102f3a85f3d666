/* test_regalloc.c: the register transfer graph (POCA Algorithm 2), the
 * cycle partition and unroll factor, and the rotating allocation
 * (gen/regalloc.c). The decisive check runs the emitted code's register
 * naming (gen/emit.c) over whole k loops: zeroed accumulators, prologue
 * (copy -1), kernel executions in copies 0..UF-1, the remainder, the
 * epilogue in copy k-1 mod UF, the final store; every read must find the
 * value instance it expects, so no two live values ever share a register. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plan_fixture.h"

static void build_opts(struct plan *pl, const char *mach, enum elem e, int mr, int nr, int maxr, bool no_sched)
{
    char path[1024];
    struct options o = fixture_options(path, mach, e, mr, nr, maxr);
    o.no_sched = no_sched;
    plan_build(pl, &o);
}

/* --- the naming simulation --- */

enum { NREG = 512 };

struct regfile {
    const struct kernel *k;
    const struct rot *r;
    int *def_iter;            /* per value: iteration of its definition in Pµ */
    long holds[RC_COUNT][NREG];
};

static long instance(int v, int iter) { return (long)v * 4096 + iter + 8; }

static int reg_of(const struct regfile *f, int v, int copy)
{
    int reg = rot_reg(f->r, v, copy);
    assert_true(reg >= 0 && reg < f->r->nregs[f->k->val[v].rc]);   /* a declared variable */
    return reg;
}

/* One instruction of Pµ (iteration offset delta) in copy `copy`, as
 * emit_inst names it, executing iteration `iter`. */
static void execute(struct regfile *f, int i, int delta, int copy, int iter)
{
    const struct inst *in = &f->k->inst[i];
    for (int s = 0; s < NSRC; s++) {
        int v = in->src[s];
        if (v < 0) continue;
        int dist = f->def_iter[v] + in->carried[s] - delta;
        long got = f->holds[f->k->val[v].rc][reg_of(f, v, copy - dist)];
        if (got != instance(v, iter - in->carried[s]))
            fail_msg("%s: %s (iteration %d, copy %d) reads %s of iteration %d from register %d, "
                     "which holds value %ld of iteration %ld", f->k->m->name, in->label, iter, copy,
                     f->k->val[v].name, iter - in->carried[s], reg_of(f, v, copy - dist),
                     got < 0 ? -1 : got / 4096, got < 0 ? -1 : got % 4096 - 8);
    }
    if (in->def >= 0) f->holds[f->k->val[in->def].rc][reg_of(f, in->def, copy)] = instance(in->def, iter);
}

/* The whole k loop for trip count K >= 1, as templates/kernel.c.in runs it. */
static void run_loop(const struct plan *pl, int *def_iter, int K)
{
    static struct regfile f;
    f = (struct regfile){ .k = &pl->k, .r = &pl->r, .def_iter = def_iter };
    const struct seq *q = &pl->p.q;
    int uf = pl->r.uf, nq = K - 1;
    for (int c = 0; c < RC_COUNT; c++) for (int x = 0; x < NREG; x++) f.holds[c][x] = -1;
    for (int a = 0; a < pl->k.nacc; a++)       /* zeroed in copy 0: iteration -1 */
        f.holds[pl->k.val[pl->k.acc[a]].rc][reg_of(&f, pl->k.acc[a], 0)] = instance(pl->k.acc[a], -1);
    for (int x = 0; x < pl->p.pro.n; x++) execute(&f, pl->p.pro.inst[x], 1, -1, 0);
    for (int s = 0; s < nq; s++)              /* the unrolled loop, then the remainder */
        for (int x = 0; x < q->n; x++) execute(&f, q->inst[x], q->iter[x], s % uf, s + q->iter[x]);
    for (int x = 0; x < q->n; x++)            /* epilogue: switch (rem), case nq % uf */
        if (q->iter[x] == 0) execute(&f, q->inst[x], 0, nq % uf, nq);
    for (int a = 0; a < pl->k.nacc; a++) {    /* the store reads copy 0's names */
        int v = pl->k.acc[a];
        assert_true(f.holds[pl->k.val[v].rc][reg_of(&f, v, 0)] == instance(v, K - 1));
    }
}

static void check_naming(const struct plan *pl)
{
    const struct seq *q = &pl->p.q;
    int *def_iter = calloc((size_t)(unsigned)pl->k.nval + 1, sizeof *def_iter);
    for (int x = 0; x < q->n; x++)
        if (pl->k.inst[q->inst[x]].def >= 0) def_iter[pl->k.inst[q->inst[x]].def] = q->iter[x];
    assert_true(pl->r.uf >= 1 && pl->r.uf <= 16);
    for (int K = 1; K <= 3 * pl->r.uf + 2; K++) run_loop(pl, def_iter, K);
    free(def_iter);
}

/* --- the RTG and the partition --- */

struct life { int def_pos, def_iter, death_pos, death_dist; };

/* Where each value of Pµ dies: the farthest use in executions of Pµ after
 * its definition, and the last position of that use. */
static struct life life_of(const struct kernel *k, const struct seq *q, int v)
{
    struct life l = { -1, 0, -1, 0 };
    for (int x = 0; x < q->n; x++)
        if (k->inst[q->inst[x]].def == v) { l.def_pos = x; l.def_iter = q->iter[x]; }
    for (int x = 0; x < q->n; x++)
        for (int s = 0; s < NSRC; s++) {
            if (k->inst[q->inst[x]].src[s] != v) continue;
            int dist = l.def_iter + k->inst[q->inst[x]].carried[s] - q->iter[x];
            if (dist > l.death_dist || (dist == l.death_dist && x > l.death_pos)) { l.death_dist = dist; l.death_pos = x; }
        }
    return l;
}

/* LiveIn of the class: value instances alive when an execution of Pµ
 * starts, counted on the trace prologue, Pµ (iterations 0|1), Pµ (1|2),
 * Pµ (2|3): defined before the second Pµ and read in it or later. */
static int live_in(const struct kernel *k, const struct pipe *p, int rc)
{
    int n = 0;
    for (int v = 0; v < k->nval; v++) {
        if ((int)k->val[v].rc != rc) continue;
        for (int it = -1; it <= 3; it++) {
            int def = -1, read = -1, pos = 0;   /* positions: prologue, copy 0, copy 1 */
            for (int x = 0; x < p->pro.n; x++, pos++)
                if (k->inst[p->pro.inst[x]].def == v && it == 0) def = pos;
            for (int e = 0; e < 3; e++)
                for (int x = 0; x < p->q.n; x++, pos++) {
                    const struct inst *in = &k->inst[p->q.inst[x]];
                    int iter = e + p->q.iter[x];
                    if (in->def == v && iter == it) def = pos;
                    for (int s = 0; s < NSRC; s++)
                        if (in->src[s] == v && iter - in->carried[s] == it && e >= 1) read = pos;
                }
            n += def >= 0 && def < p->pro.n + p->q.n && read >= 0;
        }
    }
    return n;
}

static void check_rtg_class(const struct plan *pl, int rc)
{
    const struct kernel *k = &pl->k;
    const struct rtg *g = &pl->r.g[rc];
    int nv = 0;
    for (int v = 0; v < k->nval; v++) nv += (int)k->val[v].rc == rc;
    if (!nv) return;
    assert_int_equal(g->nnode, nv + g->npseudo);
    assert_int_equal(g->live_in, live_in(k, &pl->p, rc));
    int want_pseudo = g->max_regs - g->live_in;
    assert_int_equal(g->npseudo, want_pseudo > 0 ? want_pseudo : 0);   /* F0..F(k-1) */
    int *in = calloc((size_t)(unsigned)g->nnode + 1, sizeof *in), *out = calloc((size_t)(unsigned)g->nnode + 1, sizeof *out);
    for (int x = 0; x < g->nedge; x++) {
        const struct rtg_edge *e = &g->e[x];
        int a = g->node_val[e->from], b = g->node_val[e->to];
        in[e->to]++;
        out[e->from]++;
        struct life la = a >= 0 ? life_of(k, &pl->p.q, a) : (struct life){ -1, 0, -1, 0 };
        if (b >= 0) {   /* b may take a's register only after a is dead */
            struct life lb = life_of(k, &pl->p.q, b);
            assert_true(la.death_pos <= lb.def_pos);
            assert_int_equal(e->cross, la.death_dist);
        } else {
            assert_int_equal(e->cross, la.death_dist + 1);
        }
    }
    for (int n = 0; n < g->nnode; n++)   /* every node has a predecessor and a successor */
        if (!in[n] || !out[n]) fail_msg("%s: RTG node %d (%s) has no %s", k->m->name, n,
                                        g->node_val[n] >= 0 ? k->val[g->node_val[n]].name : "F",
                                        in[n] ? "successor" : "predecessor");
    free(in);
    free(out);
}

static int lcm_int(int a, int b)
{
    int x = a, y = b;
    while (y) { int t = x % y; x = y; y = t; }
    return a / x * b;
}

/* The partition: UF is the LCM of the cycle periods (or, when the machine
 * file asks for a longer body, the least multiple of the RTG's UF that is
 * at least its unroll, and a multiple of the LCM); registers of distinct
 * cycles are distinct (values of one cycle may share a register in one
 * copy when their lifetimes do not meet: the naming run checks that);
 * accumulators are pinned; no more registers than MaxReg. */
static void check_partition(const struct plan *pl)
{
    const struct kernel *k = &pl->k;
    const struct rot *r = &pl->r;
    assert_true(r->rotating);
    int uf = 1, units = 0;
    for (int c = 0; c < r->ncycles; c++) uf = lcm_int(uf, r->cycle_period[c]);
    if (pl->m.unroll > pl->rtg_uf) {
        assert_int_equal(r->uf, (pl->m.unroll + pl->rtg_uf - 1) / pl->rtg_uf * pl->rtg_uf);
        assert_int_equal(r->uf % uf, 0);
    } else {
        assert_int_equal(r->uf, uf);
    }
    assert_true(r->uf >= 1 && r->uf <= 8);
    for (int rc = 0; rc < RC_COUNT; rc++) units += r->nregs[rc] * k->rc_units[rc];
    assert_true(units <= k->max_regs);
    for (int a = 0; a < k->nacc; a++) assert_int_equal(r->period[k->acc[a]], 1);
    for (int v = 0; v < k->nval; v++) {
        assert_true(r->period[v] >= 1 && r->off[v] >= 0);
        assert_true(r->reg0[v] + r->period[v] <= r->nregs[k->val[v].rc]);
        for (int w = 0; w < v; w++) {
            if (k->val[w].rc != k->val[v].rc) continue;
            bool same = r->reg0[w] == r->reg0[v];
            bool overlap = r->reg0[w] < r->reg0[v] + r->period[v] && r->reg0[v] < r->reg0[w] + r->period[w];
            assert_true(same || !overlap);
            if (same) assert_int_equal(r->period[w], r->period[v]);   /* one cycle */
        }
    }
}

/* --- tests --- */

/* The paper's example (Figure 6): Sandy Bridge 4x4 f64, MaxReg 8. */
static void worked_example(void **state)
{
    (void)state;
    struct plan pl;
    build(&pl, "sandybridge", ELEM_F64, 4, 4, 8);
    const struct rtg *g = &pl.r.g[RC_VEC];
    assert_int_equal(g->max_regs, 8);
    assert_int_equal(g->nnode - g->npseudo, 13);   /* A0 B0-B3 M0-M3 C0-C3 */
    assert_true(g->live_in >= 4 && g->live_in <= 8);   /* at least C0-C3 */
    check_rtg_class(&pl, RC_VEC);
    check_partition(&pl);
    assert_true(pl.r.uf >= 2);                 /* something rotates */
    assert_true(pl.r.nregs[RC_VEC] <= 8);
    check_naming(&pl);
    plan_free(&pl);
}

static void every_machine(void **state)
{
    (void)state;
    for (size_t m = 0; m < sizeof machines / sizeof *machines; m++)
        for (int e = 0; e < ELEM_FLOAT_COUNT; e++) {
            struct plan pl;
            build(&pl, machines[m], (enum elem)e, 0, 0, 0);
            for (int rc = 0; rc < RC_COUNT; rc++) check_rtg_class(&pl, rc);
            check_partition(&pl);
            check_naming(&pl);
            plan_free(&pl);
        }
}

static void register_caps(void **state)
{
    (void)state;
    static const struct { const char *m; int mr, nr, maxr; } cases[] = {
        { "sandybridge", 8, 4, 14 }, { "haswell", 8, 4, 12 }, { "haswell", 4, 4, 8 },
        { "skylake-avx512", 16, 8, 22 }, { "zen5", 24, 8, 30 }, { "zen4", 8, 8, 12 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        struct plan pl;
        build(&pl, cases[c].m, ELEM_F64, cases[c].mr, cases[c].nr, cases[c].maxr);
        check_rtg_class(&pl, RC_VEC);
        check_partition(&pl);
        check_naming(&pl);
        plan_free(&pl);
    }
}

/* --unroll N: N copies (or a multiple: regalloc raises it when a value
 * needs more names; test_cli checks the command line says so), rotating
 * when N is a multiple of the partition's UF, one name per value and copy
 * otherwise; the naming must be right either way. */
static void forced_unroll(void **state)
{
    (void)state;
    static const char *const names[] = { "sandybridge", "haswell", "zen5" };
    for (size_t m = 0; m < sizeof names / sizeof *names; m++) {
        struct plan pl;
        build(&pl, names[m], ELEM_F64, m ? 0 : 4, m ? 0 : 4, m ? 0 : 8);
        int natural = pl.r.uf;
        for (int want = 1; want <= 6; want++) {
            rot_free(&pl.r, &pl.k);
            regalloc(&pl.r, &pl.k, &pl.p, want);
            assert_int_equal(pl.r.uf % want, 0);
            if (want % natural == 0) assert_true(pl.r.rotating && pl.r.uf == want);
            check_naming(&pl);
        }
        plan_free(&pl);
    }
}

/* --no-sched may exceed MaxReg; the fallback names must still be right. */
static void unscheduled(void **state)
{
    (void)state;
    struct plan pl;
    build_opts(&pl, "sandybridge", ELEM_F64, 4, 4, 8, true);
    check_naming(&pl);
    plan_free(&pl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(worked_example),
        cmocka_unit_test(every_machine),
        cmocka_unit_test(register_caps),
        cmocka_unit_test(forced_unroll),
        cmocka_unit_test(unscheduled),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
