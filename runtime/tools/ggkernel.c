/* ggkernel: build-time step that turns one machine into a kernel set of
 * libgemmgen (run by runtime/meson.build, once per -Dmachine entry):
 *
 *   ggkernel --gemmgen GEMMGEN --machine host|FILE.yaml --name M
 *            --outdir DIR -- CC [CFLAGS...]
 *
 * 1. runs `gemmgen [--machine FILE] --type f64|f32 --name gg_M_f64|f32 -o DIR`;
 * 2. compiles each DIR/gg_M_T.c with CC CFLAGS plus the flags its header
 *    asks for (its `/ * cflags: ... * /` line) into DIR/gg_M_T.o; doing this
 *    here, not in Meson, is what lets those flags be known only at build time;
 * 3. writes DIR/gg_M_set.c, the registry entry: both kernels, MR/NR/ROW_PREF
 *    from the headers, the CPU features the cflags imply (for run-time
 *    dispatch) and the machine's caches (for the blocking).
 * --arg X passes X on to gemmgen (repeatable); with --optional a kernel
 * gemmgen refuses (e.g. an --unroll it cannot honour) leaves an empty slot
 * (MR = 0, fn = NULL) instead of failing the build.
 * --small adds the slots gg_M_f64s and gg_M_f32s: the kernels of the
 * machine's small_tile (`gemmgen --small-tile`), empty where it names none.
 * --packed-only compiles each kernel file with -DGEMMGEN_PACKED_ONLY and
 * sets only the packed kernel in its slot (direct, stream, edge and tail
 * kernels stay NULL): for kernels that are timed alone (gemmbench's
 * ablation), never run by the GEMM, in half the compile time.
 * For `host` the YAML is the one `gemmgen --print-machine` names; when that
 * fails the set says "caches unknown" and the runtime asks the CPU. */
#define _POSIX_C_SOURCE 200809L   /* popen, fork */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "yaml_caches.h"

enum { MAX_ARGS = 8 };
struct opts {
    const char *gemmgen, *machine, *name, *outdir;
    const char *args[MAX_ARGS];  /* --arg: passed on to gemmgen */
    int nargs, optional;         /* --optional: a refusal gives an empty slot */
    int small;                   /* --small: also the machine's small_tile kernels */
    int packed_only;             /* --packed-only: the packed kernels alone */
    char **cc; int ncc;
};

static void die(const char *what, const char *arg)
{
    fprintf(stderr, "ggkernel: %s%s%s\n", what, arg ? ": " : "", arg ? arg : "");
    exit(1);
}

/* Runs argv; its stderr goes to errpath when given. Returns the exit code. */
static int run_status(char **argv, const char *errpath)
{
    pid_t pid = fork();
    if (pid < 0) die("fork failed", NULL);
    if (pid == 0) {
        if (errpath && !freopen(errpath, "w", stderr)) _exit(126);
        execv(argv[0], argv);
        execvp(argv[0], argv);
        perror(argv[0]);
        _exit(127);
    }
    int st;
    if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st)) return -1;
    return WEXITSTATUS(st);
}

static void run(char **argv)
{
    if (run_status(argv, NULL) != 0) {
        fprintf(stderr, "ggkernel: command failed:");
        for (char **a = argv; *a; a++) fprintf(stderr, " %s", *a);
        die("", NULL);
    }
}

static struct opts parse_args(int argc, char **argv)
{
    struct opts o = {0};
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--") != 0; i += 2) {
        if (!strcmp(argv[i], "--optional")) { o.optional = 1; i--; continue; }
        if (!strcmp(argv[i], "--small")) { o.small = 1; i--; continue; }
        if (!strcmp(argv[i], "--packed-only")) { o.packed_only = 1; i--; continue; }
        if (i + 1 >= argc) die("option needs a value", argv[i]);
        if (!strcmp(argv[i], "--gemmgen")) o.gemmgen = argv[i + 1];
        else if (!strcmp(argv[i], "--machine")) o.machine = argv[i + 1];
        else if (!strcmp(argv[i], "--name")) o.name = argv[i + 1];
        else if (!strcmp(argv[i], "--outdir")) o.outdir = argv[i + 1];
        else if (!strcmp(argv[i], "--arg")) {
            if (o.nargs == MAX_ARGS) die("too many --arg", argv[i + 1]);
            o.args[o.nargs++] = argv[i + 1];
        }
        else die("unknown option", argv[i]);
    }
    if (i >= argc || strcmp(argv[i], "--") || !o.gemmgen || !o.machine || !o.name || !o.outdir)
        die("usage: ggkernel --gemmgen G --machine host|FILE --name M --outdir D "
            "[--arg GEMMGEN_ARG]... [--optional] [--small] [--packed-only] -- CC...", NULL);
    o.cc = argv + i + 1;
    o.ncc = argc - i - 1;
    if (o.ncc < 1) die("no compiler given", NULL);
    return o;
}

