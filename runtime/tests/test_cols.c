/* test_cols: the column panels a block of n columns runs as (col_split,
 * panels_tmpl.h) and the rows their kernels read for a short row panel
 * (rows_read), on made-up f64 kernel sets shaped like the AVX-512 ones:
 * MR 16, NR 14, a W = 8 edge with its 8 x 8 corner, the fine widths 4
 * and 6 at full height, a packed row edge 8 high. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "gg_internal.h"
#include "plan.h"
#define T double
#define ESIZE 8
#define FN(x) d_##x
#define GG_TYPE GG_F64
#define EDGE_T struct gg_dedge
#define PEDGE_T struct gg_dpedge
/* op_tmpl.h's packing calls, never made here; the templates' other
 * functions go unused */
static void d_pack(int64_t total, int64_t kc, const double *x, int64_t rs, int64_t cs, int w,
                   double *dst)
{
    (void)total; (void)kc; (void)x; (void)rs; (void)cs; (void)w; (void)dst;
}
#pragma GCC diagnostic ignored "-Wunused-function"
#include "op_tmpl.h"
#include "panels_tmpl.h"

/* Kernel "functions": only their addresses matter here. */
static void k_direct(int64_t m, int64_t n, int64_t k, const double *al, const double *a,
                     int64_t lda, const double *b, int64_t ldb, const double *be, double *c,
                     int64_t rs, int64_t cs)
{
    (void)m; (void)n; (void)k; (void)al; (void)a; (void)lda; (void)b; (void)ldb; (void)be;
    (void)c; (void)rs; (void)cs;
}

static const struct gg_dedge fine_edges[] = {
    { 16, 8, k_direct }, { 8, 14, k_direct }, { 8, 8, k_direct },
    { 16, 4, k_direct }, { 16, 6, k_direct } };
/* the same with corners for the fine widths: the packed path may take them */
static const struct gg_dedge corner_edges[] = {
    { 16, 8, k_direct }, { 8, 14, k_direct }, { 8, 8, k_direct },
    { 16, 4, k_direct }, { 16, 6, k_direct }, { 8, 4, k_direct }, { 8, 6, k_direct } };
static const struct gg_dpedge pedges[] = { { 8, NULL } };

static struct d_op op_with(const struct gg_dedge *e, int ne)
{
    struct d_op o;
    memset(&o, 0, sizeof o);
    o.bk.mr = 16; o.bk.nr = 14;
    o.direct = k_direct;
    o.edges = e; o.nedges = ne;
    o.pedges = pedges; o.npedges = 1;
    return o;
}

/* The split of n columns written as its panel widths, "14 14 6 4". */
static const char *widths(const struct d_op *o, int64_t n, int narrow, int packed)
{
    static char s[256];
    const struct d_cols cs = d_col_split(o, n, narrow, packed, GG_FINE_WORK / 8);
    int len = 0;
    s[0] = 0;
    for (int64_t x = 0; x < n; x += d_width_at(&cs, x)) {
        const int w = d_width_at(&cs, x);
        len += snprintf(s + len, sizeof s - (size_t)len, "%s%d", len ? " " : "", w);
    }
    return s;
}

static void test_fine_widths_in_place(void **st)
{
    (void)st;
    struct d_op o = op_with(fine_edges, 5);
    assert_string_equal(widths(&o, 10, 0, 0), "6 4");
    assert_string_equal(widths(&o, 6, 0, 0), "6");
    assert_string_equal(widths(&o, 4, 0, 0), "4");
    assert_string_equal(widths(&o, 2, 0, 0), "4");          /* padded */
    assert_string_equal(widths(&o, 12, 0, 0), "8 4");
    assert_string_equal(widths(&o, 14, 0, 0), "14");
    assert_string_equal(widths(&o, 18, 0, 0), "14 4");
    assert_string_equal(widths(&o, 20, 0, 0), "14 6");
    assert_string_equal(widths(&o, 24, 0, 0), "8 8 8");
    assert_string_equal(widths(&o, 26, 0, 0), "14 8 4");
    assert_string_equal(widths(&o, 34, 0, 0), "14 14 6");
    assert_string_equal(widths(&o, 7, 0, 0), "8");          /* one padded panel, not two */
    assert_string_equal(widths(&o, 11, 0, 0), "8 4");       /* 12 columns, not 14 */
    assert_string_equal(widths(&o, 9, 0, 0), "6 4");
    assert_string_equal(widths(&o, 3, 0, 0), "4");
    assert_string_equal(widths(&o, 128, 0, 0), "14 14 14 14 14 14 14 14 8 8");
    /* panels of little work: no search, NR and W only */
    const struct d_cols cs = d_col_split(&o, 10, 0, 0, GG_FINE_WORK / 8 - 1);
    assert_int_equal(d_width_at(&cs, 0), 14);
}

/* Without corners for 4 and 6 the packed path keeps NR and W, as it did
 * before the fine widths; with them it takes them too. */
static void test_fine_widths_packed(void **st)
{
    (void)st;
    struct d_op o = op_with(fine_edges, 5);
    assert_string_equal(widths(&o, 10, 0, 1), "14");
    assert_string_equal(widths(&o, 20, 0, 1), "14 8");
    assert_string_equal(widths(&o, 24, 0, 1), "8 8 8");
    o = op_with(corner_edges, 7);
    assert_string_equal(widths(&o, 10, 0, 1), "6 4");
    assert_string_equal(widths(&o, 20, 0, 1), "14 6");
}

/* Where the fine widths may not run (narrow: the machine's narrow_panels;
 * the packed path without their corners) the split is the one of the set
 * without them. */
static void test_no_fine_as_before(void **st)
{
    (void)st;
    struct d_op o = op_with(fine_edges, 5), old = op_with(fine_edges, 3);
    for (int64_t n = 1; n <= 120; n++) {
        char want[256];
        strcpy(want, widths(&old, n, 1, 0));
        assert_string_equal(widths(&o, n, 1, 0), want);
        strcpy(want, widths(&old, n, 0, 1));
        assert_string_equal(widths(&o, n, 0, 1), want);
    }
    assert_string_equal(widths(&o, 24, 1, 0), "8 8 8");
}

/* A short row panel is copied as tall as the split's kernels read it:
 * 8 rows where NR and W have 8-row edges, 16 where a fine width runs. */
static void test_rows_read(void **st)
{
    (void)st;
    struct d_op o = op_with(fine_edges, 5);
    struct d_cols cs = d_col_split(&o, 28, 0, 0, GG_FINE_WORK / 8);      /* 14 14 */
    assert_int_equal(d_rows_read(&o, &cs, 5), 8);
    assert_int_equal(d_rows_read(&o, &cs, 12), 16);
    cs = d_col_split(&o, 10, 0, 0, GG_FINE_WORK / 8);                    /* 6 4 */
    assert_int_equal(d_rows_read(&o, &cs, 5), 16);
    o = op_with(corner_edges, 7);
    cs = d_col_split(&o, 10, 0, 0, GG_FINE_WORK / 8);
    assert_int_equal(d_rows_read(&o, &cs, 5), 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fine_widths_in_place),
        cmocka_unit_test(test_fine_widths_packed),
        cmocka_unit_test(test_no_fine_as_before),
        cmocka_unit_test(test_rows_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
