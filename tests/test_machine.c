/* test_machine.c: the machine-file loader (gen/machine_load.c).
 * Good YAML must land in every field of struct machine, with the documented
 * defaults; every shipped machines/NAME.yaml must load. Broken YAML must exit
 * with status 2 and print "FILE:LINE: FIELD: what"; since the loader calls
 * exit(2), each broken case runs in a forked child whose stderr comes back
 * through a pipe, and the test asserts the exact line and field. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "machine.h"
#include "target.h"

/* Line numbers matter: the error tests below name them. */
static const char good[] =
    "name: testbox\n"                                                   /*  1 */
    "isa: x86\n"                                                        /*  2 */
    "extensions: [sse2, avx, avx2, fma]\n"                              /*  3 */
    "vector_bits: 256\n"                                                /*  4 */
    "vector_registers: 16\n"                                            /*  5 */
    "max_regs: 12\n"                                                    /*  6 */
    "dispatch: {width: 4, order: in-order}\n"                           /*  7 */
    "frequency_ghz: 2.5\n"                                              /*  8 */
    "units:\n"                                                          /*  9 */
    "  load: 2\n"                                                       /* 10 */
    "  fma: 2\n"                                                        /* 11 */
    "  shuf: 1\n"                                                       /* 12 */
    "  int: 3\n"                                                        /* 13 */
    "instructions:\n"                                                   /* 14 */
    "  vload:      {latency: 5, unit: load}\n"                          /* 15 */
    "  vbroadcast: {latency: 6, unit: [load, shuf], uops: 2}\n"         /* 16 */
    "  vshuffle:   {latency: 1, unit: shuf, throughput: 0.5}\n"         /* 17 */
    "  vfma:       {latency: 4, unit: fma}\n"                           /* 18 */
    "  vfmul:      {latency: 4, unit: fma}\n"                           /* 19 */
    "  vfadd:      {latency: 3, unit: fma, throughput: 0.25}\n"         /* 20 */
    "  iadd:       {latency: 1, unit: int}\n"                           /* 21 */
    "  prefetch:   {latency: 0, unit: load}\n"                          /* 22 */
    "caches:\n"                                                         /* 23 */
    "  l1d: {size: 32K, line: 64, ways: 8}\n"                           /* 24 */
    "  l2:  {size: 2M, line: 64, ways: 16}\n"                           /* 25 */
    "  l3:  {size: 4096, line: 128, ways: 12}\n"                        /* 26 */
    "prefetch:\n"                                                       /* 27 */
    "  b_distance: 768\n"                                               /* 28 */
    "  a_next: false\n"                                                 /* 29 */
    "b_strategy: scalar-broadcast\n"                                    /* 30 */
    "cpuid:\n"                                                          /* 31 */
    "  vendor: GenuineIntel\n"                                          /* 32 */
    "  family: 6\n"                                                     /* 33 */
    "  models: [0x55, 85]\n";                                           /* 34 */

/* Only what is required: the optional keys must take their defaults. */
static const char minimal[] =
    "name: tiny\nisa: x86\nextensions: [avx]\nvector_bits: 256\nvector_registers: 16\n"
    "dispatch: {width: 4}\nunits: {ld: 2, fp: 1}\n"
    "instructions:\n  vload: {latency: 4, unit: ld}\n  vfmul: {latency: 5, unit: fp}\n"
    "caches:\n  l1d: {size: 32K, line: 64, ways: 8}\n  l2: {size: 256K, line: 64, ways: 8}\n";

/* A POWER10-like file: 8 accumulators blocking 4 registers each (line 6). */
static const char power[] =
    "name: pw\nisa: power\nextensions: [vsx, mma]\nvector_bits: 128\nvector_registers: 64\n"
    "accumulators: {count: 8, bits: 512, blocks: 4}\n"                  /*  6 */
    "dispatch: {width: 8}\nunits: {ld: 2, mma: 2}\n"
    "instructions:\n  vload: {latency: 6, unit: ld}\n  ger: {latency: 4, unit: mma}\n"
    "caches:\n  l1d: {size: 32K, line: 128, ways: 8}\n  l2: {size: 1M, line: 128, ways: 8}\n";