/* An empty slot (a kernel gemmgen refused, or a small_tile the machine
 * does not name): a header quoting why and an empty source, so the
 * outputs the build expects exist. */
static void write_stub(const struct opts *o, const char *kname, const char *why)
{
    char path[4096], msg[512];
    snprintf(msg, sizeof msg, "%s", why);
    msg[strcspn(msg, "\r\n")] = 0;
    for (char *p = msg; *p; p++)
        if (*p == '*' || *p == '"' || *p == '\\') *p = '\'';
    snprintf(path, sizeof path, "%s/%s.h", o->outdir, kname);
    FILE *f = fopen(path, "w");
    if (!f) die("cannot write", path);
    fprintf(f, "/* %s: no kernel: %s */\n#define %s_REFUSED \"%s\"\n", kname, msg, kname, msg);
    if (fclose(f)) die("cannot write", path);
    snprintf(path, sizeof path, "%s/%s.c", o->outdir, kname);
    f = fopen(path, "w");
    if (!f) die("cannot write", path);
    fprintf(f, "/* %s: no kernel */\ntypedef int %s_refused;\n", kname, kname);
    if (fclose(f)) die("cannot write", path);
}

/* The first line cmd prints (newline cut) into out; 0 when it cannot run,
 * prints nothing or fails. */
static int first_line(const char *cmd, char *out, size_t cap)
{
    out[0] = 0;
    FILE *p = popen(cmd, "r");
    if (!p) return 0;
    int ok = fgets(out, (int)cap, p) != NULL;
    if (pclose(p) != 0) ok = 0;
    out[strcspn(out, "\r\n")] = 0;
    return ok;
}

/* Whether the machine names a small_tile for type (`gemmgen
 * --print-small-tile` prints "MR NR MAXK", or "none"); where it names one,
 * *max_k gets MAXK, the deepest k the runtime gives it (0: its default),
 * which the machine states once for both types: a type without a tile
 * leaves it as the other set it. */
static int has_small_tile(const struct opts *o, const char *type, int *max_k)
{
    char cmd[4400], line[64];
    int file = strcmp(o->machine, "host") != 0;
    snprintf(cmd, sizeof cmd, "'%s' %s%s%s --type %s --print-small-tile", o->gemmgen,
             file ? "--machine '" : "", file ? o->machine : "", file ? "'" : "", type);
    if (!first_line(cmd, line, sizeof line)) die("command failed", cmd);
    int mr, nr, mk;
    if (sscanf(line, "%d %d %d", &mr, &nr, &mk) == 3) *max_k = mk;
    return strcmp(line, "none") != 0;
}

/* Returns 1 when gemmgen wrote the kernel (small: the machine's
 * small_tile). With --optional a refusal leaves a stub (an empty .c and a
 * header saying why) and returns 0. */
static int generate(const struct opts *o, const char *type, const char *kname, int small)
{
    char *argv[16 + MAX_ARGS], errpath[4096], msg[512] = "";
    int n = 0;
    argv[n++] = (char *)o->gemmgen;
    if (strcmp(o->machine, "host")) { argv[n++] = "--machine"; argv[n++] = (char *)o->machine; }
    argv[n++] = "--type"; argv[n++] = (char *)type;
    if (small) argv[n++] = "--small-tile";
    argv[n++] = "--name"; argv[n++] = (char *)kname;
    for (int i = 0; i < o->nargs; i++) argv[n++] = (char *)o->args[i];
    argv[n++] = "-o"; argv[n++] = (char *)o->outdir;
    argv[n] = NULL;
    if (!o->optional) { run(argv); return 1; }
    snprintf(errpath, sizeof errpath, "%s/%s.refused", o->outdir, kname);
    if (run_status(argv, errpath) == 0) { remove(errpath); return 1; }
    FILE *e = fopen(errpath, "r");
    if (e) {
        if (!fgets(msg, sizeof msg, e)) msg[0] = 0;
        fclose(e);
    }
    write_stub(o, kname, msg);
    remove(errpath);
    return 0;
}

