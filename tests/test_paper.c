/* test_paper.c: the paper's worked example (POCA §3.2, Tables 3 and 4):
 * Sandy Bridge, 4x4 f64, MaxReg 8. The single-iteration schedule takes at
 * most 12 cycles, the pipelined kernel at most 8 per iteration, LiveReg
 * stays within 8 throughout S and Pµ, and `--explain` prints the tables
 * (rows Instruction / Cycle / LiveReg) with the plan's own numbers. */
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

static int setup(void **state)
{
    static struct plan pl;
    struct options o = { .machine_path = SNB, .elem = ELEM_F64, .mr = 4, .nr = 4, .max_regs = 8, .force_bs = -1 };
    plan_build(&pl, &o);
    *state = &pl;
    return 0;
}

static int teardown(void **state)
{
    plan_free(*state);
    return 0;
}

/* Figure 4(a): VectorLoad-Shuffle, mul + add (no FMA), 18 instructions. */
static void the_kernel(void **state)
{
    const struct plan *pl = *state;
    assert_string_equal(pl->t->name, "avx");
    assert_int_equal(pl->k.bs, BS_VECTOR_SHUFFLE);
    assert_int_equal(pl->k.vl, 4);
    assert_int_equal(pl->k.ninst, 18);
    assert_int_equal(pl->k.nacc, 4);
    assert_int_equal(pl->k.max_regs, 8);
}

static void single_iteration(void **state)
{
    const struct plan *pl = *state;
    int last = 0;
    for (int x = 0; x < pl->s.n; x++) {
        assert_true(pl->s.live[x] <= 8);
        if (pl->s.cycle[x] > last) last = pl->s.cycle[x];
    }
    assert_int_equal(pl->single_cycles, last);
    assert_true(pl->single_cycles <= 12);            /* Table 3: 12 cycles */
    assert_int_equal(pl->s.live[pl->s.n - 1], 4);    /* only C0-C3 live out */
    /* four live-in accumulators: the first definition makes LiveReg 5 */
    for (int x = 0; x < pl->s.n; x++)
        if (pl->k.inst[pl->s.inst[x]].def >= 0) { assert_int_equal(pl->s.live[x], 5); break; }
}

static void pipelined(void **state)
{
    const struct plan *pl = *state;
    assert_true(pl->p.j > 0);
    assert_true(pl->cycles_per_iter <= 8.0);           /* Table 4: 8 cycles */
    assert_true(pl->p.kernel_cycles <= 8);
    for (int x = 0; x < pl->p.q.n; x++) assert_true(pl->p.q.live[x] <= 8);
    assert_true(pl->p.max_live <= 8);
    assert_true(pl->r.rotating);                       /* no spill: rotation fits in 8 */
    assert_true(pl->r.nregs[RC_VEC] <= 8);
    assert_true(pl->r.uf >= 2 && pl->r.uf <= 8);
}

/* Reads gemmgen's --explain output; asserts exit status 0. */
static char *explain(void)
{
    static char out[1 << 16];
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' --machine '%s' --mr 4 --nr 4 --max-regs 8 --explain", GEMMGEN_EXE, SNB);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    assert_int_equal(pclose(p), 0);
    return out;
}

/* Appends the cells of every row named `row` in TEXT before END (tables
 * wrap after 16 columns) to cells; returns how many. */
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

static void explain_tables(void **state)
{
    const struct plan *pl = *state;
    const char *text = explain();
    const char *table4 = strstr(text, "Pipelined kernel");
    assert_non_null(strstr(text, "Single-iteration schedule"));
    assert_non_null(table4);
    static char cells[3][64][16];
    static const char *const rows[3] = { "Instruction", "Cycle", "LiveReg" };
    /* Table 3: the plan's S, column by column */
    for (int r = 0; r < 3; r++) assert_int_equal(row_cells(text, table4, rows[r], cells[r], 64), pl->s.n);
    for (int x = 0; x < pl->s.n; x++) {
        assert_string_equal(cells[0][x], pl->k.inst[pl->s.inst[x]].label);
        assert_int_equal(atoi(cells[1][x]), pl->s.cycle[x]);
        assert_int_equal(atoi(cells[2][x]), pl->s.live[x]);
    }
    /* Table 4: Pµ, next-iteration instructions primed */
    const char *end = text + strlen(text);
    for (int r = 0; r < 3; r++) assert_int_equal(row_cells(table4, end, rows[r], cells[r], 64), pl->p.q.n);
    for (int x = 0; x < pl->p.q.n; x++) {
        char want[20];
        snprintf(want, sizeof want, "%s%s", pl->k.inst[pl->p.q.inst[x]].label, pl->p.q.iter[x] ? "'" : "");
        assert_string_equal(cells[0][x], want);
        assert_int_equal(atoi(cells[1][x]), pl->p.q.cycle[x]);
        assert_true(atoi(cells[2][x]) <= 8);
    }
    assert_non_null(strstr(text, "unroll factor UF ="));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_kernel),
        cmocka_unit_test(single_iteration),
        cmocka_unit_test(pipelined),
        cmocka_unit_test(explain_tables),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
