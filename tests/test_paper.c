/* test_paper.c: the paper's worked example (POCA §3.2, Tables 3 and 4,
 * Figure 6): Sandy Bridge, 4x4 f64, MaxReg 8. With --paper every printed
 * entry of both tables, j, LiveIn, the RTG of Algorithm 2 and UF 4 are
 * the paper's; without it, --explain lists the departures. Two entries of
 * Table 4 cannot come from the paper's own rules, and are asserted as
 * what those rules give (see table4 below). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plan.h"

#define SNB MACHINES_DIR "/sandybridge.yaml"
#define N 18

/* Table 3 */
static const char *const t3_inst[N] = { "B0", "A0", "BP", "AP", "PrfA", "AN", "PrfB", "B1", "M0",
                                        "B2", "M1", "C0", "B3", "M2", "M3", "C1", "C2", "C3" };
static const int t3_cycle[N] = { 0, 0, 0, 0, 1, 1, 1, 4, 4, 5, 5, 9, 6, 6, 7, 10, 11, 12 };
static const int t3_live[N] = { 5, 6, 6, 6, 6, 6, 6, 7, 7, 8, 8, 7, 8, 8, 7, 6, 5, 4 };

/* Table 4, with AN' before PrfB' (the paper prints PrfB' AN': Algorithm 1
 * keeps S' in Table 3's order, where AN comes first). */
static const char *const t4_inst[N] = { "B2", "M1", "C0", "B3", "M2", "M3", "B0'", "C1", "A0'",
                                        "BP'", "AP'", "PrfA'", "AN'", "PrfB'", "C2", "B1'", "M0'", "C3" };
static const int t4_live[N] = { 8, 8, 7, 8, 8, 7, 8, 7, 8, 8, 8, 8, 8, 8, 7, 8, 8, 7 };
/* Cycles: iteration 0's are Table 4's. Iteration 1's printed ones break
 * Table 1 (B1' at 10 three cycles after B0' at 7, vload latency 4; M0'
 * at 11 before A0' at 8 + 4), so these are what EarliestCycle gives. */
static const int t4_cycle[N] = { 5, 5, 9, 6, 6, 7, 3, 10, 4, 4, 5, 5, 6, 6, 11, 7, 8, 12 };
static const int t4_paper_cycle[N] = { 5, 5, 9, 6, 6, 7, 7, 10, 8, 8, 9, 9, 9, 10, 11, 10, 11, 12 };

/* Algorithm 2 run by hand on Table 4 (LiveIn 7, one pseudo F0), with
 * iterations crossed: the edges in the order it adds them. */
static const char *const rtg_edges[] = {
    "F->B2(0)", "B1->M1(1)", "C0->C0(1)", "M0->C0(1)", "C0->B3(1)", "M0->B3(1)", "B2->M2(0)",
    "A0->M3(1)", "B3->M3(0)", "A0->B0(1)", "B3->B0(0)", "C1->C1(1)", "M1->C1(0)", "C1->A0(1)",
    "M1->A0(0)", "C2->C2(1)", "M2->C2(0)", "C2->B1(1)", "M2->B1(0)", "B0->M0(0)", "C3->C3(1)",
    "M3->C3(0)", "C3->F(2)", "M3->F(1)",
};

static struct plan paper_plan, default_plan;

static int setup(void **state)
{
    (void)state;
    struct options o = { .machine_path = SNB, .elem = ELEM_F64, .mr = 4, .nr = 4, .max_regs = 8,
                         .force_bs = -1, .paper = true };
    plan_build(&paper_plan, &o);
    o.paper = false;
    plan_build(&default_plan, &o);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    plan_free(&paper_plan);
    plan_free(&default_plan);
    return 0;
}

static void label(char *out, size_t size, const struct kernel *k, const struct seq *s, int x)
{
    snprintf(out, size, "%s%s", k->inst[s->inst[x]].label, s->iter[x] ? "'" : "");
}

