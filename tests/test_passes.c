/* test_passes.c: invariants of every pass on every shipped machine:
 * the schedule respects the DAG and MaxReg, pipelining keeps the
 * single-iteration cycles, and the rotating allocation never gives two
 * live values one register (simulated over the emitted code's naming).
 * Plus the paper's worked example (POCA Tables 3-4), and the same checks
 * on every machine's edge kernels. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plan_fixture.h"
#include "emit_int.h"


/* The paper's example: Sandy Bridge, 4x4 f64, MaxReg 8 (Tables 3 and 4). */
static void worked_example(void **state)
{
    (void)state;
    struct plan pl;
    build(&pl, "sandybridge", ELEM_F64, 4, 4, 8);
    assert_int_equal(pl.k.ninst, 18);
    assert_int_equal(pl.k.bs, BS_VECTOR_SHUFFLE);
    assert_true(pl.single_cycles <= 12);
    assert_true(pl.cycles_per_iter <= 8.0);
    for (int x = 0; x < pl.s.n; x++) assert_true(pl.s.live[x] <= 8);
    for (int x = 0; x < pl.p.q.n; x++) assert_true(pl.p.q.live[x] <= 8);
    assert_true(pl.p.max_live <= 8);
    assert_true(pl.p.j > 0);                 /* something was pipelined */
    assert_true(pl.r.rotating);
    assert_true(pl.r.uf >= 2 && pl.r.uf <= 8);
    /* the paper's MaxHeight example: B3 (shuffle) 9 > M2 (fmul) 8 */
    for (int i = 0; i < pl.k.ninst; i++) {
        if (!strcmp(pl.k.inst[i].label, "B3")) assert_int_equal(pl.g.height[i], 9);
        if (!strcmp(pl.k.inst[i].label, "M2")) assert_int_equal(pl.g.height[i], 8);
    }
    plan_free(&pl);
}

static void explain_prints_tables(void **state)
{
    (void)state;
    char cmd[2048], line[4096];
    snprintf(cmd, sizeof cmd, "'%s' --machine '%s/sandybridge.yaml' --mr 4 --nr 4 --max-regs 8 --explain",
             GEMMGEN_EXE, MACHINES_DIR);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    int rows[3] = { 0 };
    while (fgets(line, sizeof line, p)) {
        rows[0] += !strncmp(line, "Instruction", 11);
        rows[1] += !strncmp(line, "Cycle", 5);
        rows[2] += !strncmp(line, "LiveReg", 7);
    }
    assert_int_equal(pclose(p), 0);
    for (int r = 0; r < 3; r++) assert_true(rows[r] >= 2);   /* Table 3 and Table 4 */
}

static int cycle_in_s(const struct plan *pl, int inst)
{
    for (int x = 0; x < pl->s.n; x++) if (pl->s.inst[x] == inst) return pl->s.cycle[x];
    return -1;
}

static void check_schedule(const struct plan *pl)
{
    const struct kernel *k = &pl->k;
    int *pos = calloc((size_t)k->ninst, sizeof *pos);
    for (int x = 0; x < pl->s.n; x++) pos[pl->s.inst[x]] = x;
    for (int x = 0; x < pl->g.nedge; x++) {           /* a topological order, latencies kept */
        const struct edge *e = &pl->g.e[x];
        if (e->carried) continue;
        assert_true(pos[e->from] < pos[e->to]);
        assert_true(cycle_in_s(pl, e->to) >= cycle_in_s(pl, e->from) + e->lat);
    }
    for (int x = 0; x < pl->s.n; x++) assert_true(pl->s.live[x] <= k->max_regs);
    /* Algorithm 1: this iteration's instructions keep their S cycles; the
     * kernel holds each instruction once; LiveReg within MaxReg */
    int *seen = calloc((size_t)k->ninst, sizeof *seen);
    for (int x = 0; x < pl->p.q.n; x++) {
        seen[pl->p.q.inst[x]]++;
        if (pl->p.q.iter[x] == 0) assert_int_equal(pl->p.q.cycle[x], cycle_in_s(pl, pl->p.q.inst[x]));
        assert_true(pl->p.q.live[x] <= k->max_regs);
    }
    for (int i = 0; i < k->ninst; i++) assert_int_equal(seen[i], 1);
    assert_true(pl->p.max_live <= k->max_regs);
    assert_true(pl->cycles_per_iter <= pl->single_cycles + 1e-9);
    free(pos); free(seen);
}

