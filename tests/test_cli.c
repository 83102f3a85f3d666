/* test_cli.c: the real gemmgen binary on bad and good input. Each run is
 * fork + exec in a fresh mkdtemp directory (so the default `out/` would
 * land there too), with stdout and stderr captured and a time limit. Bad
 * input must exit with status 2, name the file:line: field or the option,
 * and write nothing: neither into the -o directory nor a default out/. A
 * good run writes exactly NAME.c, NAME.h and NAME_desc.h, byte-identical
 * when repeated, and leaves no temporary file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char dir[64];         /* the mkdtemp work directory (cwd of gemmgen) */
static char err[8192], out[1 << 15];

/* Line numbers matter: the tests name them. */
static const char good[] =
    "name: t\n"                                                              /*  1 */
    "isa: x86\n"                                                             /*  2 */
    "extensions: [avx, avx2, fma]\n"                                         /*  3 */
    "vector_bits: 256\n"                                                     /*  4 */
    "vector_registers: 16\n"                                                 /*  5 */
    "dispatch: {width: 4, order: out-of-order}\n"                            /*  6 */
    "units: {load: 2, fma: 2, int: 3, shuf: 1}\n"                            /*  7 */
    "instructions:\n"                                                        /*  8 */
    "  vload: {latency: 5, unit: load}\n"                                    /*  9 */
    "  vbroadcast: {latency: 5, unit: load}\n"                               /* 10 */
    "  vshuffle: {latency: 1, unit: shuf}\n"                                 /* 11 */
    "  vfma: {latency: 5, unit: fma}\n"                                      /* 12 */
    "  vfmul: {latency: 5, unit: fma}\n"                                     /* 13 */
    "  vfadd: {latency: 3, unit: fma}\n"                                     /* 14 */
    "  iadd: {latency: 1, unit: int}\n"                                      /* 15 */
    "  prefetch: {latency: 0, unit: load}\n"                                 /* 16 */
    "caches:\n"                                                              /* 17 */
    "  l1d: {size: 32K, line: 64, ways: 8}\n"                                /* 18 */
    "  l2: {size: 256K, line: 64, ways: 8}\n";                               /* 19 */

/* TEXT with the first FROM replaced by TO; two static buffers, so one
 * result may feed the next call. */
static const char *with(const char *text, const char *from, const char *to)
{
    static char bufs[2][4096];
    static int next;
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", text);
    char *o = bufs[next ^= 1];
    const char *p = strstr(copy, from);
    assert_non_null(p);
    snprintf(o, sizeof bufs[0], "%.*s%s%s", (int)(p - copy), copy, to, p + strlen(from));
    return o;
}

static void path_in(char *buf, size_t size, const char *name) { snprintf(buf, size, "%s/%s", dir, name); }