/* Returns TEXT with the first FROM replaced by TO (static storage, two
 * buffers so one result may feed the next call). */
static const char *with(const char *text, const char *from, const char *to)
{
    static char bufs[2][8192];
    static int next;
    char *out = bufs[next ^= 1];
    const char *p = strstr(text, from);
    assert_non_null(p);
    snprintf(out, sizeof bufs[0], "%.*s%s%s", (int)(p - text), text, to, p + strlen(from));
    return out;
}

struct outcome { int status; char err[4096]; };

/* Runs fn(arg) in a child; its exit status and stderr come back. */
static struct outcome in_child(void (*fn)(const void *), const void *arg)
{
    struct outcome o = { -1, "" };
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fd[0]);
        dup2(fd[1], 2);
        fn(arg);
        _exit(0);
    }
    close(fd[1]);
    size_t n = 0;
    ssize_t r;
    while ((r = read(fd[0], o.err + n, sizeof o.err - 1 - n)) > 0) n += (size_t)r;
    o.err[n] = '\0';
    close(fd[0]);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    o.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    return o;
}

static void load_text(const void *yaml)
{
    struct machine m;
    machine_load_string(&m, "bad.yaml", yaml);
}

static void load_path(const void *path)
{
    struct machine m;
    machine_load(&m, path);
}

/* The loader must exit 2 with a message that starts with WANT
 * ("bad.yaml:LINE: FIELD: what"). */
static void expect_error(const char *yaml, const char *want)
{
    struct outcome o = in_child(load_text, yaml);
    if (o.status != 2 || strncmp(o.err, want, strlen(want)))
        fprintf(stderr, "status %d, stderr '%s', wanted a message starting '%s'\n", o.status, o.err, want);
    assert_int_equal(o.status, 2);
    assert_memory_equal(o.err, want, strlen(want));
}

static int unit_index(const struct machine *m, const char *name)
{
    for (int i = 0; i < m->nunits; i++)
        if (!strcmp(m->units[i].name, name)) return i;
    return -1;
}

static void good_fields(void **state)
{
    (void)state;
    struct machine m;
    machine_load_string(&m, "good.yaml", good);
    assert_string_equal(m.path, "good.yaml");
    assert_string_equal(m.name, "testbox");
    assert_int_equal(m.family, FAM_X86);
    assert_int_equal(m.ext, EXT_SSE2 | EXT_AVX | EXT_AVX2 | EXT_FMA);
    assert_int_equal(m.ext_line, 3);
    assert_int_equal(m.vector_bits, 256);
    assert_int_equal(m.vector_registers, 16);
    assert_int_equal(m.max_regs, 12);
    assert_int_equal(m.dispatch_width, 4);
    assert_int_equal(m.order, DISPATCH_IN_ORDER);
    assert_true(m.freq_ghz > 2.49 && m.freq_ghz < 2.51);
    assert_int_equal(m.acc_count, 0);
    assert_int_equal(m.b_strategy, BS_SCALAR_BROADCAST);
}

static void good_units_and_timings(void **state)
{
    (void)state;
    struct machine m;
    machine_load_string(&m, "good.yaml", good);
    assert_int_equal(m.nunits, 4);
    int ld = unit_index(&m, "load"), fma = unit_index(&m, "fma"), shuf = unit_index(&m, "shuf");
    assert_true(ld >= 0 && fma >= 0 && shuf >= 0 && unit_index(&m, "int") >= 0);
    assert_int_equal(m.units[ld].count, 2);
    assert_int_equal(m.units[unit_index(&m, "int")].count, 3);
    const struct timing *b = &m.ic[IC_VBROADCAST];
    assert_true(b->present);
    assert_int_equal(b->line, 16);
    assert_int_equal(b->latency, 6);
    assert_int_equal(b->uops, 2);
    assert_int_equal(b->nalt, 2);                 /* unit list: alternatives in order */
    assert_int_equal(b->alt[0], ld);
    assert_int_equal(b->alt[1], shuf);
    assert_int_equal(machine_units_of(&m, IC_VBROADCAST), 3);
    assert_int_equal(m.ic[IC_VSHUFFLE].occupancy, 2);   /* throughput 0.5 -> busy 2 cycles */
    assert_int_equal(m.ic[IC_VFADD].occupancy, 4);      /* 0.25 -> 4 */
    assert_int_equal(m.ic[IC_VFMA].occupancy, 1);       /* default throughput 1 */
    assert_int_equal(m.ic[IC_VFMA].uops, 1);            /* default uops 1 */
    assert_int_equal(m.ic[IC_PREFETCH].latency, 0);
    assert_false(m.ic[IC_GER].present);
    assert_false(m.ic[IC_VFMA_LANE].present);
}

