/* test_plan: gg_plan_for (plan.c) on a table of calls -> expected plans,
 * on a made-up f64 kernel set shaped like an AVX-512 one: a 16 x 8 main
 * kernel with edges, a row tail, a streamed variant and a row view, and a
 * 32 x 4 small tile with a k bound. The CPU and the thread pool are stubs,
 * so the plans do not depend on the host. */
#define _POSIX_C_SOURCE 200809L   /* setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include "plan.h"

/* ---- stubs of what plan.c and limits.c ask the rest of the runtime ---- */
static int stub_threads = 1;
int gg_threads_wanted(void) { return stub_threads; }
int gg_calls_back_to_back(void) { return 1; }
int gg_x86_level(void) { return 4; }

/* Kernel "functions": only their addresses matter to a plan. */
static char fn_main, fn_direct, fn_stream, fn_rows, fn_small, fn_small_direct, fn_small_rows,
    fn_tail, fn_edge;

static const struct gg_dedge edges[] = { { 16, 4, (gg_ddirect *)(void *)&fn_edge },
                                         { 8, 8, (gg_ddirect *)(void *)&fn_edge } };
static const struct gg_dedge small_edges[] = { { 16, 4, (gg_ddirect *)(void *)&fn_edge } };

static const struct gg_ukernel main_rows = {
    .mr = 16, .nr = 8, .fn = &fn_main, .direct = &fn_rows, .direct_b_cols = 0,
    .edges = edges, .nedges = 2,
};
static const struct gg_ukernel small_rows_view = {
    .mr = 32, .nr = 4, .fn = &fn_small, .direct = &fn_small_rows, .direct_b_cols = 0,
};
static const struct gg_ukernel main_k = {
    .mr = 16, .nr = 8, .fn = &fn_main, .direct = &fn_direct, .direct_b_cols = 1,
    .edges = edges, .nedges = 2,
    .tails = { { &fn_tail, 8, 0, 0, 1, 0 } },
    .stream = &fn_stream, .narrow_k = 64, .b_rows = &main_rows,
};
static const struct gg_ukernel small_k = {
    .mr = 32, .nr = 4, .fn = &fn_small, .direct = &fn_small_direct, .direct_b_cols = 1,
    .edges = small_edges, .nedges = 1, .b_rows = &small_rows_view,
};
static const struct gg_kernel_set set = { .name = "test", .small_max_k = 96 };

static struct gg_ctx ctx(void)
{
    /* 48 KB 12-way L1, KC 256, MC 128 (A block 256 KB), NC 4096 */
    struct gg_ctx x = {
        .uk = &main_k, .sk = &small_k,
        .bk = { 16, 8, 128, 256, 4096, 64, 12, 64 },
        .bks = { 32, 4, 128, 384, 4096, 64, 12, 64 },
        .lim = gg_limits_default(&set, GG_F64), .esize = 8,
    };
    x.lim.small_ct = 1;           /* as on x86-64-v4, whatever the host */
    return x;
}

/* A column-major call (lda = m, or k with A^T; likewise B, C by columns). */
struct shape { int64_t m, n, k; int ta, tb, c_rows; int threads; };

static struct gg_plan plan_of(struct shape s, const struct gg_ctx *x)
{
    static _Alignas(4096) char mem[3 * 4096];   /* addresses only: nothing is read */
    struct gg_call call = {
        s.m, s.n, s.k, mem, mem + 4096, mem + 8192,
        s.ta ? s.k : 1, s.ta ? 1 : s.m, s.tb ? s.n : 1, s.tb ? 1 : s.k,
        s.c_rows ? s.n : 1, s.c_rows ? 1 : s.m, 0, s.threads,
    };
    stub_threads = s.threads;
    struct gg_plan p;
    gg_plan_for(&call, x, &p);
    return p;
}

/* What a table row expects; -1: not checked. */
struct want {
    struct shape s;
    int path, swap, small_a, loops, uk_is, one_panel, tiles_first, nt;
};
enum { UK_MAIN, UK_ROWS, UK_SMALL };