/* Figure 4(a): VectorLoad-Shuffle, mul + add (no FMA), 18 instructions. */
static void the_kernel(void **state)
{
    (void)state;
    const struct plan *pl = &paper_plan;
    assert_string_equal(pl->t->name, "avx");
    assert_int_equal(pl->k.bs, BS_VECTOR_SHUFFLE);
    assert_int_equal(pl->k.vl, 4);
    assert_int_equal(pl->k.ninst, N);
    assert_int_equal(pl->k.nacc, 4);
    assert_int_equal(pl->k.max_regs, 8);
}

static void table3(void **state)
{
    (void)state;
    const struct plan *pl = &paper_plan;
    char l[24];
    assert_int_equal(pl->s.n, N);
    for (int x = 0; x < N; x++) {
        label(l, sizeof l, &pl->k, &pl->s, x);
        assert_string_equal(l, t3_inst[x]);
        assert_int_equal(pl->s.cycle[x], t3_cycle[x]);
        assert_int_equal(pl->s.live[x], t3_live[x]);
    }
    assert_int_equal(pl->single_cycles, 12);
}

static void table4(void **state)
{
    (void)state;
    const struct plan *pl = &paper_plan;
    const struct kernel *k = &pl->k;
    char l[24];
    assert_int_equal(pl->p.j, 9);
    assert_int_equal(pl->p.q.n, N);
    int at[N] = { 0 };   /* cycle at each position, for the latency checks */
    for (int x = 0; x < N; x++) {
        label(l, sizeof l, k, &pl->p.q, x);
        assert_string_equal(l, t4_inst[x]);
        assert_int_equal(pl->p.q.live[x], t4_live[x]);
        assert_int_equal(pl->p.q.cycle[x], t4_cycle[x]);
        if (!pl->p.q.iter[x]) assert_int_equal(pl->p.q.cycle[x], t4_paper_cycle[x]);
        at[x] = pl->p.q.cycle[x];
    }
    assert_true(at[15] >= at[6] + 4 && t4_paper_cycle[15] < t4_paper_cycle[6] + 4);  /* B1' after B0' */
    assert_true(at[16] >= at[8] + 4 && t4_paper_cycle[16] < t4_paper_cycle[8] + 4);  /* M0' after A0' */
    /* prologue 4 + Pµ 8 + epilogue 8: two iterations 20 cycles, not 24 */
    assert_int_equal(pl->p.kernel_cycles, 8);
    assert_int_equal(pl->single_cycles + pl->p.kernel_cycles, 20);
    assert_int_equal(pl->p.max_live, 8);
}

static void rtg(void **state)
{
    (void)state;
    const struct plan *pl = &paper_plan;
    const struct kernel *k = &pl->k;
    const struct rtg *g = &pl->r.g[RC_VEC];
    int ne = (int)(sizeof rtg_edges / sizeof *rtg_edges);
    assert_int_equal(g->live_in, 7);
    assert_int_equal(g->npseudo, 1);
    assert_int_equal(g->nnode, 14);
    assert_int_equal(g->nedge, ne);
    for (int x = 0; x < ne; x++) {
        char e[40];
        int f = g->node_val[g->e[x].from], t = g->node_val[g->e[x].to];
        snprintf(e, sizeof e, "%s->%s(%d)", f >= 0 ? k->val[f].name : "F", t >= 0 ? k->val[t].name : "F",
                 g->e[x].cross);
        assert_string_equal(e, rtg_edges[x]);
    }
    /* Figure 6: four cycles, UF = LCM(4, 1, 2, 1) = 4 */
    assert_true(pl->r.rotating);
    assert_int_equal(pl->r.ncycles, 4);
    int count[5] = { 0 };
    for (int c = 0; c < pl->r.ncycles; c++) {
        assert_true(pl->r.cycle_period[c] >= 1 && pl->r.cycle_period[c] <= 4);
        count[pl->r.cycle_period[c]]++;
    }
    assert_int_equal(count[4], 1);
    assert_int_equal(count[2], 1);
    assert_int_equal(count[1], 2);
    assert_int_equal(pl->r.uf, 4);
    assert_int_equal(pl->r.nregs[RC_VEC], 8);
}