static void good_caches_prefetch_cpuid(void **state)
{
    (void)state;
    struct machine m;
    machine_load_string(&m, "good.yaml", good);
    assert_true(m.l1d.present && m.l2.present && m.l3.present);
    assert_int_equal(m.l1d.size, 32 * 1024);            /* 32K */
    assert_int_equal(m.l2.size, 2 * 1024 * 1024);       /* 2M */
    assert_int_equal(m.l3.size, 4096);                  /* plain bytes */
    assert_int_equal(m.l1d.line, 64);
    assert_int_equal(m.l3.line, 128);
    assert_int_equal(m.l2.ways, 16);
    assert_int_equal(m.b_prefetch_distance, 768);
    assert_false(m.a_next_prefetch);
    assert_string_equal(m.cpuid_vendor, "GenuineIntel");
    assert_int_equal(m.cpuid_family, 6);
    assert_int_equal(m.ncpuid_models, 2);
    assert_int_equal(m.cpuid_models[0], 0x55);          /* hex and decimal */
    assert_int_equal(m.cpuid_models[1], 85);
}

/* The streaming-prefetch keys and the unroll floor (machines/sapphirerapids.yaml). */
static void prefetch_streams_unroll(void **state)
{
    (void)state;
    struct machine m;
    machine_load_string(&m, "good.yaml",
                        with(good, "  a_next: false\n", "  a_next: false\n  a_distance: 256\n  b_next: true\nunroll: 4\n"));
    assert_int_equal(m.a_prefetch_distance, 256);
    assert_true(m.b_next_prefetch);
    assert_false(m.a_next_prefetch);
    assert_int_equal(m.unroll, 4);
    assert_int_equal(m.unroll_line, 32);
}

/* runtime.small_tile: each type's [MR, NR] and its line; none by default. */
static void small_tile(void **state)
{
    (void)state;
    struct machine m;
    const char *at = "  a_next: false\n";
    machine_load_string(&m, "good.yaml", with(good, at,
                        "  a_next: false\nruntime:\n  small_tile:\n    f64: [24, 4]\n"));
    assert_int_equal(m.runtime.small_tile[ELEM_F64].mr, 24);
    assert_int_equal(m.runtime.small_tile[ELEM_F64].nr, 4);
    assert_int_equal(m.runtime.small_tile[ELEM_F64].line, 32);
    assert_int_equal(m.runtime.small_tile[ELEM_F32].mr, 0);
    assert_int_equal(m.runtime.small_max_k, 0);
    machine_load_string(&m, "good.yaml", with(good, at,
                        "  a_next: false\nruntime:\n  small_tile:\n    f64: [24, 4]\n    max_k: 96\n"));
    assert_int_equal(m.runtime.small_tile[ELEM_F64].mr, 24);
    assert_int_equal(m.runtime.small_max_k, 96);
    machine_load_string(&m, "min.yaml", minimal);
    assert_int_equal(m.runtime.small_tile[ELEM_F64].mr, 0);
    assert_int_equal(m.runtime.small_tile[ELEM_F32].mr, 0);
    const char *rt = "  a_next: false\nruntime:\n  small_tile:\n";
    char buf[256];
#define ST(x) (snprintf(buf, sizeof buf, "%s%s", rt, x), with(good, at, buf))
    expect_error(ST("    f64: [24, 4]\n    max_k: 0\n"), "bad.yaml:33: runtime.small_tile.max_k:");
    expect_error(ST("    max_k: [96]\n"), "bad.yaml:32: runtime.small_tile.max_k:");
    expect_error(ST("    f64: [24]\n"), "bad.yaml:32: runtime.small_tile.f64: expected [MR, NR]");
    expect_error(ST("    f64: [24, 4, 2]\n"), "bad.yaml:32: runtime.small_tile.f64: expected [MR, NR]");
    expect_error(ST("    f64: 24x4\n"), "bad.yaml:32: runtime.small_tile.f64: expected [MR, NR]");
    expect_error(ST("    f16: [24, 4]\n"), "bad.yaml:32: runtime.small_tile.f16: unknown value 'f16'");
    expect_error(ST("    f32: [0, 4]\n"), "bad.yaml:32: runtime.small_tile.f32:");
#undef ST
}