static const struct want table[] = {
    /* m n k ta tb c_rows threads          path swap a loops uk one first nt */
    { { 0, 5, 5, 0, 0, 0, 1 },             GG_NOTHING, 0, -1, -1, -1, -1, -1, 1 },
    { { 5, 5, 0, 0, 0, 0, 1 },             GG_SCALE, 0, -1, -1, -1, -1, -1, 1 },
    { { 4, 4, 4, 0, 0, 0, 1 },             GG_TINY, 0, -1, -1, -1, -1, -1, 1 },
    { { 200, 1, 200, 0, 0, 0, 1 },         GG_GEMV, 0, -1, -1, -1, -1, -1, 1 },
    { { 1, 200, 200, 1, 0, 0, 1 },         GG_GEMV, 1, -1, -1, -1, -1, -1, 1 },
    { { 2000, 1, 2000, 0, 0, 0, 2 },       GG_GEMV, 0, -1, -1, -1, -1, -1, 2 },
    { { 500, 500, 2, 0, 0, 0, 1 },         GG_RANK_K, 0, -1, -1, -1, -1, -1, 1 },
    { { 500, 500, 2, 0, 0, 0, 2 },         GG_RANK_K, 0, -1, -1, -1, -1, -1, 2 },
    { { 100, 2, 100, 0, 0, 0, 1 },         GG_GEMV_COLS, 0, -1, -1, -1, -1, -1, 1 },
    { { 3, 3, 400, 0, 0, 0, 1 },           GG_FEW_ROWS, 0, -1, -1, -1, -1, -1, 1 },
    { { 5, 7, 400, 1, 0, 0, 1 },           GG_DOTS, 0, -1, -1, -1, -1, -1, 1 },
    { { 3, 20, 100, 0, 0, 0, 1 },          GG_FEW_ROWS, 0, -1, -1, -1, -1, -1, 1 },
    { { 16, 16, 100, 1, 0, 0, 1 },         GG_KERNELS, 0, -1, -1, -1, -1, -1, 1 },
    /* one side long: many rows of A^T B, or few rows of A copied */
    { { 300, 3, 100, 1, 0, 0, 1 },         GG_DOTS, 0, -1, -1, -1, -1, -1, 1 },
    { { 1000, 8, 1000, 1, 0, 0, 2 },       GG_DOTS, 0, -1, -1, -1, -1, -1, 2 },
    { { 100, 4, 200, 1, 0, 0, 2 },         GG_DOTS, 0, -1, -1, -1, -1, -1, 1 },
    { { 4, 200, 200, 0, 0, 0, 1 },         GG_DOTS, 0, -1, -1, -1, -1, -1, 1 },
    { { 4, 200, 200, 0, 1, 0, 1 },         GG_KERNELS, 1, -1, -1, -1, -1, -1, 1 },
    { { 300, 3, 100, 1, 1, 0, 1 },         GG_DOTS, 1, -1, -1, -1, -1, -1, 1 },
    { { 8, 200, 200, 0, 0, 0, 1 },         GG_KERNELS, 0, -1, -1, -1, -1, -1, 1 },
    { { 16, 16, 16, 0, 0, 0, 1 },          GG_SMALL, 0, GG_A_IN_PLACE, -1, -1, -1, -1, 1 },
    { { 16, 16, 16, 0, 0, 1, 1 },          GG_SMALL, 1, GG_A_TRANSPOSED, -1, -1, -1, -1, 1 },
    { { 16, 16, 16, 1, 0, 0, 1 },          GG_SMALL, 0, GG_A_TRANSPOSED, -1, -1, -1, -1, 1 },
    { { 10, 10, 10, 1, 0, 0, 1 },          GG_SMALL, 0, GG_A_COPIED, -1, -1, -1, -1, 1 },
    { { 5, 20, 20, 0, 0, 0, 1 },           GG_SMALL, 0, GG_A_COPIED, -1, -1, -1, -1, 1 },
    { { 16, 16, 16, 1, 1, 0, 1 },          GG_SMALL_CT, 0, -1, -1, -1, -1, -1, 1 },
    /* past the small path: the kernels */
    { { 64, 64, 64, 0, 0, 0, 1 },          GG_KERNELS, 0, -1, GG_DIRECT, UK_MAIN, 0, 1, 1 },
    { { 100, 100, 100, 0, 0, 0, 1 },       GG_KERNELS, 0, -1, GG_DIRECT, UK_MAIN, 0, 0, 1 },
    { { 100, 100, 100, 0, 0, 1, 1 },       GG_KERNELS, 1, -1, GG_DIRECT, UK_ROWS, 0, 0, 1 },
    { { 100, 100, 100, 0, 1, 0, 1 },       GG_KERNELS, 0, -1, GG_DIRECT, UK_ROWS, 0, 0, 1 },
    { { 100, 4, 100, 0, 0, 0, 1 },         GG_KERNELS, 0, -1, GG_DIRECT, UK_SMALL, 1, 0, 1 },
    { { 2, 100, 100, 0, 1, 0, 1 },         GG_KERNELS, 1, -1, GG_DIRECT, -1, -1, -1, 1 },
    { { 30, 100, 100, 0, 1, 0, 1 },        GG_KERNELS, 1, -1, -1, -1, -1, -1, 1 },
    { { 40, 100, 100, 0, 1, 0, 1 },        GG_KERNELS, 0, -1, -1, -1, -1, -1, 1 },
    { { 300, 3, 60, 1, 0, 0, 1 },          GG_KERNELS, 1, -1, GG_DIRECT, UK_MAIN, -1, -1, 1 },
    { { 2000, 2000, 2000, 0, 0, 0, 1 },    GG_KERNELS, 0, -1, GG_PACKED, UK_MAIN, 0, 0, 1 },
    { { 2000, 2000, 2000, 0, 0, 0, 2 },    GG_KERNELS, 0, -1, GG_PACKED, UK_MAIN, 0, 0, 2 },
    { { 4000, 128, 4000, 0, 0, 0, 1 },     GG_KERNELS, 0, -1, GG_STREAM, UK_MAIN, 0, 0, 1 },
    /* A's columns on one L1 set: streamed only narrower than a panel */
    { { 4096, 6, 300, 0, 0, 0, 1 },        GG_KERNELS, 0, -1, GG_STREAM, UK_MAIN, 0, 0, 1 },
    { { 4096, 12, 300, 0, 0, 0, 1 },       GG_KERNELS, 0, -1, GG_PACKED, UK_MAIN, 0, 0, 1 },
    /* B^T narrower than a panel: A in place (no stream for it) */
    { { 2000, 6, 300, 0, 1, 0, 1 },        GG_KERNELS, 0, -1, GG_DIRECT, -1, 0, 0, 1 },
    { { 2000, 12, 300, 0, 1, 0, 1 },       GG_KERNELS, 0, -1, GG_PACKED, -1, 0, 0, 1 },
    { { 64, 64, 64, 0, 0, 0, 2 },          GG_KERNELS, 0, -1, GG_DIRECT, UK_MAIN, 0, 0, 2 },
    /* too little work for a second thread; rows past one small tile */
    { { 48, 48, 48, 0, 0, 0, 2 },          GG_KERNELS, 0, -1, GG_DIRECT, UK_MAIN, 0, 0, 1 },
};