/* The text after "cflags:" on the header's comment line, without the "* /". */
static void header_cflags(const char *hpath, char *out, size_t cap)
{
    FILE *f = fopen(hpath, "r");
    if (!f) die("cannot read", hpath);
    char line[1024];
    out[0] = 0;
    while (fgets(line, sizeof line, f)) {
        char *p = strstr(line, "cflags:");
        if (!p) continue;
        p += 7;
        char *end = strstr(p, "*/");
        if (end) *end = 0;
        snprintf(out, cap, "%s", p);
        break;
    }
    fclose(f);
}

/* ISA flags of the kernels' cflags: the GG_CPU_* bit a CPU needs to run
 * them ("" for the target's baseline) and how specific that is (the
 * supported set of highest rank wins at run time). SVE kernels are built
 * for one vector length, so the length is the feature. Unknown ISA flags
 * are refused: the dispatcher could not tell which CPUs may run them. */
static const struct isa_flag { const char *flag, *feature; int rank; } isa_flags[] = {
    {"-msse2", "GG_CPU_SSE2", 0}, {"-mavx", "GG_CPU_AVX", 1}, {"-mavx2", "GG_CPU_AVX2", 2},
    {"-mfma", "GG_CPU_FMA", 2}, {"-mavx512f", "GG_CPU_AVX512F", 3},
    {"-mavx512dq", "GG_CPU_AVX512DQ", 3}, {"-mavx512bw", "GG_CPU_AVX512BW", 3},
    {"-mavx512vl", "GG_CPU_AVX512VL", 3},
    {"-march=armv8-a", "", 0}, {"-march=armv8.2-a+sve", "GG_CPU_SVE", 1},
    {"-msve-vector-bits=256", "GG_CPU_SVE256", 2}, {"-msve-vector-bits=512", "GG_CPU_SVE512", 3},
    {"-mcpu=power9", "GG_CPU_PWR9", 1}, {"-mcpu=power10", "GG_CPU_PWR10", 2},
};

static const struct isa_flag *isa_flag_of(const char *flag)
{
    for (size_t i = 0; i < sizeof isa_flags / sizeof isa_flags[0]; i++)
        if (!strcmp(flag, isa_flags[i].flag)) return &isa_flags[i];
    if (!strncmp(flag, "-m", 2))
        die("cflag names an ISA ggkernel does not know", flag);
    return NULL;
}

/* Is NAME one of the " | "-separated names in feats (not just a prefix of
 * one: GG_CPU_SVE of GG_CPU_SVE256)? */
static int listed(const char *feats, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = strstr(feats, name); p; p = strstr(p + 1, name))
        if ((p == feats || p[-1] == ' ') && (p[len] == '\0' || p[len] == ' ')) return 1;
    return 0;
}

/* Compiles DIR/K.c into DIR/K.o; appends the features to feats and raises
 * rank to the most specific flag's. */
static void compile(const struct opts *o, const char *kname, char *feats, size_t cap, int *rank)
{
    char path[4096], src[4096], obj[4096], flags[1024];
    snprintf(path, sizeof path, "%s/%s.h", o->outdir, kname);
    snprintf(src, sizeof src, "%s/%s.c", o->outdir, kname);
    snprintf(obj, sizeof obj, "%s/%s.o", o->outdir, kname);
    header_cflags(path, flags, sizeof flags);
    char **argv = calloc((size_t)o->ncc + 64, sizeof *argv);
    int n = 0;
    for (int i = 0; i < o->ncc; i++) argv[n++] = o->cc[i];
    for (char *t = strtok(flags, " \t\n"); t && n < o->ncc + 58; t = strtok(NULL, " \t\n")) {
        argv[n++] = t;
        const struct isa_flag *f = isa_flag_of(t);
        if (f && f->rank + 1 > *rank) *rank = f->rank + 1;
        if (f && f->feature[0] && !listed(feats, f->feature)) {
            strncat(feats, feats[0] ? " | " : "", cap - strlen(feats) - 1);
            strncat(feats, f->feature, cap - strlen(feats) - 1);
        }
    }
    if (o->packed_only) argv[n++] = "-DGEMMGEN_PACKED_ONLY";
    argv[n++] = "-c"; argv[n++] = src; argv[n++] = "-o"; argv[n++] = obj;
    argv[n] = NULL;
    run(argv);
    free(argv);
}