/* runtime.narrow_panels: each type's k, 0 (never) by default. */
static void narrow_panels(void **state)
{
    (void)state;
    struct machine m;
    const char *at = "  a_next: false\n";
    machine_load_string(&m, "good.yaml", with(good, at, "  a_next: false\nruntime:\n  narrow_panels:\n    f64: 160\n"));
    assert_int_equal(m.runtime.narrow_k[ELEM_F64], 160);
    assert_int_equal(m.runtime.narrow_k[ELEM_F32], 0);
    machine_load_string(&m, "min.yaml", minimal);
    assert_int_equal(m.runtime.narrow_k[ELEM_F64], 0);
    assert_int_equal(m.runtime.narrow_k[ELEM_F32], 0);
    expect_error(with(good, at, "  a_next: false\nruntime:\n  narrow_panels:\n    f32: 0\n"),
                 "bad.yaml:32: runtime.narrow_panels.f32:");
    expect_error(with(good, at, "  a_next: false\nruntime:\n  narrow_panels:\n    f16: 96\n"),
                 "bad.yaml:32: runtime.narrow_panels.f16: unknown value 'f16'");
    expect_error(with(good, at, "  a_next: false\nruntime:\n  narrow_panels: 96\n"),
                 "bad.yaml:31: runtime.narrow_panels:");
}

/* runtime.thread_edge: per runtime type (f64 .. u8s8s32), 0 (the
 * runtime's table) by default. */
static void thread_edge(void **state)
{
    (void)state;
    struct machine m;
    const char *at = "  a_next: false\n";
    machine_load_string(&m, "good.yaml",
                        with(good, at, "  a_next: false\nruntime:\n  thread_edge:\n    c32: 20\n"
                                       "    u8s8s32: 44\n"));
    assert_int_equal(m.runtime.thread_edge[3], 20);
    assert_int_equal(m.runtime.thread_edge[5], 44);
    assert_int_equal(m.runtime.thread_edge[0], 0);
    machine_load_string(&m, "min.yaml", minimal);
    for (int t = 0; t < RUNTIME_NTYPES; t++) assert_int_equal(m.runtime.thread_edge[t], 0);
    expect_error(with(good, at, "  a_next: false\nruntime:\n  thread_edge:\n    f32: 4\n"),
                 "bad.yaml:32: runtime.thread_edge.f32:");
    expect_error(with(good, at, "  a_next: false\nruntime:\n  thread_edge:\n    f16: 40\n"),
                 "bad.yaml:32: runtime.thread_edge.f16: unknown value 'f16'");
    expect_error(with(good, at, "  a_next: false\nruntime:\n  thread_edge: 40\n"),
                 "bad.yaml:31: runtime.thread_edge:");
}

