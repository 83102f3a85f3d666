/* ggkernel: build-time step that turns one machine into a kernel set of
 * libgemmgen (run by runtime/meson.build, once per -Dmachine entry):
 *
 *   ggkernel --gemmgen GEMMGEN --machine host|FILE.yaml --name M
 *            --outdir DIR -- CC [CFLAGS...]
 *
 * 1. runs `gemmgen [--machine FILE] --type f64|f32 --name gg_M_f64|f32
 *    --cflags-file -o DIR`: the kernel file, its header, its set
 *    descriptor (gg_M_T_desc.h) and the flags the file needs (gg_M_T.cflags);
 * 2. compiles each DIR/gg_M_T.c with CC CFLAGS @DIR/gg_M_T.cflags into
 *    DIR/gg_M_T.o; doing this here, not in Meson, is what lets those flags
 *    be known only at build time;
 * 3. writes DIR/gg_M_set.c, the registry entry: it includes the
 *    descriptors and composes one struct gg_kernel_set from them (kernels,
 *    CPU features, caches and runtime knobs all come from gemmgen).
 * --arg X passes X on to gemmgen (repeatable); with --optional a kernel
 * gemmgen refuses (e.g. an --unroll it cannot honour) leaves an empty slot
 * (MR = 0, fn = NULL) instead of failing the build.
 * --complex adds the slots gg_M_c64 and gg_M_c32 (the set's z and c), empty
 * where gemmgen has no complex kernel for the machine.
 * --lowp adds the slots gg_M_bf16 and gg_M_u8s8 (`--type bf16`, `--type
 * s8u8s32`: the set's bf16 and u8s8, with their CPU features apart from the
 * set's), empty where gemmgen refuses the type (exit 2: the machine lacks
 * the instructions, or this gemmgen does not know the type).
 * --small adds the slots gg_M_f64s and gg_M_f32s: the kernels of the
 * machine's runtime.small_tile (`gemmgen --small-tile`, which writes
 * nothing where the machine names none: the slot stays empty).
 * --packed-only compiles each kernel file with -DGEMMGEN_PACKED_ONLY and
 * sets only the packed kernel in its slot (direct, stream, edge and tail
 * kernels stay NULL): for kernels that are timed alone (gemmbench's
 * ablation), never run by the GEMM, in half the compile time.
 * For `host` gemmgen picks the machine file itself. */
#define _POSIX_C_SOURCE 200809L   /* fork */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { MAX_ARGS = 8 };
struct opts {
    const char *gemmgen, *machine, *name, *outdir;
    const char *args[MAX_ARGS];  /* --arg: passed on to gemmgen */
    int nargs, optional;         /* --optional: a refusal gives an empty slot */
    int small;                   /* --small: also the machine's small_tile kernels */
    int complex;                 /* --complex: also the complex kernels */
    int lowp;                    /* --lowp: also the bf16 and u8s8s32 kernels */
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
        if (!strcmp(argv[i], "--complex")) { o.complex = 1; i--; continue; }
        if (!strcmp(argv[i], "--lowp")) { o.lowp = 1; i--; continue; }
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
            "[--arg GEMMGEN_ARG]... [--optional] [--small] [--complex] [--lowp] [--packed-only] -- CC...", NULL);
    o.cc = argv + i + 1;
    o.ncc = argc - i - 1;
    if (o.ncc < 1) die("no compiler given", NULL);
    return o;
}

/* Any failure to write ends the build step. */
static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) == EOF) die("cannot write", path);
    if (fclose(f)) die("cannot write", path);
}

/* An empty slot (a kernel gemmgen refused, or a small_tile the machine
 * does not name): a header quoting why, an empty source and the
 * descriptor of an empty struct gg_ukernel, the outputs the build expects. */
static void write_stub(const struct opts *o, const char *kname, const char *why)
{
    char path[4096], msg[512], text[2048];
    snprintf(msg, sizeof msg, "%s", why);
    msg[strcspn(msg, "\r\n")] = 0;
    for (char *p = msg; *p; p++)
        if (*p == '*' || *p == '"' || *p == '\\') *p = '\'';
    snprintf(path, sizeof path, "%s/%s.h", o->outdir, kname);
    snprintf(text, sizeof text, "/* %s: no kernel: %s */\n#define %s_REFUSED \"%s\"\n", kname, msg, kname, msg);
    write_text(path, text);
    snprintf(path, sizeof path, "%s/%s.c", o->outdir, kname);
    snprintf(text, sizeof text, "/* %s: no kernel */\ntypedef int %s_refused;\n", kname, kname);
    write_text(path, text);
    snprintf(path, sizeof path, "%s/%s_desc.h", o->outdir, kname);
    snprintf(text, sizeof text, "/* %s_desc.h: no kernel */\n#define %s_DESC_UKERNEL { 0 }\n", kname, kname);
    write_text(path, text);
}

