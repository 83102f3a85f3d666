/* test_pipeline.c: two-iteration pipelining (gen/pipeline.c, POCA
 * Algorithm 1). The kernel Pµ interleaves S[j..n-1] (this iteration) with
 * S'[0..j-1] (the next one): S's instructions keep their cycles, each
 * instruction appears once, both orders are kept, dependences and latencies
 * hold across the two iterations, LiveReg stays within MaxReg in the
 * steady state (recomputed here over prologue, several kernel copies and
 * epilogue), and pipelining is never slower than the single iteration. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plan_fixture.h"


/* A trace of instruction instances (instruction, iteration). */
struct trace { int n, *inst, *iter; };

static void push(struct trace *t, int inst, int iter)
{
    t->inst[t->n] = inst;
    t->iter[t->n++] = iter;
}

/* Prologue, `copies` executions of Pµ, epilogue: what the loop runs. */
static struct trace steady_trace(const struct pipe *p, int copies)
{
    int cap = p->pro.n + (copies + 1) * p->q.n;
    struct trace t = { 0, malloc(sizeof(int) * (size_t)cap), malloc(sizeof(int) * (size_t)cap) };
    for (int x = 0; x < p->pro.n; x++) push(&t, p->pro.inst[x], 0);
    for (int e = 0; e < copies; e++)
        for (int x = 0; x < p->q.n; x++) push(&t, p->q.inst[x], e + p->q.iter[x]);
    for (int x = 0; x < p->q.n; x++)
        if (p->q.iter[x] == 0) push(&t, p->q.inst[x], copies);
    return t;
}

/* Position in T of instance (inst, iter), or -1. */
static int find(const struct trace *t, int inst, int iter)
{
    for (int x = 0; x < t->n; x++) if (t->inst[x] == inst && t->iter[x] == iter) return x;
    return -1;
}

/* Every iteration runs each instruction once, and every producer instance
 * runs before its consumers. */
static void check_trace_order(const struct kernel *k, const struct dag *g, const struct trace *t, int iters)
{
    for (int it = 0; it < iters; it++)
        for (int i = 0; i < k->ninst; i++) assert_true(find(t, i, it) >= 0);
    assert_int_equal(t->n, iters * k->ninst);
    for (int x = 0; x < g->nedge; x++) {
        const struct edge *e = &g->e[x];
        for (int it = e->carried; it < iters; it++)
            assert_true(find(t, e->from, it - e->carried) < find(t, e->to, it));
    }
}

/* Max LiveReg over a trace, in units: instance (v, it) is live from its
 * definition (from the start when read first) to its last read (to the end
 * when not read after its definition). */
static int max_live(const struct kernel *k, const struct trace *t)
{
    int max = 0;
    for (int x = 0; x < t->n; x++) {
        int live = 0;
        for (int v = 0; v < k->nval; v++)
            for (int it = -1; it <= t->iter[t->n - 1] + 1; it++) {
                int def = -1, last = -1;
                for (int y = 0; y < t->n; y++) {
                    const struct inst *in = &k->inst[t->inst[y]];
                    if (in->def == v && t->iter[y] == it) def = y;
                    for (int s = 0; s < NSRC; s++)
                        if (in->src[s] == v && t->iter[y] - in->carried[s] == it) last = y;
                }
                if (def < 0 && last < 0) continue;
                int from = def < 0 ? -1 : def, to = last > def ? last : t->n;
                live += k->rc_units[k->val[v].rc] * (from <= x && x < to);
            }
        if (live > max) max = live;
    }
    return max;
}

static int s_cycle(const struct seq *s, int inst)
{
    for (int x = 0; x < s->n; x++) if (s->inst[x] == inst) return s->cycle[x];
    fail_msg("instruction %d not in S", inst);
    return -1;
}

/* Pµ = S[j..] merged with S'[0..j-1]; the prologue is S[0..j-1]. */
static void check_structure(const struct kernel *k, const struct seq *s, const struct pipe *p)
{
    int n = s->n, seen[256] = { 0 }, next[2] = { p->j, 0 };
    assert_true(k->ninst < 256);
    assert_true(p->j >= 0 && p->j <= n);
    assert_int_equal(p->q.n, n);
    assert_int_equal(p->pro.n, p->j);
    for (int x = 0; x < p->j; x++) {
        assert_int_equal(p->pro.inst[x], s->inst[x]);
        assert_int_equal(p->pro.cycle[x], s->cycle[x]);
    }
    for (int x = 0; x < n; x++) {
        int it = p->q.iter[x];
        assert_true(it == 0 || it == 1);
        seen[p->q.inst[x]]++;
        assert_int_equal(p->q.inst[x], s->inst[next[it]++]);     /* both orders kept */
        if (it == 0) assert_int_equal(p->q.cycle[x], s_cycle(s, p->q.inst[x]));   /* Algorithm 1 */
    }
    assert_int_equal(next[0], n);
    assert_int_equal(next[1], p->j);
    for (int i = 0; i < k->ninst; i++) assert_int_equal(seen[i], 1);
}

