/* test_dag.c: the dependence DAG (gen/dag.c) for the paper's worked
 * example, Sandy Bridge 4x4 f64 with VectorLoad-Shuffle (POCA Figure 4(a)
 * and Figure 5, latencies of Table 1), and the DAG's own invariants
 * (edge latencies, heights, depths, successor lists) on every machine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dag.h"

struct fixture { struct machine m; struct kernel k; struct dag g; };

static void load(struct machine *m, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.yaml", MACHINES_DIR, name);
    machine_load(m, path);
}

static int setup_sandybridge(void **state)
{
    struct fixture *f = calloc(1, sizeof *f);
    load(&f->m, "sandybridge");
    f->m.max_regs = 8;
    const struct target *t = target_for(&f->m);
    kernel_build(&f->k, &f->m, t, ELEM_F64, BS_VECTOR_SHUFFLE, 4, 4, 8);
    dag_build(&f->g, &f->k);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    dag_free(&f->g);
    kernel_free(&f->k);
    free(f);
    return 0;
}

static int inst_of(const struct kernel *k, const char *label)
{
    for (int i = 0; i < k->ninst; i++)
        if (!strcmp(k->inst[i].label, label)) return i;
    fail_msg("no instruction labelled %s", label);
    return -1;
}

/* The edge FROM -> TO (carried or not), or NULL; asserts it is unique. */
static const struct edge *edge(const struct fixture *f, const char *from, const char *to, bool carried)
{
    int a = inst_of(&f->k, from), b = inst_of(&f->k, to);
    const struct edge *found = NULL;
    for (int x = 0; x < f->g.nedge; x++) {
        const struct edge *e = &f->g.e[x];
        if (e->from != a || e->to != b || e->carried != carried) continue;
        assert_null(found);
        found = e;
    }
    return found;
}

static void expect_edge(const struct fixture *f, const char *from, const char *to, bool carried, int lat)
{
    const struct edge *e = edge(f, from, to, carried);
    if (!e) fail_msg("missing %s edge %s -> %s", carried ? "carried" : "plain", from, to);
    assert_int_equal(e->lat, lat);
}

static int height(const struct fixture *f, const char *l) { return f->g.height[inst_of(&f->k, l)]; }
static int depth(const struct fixture *f, const char *l) { return f->g.depth[inst_of(&f->k, l)]; }

/* Figure 4(a): 18 instructions, the labels the paper uses. */
static void instructions(void **state)
{
    const struct fixture *f = *state;
    static const char *const labels[] = {
        "A0", "B0", "B1", "B2", "B3", "M0", "M1", "M2", "M3", "C0", "C1", "C2", "C3",
        "AP", "BP", "AN", "PrfA", "PrfB",
    };
    assert_int_equal(f->k.ninst, 18);
    assert_int_equal(f->g.n, 18);
    for (size_t x = 0; x < sizeof labels / sizeof *labels; x++) inst_of(&f->k, labels[x]);
    assert_int_equal(f->k.inst[inst_of(&f->k, "M0")].op, OP_MUL);   /* no FMA on Sandy Bridge */
    assert_int_equal(f->k.inst[inst_of(&f->k, "C0")].op, OP_ADD);
    assert_int_equal(f->k.inst[inst_of(&f->k, "B1")].op, OP_SHUF_B);
}

/* Value edges carry the producer's latency from Table 1. */
static void value_edges(void **state)
{
    const struct fixture *f = *state;
    expect_edge(f, "B0", "B1", false, 4);   /* vload */
    expect_edge(f, "B1", "B2", false, 1);   /* vshuffle */
    expect_edge(f, "B2", "B3", false, 1);
    for (int i = 0; i < 4; i++) {
        char b[8], m[8], c[8];
        snprintf(m, sizeof m, "M%d", i);
        snprintf(c, sizeof c, "C%d", i);
        snprintf(b, sizeof b, "B%d", i);
        expect_edge(f, "A0", m, false, 4);          /* vload A0 feeds every fmul */
        expect_edge(f, b, m, false, i ? 1 : 4);  /* B0 loaded, B1..B3 shuffled */
        expect_edge(f, m, c, false, 5);          /* fmul -> fadd: M0 -> C0 latency 5 */
        expect_edge(f, c, c, true, 3);           /* accumulator -> its next update (fadd) */
        assert_null(edge(f, c, c, false));       /* never a plain self edge */
    }
}

