/* test_sched.c: single-iteration list scheduling (gen/sched.c,
 * schedule_single; POCA §3.2.1). Whatever the heuristics choose, the
 * schedule must be a topological order of the non-carried DAG, respect
 * latencies, the machine's units, dispatch width and (in-order) dispatch
 * order, and LiveReg must never exceed MaxReg -- recomputed here from the
 * schedule itself, not taken from the scheduler. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched.h"

static const char *const x86[] = {
    "sandybridge", "haswell", "skylake-avx512", "zen3", "zen4", "zen5", "sapphirerapids",
};
static const char *const others[] = {
    "power9", "power10", "cortex-a57", "neoverse-n1", "neoverse-v1", "a64fx",
};

static void load(struct machine *m, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.yaml", MACHINES_DIR, name);
    machine_load(m, path);
}

/* LiveReg after each entry of a single iteration, in vector-register units:
 * accumulators are live in (the previous instance) and live out (the new
 * one); every other value lives from its definition to its last use. */
static int live_after(const struct kernel *k, const struct seq *s, int x)
{
    int live = 0;
    for (int v = 0; v < k->nval; v++) {
        int units = k->rc_units[k->val[v].rc], def = -1, last_cur = -1, last_prev = -1;
        for (int y = 0; y < s->n; y++) {
            const struct inst *in = &k->inst[s->inst[y]];
            if (in->def == v) def = y;
            for (int o = 0; o < NSRC; o++)
                if (in->src[o] == v) *(in->carried[o] ? &last_prev : &last_cur) = y;
        }
        if (k->val[v].carried) {
            live += units * (last_prev > x);           /* previous instance, until its update */
            live += units * (def >= 0 && def <= x);    /* new instance, to the end */
        } else {
            live += units * (def >= 0 && def <= x && last_cur > x);
        }
    }
    return live;
}

static void check_order(const struct kernel *k, const struct dag *g, const struct seq *s)
{
    int *pos = malloc(sizeof *pos * (size_t)(unsigned)k->ninst + 1);
    for (int i = 0; i < k->ninst; i++) pos[i] = -1;
    assert_int_equal(s->n, k->ninst);
    for (int x = 0; x < s->n; x++) {
        assert_true(s->inst[x] >= 0 && s->inst[x] < k->ninst);
        assert_int_equal(pos[s->inst[x]], -1);            /* each instruction once */
        assert_int_equal(s->iter[x], 0);
        pos[s->inst[x]] = x;
    }
    for (int x = 0; x < g->nedge; x++) {
        const struct edge *e = &g->e[x];
        if (e->carried) continue;
        assert_true(pos[e->from] < pos[e->to]);               /* topological */
        assert_true(s->cycle[pos[e->to]] >= s->cycle[pos[e->from]] + e->lat);   /* latency */
    }
    free(pos);
}

/* Dispatch: at most `width` uops per cycle, the front end decodes `width`
 * instructions per cycle in program order, in-order machines never go back. */
static void check_dispatch(const struct kernel *k, const struct seq *s)
{
    const struct machine *m = k->m;
    for (int x = 0; x < s->n; x++) {
        int uops = 0;
        for (int y = 0; y < s->n; y++)
            if (s->cycle[y] == s->cycle[x]) uops += m->ic[k->inst[s->inst[y]].ic].uops;
        assert_true(uops <= m->dispatch_width);
        assert_true(s->cycle[x] >= x / m->dispatch_width);
        if (m->order == DISPATCH_IN_ORDER && x) assert_true(s->cycle[x] >= s->cycle[x - 1]);
    }
}

static unsigned alt_mask(const struct timing *t)
{
    unsigned mask = 0;
    for (int a = 0; a < t->nalt; a++) mask |= 1u << t->alt[a];
    return mask;
}

/* Units: in every cycle the busy instructions fit the units they may use.
 * Hall's condition over unions of the kernel's unit sets decides whether an
 * assignment of instructions to unit copies exists. */
static void check_units(const struct kernel *k, const struct seq *s)
{
    const struct machine *m = k->m;
    unsigned sets[IC_COUNT];
    int nsets = 0, end = 0;
    for (int c = 0; c < IC_COUNT; c++) if (m->ic[c].present) sets[nsets++] = alt_mask(&m->ic[c]);
    for (int x = 0; x < s->n; x++)
        if (s->cycle[x] + m->ic[k->inst[s->inst[x]].ic].occupancy > end)
            end = s->cycle[x] + m->ic[k->inst[s->inst[x]].ic].occupancy;
    for (int c = 0; c < end; c++)
        for (unsigned pick = 1; pick < 1u << nsets; pick++) {
            unsigned u = 0;
            for (int y = 0; y < nsets; y++) if (pick >> y & 1) u |= sets[y];
            int demand = 0, cap = 0;
            for (int x = 0; x < s->n; x++) {
                const struct timing *t = &m->ic[k->inst[s->inst[x]].ic];
                bool busy = s->cycle[x] <= c && c < s->cycle[x] + t->occupancy;
                demand += busy && (alt_mask(t) & ~u) == 0;
            }
            for (int n = 0; n < m->nunits; n++) if (u >> n & 1) cap += m->units[n].count;
            assert_true(demand <= cap);
        }
}