/* runtime.direct_b_rows: a boolean, false by default. */
static void direct_b_rows(void **state)
{
    (void)state;
    struct machine m;
    const char *at = "  a_next: false\n";
    machine_load_string(&m, "good.yaml", with(good, at, "  a_next: false\nruntime:\n  direct_b_rows: true\n"));
    assert_true(m.runtime.direct_b_rows);
    machine_load_string(&m, "min.yaml", minimal);
    assert_false(m.runtime.direct_b_rows);
    expect_error(with(good, at, "  a_next: false\nruntime:\n  direct_b_rows: often\n"),
                 "bad.yaml:31: runtime.direct_b_rows:");
}

/* The runtime: section: a mapping of known keys; its keys at the top
 * level (where they were before) are refused with where they belong. */
static void runtime_section(void **state)
{
    (void)state;
    const char *at = "  a_next: false\n";
    expect_error(with(good, at, "  a_next: false\nruntime: [small_tile]\n"),
                 "bad.yaml:30: runtime: expected a mapping");
    expect_error(with(good, at, "  a_next: false\nruntime:\n  small_tiles: {f64: [8, 4]}\n"),
                 "bad.yaml:31: runtime.small_tiles: unknown key (expected small_tile, narrow_panels, direct_b_rows, thread_edge)");
    expect_error(with(good, at, "  a_next: false\nruntime: {direct_b_rows: true}\nruntime: {}\n"),
                 "bad.yaml:31: runtime: given twice");
    expect_error(with(good, at, "  a_next: false\nsmall_tile: {f64: [8, 4]}\n"),
                 "bad.yaml:30: small_tile: belongs under runtime:");
    expect_error(with(good, at, "  a_next: false\nnarrow_panels: {f64: 96}\n"),
                 "bad.yaml:30: narrow_panels: belongs under runtime:");
    expect_error(with(good, at, "  a_next: false\ndirect_b_rows: true\n"),
                 "bad.yaml:30: direct_b_rows: belongs under runtime:");
}

/* shared_by: the cores on a cache level, 1 when not given. */
static void cache_shared_by(void **state)
{
    (void)state;
    struct machine m;
    const char *l3 = "{size: 4096, line: 128, ways: 12}";
    machine_load_string(&m, "good.yaml", with(good, l3, "{size: 4096, line: 128, ways: 12, shared_by: 8}"));
    assert_int_equal(m.l3.shared_by, 8);
    assert_int_equal(m.l2.shared_by, 1);
    expect_error(with(good, l3, "{size: 4096, line: 128, ways: 12, shared_by: 0}"),
                 "bad.yaml:26: caches.l3.shared_by:");
    expect_error(with(good, l3, "{size: 4096, line: 128, ways: 12, shard_by: 2}"),
                 "bad.yaml:26: caches.l3.shard_by: unknown key");
}

/* datapath_bits: the FP pipes' width, the vector width by default; it
 * must divide vector_bits. */
static void datapath(void **state)
{
    (void)state;
    struct machine m;
    const char *at = "max_regs: 12\n";
    machine_load_string(&m, "good.yaml", with(good, at, "max_regs: 12\ndatapath_bits: 128\n"));
    assert_int_equal(m.datapath_bits, 128);
    machine_load_string(&m, "min.yaml", minimal);
    assert_int_equal(m.datapath_bits, 256);
    expect_error(with(good, at, "max_regs: 12\ndatapath_bits: 96\n"),
                 "bad.yaml:7: datapath_bits: must divide vector_bits (256)");
    expect_error(with(good, at, "max_regs: 12\ndatapath_bits: 512\n"),
                 "bad.yaml:7: datapath_bits:");
    expect_error(with(good, at, "max_regs: 12\ndatapath_bits: wide\n"),
                 "bad.yaml:7: datapath_bits:");
}