/* The pointer bump follows every access of its stream (latency 0) and the
 * next iteration's accesses follow the bump (carried, iadd latency 1). */
static void pointer_edges(void **state)
{
    const struct fixture *f = *state;
    static const char *const pairs[][2] = { { "A0", "AP" }, { "B0", "BP" }, { "PrfB", "BP" }, { "PrfA", "AN" } };
    for (size_t x = 0; x < sizeof pairs / sizeof *pairs; x++) {
        expect_edge(f, pairs[x][0], pairs[x][1], false, 0);
        expect_edge(f, pairs[x][1], pairs[x][0], true, 1);
    }
    assert_null(edge(f, "B1", "BP", false));  /* shuffles touch no memory */
    assert_null(edge(f, "A0", "BP", false));  /* other streams are independent */
    assert_null(edge(f, "PrfA", "AP", false));
    /* 8 fmul + 8 fadd operands + 3 shuffles; 4 accesses x 2 pointer edges */
    assert_int_equal(f->g.nedge, 19 + 8);
}

/* Heights include the instruction's own latency (paper's MaxHeight). */
static void heights_and_depths(void **state)
{
    const struct fixture *f = *state;
    assert_int_equal(height(f, "B3"), 9);    /* B3 1 + M3 5 + C3 3: the paper's example */
    assert_int_equal(height(f, "M2"), 8);    /* M2 5 + C2 3 */
    assert_int_equal(height(f, "C0"), 3);
    assert_int_equal(height(f, "B2"), 10);
    assert_int_equal(height(f, "B1"), 11);
    assert_int_equal(height(f, "B0"), 15);   /* the critical path B0 B1 B2 B3 M3 C3 */
    assert_int_equal(height(f, "A0"), 12);
    assert_int_equal(height(f, "AP"), 1);
    assert_int_equal(depth(f, "B0"), 0);
    assert_int_equal(depth(f, "B3"), 6);
    assert_int_equal(depth(f, "M3"), 7);
    assert_int_equal(depth(f, "C0"), 9);     /* Table 3: EarliestCycle(C0) = 9 */
    assert_int_equal(depth(f, "C3"), 12);    /* Table 3: the 12-cycle iteration */
    assert_int_equal(depth(f, "BP"), 0);
}

static void preds_and_succs(void **state)
{
    const struct fixture *f = *state;
    assert_int_equal(f->g.npred[inst_of(&f->k, "M0")], 2);
    assert_int_equal(f->g.npred[inst_of(&f->k, "C0")], 1);    /* carried edge not counted */
    assert_int_equal(f->g.npred[inst_of(&f->k, "B0")], 0);
    assert_int_equal(f->g.npred[inst_of(&f->k, "BP")], 2);
    int a0 = inst_of(&f->k, "A0");
    assert_int_equal(f->g.succ_at[a0 + 1] - f->g.succ_at[a0], 5);   /* M0..M3, AP */
}

/* --- invariants on every shipped machine and both types --- */

static int lat_of(const struct kernel *k, int i) { return k->m->ic[k->inst[i].ic].latency; }

/* Every edge is a value flow (producer's latency), an anti-dependence on a
 * pointer bump (0), or a carried bump -> access edge (iadd latency). */
static void check_edge_kinds(const struct kernel *k, const struct dag *g)
{
    for (int x = 0; x < g->nedge; x++) {
        const struct edge *e = &g->e[x];
        const struct inst *from = &k->inst[e->from], *to = &k->inst[e->to];
        bool flow = false;
        for (int s = 0; s < NSRC; s++)
            if (to->src[s] >= 0 && to->src[s] == from->def && to->carried[s] == e->carried) flow = true;
        if (flow) assert_int_equal(e->lat, lat_of(k, e->from));
        else if (to->op == OP_PTR_ADD) assert_true(e->lat == 0 && !e->carried && from->stream == to->stream);
        else assert_true(from->op == OP_PTR_ADD && e->carried && e->lat == k->m->ic[IC_IADD].latency);
    }
    for (int i = 0; i < k->ninst; i++)          /* every operand has its edge */
        for (int s = 0; s < NSRC; s++)
            if (k->inst[i].src[s] >= 0) assert_true(k->val[k->inst[i].src[s]].def >= 0);
}

/* height = own latency or the longest edge + successor height; depth =
 * longest path from ENTRY; both over non-carried edges only. */