/* Executes the emitted naming: prologue (copy -1), then kernel copies,
 * then an epilogue; every read must find the instance it expects. */
static void check_registers(const struct plan *pl)
{
    const struct kernel *k = &pl->k;
    const struct rot *r = &pl->r;
    int *def_iter = calloc((size_t)k->nval, sizeof *def_iter);
    for (int x = 0; x < pl->p.q.n; x++)
        if (k->inst[pl->p.q.inst[x]].def >= 0) def_iter[k->inst[pl->p.q.inst[x]].def] = pl->p.q.iter[x];
    enum { NREG = 256 };
    long holds[RC_COUNT][NREG];   /* value * 4096 + (iteration + 8), or -1 */
    for (int c = 0; c < RC_COUNT; c++) for (int x = 0; x < NREG; x++) holds[c][x] = -1;
    for (int a = 0; a < k->nacc; a++) {   /* zeroed accumulators = iteration -1 */
        int v = k->acc[a];
        holds[k->val[v].rc][rot_reg(r, v, 0)] = (long)v * 4096 + 7;
    }
    int ncopies = r->uf * 3;
    for (int step = -1; step <= ncopies; step++) {
        for (int x = 0; x < pl->p.q.n; x++) {
            int delta = pl->p.q.iter[x];
            if (step == -1 && delta == 0) continue;          /* prologue: next-iteration part */
            if (step == ncopies && delta == 1) continue;     /* epilogue: this-iteration part */
            int copy = ((step % r->uf) + r->uf) % r->uf;
            if (step == -1) copy = -1;
            const struct inst *in = &k->inst[pl->p.q.inst[x]];
            int iter = step + delta;
            for (int s = 0; s < NSRC; s++) {
                int v = in->src[s];
                if (v < 0) continue;
                int dist = def_iter[v] + in->carried[s] - delta;
                int want_iter = iter - in->carried[s];
                int reg = rot_reg(r, v, copy - dist);
                assert_true(reg < NREG);
                assert_int_equal(holds[k->val[v].rc][reg], (long)v * 4096 + want_iter + 8);
            }
            if (in->def >= 0) holds[k->val[in->def].rc][rot_reg(r, in->def, copy)] = (long)in->def * 4096 + iter + 8;
        }
    }
    free(def_iter);
}

static void all_machines(void **state)
{
    (void)state;
    for (size_t m = 0; m < sizeof machines / sizeof *machines; m++)
        for (int e = 0; e < ELEM_FLOAT_COUNT; e++) {
            struct plan pl;
            build(&pl, machines[m], (enum elem)e, 0, 0, 0);
            check_schedule(&pl);
            assert_true(pl.r.rotating);
            check_registers(&pl);
            plan_free(&pl);
        }
}

