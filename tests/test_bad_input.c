/* test_bad_input.c: bad input through the real gemmgen binary exits with
 * status 2, names the file, line and field (or the option), and leaves
 * the output directory empty; a good run writes exactly NAME.c, NAME.h and
 * NAME_desc.h, byte-identical when repeated. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char dir[256], out[300];

static const char good[] =
    "name: t\nisa: x86\nextensions: [avx, avx2, fma]\nvector_bits: 256\nvector_registers: 16\n"
    "dispatch: {width: 4, order: out-of-order}\nunits: {load: 2, fma: 2, int: 3, shuf: 1}\n"
    "instructions:\n  vload: {latency: 5, unit: load}\n  vbroadcast: {latency: 5, unit: load}\n"
    "  vshuffle: {latency: 1, unit: shuf}\n  vfma: {latency: 5, unit: fma}\n"
    "  vfmul: {latency: 5, unit: fma}\n  vfadd: {latency: 3, unit: fma}\n"
    "  iadd: {latency: 1, unit: int}\n  prefetch: {latency: 0, unit: load}\n"
    "caches:\n  l1d: {size: 32K, line: 64, ways: 8}\n  l2: {size: 256K, line: 64, ways: 8}\n";

static const char neon[] =
    "name: t\nisa: aarch64\nextensions: [neon]\nvector_bits: 128\nvector_registers: 32\n"
    "dispatch: {width: 3, order: out-of-order}\nunits: {load: 2, v: 2, int: 3}\n"
    "instructions:\n  vload: {latency: 5, unit: load}\n  vbroadcast: {latency: 5, unit: load}\n"
    "  vfma: {latency: 4, unit: v}\n  vfma_lane: {latency: 4, unit: v}\n"
    "  vfmul: {latency: 3, unit: v}\n  vfadd: {latency: 2, unit: v}\n"
    "  vcmla: {latency: 4, unit: v}\n  iadd: {latency: 1, unit: int}\n"
    "  prefetch: {latency: 0, unit: load}\n"
    "caches:\n  l1d: {size: 64K, line: 64, ways: 4}\n  l2: {size: 1M, line: 64, ways: 8}\n";

static int files_in(const char *d)
{
    DIR *dd = opendir(d);
    int n = 0;
    if (!dd) return -1;
    for (struct dirent *e; (e = readdir(dd));) n += e->d_name[0] != '.';
    closedir(dd);
    return n;
}

static void clear_out(void)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir '%s'", out, out);
    assert_int_equal(system(cmd), 0);
}

/* Runs gemmgen with YAML text (NULL: no file) and extra args; returns the
 * exit status, stderr in err. */