/* DIR/KNAME followed by ext. */
static char *out_path(char *buf, size_t cap, const struct opts *o, const char *kname, const char *ext)
{
    snprintf(buf, cap, "%s/%s%s", o->outdir, kname, ext);
    return buf;
}

static int exists(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f) fclose(f);
    return f != NULL;
}

/* How a refusal of gemmgen counts: a failure of the build, an empty slot
 * whatever the exit code, or an empty slot for exit 2 only (the usual
 * error for a type the machine cannot run). */
enum refusal { FAILS, EMPTY, EMPTY_ON_2 };

/* Returns 1 when gemmgen wrote the kernel (small: the machine's
 * small_tile). Where it wrote nothing (no small_tile for the type) or
 * refused as `refused` allows, a stub takes the kernel's place. */
static int generate(const struct opts *o, const char *type, const char *kname, int small,
                    enum refusal refused)
{
    char *argv[16 + MAX_ARGS], path[4096], errpath[4096], msg[512] = "";
    static const char *const ext[] = { ".c", ".h", "_desc.h", ".cflags" };
    for (int i = 0; i < 4; i++)      /* an earlier run's files: gemmgen may write none */
        remove(out_path(path, sizeof path, o, kname, ext[i]));
    int n = 0;
    argv[n++] = (char *)o->gemmgen;
    if (strcmp(o->machine, "host")) { argv[n++] = "--machine"; argv[n++] = (char *)o->machine; }
    argv[n++] = "--type"; argv[n++] = (char *)type;
    if (small) argv[n++] = "--small-tile";
    argv[n++] = "--name"; argv[n++] = (char *)kname;
    argv[n++] = "--cflags-file";
    for (int i = 0; i < o->nargs; i++) argv[n++] = (char *)o->args[i];
    argv[n++] = "-o"; argv[n++] = (char *)o->outdir;
    argv[n] = NULL;
    if (refused == FAILS) run(argv);
    else {
        out_path(errpath, sizeof errpath, o, kname, ".refused");
        int st = run_status(argv, errpath);
        if (st != 0 && refused == EMPTY_ON_2 && st != 2) {
            FILE *e = fopen(errpath, "r");
            if (e) {
                while (fgets(msg, sizeof msg, e)) fputs(msg, stderr);
                fclose(e);
            }
            die("gemmgen failed for", kname);
        }
        if (st != 0) {
            FILE *e = fopen(errpath, "r");
            if (e) {
                if (!fgets(msg, sizeof msg, e)) msg[0] = 0;
                fclose(e);
            }
        }
        remove(errpath);
    }
    if (exists(out_path(path, sizeof path, o, kname, ".c"))) return 1;
    write_stub(o, kname, msg[0] ? msg : small ? "the machine names no small_tile for the type"
                                              : "gemmgen wrote nothing");
    return 0;
}

/* Compiles DIR/K.c into DIR/K.o with the flags gemmgen wrote for it (a
 * stub has none). */
static void compile(const struct opts *o, const char *kname, int made)
{
    char src[4096], obj[4096], flags[4100];
    char **argv = calloc((size_t)o->ncc + 8, sizeof *argv);
    if (!argv) die("out of memory", NULL);
    int n = 0;
    for (int i = 0; i < o->ncc; i++) argv[n++] = o->cc[i];
    if (made) {
        snprintf(flags, sizeof flags, "@%s/%s.cflags", o->outdir, kname);
        argv[n++] = flags;
    }
    if (o->packed_only) argv[n++] = "-DGEMMGEN_PACKED_ONLY";
    argv[n++] = "-c"; argv[n++] = out_path(src, sizeof src, o, kname, ".c");
    argv[n++] = "-o"; argv[n++] = out_path(obj, sizeof obj, o, kname, ".o");
    argv[n] = NULL;
    run(argv);
    free(argv);
}

/* The slots: each real type's kernel, its small_tile kernel (--small),
 * the complex types' kernels (--complex: a machine gemmgen has no complex
 * strategy for leaves them empty, and the portable ones run), the reduced-
 * precision ones (--lowp: empty where gemmgen exits 2). */
enum { SLOTS = 8 };
enum slot_kind { REAL, SMALL, CPLX, LOWP };
static const char *const slot_type[SLOTS] = { "f64", "f32", "f64", "f32", "c64", "c32",
                                              "bf16", "s8u8s32" };