static void defaults(void **state)
{
    (void)state;
    struct machine m;
    machine_load_string(&m, "min.yaml", minimal);
    assert_int_equal(m.max_regs, 16);                   /* MaxReg = vector_registers */
    assert_int_equal(m.order, DISPATCH_OUT_OF_ORDER);
    assert_int_equal(m.b_prefetch_distance, 512);       /* POCA's default */
    assert_true(m.a_next_prefetch);
    assert_int_equal(m.a_prefetch_distance, 0);         /* no A-ahead prefetch */
    assert_false(m.b_next_prefetch);
    assert_int_equal(m.unroll, 0);                      /* the RTG decides */
    assert_int_equal(m.b_strategy, -1);                 /* auto */
    assert_true(m.freq_ghz == 0.0);
    assert_false(m.l3.present);
    assert_int_equal(m.ncpuid_models, 0);
    assert_false(m.ic[IC_VFMA].present);
    assert_int_equal(m.ic[IC_VLOAD].occupancy, 1);
    assert_int_equal(m.ic[IC_VLOAD].uops, 1);
    machine_load_string(&m, "pw.yaml", power);
    assert_int_equal(m.family, FAM_POWER);
    assert_int_equal(m.acc_count, 8);
    assert_int_equal(m.acc_bits, 512);
    assert_int_equal(m.acc_blocks, 4);
}

/* Every file in machines/ loads and gets an instruction set. */
static void shipped_machines(void **state)
{
    (void)state;
    DIR *d = opendir(MACHINES_DIR);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".yaml")) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", MACHINES_DIR, e->d_name);
        struct machine m;
        machine_load(&m, path);
        assert_memory_equal(m.name, e->d_name, len - 5);   /* name: matches the file */
        assert_true(m.max_regs >= 2 && m.max_regs <= m.vector_registers);
        assert_true(m.nunits > 0 && m.dispatch_width > 0);
        assert_true(m.l1d.present && m.l1d.line > 0 && m.l2.present);
        assert_true(m.ic[IC_VLOAD].present && m.ic[IC_IADD].present);
        assert_true(m.acc_count * m.acc_blocks <= m.vector_registers);
        assert_non_null(target_for(&m));
        n++;
    }
    closedir(d);
    assert_true(n >= 12);
}

static void unknown_key(void **state)
{
    (void)state;
    expect_error(with(good, "vector_registers: 16\n", "vector_regs: 16\n"),
                 "bad.yaml:5: vector_regs: unknown key");
    expect_error(with(good, "  b_distance: 768", "  b_dist: 768"), "bad.yaml:28: prefetch.b_dist: unknown key");
    expect_error(with(good, "latency: 4, unit: fma}", "latency: 4, units: fma}"),
                 "bad.yaml:18: instructions.vfma.units: unknown key");
    expect_error(with(good, "  vfma:  ", "  vfmax: "), "bad.yaml:18: instructions.vfmax: unknown instruction class");
    expect_error(with(good, "  l3: ", "  l4: "), "bad.yaml:26: caches.l4: unknown cache");
    expect_error(with(good, "  l1d: {size: 32K,", "  l1d: {sz: 32K,"), "bad.yaml:24: caches.l1d.sz: unknown key");
    expect_error(with(good, "max_regs: 12\n", "name: again\n"), "bad.yaml:6: name: given twice");
}