/* For host: the YAML gemmgen detects (first line of --print-machine). */
static int host_yaml(const struct opts *o, char *out, size_t cap)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "'%s' --print-machine 2>/dev/null", o->gemmgen);
    return first_line(cmd, out, cap) && out[0];
}

/* The four slots: each type's kernel, then its small_tile kernel (--small). */
enum { SLOTS = 4 };
static const char *const slot_type[SLOTS] = { "f64", "f32", "f64", "f32" };
static const char *const slot_kname[SLOTS] = { "f64", "f32", "f64s", "f32s" };
static const char *const slot_field[SLOTS] = { "d", "s", "d_small", "s_small" };
static const char slot_edge[SLOTS] = { 'd', 's', 'd', 's' };   /* struct gg_Xedge */

/* The fields of slot t's struct gg_ukernel: the kernel's, or with rows
 * its _rows view (NAME_direct_rows and the edges' _rows, B read by rows,
 * no row tails or stream: those read B down its columns). */
static void write_fields(FILE *f, const char *n, int t, int rows)
{
    const char *k = slot_kname[t], *r = rows ? "_rows" : "";
    fprintf(f, "           .fn = (void *)gg_%s_%s, .direct = (void *)gg_%s_%s_direct%s,\n", n, k, n, k, r);
    if (rows) fprintf(f, "           .direct_b_cols = 0,\n");
    else {
        fprintf(f, "#if gg_%s_%s_STREAM\n           .stream = (void *)gg_%s_%s_stream,\n#endif\n", n, k, n, k);
        fprintf(f, "           .direct_b_cols = gg_%s_%s_DIRECT_B_COLS,\n", n, k);
    }
    fprintf(f, "           .b_l1_percent = gg_%s_%s_B_L1_PERCENT,\n", n, k);
    fprintf(f, "           .narrow_k = gg_%s_%s_NARROW_K,\n", n, k);
    fprintf(f, "#if gg_%s_%s_NEDGES\n           .edges = %sedges_%s, .nedges = gg_%s_%s_NEDGES,\n#endif\n",
            n, k, rows ? "r" : "", k, n, k);
    fprintf(f, "#if gg_%s_%s_NPEDGES\n           .pedges = pedges_%s, .npedges = gg_%s_%s_NPEDGES,\n#endif\n",
            n, k, k, n, k);
    if (rows) return;
    fprintf(f, "#if gg_%s_%s_NTAILS\n           .tails = { gg_%s_%s_TAIL_LIST },\n#endif\n", n, k, n, k);
    fprintf(f, "#if gg_%s_%s_DIRECT_ROWS\n           .b_rows = &rows_%s,\n#endif\n", n, k, k);
}

static void write_head(FILE *f, const char *n, int t, const char *indent)
{
    const char *k = slot_kname[t];
    fprintf(f, "%s{ .mr = gg_%s_%s_MR, .nr = gg_%s_%s_NR, .row_pref = gg_%s_%s_ROW_PREF,\n",
            indent, n, k, n, k, n, k);
}

/* Slot t of the set: K = gg_NAME_<kname> names the kernel, its tables
 * end in _<kname>. */
static void write_slot(FILE *f, const char *n, int t, int packed_only)
{
    fprintf(f, "    .%s = ", slot_field[t]);
    write_head(f, n, t, "");
    if (packed_only) {
        fprintf(f, "           .fn = (void *)gg_%s_%s },\n", n, slot_kname[t]);
        return;
    }
    write_fields(f, n, t, 0);
    fprintf(f, "    },\n");
}