/* The full set of checks on one schedule; `len` is schedule_single's result. */
static void check(const struct kernel *k, const struct dag *g, const struct seq *s, int len)
{
    check_order(k, g, s);
    check_dispatch(k, s);
    check_units(k, s);
    int max = 0;
    for (int x = 0; x < s->n; x++) {
        int live = live_after(k, s, x);
        if (live > k->max_regs)
            fail_msg("%s %s %dx%d: LiveReg %d > MaxReg %d after entry %d", k->m->name,
                     elem_names[k->elem], k->mr, k->nr, live, k->max_regs, x);
        assert_int_equal(s->live[x], live);   /* the scheduler's own count agrees */
        if (s->cycle[x] > max) max = s->cycle[x];
    }
    assert_int_equal(len, max);
}

/* Builds MR x NR (0: the default shape) under `cap` registers, schedules,
 * checks. Returns false when no shape fits the cap. */
static bool run(const char *name, enum elem e, int mr, int nr, int cap)
{
    struct machine m;
    load(&m, name);
    if (cap) m.max_regs = cap;
    const struct target *t = target_for(&m);
    struct shape sh = shape_choose(&m, t, e, mr, nr, m.max_regs, m.b_strategy, false);
    if (!sh.mr) return false;
    if (mr) assert_true(sh.mr == mr && sh.nr == nr);
    struct kernel k;
    struct dag g;
    struct seq s;
    kernel_build(&k, &m, t, e, sh.bs, sh.mr, sh.nr, m.max_regs);
    dag_build(&g, &k);
    int len = schedule_single(&s, &k, &g, (struct sched_opts){ .list_schedule = true });
    check(&k, &g, &s, len);
    seq_free(&s);
    dag_free(&g);
    kernel_free(&k);
    return true;
}

static void default_shapes_x86(void **state)
{
    (void)state;
    for (size_t n = 0; n < sizeof x86 / sizeof *x86; n++)
        for (int e = 0; e < ELEM_FLOAT_COUNT; e++) assert_true(run(x86[n], (enum elem)e, 0, 0, 0));
}

static void default_shapes_other_isas(void **state)
{
    (void)state;
    for (size_t n = 0; n < sizeof others / sizeof *others; n++)
        for (int e = 0; e < ELEM_FLOAT_COUNT; e++) assert_true(run(others[n], (enum elem)e, 0, 0, 0));
}

/* --max-regs caps: the default shape chosen under each cap. */
static void register_caps(void **state)
{
    (void)state;
    static const int caps[] = { 6, 8, 10, 12, 14, 16, 20, 24 };
    for (size_t n = 0; n < sizeof x86 / sizeof *x86; n++)
        for (int e = 0; e < ELEM_FLOAT_COUNT; e++) {
            int fitted = 0;
            for (size_t c = 0; c < sizeof caps / sizeof *caps; c++) fitted += run(x86[n], (enum elem)e, 0, 0, caps[c]);
            assert_true(fitted >= 4);   /* most caps admit some shape */
        }
}

static void explicit_shapes(void **state)
{
    (void)state;
    static const struct { const char *m; enum elem e; int mr, nr, cap; } cases[] = {
        { "sandybridge", ELEM_F64, 4, 4, 8 },   /* the paper's example */
        { "sandybridge", ELEM_F64, 8, 4, 16 },
        { "sandybridge", ELEM_F32, 8, 8, 16 },
        { "haswell", ELEM_F64, 8, 4, 12 },
        { "haswell", ELEM_F64, 12, 4, 16 },
        { "haswell", ELEM_F32, 16, 6, 16 },
        { "skylake-avx512", ELEM_F64, 16, 8, 22 },
        { "skylake-avx512", ELEM_F64, 24, 8, 32 },
        { "zen5", ELEM_F32, 32, 8, 32 },
        { "zen4", ELEM_F64, 8, 8, 12 },
        { "sapphirerapids", ELEM_F64, 16, 12, 32 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        if (!run(cases[c].m, cases[c].e, cases[c].mr, cases[c].nr, cases[c].cap))
            fail_msg("%s %dx%d does not fit %d registers", cases[c].m, cases[c].mr, cases[c].nr, cases[c].cap);
}

/* --no-sched keeps instruction-selection order, still a valid schedule. */
static void ir_order(void **state)
{
    (void)state;
    struct machine m;
    load(&m, "sandybridge");
    const struct target *t = target_for(&m);
    struct kernel k;
    struct dag g;
    struct seq s;
    kernel_build(&k, &m, t, ELEM_F64, BS_VECTOR_SHUFFLE, 8, 4, m.max_regs);
    dag_build(&g, &k);
    int len = schedule_single(&s, &k, &g, (struct sched_opts){ .list_schedule = false });
    for (int x = 0; x < s.n; x++) assert_int_equal(s.inst[x], x);
    check_order(&k, &g, &s);
    check_dispatch(&k, &s);
    check_units(&k, &s);
    assert_true(len > 0);
    seq_free(&s);
    dag_free(&g);
    kernel_free(&k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(default_shapes_x86),
        cmocka_unit_test(default_shapes_other_isas),
        cmocka_unit_test(register_caps),
        cmocka_unit_test(explicit_shapes),
        cmocka_unit_test(ir_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
