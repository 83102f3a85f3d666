/* test_plot_svg.c: gemmbench's plot writer on a fixed table. Reading the
 * SVG back: every measured number is a point at the height its axis
 * ticks say, at its size's place, none where nothing was measured, the
 * peak a line at its height; the same bytes twice; a file written whole
 * or not at all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "plot_svg.h"

static struct gb_plot table[2];

static int setup(void **state)
{
    (void)state;
    struct gb_plot *p = &table[0];
    snprintf(p->title, sizeof p->title, "DGEMM f64, 1 thread");
    p->peak = 100;
    p->nx = 4;
    gb_plot_size_label(p->xlabel[0], 64, 64, 64);
    gb_plot_size_label(p->xlabel[1], 256, 256, 256);
    gb_plot_size_label(p->xlabel[2], 1000, 1000, 1000);
    gb_plot_size_label(p->xlabel[3], 4000, 4000, 128);
    p->nseries = 2;
    snprintf(p->series[0], 48, "gemmgen");
    snprintf(p->series[1], 48, "OpenBLAS <auto> & co");
    const double y[2][4] = { { 25, 50, 75, 90 }, { 20, 0, 60, 95 } };
    memcpy(p->y[0], y[0], sizeof y[0]);
    memcpy(p->y[1], y[1], sizeof y[1]);
    p = &table[1];
    snprintf(p->title, sizeof p->title, "SGEMM f32, 2 threads");
    p->peak = 380;
    p->nx = 2;
    snprintf(p->xlabel[0], 32, "a");
    snprintf(p->xlabel[1], 32, "b");
    p->nseries = 1;
    snprintf(p->series[0], 48, "gemmgen");
    p->y[0][0] = 410;          /* above the peak: the axis must reach it */
    p->y[0][1] = 7.5;
    return 0;
}

static char *render(void)
{
    static char *s;
    static size_t n;
    s = NULL;
    FILE *f = open_memstream(&s, &n);
    assert_non_null(f);
    gb_plot_svg(f, "gemmbench --quick on a fixed table", table, 2);
    fclose(f);
    return s;
}

static double attr(const char *el, const char *name)
{
    char key[32];
    snprintf(key, sizeof key, " %s=\"", name);
    const char *p = strstr(el, key);
    assert_non_null(p);
    assert_true(p < strchr(el, '>'));
    return atof(p + strlen(key));
}

/* The n-th plot's <g> ... </g> */
static const char *plot(const char *svg, int n, const char **end)
{
    const char *p = svg;
    for (int i = 0; i <= n; i++) { p = strstr(p + 1, "<g class=\"plot\">"); assert_non_null(p); }
    *end = strstr(p, "</g>");
    return p;
}

struct axis { double y0, per; };   /* y of 0 and pixels per GFLOPS, from the ticks */

static struct axis axis_of(const char *p, const char *end, double *top_tick)
{
    double v0 = -1, y0 = 0, v1 = 0, y1 = 0;
    for (const char *t = p; (t = strstr(t, "<line class=\"tick\"")) && t < end; t++) {
        double v = attr(t, "data-v"), y = attr(t, "y1");
        assert_true(attr(t, "y2") == y);
        if (v == 0) { v0 = 0; y0 = y; }
        if (v > v1) { v1 = v; y1 = y; }
    }
    assert_true(v0 == 0 && v1 > 0 && y1 < y0);
    *top_tick = v1;
    return (struct axis){ y0, (y0 - y1) / v1 };
}