static void write_file(const char *name, const char *text)
{
    char p[256];
    path_in(p, sizeof p, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void slurp(const char *name, char *buf, size_t size)
{
    char p[256];
    path_in(p, sizeof p, name);
    FILE *f = fopen(p, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = '\0';
    fclose(f);
}

/* Entries of directory NAME (inside dir), -1 if it does not exist. */
static int entries(const char *name)
{
    char p[2048];
    path_in(p, sizeof p, name);
    DIR *d = opendir(p);
    if (!d) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

/* Runs gemmgen with ARGS (NULL-terminated, gemmgen's own argv[0] added) in
 * dir; fills out/err; returns the exit status, or -1 when it had to be
 * killed after 2 s (a correct gemmgen needs a few ms). */
static int run(const char *const *args)
{
    char *argv[32];
    int n = 0;
    argv[n++] = (char *)GEMMGEN_EXE;
    for (; *args && n < 31; args++) argv[n++] = (char *)*args;
    argv[n] = NULL;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (chdir(dir) != 0) _exit(99);
        int o = open("stdout.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = open("stderr.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(o, 1);
        dup2(e, 2);
        execv(GEMMGEN_EXE, argv);
        _exit(98);
    }
    int st = 0;
    struct timespec tick = { 0, 10 * 1000 * 1000 };
    for (int waited = 0; waitpid(pid, &st, WNOHANG) == 0; waited++) {
        if (waited == 200) { kill(pid, SIGKILL); waitpid(pid, &st, 0); st = -1; break; }
        nanosleep(&tick, NULL);
    }
    slurp("stdout.txt", out, sizeof out);
    slurp("stderr.txt", err, sizeof err);
    return st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Fresh, empty output directory "o" (and no default "out"). */
static void clear_outputs(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s/o' '%s/out' && mkdir '%s/o'", dir, dir, dir);
    assert_int_equal(system(cmd), 0);
}

/* Bad input: status 2, every WANT in stderr, nothing written. ARGS get
 * "-o o"; with YAML, m.yaml holds it and --machine m.yaml comes first. */
static void bad(const char *yaml, const char *const *args, const char *want, const char *want2)
{
    const char *argv[32];
    int n = 0;
    if (yaml) { write_file("m.yaml", yaml); argv[n++] = "--machine"; argv[n++] = "m.yaml"; }
    for (; *args; args++) argv[n++] = *args;
    argv[n] = NULL;
    clear_outputs();
    int st = run(argv);
    if (st != 2 || !strstr(err, want) || (want2 && !strstr(err, want2)))
        fprintf(stderr, "status %d, stderr: %s(wanted '%s'%s%s)\n", st, err, want, want2 ? " and " : "", want2 ? want2 : "");
    assert_int_equal(st, 2);
    assert_non_null(strstr(err, want));
    if (want2) assert_non_null(strstr(err, want2));
    assert_int_equal(entries("o"), 0);
    /* the same without -o: no default out/ may appear */
    const char *argv2[32];
    int m = 0;
    for (int x = 0; x < n; x++)
        if (strcmp(argv[x], "-o") == 0) x++;
        else argv2[m++] = argv[x];
    argv2[m] = NULL;
    assert_int_equal(run(argv2), 2);
    assert_int_equal(entries("out"), -1);
}

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

static void malformed_yaml(void **state)
{
    (void)state;
    bad(with(good, "units: {load: 2", "units: {load: 2: 3"), ARGS("-o", "o"), "m.yaml:7: yaml:", NULL);
    bad(with(good, "vfma: {latency: 5", "vfma: {latency: five"), ARGS("-o", "o"),
        "m.yaml:12: instructions.vfma.latency: 'five' is not a whole number", NULL);
    bad(with(good, "size: 32K", "size: 32Q"), ARGS("-o", "o"), "m.yaml:18: caches.l1d.size:", NULL);
    bad(with(good, "vector_registers: 16\n", "vector_registers: 16\nbogus: 1\n"), ARGS("-o", "o"),
        "m.yaml:6: bogus: unknown key", NULL);
    bad("", ARGS("-o", "o"), "m.yaml:1: machine: the file is empty", NULL);
}

static void incomplete_yaml(void **state)
{
    (void)state;
    bad(with(good, "caches:\n  l1d: {size: 32K, line: 64, ways: 8}\n  l2: {size: 256K, line: 64, ways: 8}\n", ""),
        ARGS("-o", "o"), "m.yaml:1: caches: missing", NULL);
    bad(with(good, "  l2: {size: 256K, line: 64, ways: 8}\n", ""), ARGS("-o", "o"), "m.yaml:18: caches.l2: missing", NULL);
    /* a class the instruction selection needs: named when it is missing */
    bad(with(with(good, "  vfma: {latency: 5, unit: fma}\n", ""), "  vfmul: {latency: 5, unit: fma}\n", ""),
        ARGS("-o", "o", "--mr", "8", "--nr", "4", "--b-strategy", "scalar-broadcast"), "m.yaml:",
        "instructions.vfmul: missing");
    bad(NULL, ARGS("--machine", "nonexistent.yaml", "-o", "o"), "nonexistent.yaml: cannot open", NULL);
}

static void unknown_isa(void **state)
{
    (void)state;
    bad(with(good, "isa: x86", "isa: sparc"), ARGS("-o", "o"), "m.yaml:2: isa: unknown value 'sparc'", NULL);
    bad(with(good, "[avx, avx2, fma]", "[sse2]"), ARGS("-o", "o"), "m.yaml:3: extensions: no instruction set", NULL);
}

static void impossible_registers(void **state)
{
    (void)state;
    bad(good, ARGS("-o", "o", "--mr", "64", "--nr", "64"), "--mr 64 --nr 64:", "needs at least");
    bad(good, ARGS("-o", "o", "--max-regs", "3"), "no f64 micro-kernel fits", NULL);
    bad(good, ARGS("-o", "o", "--max-regs", "17"), "--max-regs 17: must be within [2, 16]", NULL);
}

static void bad_sizes(void **state)
{
    (void)state;
    char skx[1024];
    snprintf(skx, sizeof skx, "%s/skylake-avx512.yaml", MACHINES_DIR);
    bad(good, ARGS("-o", "o", "--mr", "0"), "--mr: '0' is not a whole number", NULL);
    bad(good, ARGS("-o", "o", "--mr", "abc"), "--mr: 'abc' is not a whole number", NULL);
    bad(good, ARGS("-o", "o", "--nr", "65"), "--nr: '65'", NULL);
    bad(good, ARGS("-o", "o", "--mr", "8x"), "--mr: '8x'", NULL);
    bad(NULL, ARGS("--machine", skx, "-o", "o", "--mr", "7", "--nr", "8"), "--mr 7 --nr 8: MR=7 must be a multiple of 8", NULL);
    bad(NULL, ARGS("--machine", skx, "-o", "o", "--type", "f32", "--mr", "24", "--nr", "4"), "MR=24 must be a multiple of 16", NULL);
}

/* With only --mr given, an impossible MR must be blamed on --mr and the
 * rule it breaks (a multiple of 8 for AVX-512 f64), not on the register
 * budget. */
static void lone_mr_names_option(void **state)
{
    (void)state;
    char skx[1024];
    snprintf(skx, sizeof skx, "%s/skylake-avx512.yaml", MACHINES_DIR);
    bad(NULL, ARGS("--machine", skx, "-o", "o", "--mr", "7"), "--mr", "multiple of 8");
}

/* With the default shape too, a file lacking vfma and vfmul must name the
 * missing class, not blame the register budget. */
static void missing_class_default_shape(void **state)
{
    (void)state;
    bad(with(with(good, "  vfma: {latency: 5, unit: fma}\n", ""), "  vfmul: {latency: 5, unit: fma}\n", ""),
        ARGS("-o", "o"), "m.yaml:", "instructions.vfmul: missing");
}

/* --unroll N is honoured (UF = N) or refused with status 2 naming
 * --unroll: on haswell's default 8x6 a value needs two names, so the
 * allocator cannot use UF 1 (regalloc would silently raise it). */
static void unroll_honoured_or_refused(void **state)
{
    (void)state;
    char hsw[1024];
    snprintf(hsw, sizeof hsw, "%s/haswell.yaml", MACHINES_DIR);
    for (int n = 1; n <= 4; n++) {
        char un[8];
        snprintf(un, sizeof un, "%d", n);
        int st = run(ARGS("--machine", hsw, "--unroll", un, "--explain=json"));
        if (st == 2) { assert_non_null(strstr(err, "--unroll")); continue; }
        assert_int_equal(st, 0);
        const char *uf = strstr(out, "\"unroll_factor\":");
        assert_non_null(uf);
        assert_int_equal(atoi(uf + strlen("\"unroll_factor\":")), n);
    }
}

static int json_int(const char *json, const char *key)
{
    const char *p = strstr(json, key);
    assert_non_null(p);
    return atoi(p + strlen(key));
}

/* The machine file's `unroll:` floor raises the RTG's factor to a multiple
 * of it (sapphirerapids: 2 -> 4); an explicit --unroll still wins. */
static void machine_unroll_floor(void **state)
{
    (void)state;
    char spr[1024];
    snprintf(spr, sizeof spr, "%s/sapphirerapids.yaml", MACHINES_DIR);
    assert_int_equal(run(ARGS("--machine", spr, "--explain=json")), 0);
    int uf = json_int(out, "\"unroll_factor\":"), rtg = json_int(out, "\"rtg_unroll_factor\":");
    assert_true(rtg >= 2);
    assert_int_equal(uf, (4 + rtg - 1) / rtg * rtg);    /* the least multiple >= 4 */
    assert_int_equal(run(ARGS("--machine", spr, "--unroll", "2", "--explain=json")), 0);
    assert_int_equal(json_int(out, "\"unroll_factor\":"), 2);
}

static void bad_options(void **state)
{
    (void)state;
    bad(good, ARGS("-o", "o", "--frobnicate"), "--frobnicate: unknown or incomplete option", NULL);
    bad(good, ARGS("-o", "o", "--mr"), "--mr: unknown or incomplete option", NULL);
    bad(good, ARGS("-o", "o", "stray"), "stray: unexpected argument", NULL);
    bad(good, ARGS("-o", "o", "--type", "f16"), "--type: unknown value 'f16'", NULL);
    bad(good, ARGS("-o", "o", "--name", "9lives"), "--name: '9lives' is not a C identifier", NULL);
    bad(good, ARGS("-o", "o", "--unroll", "0"), "--unroll: '0'", NULL);
    bad(good, ARGS("-o", "o", "--explain=xml"), "--explain", NULL);
    bad(good, ARGS("-o", "o", "--b-strategy", "diagonal"), "--b-strategy: unknown value 'diagonal'", NULL);
    bad(good, ARGS("-o", "o", "--compiler", "icc"), "--compiler: unknown value 'icc'", NULL);
}

/* --machine NAME: the file of that name in the machines directory (the
 * source tree's, for this gemmgen in the build tree); an unknown name is
 * bad input that lists the known ones. */
static void machine_by_name(void **state)
{
    (void)state;
    char want[2048];
    snprintf(want, sizeof want, "%s/zen5.yaml\n", MACHINES_DIR);
    unsetenv("GEMMGEN_MACHINES");
    assert_int_equal(run(ARGS("--machine", "zen5", "--print-machine")), 0);
    assert_string_equal(out, want);
    bad(NULL, ARGS("-o", "o", "--machine", "zen9"), "--machine: no machine named 'zen9' in ",
        "(known: a64fx, cortex-a55, cortex-a57, haswell,");
}

/* An output path longer than gemmgen's path buffers: refused by name
 * rather than cut short (which would write somewhere else). */
static void long_outdir(void **state)
{
    (void)state;
    char rel[1400] = "deep", cmd[1700];
    while (strlen(rel) < 1100)
        strcat(rel, "/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    snprintf(cmd, sizeof cmd, "cd '%s' && mkdir -p '%s'", dir, rel);
    assert_int_equal(system(cmd), 0);
    write_file("m.yaml", good);
    assert_int_equal(run(ARGS("--machine", "m.yaml", "-o", rel)), 2);
    assert_non_null(strstr(err, "--outdir"));
    assert_non_null(strstr(err, "too long"));
    assert_int_equal(entries(rel), 0);
}

/* uops wider than the dispatch width could never issue (the scheduler
 * would look for a free cycle forever): an input error naming the field.
 * run() kills a hung gemmgen after 2 s. */
static void uops_wider_than_dispatch(void **state)
{
    (void)state;
    bad(with(good, "vload: {latency: 5, unit: load}", "vload: {latency: 5, unit: load, uops: 5}"),
        ARGS("-o", "o"), "m.yaml:9: instructions.vload.uops", NULL);
}

static void good_run(const char *name)
{
    const char *const args[] = { "--machine", "m.yaml", "-o", "o", "--name", name, NULL };
    assert_int_equal(run(args), 0);
    char want[256];
    snprintf(want, sizeof want, "o/%s.c\no/%s.h\no/%s_desc.h\n", name, name, name);
    assert_string_equal(out, want);                /* it says what it wrote */
}

static size_t read_out(const char *file, char *buf, size_t size)
{
    char p[256];
    path_in(p, sizeof p, file);
    FILE *f = fopen(p, "rb");
    assert_non_null(f);
    size_t n = fread(buf, 1, size, f);
    fclose(f);
    return n;
}

static void good_and_deterministic(void **state)
{
    (void)state;
    static char first[3][1 << 18], again[3][1 << 18];
    size_t n1[3], n2[3];
    write_file("m.yaml", good);
    clear_outputs();
    good_run("kk");
    assert_int_equal(entries("o"), 3);              /* NAME.c, .h, _desc.h, no temporaries */
    n1[0] = read_out("o/kk.c", first[0], sizeof first[0]);
    n1[1] = read_out("o/kk.h", first[1], sizeof first[1]);
    n1[2] = read_out("o/kk_desc.h", first[2], sizeof first[2]);
    assert_true(n1[0] > 0 && n1[0] < sizeof first[0] && n1[1] > 0 && n1[2] > 0);
    assert_non_null(strstr(first[0], "void kk("));
    assert_non_null(strstr(first[1], "kk_MR"));
    assert_non_null(strstr(first[2], "#define kk_DESC_FEATURES (GG_CPU_AVX2 | GG_CPU_FMA)\n"));
    good_run("kk");                                  /* again, over the old files */
    assert_int_equal(entries("o"), 3);
    n2[0] = read_out("o/kk.c", again[0], sizeof again[0]);
    n2[1] = read_out("o/kk.h", again[1], sizeof again[1]);
    n2[2] = read_out("o/kk_desc.h", again[2], sizeof again[2]);
    for (int f = 0; f < 3; f++) {
        assert_int_equal(n1[f], n2[f]);
        assert_memory_equal(first[f], again[f], n1[f]);
    }
    clear_outputs();                                 /* and from a fresh directory */
    good_run("kk");
    n2[0] = read_out("o/kk.c", again[0], sizeof again[0]);
    assert_int_equal(n1[0], n2[0]);
    assert_memory_equal(first[0], again[0], n1[0]);
    assert_int_equal(entries("o"), 3);
}

/* --cflags-file adds NAME.cflags, the flags for `cc @NAME.cflags`: the
 * AVX2 target's. */
static void cflags_file(void **state)
{
    (void)state;
    char text[256];
    write_file("m.yaml", good);
    clear_outputs();
    assert_int_equal(run(ARGS("--machine", "m.yaml", "-o", "o", "--name", "kk", "--cflags-file")), 0);
    assert_int_equal(entries("o"), 4);
    text[read_out("o/kk.cflags", text, sizeof text - 1)] = 0;
    assert_string_equal(text, "-mavx2 -mfma\n");
}

/* --small-tile where the machine names none for the type writes nothing
 * and succeeds (ggkernel leaves the runtime's slot empty); where it names
 * one, the kernel has that shape. */
static void small_tile_absent_or_given(void **state)
{
    (void)state;
    write_file("m.yaml", good);
    clear_outputs();
    assert_int_equal(run(ARGS("--machine", "m.yaml", "-o", "o", "--small-tile")), 0);
    assert_non_null(strstr(err, "m.yaml: runtime.small_tile: no f64 tile given; nothing written"));
    assert_int_equal(entries("o"), 0);
    write_file("m.yaml", with(good, "caches:", "runtime: {small_tile: {f32: [8, 4]}}\ncaches:"));
    assert_int_equal(run(ARGS("--machine", "m.yaml", "-o", "o", "--small-tile")), 0);
    assert_int_equal(entries("o"), 0);
    assert_int_equal(run(ARGS("--machine", "m.yaml", "-o", "o", "--small-tile", "--type", "f32",
                              "--name", "st")), 0);
    assert_int_equal(entries("o"), 3);
    char text[1 << 12];
    text[read_out("o/st.h", text, sizeof text - 1)] = 0;
    assert_non_null(strstr(text, "#define st_MR 8\n#define st_NR 4\n"));
}

/* --explain and the other print options write nothing. */
static void explain_writes_nothing(void **state)
{
    (void)state;
    write_file("m.yaml", good);
    clear_outputs();
    assert_int_equal(run(ARGS("--machine", "m.yaml", "-o", "o", "--explain")), 0);
    assert_non_null(strstr(out, "LiveReg"));
    assert_int_equal(run(ARGS("--machine", "m.yaml", "--explain=json")), 0);
    assert_non_null(strstr(out, "\"unroll_factor\""));
    assert_int_equal(entries("o"), 0);
    assert_int_equal(entries("out"), -1);
}

/* Complex types: refused where the registers cannot hold a complex tile
 * (two accumulators per C vector) though a real one fits; options that
 * make no sense for them are named. (Every instruction set has a complex
 * strategy, so the refusal by the extensions line has no case here.) */
static void complex_refused(void **state)
{
    (void)state;
    const char *four = with(good, "vector_registers: 16", "vector_registers: 4");
    write_file("m.yaml", four);
    assert_int_equal(run(ARGS("--machine", "m.yaml", "--type", "f64", "--explain")), 0);
    bad(four, ARGS("-o", "o", "--type", "c64"),
        "m.yaml:5: vector_registers: no c64 micro-kernel fits in 4 vector registers", NULL);
    bad(good, ARGS("-o", "o", "--type", "c32", "--max-regs", "4"), "no c32 micro-kernel fits in 4", NULL);
    bad(good, ARGS("-o", "o", "--type", "c64", "--small-tile"), "--small-tile: no small tile for complex", NULL);
    bad(good, ARGS("-o", "o", "--type", "c64", "--b-strategy", "vector-shuffle"),
        "--b-strategy vector-shuffle: not a complex strategy of the avx2 instruction set", NULL);
    bad(good, ARGS("-o", "o", "--type", "c64", "--b-strategy", "split-complex-lane"),
        "--b-strategy split-complex-lane: not a complex strategy of the avx2", NULL);
    bad(good, ARGS("-o", "o", "--b-strategy", "split-complex"),
        "--b-strategy split-complex: only for --type c64 or c32", NULL);
    bad(good, ARGS("-o", "o", "--type", "c16"), "--type: unknown value 'c16'", NULL);
}

/* A complex kernel: the packed function alone, its header saying so. */
static void complex_good(void **state)
{
    (void)state;
    static char c[1 << 18], h[1 << 14];
    write_file("m.yaml", good);
    clear_outputs();
    assert_int_equal(run(ARGS("--machine", "m.yaml", "-o", "o", "--type", "c64", "--name", "zk")), 0);
    assert_int_equal(entries("o"), 3);              /* zk.c, zk.h, zk_desc.h */
    size_t nc = read_out("o/zk.c", c, sizeof c - 1), nh = read_out("o/zk.h", h, sizeof h - 1);
    c[nc] = h[nh] = '\0';
    assert_non_null(strstr(h, "#define zk_DIRECT 0"));
    assert_non_null(strstr(h, "#define zk_COMPLEX 1"));
    assert_non_null(strstr(h, "const double _Complex *alpha"));
    assert_null(strstr(c, "zk_direct"));
    assert_non_null(strstr(c, "_mm256_addsub_pd("));
    assert_int_equal(run(ARGS("--machine", "m.yaml", "--type", "c32", "--explain")), 0);
    assert_non_null(strstr(out, "c32 "));
    assert_non_null(strstr(out, "complex strategy: split re/im broadcast"));
}

/* Rank-G types: refused where the instruction set has no spelling of
 * them or the machine file lacks the extension (naming it), and with the
 * options that make no sense for them; else packed kernels only, the
 * header giving the group and the operand types. */
static void rank_g_types(void **state)
{
    (void)state;
    static char c[1 << 18], h[1 << 14];
    static char text[1 << 15], no_vnni[1 << 15];
    char spr[2048];
    snprintf(spr, sizeof spr, "%s/sapphirerapids.yaml", MACHINES_DIR);
    bad(good, ARGS("-o", "o", "--type", "bf16"),
        "m.yaml:3: extensions: no bf16 multiply-add in the avx2 instruction set", NULL);
    FILE *f = fopen(spr, "r");
    assert_non_null(f);
    text[fread(text, 1, sizeof text - 1, f)] = '\0';
    fclose(f);
    char *cut = strstr(text, ", avx512_vnni,");   /* the file without the extension */
    assert_non_null(cut);
    snprintf(no_vnni, sizeof no_vnni, "%.*s%s", (int)(cut - text), text, cut + strlen(", avx512_vnni"));
    bad(no_vnni, ARGS("-o", "o", "--type", "u8s8s32"),
        "m.yaml:", "extensions: --type u8s8s32 needs avx512_vnni, which the file does not list");
    bad(NULL, ARGS("-o", "o", "--machine", spr, "--type", "bf16", "--small-tile"),
        "--small-tile: no small tile for complex or bf16 kernels", NULL);
    bad(NULL, ARGS("-o", "o", "--machine", spr, "--type", "bf16", "--blis"),
        "--blis: BLIS has no bf16 micro-kernels", NULL);
    clear_outputs();
    assert_int_equal(run(ARGS("--machine", spr, "-o", "o", "--type", "u8s8s32", "--name", "ik")), 0);
    assert_int_equal(entries("o"), 3);              /* ik.c, ik.h, ik_desc.h */
    size_t nc = read_out("o/ik.c", c, sizeof c - 1), nh = read_out("o/ik.h", h, sizeof h - 1);
    c[nc] = h[nh] = '\0';
    assert_non_null(strstr(h, "#define ik_KGROUP 4"));
    assert_non_null(strstr(h, "#define ik_DIRECT 0"));
    assert_non_null(strstr(h, "const int32_t *alpha, const uint8_t *a"));
    assert_non_null(strstr(h, "const int8_t *b, const int32_t *beta, int32_t *c"));
    assert_non_null(strstr(c, "_mm512_dpbusd_epi32("));
    assert_non_null(strstr(c, "k = (k + 3) / 4;"));
    assert_int_equal(run(ARGS("--machine", spr, "--type", "bf16", "--print-cflags")), 0);
    assert_string_equal(out, "-mavx512f -mfma -mavx512bf16 -mamx-tile -mamx-bf16\n");
    assert_int_equal(run(ARGS("--machine", spr, "--type", "bf16", "--explain")), 0);
    assert_non_null(strstr(out, "rank-32 multiply-add: tdp_bf16"));
    assert_int_equal(run(ARGS("--machine", spr, "--type", "bf16", "--b-strategy", "scalar-broadcast",
                              "--explain")), 0);
    assert_non_null(strstr(out, "rank-2 multiply-add: vdot_bf16"));
    /* AMX: s8u8s32 on tiles, B (the uint8 rows) 64 k steps a group, A in quads */
    clear_outputs();
    assert_int_equal(run(ARGS("--machine", spr, "-o", "o", "--type", "s8u8s32", "--name", "tk")), 0);
    nc = read_out("o/tk.c", c, sizeof c - 1), nh = read_out("o/tk.h", h, sizeof h - 1);
    c[nc] = h[nh] = '\0';
    assert_non_null(strstr(h, "#define tk_MR 32"));
    assert_non_null(strstr(h, "#define tk_NR 32"));
    assert_non_null(strstr(h, "#define tk_KGROUP 64"));
    assert_non_null(strstr(h, "#define tk_KGROUP_A 4"));
    assert_non_null(strstr(c, "k = (k + 63) / 64;"));
    assert_non_null(strstr(c, "_tile_loadconfig(cfg_);"));
    assert_non_null(strstr(c, "_tile_loadd(5, ap + 0, 128);"));   /* A: a row stride of MR quads */
    assert_non_null(strstr(c, "_tile_loadd(4, bp + 0, 64);"));    /* B: 64 bytes a column */
    assert_non_null(strstr(c, "_tile_dpbusd(0, 4, 5);"));
    assert_non_null(strstr(c, "_tile_stored(3, tile_, 64);"));
    /* without amx_int8 the type takes the dot products; the tiles are refused by name */
    char no_amx[1 << 15];
    cut = strstr(text, ", amx_int8");
    assert_non_null(cut);
    snprintf(no_amx, sizeof no_amx, "%.*s%s", (int)(cut - text), text, cut + strlen(", amx_int8"));
    write_file("m.yaml", no_amx);
    assert_int_equal(run(ARGS("--machine", "m.yaml", "--type", "s8u8s32", "--explain")), 0);
    assert_non_null(strstr(out, "rank-4 multiply-add: vdot_i8"));
    bad(no_amx, ARGS("-o", "o", "--type", "s8u8s32", "--b-strategy", "outer-product"),
        "outer-product needs extension amx_int8, which the machine file does not list", NULL);
}

/* TEXT with the first FROM cut out, into OUT. */
static void cut_text(char *out, size_t size, const char *text, const char *from)
{
    const char *at = strstr(text, from);
    assert_non_null(at);
    snprintf(out, size, "%.*s%s", (int)(at - text), text, at + strlen(from));
}

/* Rank-G types on POWER and AArch64: POWER9 (VSX) has no spelling of
 * them; an Arm file lacking bf16 or i8mm is refused naming what is
 * missing; POWER10 hands xvi8ger4 B first (its signed operand) and stores
 * the transposed tile down C's columns; the SVE kernels add the
 * extension to -march. */
static void rank_g_power_arm(void **state)
{
    (void)state;
    static char c[1 << 18], text[1 << 15], cut[1 << 15];
    char p9[2048], p10[2048], v1[2048];
    snprintf(p9, sizeof p9, "%s/power9.yaml", MACHINES_DIR);
    snprintf(p10, sizeof p10, "%s/power10.yaml", MACHINES_DIR);
    snprintf(v1, sizeof v1, "%s/neoverse-v1.yaml", MACHINES_DIR);
    bad(NULL, ARGS("-o", "o", "--machine", p9, "--type", "u8s8s32"),
        "power9.yaml:", "extensions: no u8s8s32 multiply-add in the vsx instruction set");
    FILE *f = fopen(v1, "r");
    assert_non_null(f);
    text[fread(text, 1, sizeof text - 1, f)] = '\0';
    fclose(f);
    cut_text(cut, sizeof cut, text, ", i8mm");
    bad(cut, ARGS("-o", "o", "--type", "u8s8s32"),
        "m.yaml:", "extensions: --type u8s8s32 needs i8mm, which the file does not list");
    cut_text(cut, sizeof cut, text, ", bf16");
    bad(cut, ARGS("-o", "o", "--type", "bf16"),
        "m.yaml:", "extensions: --type bf16 needs bf16, which the file does not list");
    clear_outputs();
    assert_int_equal(run(ARGS("--machine", p10, "-o", "o", "--type", "u8s8s32", "--name", "pk")), 0);
    c[read_out("o/pk.c", c, sizeof c - 1)] = '\0';
    assert_non_null(strstr(c, "__builtin_mma_xvi8ger4pp(&acc0, (__vector unsigned char)vs3, "
                              "(__vector unsigned char)vs0);"));   /* B (vs3) first */
    assert_non_null(strstr(c, "vec_xst(acc0_v[1], 0, c + 0 + 1 * cs_c);"));   /* column 1 */
    assert_int_equal(run(ARGS("--machine", v1, "--type", "u8s8s32", "--print-cflags")), 0);
    assert_string_equal(out, "-march=armv8.2-a+sve -msve-vector-bits=256 -fno-schedule-insns "
                             "-march=armv8.2-a+sve+i8mm\n");
    /* GCC's pre-allocation scheduler off for out-of-order cores; for
     * in-order ones both schedulers and the ldp peephole: the emitted
     * order runs */
    char a55[2048];
    snprintf(a55, sizeof a55, "%s/cortex-a55.yaml", MACHINES_DIR);
    assert_int_equal(run(ARGS("--machine", a55, "--print-cflags")), 0);
    assert_string_equal(out, "-march=armv8-a -fno-schedule-insns -fno-schedule-insns2 "
                             "-fno-peephole2\n");
    /* clang's own switches: its load/store optimizer pairs the q loads;
     * GCC's (which clang rejects or ignores) are not passed to it */
    assert_int_equal(run(ARGS("--machine", a55, "--compiler", "clang", "--print-cflags")), 0);
    assert_string_equal(out, "-march=armv8-a -mllvm -aarch64-enable-ldst-opt=false\n");
    assert_int_equal(run(ARGS("--machine", v1, "--compiler", "clang", "--print-cflags")), 0);
    assert_string_equal(out, "-march=armv8.2-a+sve -msve-vector-bits=256\n");
    /* the kernel file names both compilers' flags; the .h and the runtime's
     * descriptor those of --compiler, which the regenerate line repeats */
    clear_outputs();
    assert_int_equal(run(ARGS("--machine", a55, "-o", "o", "--name", "a55", "--compiler", "clang")), 0);
    c[read_out("o/a55.c", c, sizeof c - 1)] = '\0';
    assert_non_null(strstr(c, " * Compile with: gcc -O2 -march=armv8-a -fno-schedule-insns "
                              "-fno-schedule-insns2 -fno-peephole2\n"
                              " *           or: clang -O2 -march=armv8-a -mllvm "
                              "-aarch64-enable-ldst-opt=false\n"));
    assert_non_null(strstr(c, "--compiler clang"));
    c[read_out("o/a55_desc.h", c, sizeof c - 1)] = '\0';
    assert_non_null(strstr(c, "_DESC_CFLAGS \"-march=armv8-a -mllvm -aarch64-enable-ldst-opt=false\""));
    /* in order: nothing moved up for no cycle, no unrolling only to rotate, C
     * fetched before the loop (c_in_loop: false); --unroll still unrolls */
    assert_int_equal(run(ARGS("--machine", a55, "--type", "f32", "--explain")), 0);
    assert_non_null(strstr(out, "moved up j = 0,"));
    assert_non_null(strstr(out, "unroll factor UF = 1\n"));
    clear_outputs();
    assert_int_equal(run(ARGS("--machine", a55, "-o", "o", "--name", "a55")), 0);
    c[read_out("o/a55.c", c, sizeof c - 1)] = '\0';
    assert_null(strstr(c, "if (pf_left > 0)"));
    assert_non_null(strstr(c, "for (int64_t pf_left = rs_c == 1 ? n : m; pf_left > 0; pf_left--)"));
    assert_int_equal(run(ARGS("--machine", a55, "--unroll", "4", "--explain")), 0);
    assert_non_null(strstr(out, "unroll factor UF = 4\n"));
    /* bf16 on the V1: BFMMLA does twice BFDOT's multiply-adds a cycle, so
     * the shape choice takes it; B first, so each 64-bit half of a tile is
     * a column of C, gathered by uzp and stored on half the lanes */
    assert_int_equal(run(ARGS("--machine", v1, "--type", "bf16", "--explain")), 0);
    assert_non_null(strstr(out, "rank-4 multiply-add: vmmla_bf16, 4 k steps"));
    assert_non_null(strstr(out, "B strategy outer-product"));
    assert_int_equal(run(ARGS("--machine", v1, "--type", "bf16", "--b-strategy",
                              "vector-broadcast", "--explain")), 0);
    assert_non_null(strstr(out, "rank-2 multiply-add: vdot_bf16"));
    clear_outputs();
    assert_int_equal(run(ARGS("--machine", v1, "--type", "bf16", "-o", "o", "--name", "bm")), 0);
    c[read_out("o/bm.c", c, sizeof c - 1)] = '\0';
    assert_non_null(strstr(c, "svbfmmla_f32(z0, svreinterpret_bf16_f32(z"));
    assert_non_null(strstr(c, "svuzp1_u64(svreinterpret_u64_f32(z0)"));
    assert_non_null(strstr(c, "svst1_f32(svwhilelt_b32(0, (int32_t)(svcntw() / 2)), c + 0 + 0 * cs_c, "));
    static char h[1 << 14];
    h[read_out("o/bm.h", h, sizeof h - 1)] = '\0';
    assert_non_null(strstr(h, "#define bm_KGROUP 4"));
    h[read_out("o/bm_desc.h", h, sizeof h - 1)] = '\0';
    assert_non_null(strstr(h, ".kg = 4"));
    /* USMMLA takes the unsigned operand first: s8u8s32's B, not u8s8s32's A */
    assert_int_equal(run(ARGS("--machine", v1, "--type", "s8u8s32", "--b-strategy",
                              "outer-product", "--explain")), 0);
    assert_non_null(strstr(out, "rank-8 multiply-add: vmmla_i8, 8 k steps"));
    assert_int_equal(run(ARGS("--machine", v1, "--type", "u8s8s32", "--b-strategy",
                              "outer-product", "--explain")), 2);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/gemmgen-cli-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(malformed_yaml),
        cmocka_unit_test(incomplete_yaml),
        cmocka_unit_test(unknown_isa),
        cmocka_unit_test(impossible_registers),
        cmocka_unit_test(bad_sizes),
        cmocka_unit_test(bad_options),
        cmocka_unit_test(machine_by_name),
        cmocka_unit_test(long_outdir),
        cmocka_unit_test(good_and_deterministic),
        cmocka_unit_test(explain_writes_nothing),
        cmocka_unit_test(cflags_file),
        cmocka_unit_test(small_tile_absent_or_given),
        cmocka_unit_test(lone_mr_names_option),
        cmocka_unit_test(missing_class_default_shape),
        cmocka_unit_test(unroll_honoured_or_refused),
        cmocka_unit_test(machine_unroll_floor),
        cmocka_unit_test(uops_wider_than_dispatch),
        cmocka_unit_test(complex_refused),
        cmocka_unit_test(complex_good),
        cmocka_unit_test(rank_g_types),
        cmocka_unit_test(rank_g_power_arm),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
