/* test_explain_svg.c: gemmgen --explain=svg against the same run's
 * --explain=json and --explain: a whole SVG document with its elements
 * balanced, one box per instruction of each of the two iterations, the
 * kernel loop's body boxes at Table 4's cycles, one circle per RTG node,
 * boxes placed by cycle, and the same bytes twice. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* stdout of gemmgen ARGS (exit status 0 asserted), malloc'd */
static char *run(const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' %s", GEMMGEN_EXE, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t cap = 1 << 16, n = 0, got;
    char *s = malloc(cap);
    while ((got = fread(s + n, 1, cap - n - 1, p)) > 0)
        if ((n += got) + 1 == cap) s = realloc(s, cap *= 2);
    s[n] = '\0';
    assert_int_equal(pclose(p), 0);
    return s;
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)); p += strlen(what)) n++;
    return n;
}

static int json_int(const char *json, const char *key)
{
    char k[64];
    snprintf(k, sizeof k, "\"%s\": ", key);
    const char *p = strstr(json, k);
    assert_non_null(p);
    return atoi(p + strlen(k));
}

/* Every start tag closed in order, self-closing ones aside. */
static void balanced(const char *svg)
{
    char stack[64][32];
    int depth = 0, elements = 0;
    for (const char *p = strchr(svg, '<'); p; p = strchr(p + 1, '<')) {
        const char *end = strchr(p, '>');
        assert_non_null(end);
        bool closing = p[1] == '/', self = end[-1] == '/';
        size_t len = strcspn(p + 1 + closing, " />");
        assert_true(len > 0 && len < 32);
        if (closing) {
            assert_true(depth > 0);
            depth--;
            assert_true(strlen(stack[depth]) == len && !strncmp(stack[depth], p + 2, len));
        } else if (!self) {
            assert_true(depth < 64);
            snprintf(stack[depth++], 32, "%.*s", (int)len, p + 1);
        }
        elements += !closing;
    }
    assert_int_equal(depth, 0);
    assert_true(elements > 50);
}

/* Body boxes (iteration, label, cycle) from the <title>s after them. */
struct box { int x, iter, cycle; char label[20]; bool body; };

static int boxes(const char *svg, struct box *b, int max)
{
    int n = 0;
    for (const char *p = svg; (p = strstr(p, "<rect class=\"inst iter")) && n < max; p++) {
        struct box *x = &b[n++];
        x->iter = p[22] - '0';
        x->body = !strncmp(p + 23, " body\"", 6);
        const char *xs = strstr(p, " x=\""), *t = strstr(p, "<title>");
        assert_non_null(xs); assert_non_null(t);
        x->x = atoi(xs + 4);
        assert_int_equal(sscanf(t + 7, "%19[^:]: iteration %*d, cycle %d", x->label, &x->cycle), 2);
    }
    return n;
}

/* The cells of Table 4 (--explain's "Pipelined kernel"): label and cycle. */
static int table4(const char *text, char labels[][20], int *cycles, int max)
{
    const char *t = strstr(text, "Pipelined kernel");
    assert_non_null(t);
    const char *end = strstr(t, "moved up");
    int n = 0, nc = 0;
    for (const char *line = t; line && line < end; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        char row[2048];
        snprintf(row, sizeof row, "%.*s", (int)strcspn(line, "\n"), line);
        bool inst = !strncmp(row, "Instruction ", 12), cyc = !strncmp(row, "Cycle ", 6);
        if (!inst && !cyc) continue;
        for (char *tok = strtok(row + 12 * inst + 6 * cyc, " "); tok; tok = strtok(NULL, " ")) {
            if (inst && n < max) snprintf(labels[n++], 20, "%s", tok);
            if (cyc && nc < max) cycles[nc++] = atoi(tok);
        }
    }
    assert_int_equal(n, nc);
    return n;
}

static int rtg_nodes(const char *text)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, "RTG (")); p++) n += atoi(strstr(p, "): ") + 3);
    return n;
}