static void bad_values(void **state)
{
    (void)state;
    expect_error(with(good, "vfma:       {latency: 4", "vfma:       {latency: four"),
                 "bad.yaml:18: instructions.vfma.latency: 'four' is not a whole number");
    expect_error(with(good, "throughput: 0.5", "throughput: half"),
                 "bad.yaml:17: instructions.vshuffle.throughput: 'half' is not a number");
    expect_error(with(good, "throughput: 0.5", "throughput: 0"),
                 "bad.yaml:17: instructions.vshuffle.throughput: 0 is out of range");
    expect_error(with(good, "size: 32K", "size: 32Q"), "bad.yaml:24: caches.l1d.size: '32Q' is not a size");
    expect_error(with(good, "vector_bits: 256", "vector_bits: 200"),
                 "bad.yaml:4: vector_bits: must be a multiple of 128");
    expect_error(with(good, "max_regs: 12", "max_regs: 20"), "bad.yaml:6: max_regs: 20 is out of range [2, 16]");
    expect_error(with(good, "name: testbox", "name: TestBox"), "bad.yaml:1: name: 'TestBox' may hold only");
    expect_error(with(good, "isa: x86", "isa: sparc"), "bad.yaml:2: isa: unknown value 'sparc'");
    expect_error(with(good, "order: in-order", "order: sideways"), "bad.yaml:7: dispatch.order: unknown value 'sideways'");
    expect_error(with(good, "a_next: false", "a_next: maybe"), "bad.yaml:29: prefetch.a_next: 'maybe' is not true or false");
    expect_error(with(good, "a_next: false", "b_next: maybe"), "bad.yaml:29: prefetch.b_next: 'maybe' is not true or false");
    expect_error(with(good, "a_next: false", "a_distance: -64"),
                 "bad.yaml:29: prefetch.a_distance: -64 is out of range [0, 65536]");
    expect_error(with(good, "b_strategy: scalar-broadcast", "unroll: 1"), "bad.yaml:30: unroll: 1 is out of range [2, 16]");
    expect_error(with(good, "b_strategy: scalar-broadcast", "b_strategy: diagonal"),
                 "bad.yaml:30: b_strategy: unknown value 'diagonal'");
    expect_error(with(good, "units:\n  load: 2", "units:\n  load: [2]"), "bad.yaml:10: units.load: expected a single value");
}

static void missing_fields(void **state)
{
    (void)state;
    /* required top-level keys are reported at the document's first line */
    expect_error(with(good, "units:\n  load: 2\n  fma: 2\n  shuf: 1\n  int: 3\n", ""), "bad.yaml:1: units: missing");
    expect_error(with(good, "vector_bits: 256\n", ""), "bad.yaml:1: vector_bits: missing");
    expect_error(with(good, "{latency: 5, unit: load}", "{unit: load}"), "bad.yaml:15: instructions.vload: latency: missing");
    expect_error(with(good, "{latency: 5, unit: load}", "{latency: 5}"), "bad.yaml:15: instructions.vload: unit: missing");
    expect_error(with(good, "{size: 2M, line: 64, ways: 16}", "{size: 2M, ways: 16}"), "bad.yaml:25: caches.l2: line: missing");
    expect_error(with(good, "  l2:  {size: 2M, line: 64, ways: 16}\n", ""), "bad.yaml:24: caches.l2: missing");
    expect_error(with(good, "{width: 4, order: in-order}", "{order: in-order}"), "bad.yaml:7: dispatch.width: missing");
}

static void unknown_unit(void **state)
{
    (void)state;
    expect_error(with(good, "unit: shuf, throughput", "unit: p5, throughput"),
                 "bad.yaml:17: instructions.vshuffle.unit: unknown unit 'p5'");
    expect_error(with(good, "unit: [load, shuf]", "unit: [load, p7]"),
                 "bad.yaml:16: instructions.vbroadcast.unit: unknown unit 'p7'");
    expect_error(with(good, "unit: [load, shuf]", "unit: []"), "bad.yaml:16: instructions.vbroadcast.unit: the list is empty");
}

static void wrong_isa_extension(void **state)
{
    (void)state;
    expect_error(with(good, "[sse2, avx, avx2, fma]", "[avx, neon]"),
                 "bad.yaml:3: extensions: 'neon' is not an extension of isa x86");
    expect_error(with(power, "[vsx, mma]", "[vsx, avx512f]"),
                 "bad.yaml:3: extensions: 'avx512f' is not an extension of isa power");
    expect_error(with(good, "[sse2, avx, avx2, fma]", "[]"), "bad.yaml:3: extensions: the list is empty");
}

static void yaml_syntax(void **state)
{
    (void)state;
    /* libyaml's own error, with the line it stopped at */
    expect_error(with(good, "  load: 2\n", "  load: 2: 3\n"), "bad.yaml:10: yaml: mapping values are not allowed");
    expect_error(with(good, "{latency: 4, unit: fma}", "{latency: 4, unit: fma"), "bad.yaml:19: yaml:");
    expect_error("name: [a, b\n", "bad.yaml:2: yaml:");
    expect_error("", "bad.yaml:1: machine: the file is empty");
    expect_error("# only a comment\n", "bad.yaml:1: machine: the file is empty");
    expect_error("- a\n- b\n", "bad.yaml:1: machine: expected a mapping");
}