static int run(const char *yaml, const char *args, char *err, size_t size)
{
    char path[300], cmd[2048];
    snprintf(path, sizeof path, "%s/m.yaml", dir);
    if (yaml) { FILE *f = fopen(path, "w"); fputs(yaml, f); fclose(f); }
    snprintf(cmd, sizeof cmd, "'%s' %s%s%s -o '%s' %s 2>'%s/err' >/dev/null", GEMMGEN_EXE,
             yaml ? "--machine '" : "", yaml ? path : "", yaml ? "'" : "", out, args, dir);
    int st = system(cmd);
    char ep[300];
    snprintf(ep, sizeof ep, "%s/err", dir);
    FILE *f = fopen(ep, "r");
    size_t n = fread(err, 1, size - 1, f);
    err[n] = '\0';
    fclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *replace(const char *orig, const char *from, const char *to)
{
    char text[4096];
    snprintf(text, sizeof text, "%s", orig);
    static char bufs[2][4096];   /* two, so replace(replace(..)) works */
    static int next;
    char *buf = bufs[next ^= 1];
    const char *p = strstr(text, from);
    assert_non_null(p);
    snprintf(buf, sizeof bufs[0], "%.*s%s%s", (int)(p - text), text, to, p + strlen(from));
    return buf;
}

/* expects exit 2, `want` in the message, nothing written */
static void bad(const char *yaml, const char *args, const char *want)
{
    char err[4096];
    clear_out();
    int st = run(yaml, args, err, sizeof err);
    if (st != 2 || !strstr(err, want)) fprintf(stderr, "status %d, message: %s(wanted '%s')\n", st, err, want);
    assert_int_equal(st, 2);
    assert_non_null(strstr(err, want));
    assert_int_equal(files_in(out), 0);
}

static void broken_yaml(void **state)
{
    (void)state;
    bad(replace(good, "vector_registers: 16\n", "vector_registers: 16\nbogus: 1\n"), "", "m.yaml:6: bogus: unknown key");
    bad(replace(good, "vfma: {latency: 5", "vfma: {latency: five"), "", "m.yaml:12: instructions.vfma.latency:");
    bad(replace(good, "units: {load: 2, fma: 2, int: 3, shuf: 1}\n", ""), "", "units: missing");
    bad(replace(good, "unit: shuf}", "unit: p9}"), "", "m.yaml:11: instructions.vshuffle.unit: unknown unit 'p9'");
    bad(replace(good, "isa: x86", "isa: sparc"), "", "m.yaml:2: isa: unknown value 'sparc'");
    bad(replace(good, "[avx, avx2, fma]", "[avx, neon]"), "", "m.yaml:3: extensions: 'neon' is not an extension of isa x86");
    bad(replace(good, "dispatch: {width: 4", "dispatch: {width: [4"), "", "m.yaml:");
    bad("", "", "m.yaml:1:");
    bad(replace(good, "size: 32K", "size: 32Q"), "", "m.yaml:18: caches.l1d.size:");
    bad(replace(good, "vector_bits: 256", "vector_bits: 200"), "", "m.yaml:4: vector_bits: must be a multiple of 128");
    /* without vfma the kernel falls back to mul+add, so vfmul must be there */
    bad(replace(replace(good, "  vfma: {latency: 5, unit: fma}\n", ""), "  vfmul: {latency: 5, unit: fma}\n", ""),
        "--b-strategy scalar-broadcast --mr 8 --nr 4", "m.yaml:8: instructions.vfmul: missing");
}

static void impossible_requests(void **state)
{
    (void)state;
    bad(good, "--mr 64 --nr 64", "needs at least");
    bad(good, "--max-regs 3", "no f64 micro-kernel");
    bad(good, "--mr 0", "--mr: '0' is not a whole number");
    bad(good, "--mr abc", "--mr: 'abc'");
    bad(good, "--mr 7 --nr 4", "MR=7 must be a multiple of 4");
    bad(good, "--frobnicate", "unknown or incomplete option");
    bad(good, "--type f16", "--type: unknown value 'f16'");
    bad(good, "--name 9lives", "--name: '9lives' is not a C identifier");
    bad(NULL, "--machine /nonexistent.yaml", "/nonexistent.yaml: cannot open");
    bad(replace(good, "caches:", "runtime: {small_tile: {f32: [8, 4]}}\ncaches:"),
        "--small-tile --type f32 --nr 6", "--small-tile: not together with --mr or --nr");
    bad(replace(good, "caches:", "runtime: {small_tile: {f64: [64, 64]}}\ncaches:"), "--small-tile",
        "m.yaml:17: runtime.small_tile.f64 [64, 64]: needs at least");
    bad(replace(good, "caches:", "small_tile: {f64: [8, 4]}\ncaches:"), "",
        "m.yaml:17: small_tile: belongs under runtime:");
    bad(replace(good, "caches:", "runtime: {narrow_panels: {f64: 0}}\ncaches:"), "",
        "m.yaml:17: runtime.narrow_panels.f64:");
    /* FCMLA timed on a NEON file without armv8.3-a's fcma: the file contradicts itself */
    bad(neon, "--type c64", "m.yaml:15: instructions.vcmla: timed, but extensions does not list fcma");
    bad(replace(neon, "[neon]", "[neon, fcma]"), "--type c32 --b-strategy vector-shuffle",
        "--b-strategy vector-shuffle: not a complex strategy");
}

/* `a: ` then n '[' and n ']' (deep) or n '[' alone (truncated): built
 * here, not committed. */
static char *nested(int n, bool close)
{
    char *s = malloc((size_t)(2 * n) + 8);
    assert_non_null(s);
    memcpy(s, "a: ", 3);
    memset(s + 3, '[', (size_t)n);
    if (close) memset(s + 3 + n, ']', (size_t)n);
    strcpy(s + 3 + n + (close ? n : 0), "\n");
    return s;
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Loading takes time linear in the file: depth and size are capped
 * before libyaml builds a tree (200 KB of brackets took 25 s when its
 * cost grew with the square of the depth). */
static void hostile_yaml(void **state)
{
    (void)state;
    char *deep = nested(100000, true), *big = nested(300000, false);
    double t0 = seconds();
    bad(deep, "", "m.yaml:1: yaml: nested more than 32 levels deep");
    bad(replace(good, "caches:", "x: {a: {b: {c: {d: {e: {f: {g: {h: {i: {j: {k: {l: {m: {n: {o: {p: "
                "{q: {r: {s: {t: {u: {v: {w: {x: {y: {z: {A: {B: {C: {D: {E: {F: 1}}}}}}}}}}}}}}}}"
                "}}}}}}}}}}}}}}}}\ncaches:"), "", "m.yaml:17: yaml: nested more than 32 levels deep");
    bad(big, "", "m.yaml:1: machine: the file is larger than 262144 bytes");
    double t = seconds() - t0;
    if (t > 10) fprintf(stderr, "three refusals took %.1f s\n", t);
    assert_true(t < 10);
    free(deep); free(big);
}

static void good_run_is_deterministic(void **state)
{
    (void)state;
    char err[4096], a[400], b[400], cmd[900];
    clear_out();
    assert_int_equal(run(good, "--name kk", err, sizeof err), 0);
    assert_int_equal(files_in(out), 3);
    snprintf(a, sizeof a, "%s/kk.c", out);
    snprintf(b, sizeof b, "%s/kk.first.c", dir);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", a, b);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(run(good, "--name kk", err, sizeof err), 0);
    assert_int_equal(files_in(out), 3);       /* no temporaries left */
    snprintf(cmd, sizeof cmd, "cmp -s '%s' '%s'", a, b);
    assert_int_equal(system(cmd), 0);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/gemmgen-bad-XXXXXX");
    if (!mkdtemp(dir)) return -1;
    snprintf(out, sizeof out, "%s/out", dir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(broken_yaml),
        cmocka_unit_test(impossible_requests),
        cmocka_unit_test(good_run_is_deterministic),
        cmocka_unit_test(hostile_yaml),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