/* Latencies across the two merged iterations (prologue + Pµ). */
static void check_latencies(const struct dag *g, const struct pipe *p)
{
    int cyc[2][256];
    for (int it = 0; it < 2; it++) for (int i = 0; i < 256; i++) cyc[it][i] = -1;
    for (int x = 0; x < p->pro.n; x++) cyc[0][p->pro.inst[x]] = p->pro.cycle[x];
    for (int x = 0; x < p->q.n; x++) cyc[p->q.iter[x]][p->q.inst[x]] = p->q.cycle[x];
    for (int x = 0; x < g->nedge; x++) {
        const struct edge *e = &g->e[x];
        for (int it = e->carried; it < 2; it++) {
            int from = cyc[it - e->carried][e->from], to = cyc[it][e->to];
            if (from >= 0 && to >= 0) assert_true(to >= from + e->lat);
        }
    }
}

static void check_pipe(const struct kernel *k, const struct dag *g, const struct seq *s, const struct pipe *p)
{
    check_structure(k, s, p);
    check_latencies(g, p);
    for (int x = 0; x < p->q.n; x++) assert_true(p->q.live[x] <= k->max_regs);
    assert_true(p->max_live <= k->max_regs);
    struct trace t = steady_trace(p, 3);
    check_trace_order(k, g, &t, 4);
    int live = max_live(k, &t);
    if (live > k->max_regs)
        fail_msg("%s %dx%d: steady-state LiveReg %d > MaxReg %d", k->m->name, k->mr, k->nr, live, k->max_regs);
    free(t.inst);
    free(t.iter);
}

static void check_plan(const struct plan *pl)
{
    check_pipe(&pl->k, &pl->g, &pl->s, &pl->p);
    assert_int_equal(pl->p.single_cycles, pl->single_cycles);
    if (pl->p.kernel_cycles > pl->p.single_cycles)
        fail_msg("%s %s %dx%d: pipelined %d cycles > single iteration %d", pl->m.name,
                 elem_names[pl->k.elem], pl->k.mr, pl->k.nr, pl->p.kernel_cycles, pl->p.single_cycles);
    assert_true(pl->cycles_per_iter <= pl->single_cycles + 1e-9);
    assert_true(pl->cycles_per_iter >= pl->resource_bound - 1e-9);
}

static void every_machine(void **state)
{
    (void)state;
    for (size_t m = 0; m < sizeof machines / sizeof *machines; m++)
        for (int e = 0; e < ELEM_FLOAT_COUNT; e++) {
            struct plan pl;
            build(&pl, machines[m], (enum elem)e, 0, 0, 0);
            check_plan(&pl);
            plan_free(&pl);
        }
}

static void register_caps(void **state)
{
    (void)state;
    static const struct { const char *m; int mr, nr, maxr; } cases[] = {
        { "sandybridge", 4, 4, 8 }, { "sandybridge", 8, 4, 14 }, { "haswell", 8, 4, 12 },
        { "haswell", 4, 4, 8 }, { "skylake-avx512", 16, 8, 22 }, { "zen5", 24, 8, 30 },
        { "zen4", 8, 8, 12 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        struct plan pl;
        build(&pl, cases[c].m, ELEM_F64, cases[c].mr, cases[c].nr, cases[c].maxr);
        assert_int_equal(pl.k.max_regs, cases[c].maxr);
        check_plan(&pl);
        plan_free(&pl);
    }
}

/* max_j = 0 turns pipelining off: Pµ = S. A bound on j is kept. */
static void bounded_j(void **state)
{
    (void)state;
    struct plan pl;
    build(&pl, "sandybridge", ELEM_F64, 4, 4, 8);
    assert_true(pl.p.j > 0);                   /* the paper's example pipelines */
    for (int max_j = 0; max_j <= pl.p.j; max_j++) {
        struct pipe p;
        pipeline(&p, &pl.k, &pl.g, &pl.s, max_j);
        assert_true(p.j <= max_j);
        check_pipe(&pl.k, &pl.g, &pl.s, &p);
        if (max_j == 0)
            for (int x = 0; x < pl.s.n; x++) {
                assert_int_equal(p.q.inst[x], pl.s.inst[x]);
                assert_int_equal(p.q.iter[x], 0);
            }
        pipe_free(&p);
    }
    plan_free(&pl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_machine),
        cmocka_unit_test(register_caps),
        cmocka_unit_test(bounded_j),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