static void accumulators_exceed_registers(void **state)
{
    (void)state;
    expect_error(with(power, "vector_registers: 64", "vector_registers: 16"),
                 "bad.yaml:6: accumulators: 8 accumulators blocking 4 registers each exceed the 16 vector registers");
    expect_error(with(power, "bits: 512, ", ""), "bad.yaml:6: accumulators: needs count, bits and blocks");
}

static void files(void **state)
{
    (void)state;
    struct outcome o = in_child(load_path, "/nonexistent/dir/m.yaml");
    assert_int_equal(o.status, 2);
    assert_non_null(strstr(o.err, "/nonexistent/dir/m.yaml: cannot open"));
    char path[] = "/tmp/gemmgen-machine-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "name: x\n\0\n", 10), 10);   /* a NUL byte: not text */
    close(fd);
    o = in_child(load_path, path);
    unlink(path);
    assert_int_equal(o.status, 2);
    assert_non_null(strstr(o.err, ":1: machine: not a text file"));
}

static void need_timing(const void *unused)
{
    (void)unused;
    static struct machine m;
    machine_load_string(&m, "min.yaml", minimal);
    machine_timing(&m, IC_VFMA, "fma");
}

/* A class the kernel needs but the file lacks names it, at the line of the
 * key `instructions:` (line 8 of `minimal`), as machine.h documents; the
 * line of its value (the first entry, line 9) would point at `vload`. */
static void missing_class(void **state)
{
    (void)state;
    struct outcome o = in_child(need_timing, NULL);
    assert_int_equal(o.status, 2);
    assert_non_null(strstr(o.err, "min.yaml:8: instructions.vfma: missing (needed for fma)"));
}

/* A size with a K/M suffix is range-checked before the shift: 2^44 + 32
 * mebibytes must not wrap around to 32M and be accepted. */
static void size_overflow(void **state)
{
    (void)state;
    expect_error(with(good, "size: 32K", "size: 17592186044448M"), "bad.yaml:24: caches.l1d.size:");
}

/* YAML forbids duplicate keys but libyaml keeps both pairs: a key given
 * twice inside any mapping must be an error, not two alternative units. */
static void duplicate_nested_key(void **state)
{
    (void)state;
    expect_error(with(good, "{latency: 4, unit: fma}", "{latency: 4, unit: fma, unit: load}"),
                 "bad.yaml:18: instructions.vfma.unit: given twice");
    expect_error(with(good, "{size: 32K, line: 64,", "{size: 32K, size: 64K, line: 64,"),
                 "bad.yaml:24: caches.l1d.size: given twice");
    expect_error(with(good, "  a_next: false", "  b_distance: 64"), "bad.yaml:29: prefetch.b_distance: given twice");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(good_fields),
        cmocka_unit_test(good_units_and_timings),
        cmocka_unit_test(good_caches_prefetch_cpuid),
        cmocka_unit_test(defaults),
        cmocka_unit_test(prefetch_streams_unroll),
        cmocka_unit_test(small_tile),
        cmocka_unit_test(narrow_panels),
        cmocka_unit_test(thread_edge),
        cmocka_unit_test(direct_b_rows),
        cmocka_unit_test(runtime_section),
        cmocka_unit_test(cache_shared_by),
        cmocka_unit_test(datapath),
        cmocka_unit_test(shipped_machines),
        cmocka_unit_test(unknown_key),
        cmocka_unit_test(bad_values),
        cmocka_unit_test(missing_fields),
        cmocka_unit_test(unknown_unit),
        cmocka_unit_test(wrong_isa_extension),
        cmocka_unit_test(yaml_syntax),
        cmocka_unit_test(accumulators_exceed_registers),
        cmocka_unit_test(files),
        cmocka_unit_test(missing_class),
        cmocka_unit_test(size_overflow),
        cmocka_unit_test(duplicate_nested_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