static int uk_is(const struct gg_plan *p)
{
    return p->uk == &main_k ? UK_MAIN : p->uk == &main_rows ? UK_ROWS
         : p->uk == &small_k ? UK_SMALL : -2;
}

static void check(const struct want *w, const struct gg_plan *p)
{
    print_message("%lldx%lldx%lld ta %d tb %d c_rows %d threads %d\n", (long long)w->s.m,
                  (long long)w->s.n, (long long)w->s.k, w->s.ta, w->s.tb, w->s.c_rows,
                  w->s.threads);
    assert_int_equal(p->path, w->path);
    assert_int_equal(p->swap, w->swap);
    assert_int_equal(p->nt, w->nt);
    if (w->small_a >= 0) assert_int_equal(p->small_a, w->small_a);
    if (w->loops >= 0) assert_int_equal(p->loops, w->loops);
    if (w->uk_is >= 0) assert_int_equal(uk_is(p), w->uk_is);
    if (w->one_panel >= 0) assert_int_equal(p->one_panel, w->one_panel);
    if (w->tiles_first >= 0) assert_int_equal(p->tiles_first, w->tiles_first);
}

static void test_table(void **st)
{
    (void)st;
    const struct gg_ctx x = ctx();
    for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
        struct gg_plan p = plan_of(table[i].s, &x);
        check(&table[i], &p);
    }
}

