/* test_desc.c: the set descriptor (NAME_desc.h, gen/emit_desc.c) of shipped
 * machines names the CPU features their instruction set needs, the caches
 * of their YAML, their runtime: knobs and exactly the kernels the header
 * holds. The descriptor is generated in-process, as gemmgen writes it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "plan_fixture.h"

/* The descriptor of mach's kernel of type e, named k, into d. */
static void desc_of(struct buf *d, const char *mach, enum elem e)
{
    char path[1024];
    struct options o = fixture_options(path, mach, e, 0, 0, 0);
    struct plan pl, edges[MAX_EDGES];
    struct edge_spec es[MAX_EDGES];
    struct buf c = { 0 }, h = { 0 };
    plan_build(&pl, &o);
    int ne = plan_edges(&pl, es);
    for (int i = 0; i < ne; i++) plan_build_edge(&edges[i], &pl, &o, &es[i]);
    emit_kernel(&pl, edges, ne, &o, "k", &c, &h, d);
    for (int i = 0; i < ne; i++) plan_free(&edges[i]);
    plan_free(&pl);
    buf_free(&c); buf_free(&h);
}

static void has(const struct buf *d, const char *line)
{
    if (!strstr(d->s, line)) fprintf(stderr, "missing '%s' in\n%s", line, d->s);
    assert_non_null(strstr(d->s, line));
}

static void lacks(const struct buf *d, const char *text)
{
    assert_null(strstr(d->s, text));
}

/* The caches line as the machine file gives them, from the loader. */
static void has_yaml_caches(const struct buf *d, const char *mach)
{
    char path[1024], want[512];
    struct machine m;
    snprintf(path, sizeof path, "%s/%s.yaml", MACHINES_DIR, mach);
    machine_load(&m, path);
    const struct cache *c[3] = { &m.l1d, &m.l2, &m.l3 };
    int n = snprintf(want, sizeof want, "#define k_DESC_CACHES {");
    for (int l = 0; l < 3; l++)
        n += snprintf(want + n, sizeof want - (size_t)n, " {%ld, %d, %d, %d}%s",
                      c[l]->present ? c[l]->size : 0, c[l]->present ? c[l]->line : 0,
                      c[l]->present ? c[l]->ways : 0, c[l]->present ? c[l]->shared_by : 0,
                      l < 2 ? "," : " }\n");
    has(d, want);
}

/* Zen 5: AVX-512 with FMA, its three caches (L3 shared by 8 cores), and
 * its runtime: section (small tile up to k 96, narrow panels up to 160,
 * the _rows kernels). */
static void zen5(void **state)
{
    (void)state;
    struct buf d = { 0 };
    desc_of(&d, "zen5", ELEM_F64);
    has(&d, "#define k_DESC_MACHINE \"zen5\"\n");
    has(&d, "#define k_DESC_CFLAGS \"-mavx512f -mfma\"\n");
    has(&d, "#define k_DESC_FEATURES (GG_CPU_AVX512F | GG_CPU_FMA)\n");
    has(&d, "#define k_DESC_RANK 3\n");
    has(&d, "#define k_DESC_CACHES { {49152, 64, 12, 1}, {1048576, 64, 16, 1}, "
            "{33554432, 64, 16, 8} }\n");
    has_yaml_caches(&d, "zen5");
    has(&d, "#define k_DESC_SMALL_MAX_K 96\n");
    has(&d, ".mr = 16, .nr = 14, .row_pref = 0, .fn = (void *)k,");
    has(&d, ".b_l1_percent = 50, .narrow_k = 160,");
    has(&d, "static const struct gg_dedge k_desc_edges[] = { k_EDGE_LIST };\n");
    has(&d, ".stream = (void *)k_stream,");
    has(&d, ".tails = { k_TAIL_LIST },");
    has(&d, ".b_rows = &k_desc_b_rows,");
    lacks(&d, ".thread_edge");           /* zen5.yaml gives none: the runtime's table */
    buf_free(&d);
    desc_of(&d, "zen4", ELEM_F32);       /* zen4.yaml gives its own */
    has(&d, ".thread_edge = 38,");
    buf_free(&d);
    desc_of(&d, "zen5", ELEM_F32);
    has(&d, "static const struct gg_sedge k_desc_edges[] = { k_EDGE_LIST };\n");
    has(&d, "static const struct gg_spedge k_desc_pedges[] = { k_PEDGE_LIST };\n");
    buf_free(&d);
}

/* Haswell: AVX2 and FMA, ranked below AVX-512; no runtime: section, so
 * no _rows kernels and narrow panels never. */
static void haswell(void **state)
{
    (void)state;
    struct buf d = { 0 };
    desc_of(&d, "haswell", ELEM_F64);
    has(&d, "#define k_DESC_FEATURES (GG_CPU_AVX2 | GG_CPU_FMA)\n");
    has(&d, "#define k_DESC_RANK 2\n");
    has(&d, "#define k_DESC_CACHES { {32768, 64, 8, 1}, {262144, 64, 8, 1}, {8388608, 64, 16, 1} }\n");
    has_yaml_caches(&d, "haswell");
    has(&d, "#define k_DESC_SMALL_MAX_K 0\n");
    has(&d, ".narrow_k = 0,");
    lacks(&d, ".b_rows =");
    lacks(&d, "_direct_rows");
    buf_free(&d);
}

/* Other ISAs: POWER10 (MMA: ISA 3.1), SVE of each machine's length, NEON
 * (the AArch64 baseline: no feature); a machine without L3 gives zeros. */
static void other_isas(void **state)
{
    (void)state;
    static const struct { const char *mach, *features, *caches; int rank; } want[] = {
        { "power10", "(GG_CPU_PWR10)",
          "{ {32768, 128, 8, 1}, {1048576, 128, 8, 1}, {4194304, 128, 16, 1} }", 2 },
        { "power9", "(GG_CPU_PWR9)",
          "{ {32768, 128, 8, 1}, {524288, 128, 8, 1}, {10485760, 128, 20, 1} }", 1 },
        { "a64fx", "(GG_CPU_SVE | GG_CPU_SVE512)",
          "{ {65536, 256, 4, 1}, {8388608, 256, 16, 1}, {0, 0, 0, 0} }", 2 },
        { "neoverse-v1", "(GG_CPU_SVE | GG_CPU_SVE256)",
          "{ {65536, 64, 4, 1}, {1048576, 64, 8, 1}, {0, 0, 0, 0} }", 2 },
        { "cortex-a57", "(0)",
          "{ {32768, 64, 2, 1}, {524288, 64, 16, 1}, {0, 0, 0, 0} }", 1 },
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        struct buf d = { 0 };
        char line[256];
        desc_of(&d, want[i].mach, ELEM_F64);
        snprintf(line, sizeof line, "#define k_DESC_FEATURES %s\n", want[i].features);
        has(&d, line);
        snprintf(line, sizeof line, "#define k_DESC_CACHES %s\n", want[i].caches);
        has(&d, line);
        snprintf(line, sizeof line, "#define k_DESC_RANK %d\n", want[i].rank);
        has(&d, line);
        has_yaml_caches(&d, want[i].mach);
        buf_free(&d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(zen5),
        cmocka_unit_test(haswell),
        cmocka_unit_test(other_isas),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