static void register_caps(void **state)
{
    (void)state;
    static const struct { const char *m; int mr, nr, maxr; } cases[] = {
        { "sandybridge", 4, 4, 8 }, { "sandybridge", 8, 4, 14 }, { "haswell", 8, 4, 12 },
        { "skylake-avx512", 16, 8, 22 }, { "zen5", 24, 8, 30 }, { "cortex-a57", 4, 8, 24 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        struct plan pl;
        build(&pl, cases[c].m, ELEM_F64, cases[c].mr, cases[c].nr, cases[c].maxr);
        assert_int_equal(pl.k.max_regs, cases[c].maxr);
        check_schedule(&pl);
        check_registers(&pl);
        plan_free(&pl);
    }
}

/* The edge kernels of every machine plan and pass the same checks; the
 * AVX-512 shape gets the three of half size and the fine widths' four,
 * with a budget 1/8 below MaxReg. */
static void edge_kernels(void **state)
{
    (void)state;
    for (size_t m = 0; m < sizeof machines / sizeof *machines; m++)
        for (int e = 0; e < ELEM_FLOAT_COUNT; e++) {
            char path[1024];
            struct options o = fixture_options(path, machines[m], (enum elem)e, 0, 0, 0);
            struct plan pl;
            plan_build(&pl, &o);
            struct edge_spec es[MAX_EDGES];
            int n = plan_edges(&pl, es);
            for (int i = 0; i < n; i++) {
                assert_true(es[i].mr <= pl.k.mr && es[i].nr <= pl.k.nr);
                assert_true(es[i].mr < pl.k.mr || es[i].nr < pl.k.nr);
                struct plan ep;
                plan_build_edge(&ep, &pl, &o, &es[i]);      /* as gemmgen does */
                assert_int_equal(ep.k.bs, pl.k.bs);
                assert_int_equal(ep.k.mr, es[i].mr);
                assert_int_equal(ep.k.nr, es[i].nr);
                check_schedule(&ep);
                check_registers(&ep);
                plan_free(&ep);
            }
            plan_free(&pl);
        }
    struct plan pl;
    build(&pl, "skylake-avx512", ELEM_F64, 16, 14, 0);
    struct edge_spec es[MAX_EDGES];
    assert_int_equal(plan_edges(&pl, es), 7);
    /* W = 8, then the fine widths 4 and 6 with their corners */
    const int want[7][3] = { { 16, 8, 28 }, { 8, 14, 28 }, { 8, 8, 28 }, { 16, 4, 28 },
                             { 16, 6, 28 }, { 8, 4, 28 }, { 8, 6, 28 } };
    for (int i = 0; i < 7; i++) {
        assert_int_equal(es[i].mr, want[i][0]);
        assert_int_equal(es[i].nr, want[i][1]);
        assert_int_equal(es[i].max_regs, want[i][2]);
    }
    plan_free(&pl);
}

/* The in-place kernels get a plan of their own with the whole register
 * file in a 32-register file; in a 16-register one they keep the packed
 * kernel's plan, its spare register included (GCC spilled at 16 live). */
static void direct_budget(void **state)
{
    (void)state;
    static const struct { const char *m; int own, regs; } cases[] = {
        { "zen4", 1, 32 }, { "skylake-avx512", 1, 32 }, { "haswell", 0, 15 },
        { "zen3", 0, 15 }, { "sandybridge", 0, 15 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        char path[1024];
        struct options o = fixture_options(path, cases[c].m, ELEM_F64, 0, 0, 0);
        struct plan pl, dp;
        plan_build(&pl, &o);
        int own = plan_build_direct(&dp, &pl, &o);
        assert_int_equal(own, cases[c].own);
        assert_int_equal(own ? dp.k.max_regs : pl.k.max_regs, cases[c].regs);
        if (own) plan_free(&dp);
        plan_free(&pl);
    }
}

static const struct inst *labelled(const struct kernel *k, const char *label)
{
    for (int i = 0; i < k->ninst; i++)
        if (!strcmp(k->inst[i].label, label)) return &k->inst[i];
    return NULL;
}

/* machines/sapphirerapids.yaml streams A from L2 (prefetch a_distance
 * ahead, into L1) and fetches the next B micro-panel into L2 (b_next);
 * the next B panel has no pointer of its own, and the body is unrolled
 * to the machine's floor of 4 (a multiple of the RTG's factor). */
static void streaming_prefetches(void **state)
{
    (void)state;
    for (int e = 0; e < ELEM_FLOAT_COUNT; e++) {
        struct plan pl;
        build(&pl, "sapphirerapids", (enum elem)e, 0, 0, 0);
        const struct kernel *k = &pl.k;
        int s = e == ELEM_F64 ? 8 : 4;               /* one line per 64 bytes a k step reads */
        int lines[2] = { (k->mr * s + 63) / 64, (k->nr * s + 63) / 64 };
        static const char *const base[2] = { "PrfAd", "PrfBn" };
        static const enum stream streams[2] = { ST_A, ST_BNEXT };
        static const int first[2] = { 512, 0 }, hints[2] = { 3, 2 };
        for (int x = 0; x < 2; x++)
            for (int q = 0; q < lines[x] + 1; q++) {
                char name[16];
                snprintf(name, sizeof name, q ? "%s%d" : "%s", base[x], q);
                const struct inst *in = labelled(k, name);
                if (q == lines[x]) { assert_null(in); continue; }
                if (!in) fail_msg("%s: no %s", elem_names[e], name);
                assert_int_equal(in->op, OP_PREFETCH);
                assert_int_equal(in->stream, streams[x]);
                assert_int_equal(in->offset, first[x] + 64 * q);
                assert_int_equal(in->hint, hints[x]);
            }
        assert_null(labelled(k, "PrfA"));            /* no next-A-panel prefetch */
        assert_null(labelled(k, "AN"));
        assert_null(labelled(k, "BN"));
        assert_non_null(labelled(k, "AP"));
        assert_true(pl.r.uf >= 4 && pl.r.uf % pl.rtg_uf == 0);
        plan_free(&pl);
    }
}

/* The k-group tails' cost counts a block broadcast's share of the FMA
 * pipes: zen4.yaml puts vbroadcast_block on FP1/FP2 (FP1 also does FMAs),
 * so a 16-byte broadcast adds half an FMA (f32 quads, f64 pairs) and the
 * dot products take 4 rows from k = 57 (f32; on Zen 5 f64 from 37, where
 * Zen 4 has the half-width tail at k/2); an 8-byte one (f32 pairs) is a
 * load, as every block broadcast is on Skylake, where the quads keep all
 * of k and no dot kernel is emitted. */
static void row_tail_costs(void **state)
{
    (void)state;
    static const struct { const char *mach; enum elem e; int g; double per_400; int dot, min_k, all_k; }
        want[] = {
            { "zen4", ELEM_F32, 4, 150, 4, 57, 83 }, { "zen4", ELEM_F32, 2, 200, 4, 57, 83 },
            { "zen4", ELEM_F64, 2, 300, 0, 0, 0 }, { "skylake-avx512", ELEM_F32, 4, 100, 0, 0, 0 },
            { "zen5", ELEM_F32, 4, 150, 4, 57, 83 }, { "zen5", ELEM_F64, 2, 300, 4, 37, 50 },
        };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        struct plan pl;
        build(&pl, want[i].mach, want[i].e, 0, 0, 0);
        double per_400 = kgroup_cost(&pl, want[i].g, 400) - kgroup_cost(&pl, want[i].g, 0);
        if (per_400 < want[i].per_400 - 1e-9 || per_400 > want[i].per_400 + 1e-9)
            fail_msg("%s %s G=%d: %g FMAs per 400 k steps", want[i].mach, elem_names[want[i].e],
                     want[i].g, per_400);
        const struct tail_choice *dot = &pl.tails[TAIL_DOT];
        assert_int_equal(dot->rows, want[i].dot);
        if (want[i].dot) {
            assert_int_equal(dot->min_k, want[i].min_k);
            /* k = 82: quads 0.375k + 5 = 35.75 FMAs a column, the dot with its
             * last vector whole 4 * 96 / 16 + 12 = 36; from 83 the dot, any k
             * (f64 pairs at 49: 0.75k + 3 = 39.75, the dot 4 * 56 / 8 + 12 = 40) */
            assert_int_equal(dot->all_k, want[i].all_k);
            assert_int_equal(dot->kstep, want[i].e == ELEM_F32 ? 16 : 8);
        }
        plan_free(&pl);
    }
}


/* tails_choose's whole table (the header's NAME_<TAIL>_ROWS / _MIN_K):
 * on Zen 4 the half-width rows come first and leave no pairs (f64: 4 rows
 * from k = 1; f32: 8), and f32's quads take 4 rows from k = 41, the dot
 * products from 57; Skylake (full-width pipes) has no half tail, so the
 * f64 pairs stay, from k = 7. */
static void row_tail_table(void **state)
{
    (void)state;
    static const struct { const char *mach; enum elem e; int rows[TAIL_COUNT], min_k[TAIL_COUNT]; }
        want[] = {   /* dot, quad, half, pair */
            { "zen4", ELEM_F64, { 0, 0, 4, 0 }, { 0, 0, 1, 0 } },
            { "zen4", ELEM_F32, { 4, 4, 8, 0 }, { 57, 41, 1, 0 } },
            { "skylake-avx512", ELEM_F64, { 0, 0, 0, 4 }, { 0, 0, 0, 7 } },
        };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        struct plan pl;
        build(&pl, want[i].mach, want[i].e, 0, 0, 0);
        for (int t = 0; t < TAIL_COUNT; t++) {
            assert_int_equal(pl.tails[t].rows, want[i].rows[t]);
            assert_int_equal(pl.tails[t].min_k, want[i].min_k[t]);
            if (t != TAIL_DOT) assert_int_equal(pl.tails[t].all_k, 0);
        }
        plan_free(&pl);
    }
}
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(worked_example),
        cmocka_unit_test(explain_prints_tables),
        cmocka_unit_test(all_machines),
        cmocka_unit_test(register_caps),
        cmocka_unit_test(edge_kernels),
        cmocka_unit_test(direct_budget),
        cmocka_unit_test(streaming_prefetches),
        cmocka_unit_test(row_tail_costs),
        cmocka_unit_test(row_tail_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