/* The edge kernels' tables of slot t. The row tails go in the slot
 * itself (GG_TAILS entries), so their count is checked here. */
static void write_tables(FILE *f, const char *n, int t)
{
    const char *k = slot_kname[t];
    char c = slot_edge[t];
    fprintf(f, "#if gg_%s_%s_NEDGES\nstatic const struct gg_%cedge edges_%s[] = { gg_%s_%s_EDGE_LIST };\n#endif\n",
            n, k, c, k, n, k);
    fprintf(f, "#if gg_%s_%s_NPEDGES\nstatic const struct gg_%cpedge pedges_%s[] = { gg_%s_%s_PEDGE_LIST };\n#endif\n",
            n, k, c, k, n, k);
    fprintf(f, "_Static_assert(gg_%s_%s_NTAILS <= GG_TAILS, \"row tails: raise GG_TAILS\");\n", n, k);
    fprintf(f, "#if gg_%s_%s_DIRECT_ROWS\n", n, k);
    fprintf(f, "#if gg_%s_%s_NEDGES\nstatic const struct gg_%cedge redges_%s[] = { gg_%s_%s_ROW_EDGE_LIST };\n#endif\n",
            n, k, c, k, n, k);
    fprintf(f, "static const struct gg_ukernel rows_%s = ", k);
    write_head(f, n, t, "");
    write_fields(f, n, t, 1);
    fprintf(f, "};\n#endif\n");
}

/* made[t]: slot t has a kernel (else it stays zero: refused, absent or
 * not asked for). */
static void write_set(const struct opts *o, const char *feats, int rank,
                      const struct yaml_caches *yc, const int made[SLOTS], int small_max_k)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/gg_%s_set.c", o->outdir, o->name);
    FILE *f = fopen(path, "w");
    if (!f) die("cannot write", path);
    fprintf(f, "/* generated by ggkernel for machine %s: do not edit */\n", o->machine);
    fprintf(f, "#include \"gg_internal.h\"\n");
    for (int t = 0; t < SLOTS; t++)
        if (made[t]) {
            fprintf(f, "#include \"gg_%s_%s.h\"\n", o->name, slot_kname[t]);
            if (!o->packed_only) write_tables(f, o->name, t);
        }
    fprintf(f, "const struct gg_kernel_set gg_%s_set = {\n", o->name);
    fprintf(f, "    .name = \"%s\", .features = %s, .rank = %d, .caches_known = %d,\n",
            yc->name[0] ? yc->name : o->name, feats[0] ? feats : "0", rank, yc->known);
    fprintf(f, "    .caches = {");
    for (int l = 0; l < 3; l++)
        fprintf(f, " {%ld, %d, %d, %d}%s", yc->c[l].size, yc->c[l].line, yc->c[l].ways,
                yc->c[l].shared, l < 2 ? "," : "");
    fprintf(f, " },\n");
    for (int t = 0; t < SLOTS; t++)
        if (made[t]) write_slot(f, o->name, t, o->packed_only);
    if (small_max_k) fprintf(f, "    .small_max_k = %d,\n", small_max_k);
    fprintf(f, "};\n");
    if (fclose(f)) die("cannot write", path);
}

int main(int argc, char **argv)
{
    struct opts o = parse_args(argc, argv);
    char feats[512] = "", kname[256], yaml[4096];
    int made[SLOTS] = { 0 }, rank = 1, max_k = 0;   /* rank 1: above the portable set (0) */
    for (int t = 0; t < (o.small ? SLOTS : 2); t++) {
        snprintf(kname, sizeof kname, "gg_%s_%s", o.name, slot_kname[t]);
        if (t < 2 || has_small_tile(&o, slot_type[t], &max_k))
            made[t] = generate(&o, slot_type[t], kname, t >= 2);
        else
            write_stub(&o, kname, "the machine names no small_tile");
        compile(&o, kname, feats, sizeof feats, &rank);
    }
    struct yaml_caches yc = {0};
    if (strcmp(o.machine, "host"))
        yaml_caches_read(o.machine, &yc);
    else if (host_yaml(&o, yaml, sizeof yaml))
        yaml_caches_read(yaml, &yc);
    write_set(&o, feats, rank, &yc, made, max_k);
    return 0;
}