static void check(const char *args)
{
    char a[1024];
    snprintf(a, sizeof a, "%s --explain=svg", args);
    char *svg = run(a), *again = run(a);
    snprintf(a, sizeof a, "%s --explain=json", args);
    char *json = run(a);
    snprintf(a, sizeof a, "%s --explain", args);
    char *text = run(a);

    assert_int_equal(strncmp(svg, "<svg ", 5), 0);
    assert_string_equal(svg + strlen(svg) - 7, "</svg>\n");
    balanced(svg);
    assert_string_equal(svg, again);

    int ninst = json_int(json, "instructions");
    static struct box b[4096];
    int n = boxes(svg, b, 4096), body = 0, iter1 = 0;
    assert_int_equal(n, 2 * ninst);
    for (int x = 0; x < n; x++) { body += b[x].body; iter1 += b[x].iter; }
    assert_int_equal(body, ninst);     /* Pµ holds one of each instruction */
    assert_int_equal(iter1, ninst);

    /* x grows by one column width per cycle */
    int lo = 0, hi = 0;
    for (int x = 0; x < n; x++) {
        if (b[x].cycle < b[lo].cycle) lo = x;
        if (b[x].cycle > b[hi].cycle) hi = x;
    }
    assert_true(b[hi].cycle > b[lo].cycle);
    int cw = (b[hi].x - b[lo].x) / (b[hi].cycle - b[lo].cycle);
    assert_true(cw >= 20);
    for (int x = 0; x < n; x++) assert_int_equal(b[x].x - b[lo].x, (b[x].cycle - b[lo].cycle) * cw);

    /* the body boxes are Table 4's cells, each once */
    static char labels[4096][20];
    static int cycles[4096];
    int nt = table4(text, labels, cycles, 4096);
    assert_int_equal(nt, ninst);
    for (int x = 0; x < n; x++) {
        if (!b[x].body) continue;
        int hit = -1;
        for (int t = 0; t < nt && hit < 0; t++)
            if (!strcmp(labels[t], b[x].label) && cycles[t] == b[x].cycle) hit = t;
        assert_true(hit >= 0);
        labels[hit][0] = '\0';
    }
    assert_int_equal(count(svg, "<circle class=\"node\""), rtg_nodes(text));
    assert_true(count(svg, "<marker ") > 0);
    free(svg); free(again); free(json); free(text);
}

#define M(name) "--machine '" MACHINES_DIR "/" name ".yaml'"

/* POCA's worked example: 18 instructions, 7 moved up, UF 2 */
static void paper_example(void **state)
{
    (void)state;
    check(M("sandybridge") " --mr 4 --nr 4 --max-regs 8");
    char *svg = run(M("sandybridge") " --mr 4 --nr 4 --max-regs 8 --explain=svg");
    assert_int_equal(count(svg, "<rect class=\"inst"), 36);
    assert_int_equal(count(svg, " body\""), 18);
    assert_non_null(strstr(svg, "A0 \xe2\x86\x92 M3 \xe2\x86\x92 F \xe2\x86\x92 M1: period 2"));
    assert_non_null(strstr(svg, "unroll factor UF = 2 "));
    free(svg);
}

/* docs/schedule-sandybridge.svg is what this gemmgen draws (regenerate:
 * gemmgen --machine machines/sandybridge.yaml --mr 4 --nr 4 --max-regs 8
 * --explain=svg > docs/schedule-sandybridge.svg). */
static void docs_picture(void **state)
{
    (void)state;
    char *svg = run(M("sandybridge") " --mr 4 --nr 4 --max-regs 8 --explain=svg");
    FILE *f = fopen(MACHINES_DIR "/../docs/schedule-sandybridge.svg", "r");
    assert_non_null(f);
    size_t len = strlen(svg);
    char *doc = malloc(len + 2);
    size_t n = fread(doc, 1, len + 1, f);
    fclose(f);
    doc[n] = '\0';
    assert_string_equal(doc, svg);
    free(doc); free(svg);
}

static void other_machines(void **state)
{
    (void)state;
    check(M("zen5"));
    check(M("power10") " --type f32");        /* MMA: three register classes */
    check(M("a64fx"));
    check(M("haswell") " --no-pipeline");      /* nothing moved up */
    check(M("cortex-a57") " --no-sched --unroll 4");
    /* no rotating partition: UF 5 of a pipelined body in 14 registers */
    check(M("haswell") " --max-regs 14 --unroll 5");
    char *svg = run(M("haswell") " --max-regs 14 --unroll 5 --explain=svg");
    assert_non_null(strstr(svg, "unroll factor UF = 5; no rotating partition found"));
    free(svg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(paper_example),
        cmocka_unit_test(other_machines),
        cmocka_unit_test(docs_picture),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