static void points_where_the_numbers_say(void **state)
{
    (void)state;
    char *svg = render();
    for (int n = 0; n < 2; n++) {
        const struct gb_plot *t = &table[n];
        const char *end, *p = plot(svg, n, &end);
        double top;
        struct axis ax = axis_of(p, end, &top);
        double hi = t->peak;
        for (int s = 0; s < t->nseries; s++)
            for (int x = 0; x < t->nx; x++) if (t->y[s][x] > hi) hi = t->y[s][x];
        assert_true(top >= hi && top <= 1.6 * hi);      /* the axis holds every number */
        double cx[GB_PLOT_MAXX];
        int seen = 0, want = 0;
        for (int s = 0; s < t->nseries; s++)
            for (int x = 0; x < t->nx; x++) want += t->y[s][x] > 0;
        for (const char *c = p; (c = strstr(c, "<circle class=\"pt\"")) && c < end; c++) {
            int s = (int)attr(c, "data-s"), x = (int)attr(c, "data-x");
            assert_true(s >= 0 && s < t->nseries && x >= 0 && x < t->nx);
            double v = t->y[s][x];
            assert_true(v > 0);
            assert_true(fabs(attr(c, "cy") - (ax.y0 - v * ax.per)) < 0.11);
            if (s == 0) cx[x] = attr(c, "cx");
            seen++;
        }
        assert_int_equal(seen, want);
        /* one place per size, evenly spaced, the same for every series */
        for (const char *c = p; (c = strstr(c, "<circle class=\"pt\"")) && c < end; c++)
            assert_true(fabs(attr(c, "cx") - cx[(int)attr(c, "data-x")]) < 0.01);
        for (int x = 1; x < t->nx; x++) {
            assert_true(cx[x] > cx[x - 1]);
            assert_true(fabs((cx[x] - cx[x - 1]) - (cx[1] - cx[0])) < 0.11);
        }
        const char *pk = strstr(p, "<line class=\"peak\"");
        assert_true(pk && pk < end);
        assert_true(fabs(attr(pk, "y1") - (ax.y0 - t->peak * ax.per)) < 0.11);
        assert_true(attr(pk, "y2") == attr(pk, "y1"));
    }
    /* the 64³ gemmgen point lies a quarter of the way to the peak line */
    const char *end, *p = plot(svg, 0, &end), *pk = strstr(p, "<line class=\"peak\"");
    double top;
    struct axis ax = axis_of(p, end, &top);
    const char *c = strstr(p, "data-s=\"0\" data-x=\"0\"");
    assert_non_null(c);
    assert_true(fabs((ax.y0 - attr(c, "cy")) / (ax.y0 - attr(pk, "y1")) - 0.25) < 0.002);
    assert_null(strstr(p, "data-s=\"1\" data-x=\"1\""));     /* not measured: no point */
    assert_non_null(strstr(svg, ">64\xc2\xb3<"));
    assert_non_null(strstr(svg, ">4000\xc3\x97" "4000\xc3\x97" "128<"));
    assert_non_null(strstr(svg, "OpenBLAS &lt;auto&gt; &amp; co"));
    free(svg);
}

static void whole_document(void **state)
{
    (void)state;
    char *svg = render(), *again = render();
    assert_string_equal(svg, again);
    assert_int_equal(strncmp(svg, "<svg ", 5), 0);
    assert_string_equal(svg + strlen(svg) - 7, "</svg>\n");
    char stack[16][16];
    int depth = 0;
    for (const char *p = strchr(svg, '<'); p; p = strchr(p + 1, '<')) {
        const char *e = strchr(p, '>');
        assert_non_null(e);
        bool closing = p[1] == '/';
        size_t len = strcspn(p + 1 + closing, " />");
        assert_true(len > 0 && len < 16);
        if (closing) {
            assert_true(depth > 0 && !strncmp(stack[--depth], p + 2, len) && strlen(stack[depth]) == len);
        } else if (e[-1] != '/') {
            assert_true(depth < 16);
            snprintf(stack[depth++], 16, "%.*s", (int)len, p + 1);
        }
    }
    assert_int_equal(depth, 0);
    free(svg); free(again);
}

static void written_whole_or_not_at_all(void **state)
{
    (void)state;
    char dir[] = "/tmp/plotsvgXXXXXX", path[64], bad[96];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/p.svg", dir);
    assert_int_equal(gb_plot_write(path, "gemmbench --quick on a fixed table", table, 2), 0);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char got[1 << 16];
    size_t n = fread(got, 1, sizeof got - 1, f);
    got[n] = '\0';
    fclose(f);
    char *svg = render();
    assert_string_equal(got, svg);
    free(svg);
    snprintf(bad, sizeof bad, "%s/missing/p.svg", dir);
    assert_int_equal(gb_plot_write(bad, "x", table, 2), -1);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(rmdir(dir), 0);          /* nothing else was left there */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(points_where_the_numbers_say),
        cmocka_unit_test(whole_document),
        cmocka_unit_test(written_whole_or_not_at_all),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