/* The overrides: each forces its path whatever the size. */
static void test_forced(void **st)
{
    (void)st;
    struct gg_ctx x = ctx();
    const struct shape tiny = { 4, 4, 4, 0, 0, 0, 1 }, big = { 2000, 2000, 2000, 0, 0, 0, 1 };
    x.lim.direct_mode = 0;
    struct gg_plan p = plan_of(tiny, &x);
    assert_int_equal(p.path, GG_KERNELS);
    assert_int_equal(p.loops, GG_PACKED);
    x.lim.direct_mode = 1;
    p = plan_of(big, &x);
    assert_int_equal(p.loops, GG_DIRECT);
    assert_true(p.tails);
    x.lim.row_tails = 0;
    p = plan_of(big, &x);
    assert_false(p.tails);
    x.lim.direct_mode = 2;
    p = plan_of((struct shape){ 64, 8, 64, 0, 0, 0, 1 }, &x);
    assert_int_equal(p.loops, GG_STREAM);
    x.lim.narrow_k = 1000;
    p = plan_of(big, &x);
    assert_int_equal(p.narrow_k, 1000);
    /* without the small tile, C of 4 columns stays on the main kernel */
    x = ctx();
    x.lim.small_tile = 0;
    p = plan_of((struct shape){ 100, 4, 100, 0, 0, 0, 1 }, &x);
    assert_int_equal(uk_is(&p), UK_MAIN);
    assert_false(p.one_panel);
}

/* Dot products with one side long: 64-byte tiles on A's rows copied,
 * aligned or streamed; more rows than a vector's half of A, and few rows
 * of A^T, only where B's columns crowd L1's sets at one k. */
static void test_dots_long(void **st)
{
    (void)st;
    struct gg_ctx x = ctx();
    struct gg_plan p = plan_of((struct shape){ 4, 200, 200, 0, 0, 0, 1 }, &x);
    assert_int_equal(p.path, GG_DOTS);
    assert_true(p.dots_wide);
    p = plan_of((struct shape){ 300, 3, 100, 1, 0, 0, 1 }, &x);
    assert_false(p.dots_wide);                  /* A^T 240 KB */
    p = plan_of((struct shape){ 2000, 3, 2000, 1, 0, 0, 1 }, &x);
    assert_int_equal(p.path, GG_DOTS);
    assert_true(p.dots_wide);                   /* A^T 32 MB */
    x.bk.l1_ways = 4;            /* 8 columns (NR) on one set of 4 ways: crowded */
    p = plan_of((struct shape){ 8, 200, 512, 0, 0, 0, 1 }, &x);
    assert_int_equal(p.path, GG_DOTS);
    assert_true(p.dots_wide);
    p = plan_of((struct shape){ 8, 200, 520, 0, 0, 0, 1 }, &x);   /* a line further each */
    assert_int_equal(p.path, GG_KERNELS);
    p = plan_of((struct shape){ 30, 200, 1024, 0, 0, 0, 1 }, &x);    /* dots_crowded_lo */
    assert_int_equal(p.path, GG_DOTS);
    p = plan_of((struct shape){ 30, 200, 1032, 0, 0, 0, 1 }, &x);
    assert_int_equal(p.path, GG_KERNELS);
    p = plan_of((struct shape){ 60, 200, 2048, 0, 0, 0, 1 }, &x);
    assert_int_equal(p.path, GG_KERNELS);
    p = plan_of((struct shape){ 8, 200, 1 << 16, 0, 0, 0, 1 }, &x);   /* copy past 2 MB */
    assert_int_equal(p.path, GG_KERNELS);
    p = plan_of((struct shape){ 8, 200, 512, 1, 0, 0, 1 }, &x);   /* A^T in place */
    assert_int_equal(p.path, GG_DOTS);
    assert_true(p.dots_wide);
    p = plan_of((struct shape){ 8, 200, 520, 1, 0, 0, 1 }, &x);
    assert_int_equal(p.path, GG_KERNELS);
}

/* gg_limits_from_env reads the GEMMGEN_* overrides. */
static void test_env(void **st)
{
    (void)st;
    struct gg_limits l = gg_limits_default(&set, GG_F32);
    assert_int_equal(l.lanes, 16);
    assert_int_equal(l.small_tile_k, 96);
    setenv("GEMMGEN_DIRECT", "2", 1);
    setenv("GEMMGEN_DOT", "0", 1);
    setenv("GEMMGEN_NARROW_K", "77", 1);
    gg_limits_from_env(&l);
    assert_int_equal(l.direct_mode, 2);
    assert_int_equal(l.row_tails, 0);
    assert_int_equal(l.narrow_k, 77);
    assert_int_equal(l.small_tile, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_forced),
        cmocka_unit_test(test_dots_long),
        cmocka_unit_test(test_env),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