static void check_heights(const struct kernel *k, const struct dag *g)
{
    for (int i = 0; i < g->n; i++) {
        int h = lat_of(k, i), d = 0;
        for (int x = 0; x < g->nedge; x++) {
            const struct edge *e = &g->e[x];
            if (e->carried) continue;
            if (e->from == i && e->lat + g->height[e->to] > h) h = e->lat + g->height[e->to];
            if (e->to == i && g->depth[e->from] + e->lat > d) d = g->depth[e->from] + e->lat;
        }
        assert_int_equal(g->height[i], h);
        assert_int_equal(g->depth[i], d);
    }
}

/* succ[] lists exactly the non-carried edges; npred counts them. */
static void check_adjacency(const struct dag *g)
{
    int *pred = calloc((unsigned)g->n + 1u, sizeof *pred);
    for (int i = 0; i < g->n; i++) {
        int want = 0;
        for (int x = 0; x < g->nedge; x++) want += !g->e[x].carried && g->e[x].from == i;
        assert_int_equal(g->succ_at[i + 1] - g->succ_at[i], want);
        for (int y = g->succ_at[i]; y < g->succ_at[i + 1]; y++) {
            int found = 0;
            for (int x = 0; x < g->nedge; x++)
                found |= !g->e[x].carried && g->e[x].from == i && g->e[x].to == g->succ[y];
            assert_true(found);
            pred[g->succ[y]]++;
        }
    }
    for (int i = 0; i < g->n; i++) assert_int_equal(pred[i], g->npred[i]);
    free(pred);
}

static void all_machines(void **state)
{
    (void)state;
    static const char *const names[] = {
        "sandybridge", "haswell", "skylake-avx512", "zen3", "zen4", "zen5", "sapphirerapids",
        "power9", "power10", "cortex-a57", "neoverse-n1", "neoverse-v1", "a64fx",
    };
    for (size_t n = 0; n < sizeof names / sizeof *names; n++)
        for (int e = 0; e < ELEM_FLOAT_COUNT; e++) {
            struct machine m;
            load(&m, names[n]);
            const struct target *t = target_for(&m);
            struct shape s = shape_choose(&m, t, (enum elem)e, 0, 0, m.max_regs, m.b_strategy, false);
            assert_true(s.mr > 0);
            struct kernel k;
            struct dag g;
            kernel_build(&k, &m, t, (enum elem)e, s.bs, s.mr, s.nr, m.max_regs);
            dag_build(&g, &k);
            check_edge_kinds(&k, &g);
            check_heights(&k, &g);
            check_adjacency(&g);
            for (int a = 0; a < k.nacc; a++) {   /* each accumulator feeds its next update */
                int d = k.val[k.acc[a]].def, carried = 0;
                for (int x = 0; x < g.nedge; x++) carried += g.e[x].carried && g.e[x].from == d && g.e[x].to == d;
                assert_int_equal(carried, 1);
            }
            dag_free(&g);
            kernel_free(&k);
        }
}


/* The default shape: intensity first, but within 10% the fewer loads per
 * FMA win (sapphirerapids f32: 32x14, 0.57 loads/FMA, over 16x29, 1.03),
 * while a clear intensity gap still decides (f64: 16x14, intensity 14.9,
 * over 40x5, 8.9, which needs only 0.4 loads/FMA). */
static void shape_tie_break(void **state)
{
    (void)state;
    struct machine m;
    load(&m, "sapphirerapids");
    const struct target *t = target_for(&m);
    struct shape s = shape_choose(&m, t, ELEM_F32, 0, 0, m.max_regs, m.b_strategy, false);
    assert_int_equal(s.mr, 32);
    assert_int_equal(s.nr, 14);
    s = shape_choose(&m, t, ELEM_F64, 0, 0, m.max_regs, m.b_strategy, false);
    assert_int_equal(s.mr, 16);
    assert_int_equal(s.nr, 14);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(instructions, setup_sandybridge, teardown),
        cmocka_unit_test_setup_teardown(value_edges, setup_sandybridge, teardown),
        cmocka_unit_test_setup_teardown(pointer_edges, setup_sandybridge, teardown),
        cmocka_unit_test_setup_teardown(heights_and_depths, setup_sandybridge, teardown),
        cmocka_unit_test_setup_teardown(preds_and_succs, setup_sandybridge, teardown),
        cmocka_unit_test(all_machines),
        cmocka_unit_test(shape_tie_break),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