/* Without --paper: the schedule still fits MaxReg and takes no longer. */
static void default_method(void **state)
{
    (void)state;
    const struct plan *pl = &default_plan;
    assert_int_equal(pl->single_cycles, 12);
    for (int x = 0; x < pl->s.n; x++) assert_true(pl->s.live[x] <= 8);
    for (int x = 0; x < pl->p.q.n; x++) assert_true(pl->p.q.live[x] <= 8);
    assert_true(pl->p.max_live <= 8);
    assert_true(pl->r.rotating);
    assert_true(pl->r.nregs[RC_VEC] <= 8);
    assert_int_equal(pl->r.uf, 2);
}

/* gemmgen's --explain output, with extra arguments; asserts exit 0. */
static char *explain(const char *extra)
{
    static char out[1 << 16];
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' --machine '%s' --mr 4 --nr 4 --max-regs 8 --explain %s",
             GEMMGEN_EXE, SNB, extra);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    assert_int_equal(pclose(p), 0);
    return out;
}

/* The cells of every row named `row` in TEXT before END (tables wrap
 * after 16 columns); returns how many. */
static int row_cells(const char *text, const char *end, const char *row, char cells[][16], int max)
{
    int n = 0;
    size_t rl = strlen(row);
    for (const char *line = text; line < end;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        char buf[1024];
        snprintf(buf, sizeof buf, "%.*s", (int)len, line);
        if (!strncmp(buf, row, rl) && buf[rl] == ' ')
            for (char *tok = strtok(buf + rl, " "); tok && n < max; tok = strtok(NULL, " "))
                snprintf(cells[n++], 16, "%s", tok);
        if (!nl) break;
        line = nl + 1;
    }
    return n;
}

static void printed_rows(const char *from, const char *to, const char *const *inst, const int *cycle,
                         const int *live)
{
    static char cells[3][64][16];
    static const char *const rows[3] = { "Instruction", "Cycle", "LiveReg" };
    for (int r = 0; r < 3; r++) assert_int_equal(row_cells(from, to, rows[r], cells[r], 64), N);
    for (int x = 0; x < N; x++) {
        assert_string_equal(cells[0][x], inst[x]);
        assert_int_equal(atoi(cells[1][x]), cycle[x]);
        assert_int_equal(atoi(cells[2][x]), live[x]);
    }
}

static void explain_paper(void **state)
{
    (void)state;
    const char *text = explain("--paper");
    const char *t4 = strstr(text, "Pipelined kernel"), *end = text + strlen(text);
    assert_non_null(t4);
    printed_rows(text, t4, t3_inst, t3_cycle, t3_live);
    printed_rows(t4, end, t4_inst, t4_cycle, t4_live);
    assert_non_null(strstr(text, "moved up j = 9,"));
    assert_non_null(strstr(text, "14 nodes (1 pseudo), 24 edges, MaxReg 8, LiveIn 7"));
    assert_non_null(strstr(text, "unroll factor UF = 4\n"));
    assert_non_null(strstr(text, "two iterations: 24 cycles one after the other, 20 pipelined "
                                 "(prologue 4 + P 8 + epilogue 8"));
}

static void explain_default(void **state)
{
    (void)state;
    const char *text = explain("");
    const char *m = strstr(text, "method: gemmgen's departures from POCA as printed");
    assert_non_null(m);
    int n = 0;
    for (const char *p = m; (p = strstr(p, "\n- ")); p++) n++;
    assert_int_equal(n, 10);
    assert_non_null(strstr(m, "FPFirst counts FMA, multiply and add (paper: shuffles too"));
    assert_non_null(strstr(text, "unroll factor UF = 2\n"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_kernel),      cmocka_unit_test(table3),
        cmocka_unit_test(table4),          cmocka_unit_test(rtg),
        cmocka_unit_test(default_method),  cmocka_unit_test(explain_paper),
        cmocka_unit_test(explain_default),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