static const char *const slot_kname[SLOTS] = { "f64", "f32", "f64s", "f32s", "c64", "c32",
                                               "bf16", "u8s8" };
static const char *const slot_field[SLOTS] = { "d", "s", "d_small", "s_small", "z", "c",
                                               "bf16", "u8s8" };
static const enum slot_kind slot_kind[SLOTS] = { REAL, REAL, SMALL, SMALL, CPLX, CPLX, LOWP, LOWP };
/* how gemmgen's refusal of a slot counts, without --optional */
static const enum refusal slot_refusal[] = { [REAL] = FAILS, [SMALL] = FAILS, [CPLX] = EMPTY,
                                             [LOWP] = EMPTY_ON_2 };

/* The set's machine fields come from the first kernel made (all of a
 * set's descriptors say the same of the machine); none made: an empty
 * set that detects its caches at run time. The set's features are those
 * of every kernel but the reduced-precision ones, which say their own
 * (a CPU without them runs the rest of the set). */
static void write_machine(FILE *f, const char *n, const int made[SLOTS])
{
    int first = 0;
    while (first < SLOTS && !(made[first] && slot_kind[first] != LOWP)) first++;
    for (int t = 0; t < SLOTS; t++)
        if (made[t] && slot_kind[t] == LOWP)
            fprintf(f, "    .%s_features = gg_%s_%s_DESC_FEATURES,\n", slot_field[t], n, slot_kname[t]);
    if (first == SLOTS) {
        fprintf(f, "    .name = \"%s\", .features = 0, .rank = 1, .caches_known = 0,\n", n);
        return;
    }
    const char *k = slot_kname[first];
    fprintf(f, "    .name = gg_%s_%s_DESC_MACHINE,\n    .features = ", n, k);
    for (int t = first; t < SLOTS; t++)
        if (made[t] && slot_kind[t] != LOWP)
            fprintf(f, "%sgg_%s_%s_DESC_FEATURES", t > first ? " | " : "", n, slot_kname[t]);
    fprintf(f, ",\n    .rank = gg_%s_%s_DESC_RANK, .caches_known = 1, .caches = gg_%s_%s_DESC_CACHES,\n",
            n, k, n, k);
    fprintf(f, "    .small_max_k = gg_%s_%s_DESC_SMALL_MAX_K,\n", n, k);
}

/* Does this run fill slot t? */
static int used(const struct opts *o, int t)
{
    return slot_kind[t] == REAL || (slot_kind[t] == SMALL && o->small)
        || (slot_kind[t] == CPLX && o->complex) || (slot_kind[t] == LOWP && o->lowp);
}

/* made[t]: slot t has a kernel (else its descriptor is an empty one). */
static void write_set(const struct opts *o, const int made[SLOTS])
{
    char path[4096];
    snprintf(path, sizeof path, "%s/gg_%s_set.c", o->outdir, o->name);
    FILE *f = fopen(path, "w");
    if (!f) die("cannot write", path);
    fprintf(f, "/* generated by ggkernel for machine %s: do not edit */\n", o->machine);
    if (o->packed_only) fprintf(f, "#define GEMMGEN_PACKED_ONLY 1   /* as the kernels were compiled */\n");
    fprintf(f, "#include \"gg_internal.h\"\n");
    for (int t = 0; t < SLOTS; t++)
        if (used(o, t)) fprintf(f, "#include \"gg_%s_%s_desc.h\"\n", o->name, slot_kname[t]);
    fprintf(f, "const struct gg_kernel_set gg_%s_set = {\n", o->name);
    write_machine(f, o->name, made);
    for (int t = 0; t < SLOTS; t++)
        if (used(o, t))
            fprintf(f, "    .%s = gg_%s_%s_DESC_UKERNEL,\n", slot_field[t], o->name, slot_kname[t]);
    fprintf(f, "};\n");
    if (fclose(f)) die("cannot write", path);
}

int main(int argc, char **argv)
{
    struct opts o = parse_args(argc, argv);
    char kname[256];
    int made[SLOTS] = { 0 };
    for (int t = 0; t < SLOTS; t++) {
        if (!used(&o, t)) continue;
        snprintf(kname, sizeof kname, "gg_%s_%s", o.name, slot_kname[t]);
        made[t] = generate(&o, slot_type[t], kname, slot_kind[t] == SMALL,
                           o.optional ? EMPTY : slot_refusal[slot_kind[t]]);
        compile(&o, kname, made[t]);
    }
    write_set(&o, made);
    return 0;
}
