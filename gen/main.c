/* main.c: the gemmgen command line. */
#include "host.h"
#include "machine_find.h"
#include "outfile.h"
#include "plan.h"
#include "util.h"
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char usage[] =
    "usage: gemmgen [--machine FILE|NAME] [--type TYPE] [--mr N] [--nr N] [options]\n"
    "Writes a GEMM micro-kernel for the machine to DIR/NAME.c and DIR/NAME.h, and its\n"
    "descriptor for libgemmgen to DIR/NAME_desc.h.\n"
    "  --machine FILE     machine description (default: the host, by cpuid)\n"
    "  --machine NAME     the installed machines/NAME.yaml (e.g. zen5; --print-machine shows it)\n"
    "  --type f64|f32     element type (default f64); c64|c32: complex double/float;\n"
    "                     bf16: bfloat16 A and B, f32 C; u8s8s32: uint8 A, int8 B,\n"
    "                     int32 C (exact); s8u8s32: int8 A, uint8 B\n"
    "  --mr N, --nr N     micro-tile (default: derived from registers and latencies)\n"
    "  --small-tile       the machine's runtime.small_tile instead (the runtime's second\n"
    "                     kernel); nothing is written where it names none for the type\n"
    "  --max-regs N       cap the vector registers used (POCA's MaxReg)\n"
    "  --b-strategy S     vector-broadcast | vector-shuffle | scalar-broadcast | outer-product\n"
    "                     (complex types: split-complex | split-complex-lane | complex-fma)\n"
    "  --no-sched         keep instruction-selection order (no list scheduling)\n"
    "  --no-pipeline      no two-iteration pipelining\n"
    "  --unroll N         unroll the k loop N times (default: from the RTG)\n"
    "  --paper            POCA exactly as the paper prints it, without gemmgen's\n"
    "                     extensions (with --explain; --explain lists them)\n"
    "  --name SYMBOL      kernel symbol and file name (default MACHINE_dgemm_MRxNR)\n"
    "  -o DIR             output directory (default out)\n"
    "  --blis             also emit NAME_blis, a BLIS 0.9 micro-kernel wrapper\n"
    "  --blis-api 1       ... for the BLIS 1.x/2.x signature instead\n"
    "  --explain[=FORM]   print schedules, LiveReg, RTG and unroll factor; FORM json\n"
    "                     (the figures) or svg (drawn); write nothing\n"
    "  --print-cflags     print the compile flags the kernel needs; write nothing\n"
    "  --cflags-file      also write DIR/NAME.cflags, those flags for `cc @DIR/NAME.cflags`\n"
    "  --compiler C       gcc (default) or clang: whose flags --print-cflags, --cflags-file\n"
    "                     and the header give (the kernel file names both)\n"
    "  --print-machine    print the machine file that would be used; write nothing\n"
    "  --print-cc, --print-runner  compiler and emulator that build and run it\n"
    "  --help, --version\n"
    "Bad input exits with status 2 and writes nothing.\n";

static int parse_int(const char *opt, const char *s, int lo, int hi)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        die_input("%s: '%s' is not a whole number in [%d, %d]", opt, s, lo, hi);
    return (int)v;
}

static bool is_identifier(const char *s)
{
    if (!*s || (*s >= '0' && *s <= '9')) return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return false;
    return true;
}

enum { O_MACHINE = 256, O_TYPE, O_MR, O_NR, O_MAXREGS, O_NOSCHED, O_NOPIPE, O_UNROLL, O_NAME,
       O_EXPLAIN, O_BLIS, O_BLISAPI, O_BSTRAT, O_CFLAGS, O_PMACHINE, O_CC, O_RUNNER, O_HELP, O_VERSION,
       O_SMALL, O_CFILE, O_PAPER, O_COMPILER };

static const struct option longopts[] = {
    { "machine", required_argument, 0, O_MACHINE }, { "type", required_argument, 0, O_TYPE },
    { "mr", required_argument, 0, O_MR }, { "nr", required_argument, 0, O_NR },
    { "max-regs", required_argument, 0, O_MAXREGS }, { "no-sched", no_argument, 0, O_NOSCHED },
    { "no-pipeline", no_argument, 0, O_NOPIPE }, { "unroll", required_argument, 0, O_UNROLL },
    { "name", required_argument, 0, O_NAME }, { "explain", optional_argument, 0, O_EXPLAIN },
    { "blis", no_argument, 0, O_BLIS }, { "blis-api", required_argument, 0, O_BLISAPI },
    { "b-strategy", required_argument, 0, O_BSTRAT }, { "print-cflags", no_argument, 0, O_CFLAGS },
    { "print-machine", no_argument, 0, O_PMACHINE }, { "print-cc", no_argument, 0, O_CC },
    { "print-runner", no_argument, 0, O_RUNNER }, { "help", no_argument, 0, O_HELP },
    { "small-tile", no_argument, 0, O_SMALL }, { "cflags-file", no_argument, 0, O_CFILE },
    { "version", no_argument, 0, O_VERSION }, { "paper", no_argument, 0, O_PAPER },
    { "compiler", required_argument, 0, O_COMPILER },
    { 0, 0, 0, 0 },
};

static int parse_enum(const char *opt, const char *s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++) if (!strcmp(s, names[i])) return i;
    die_input("%s: unknown value '%s'", opt, s);
}

static bool handle(struct options *o, int c, const char *arg, bool *print_machine)
{
    switch (c) {
    case O_MACHINE: o->machine_path = arg; break;
    case O_TYPE: {
        /* the element types (enum elem), then the complex c32 c64
         * (interleaved re, im) of f32 and f64 */
        static const char *const types[] = { "f32", "f64", "bf16", "u8s8s32", "s8u8s32", "c32", "c64" };
        int t = parse_enum("--type", arg, types, 7);
        o->elem = t < ELEM_COUNT ? (enum elem)t : (enum elem)(t - ELEM_COUNT);
        o->cplx = t >= ELEM_COUNT;
        break;
    }
    case O_MR: o->mr = parse_int("--mr", arg, 1, 64); break;
    case O_NR: o->nr = parse_int("--nr", arg, 1, 64); break;
    case O_MAXREGS: o->max_regs = parse_int("--max-regs", arg, 2, 128); break;
    case O_NOSCHED: o->no_sched = true; break;
    case O_NOPIPE: o->no_pipeline = true; break;
    case O_PAPER: o->paper = true; break;
    case O_UNROLL: o->unroll = parse_int("--unroll", arg, 1, 16); break;
    case O_NAME:
        if (!is_identifier(arg) || strlen(arg) > 100) die_input("--name: '%s' is not a C identifier", arg);
        o->name = arg;
        break;
    case O_EXPLAIN:
        if (arg && strcmp(arg, "json") && strcmp(arg, "svg"))
            die_input("--explain=%s: only --explain, --explain=json or --explain=svg", arg);
        o->explain = !arg ? 1 : !strcmp(arg, "json") ? 2 : 3;
        break;
    case O_BLIS: o->blis = true; break;
    case O_BLISAPI: o->blis_api = parse_int("--blis-api", arg, 0, 1); o->blis = true; break;
    case O_BSTRAT: o->force_bs = parse_enum("--b-strategy", arg, bstrat_names, BS_COUNT); break;
    case O_CFLAGS: o->print_cflags = true; break;
    case O_CC: o->print = 2; break;
    case O_RUNNER: o->print = 3; break;
    case O_SMALL: o->small_tile = true; break;
    case O_CFILE: o->cflags_file = true; break;
    case O_COMPILER: o->compiler = parse_enum("--compiler", arg, compiler_names, COMPILER_COUNT); break;
    case O_PMACHINE: *print_machine = true; break;
    case O_HELP: fputs(usage, stdout); exit(0);
    case O_VERSION: puts("gemmgen " GEMMGEN_VERSION); exit(0);
    default: return false;
    }
    return true;
}

static void write_kernel(struct plan *pl, const struct options *o)
{
    char dname[128], cpath[1024], hpath[1024], dpath[1024], fpath[1024];
    const char *name = o->name ? o->name : plan_default_name(pl, dname, sizeof dname);
    struct buf c = { 0 }, h = { 0 }, d = { 0 }, f = { 0 };
    struct edge_spec es[MAX_EDGES];
    struct plan edges[MAX_EDGES], dp;
    int has_dp = plan_build_direct(&dp, pl, o);
    int ne = plan_edges(pl, es);
    for (int i = 0; i < ne; i++) plan_build_edge(&edges[i], pl, o, &es[i]);
    emit_kernel(pl, edges, ne, o, name, &c, &h, &d);
    for (int i = 0; i < ne; i++) plan_free(&edges[i]);
    if (has_dp) plan_free(&dp);
    if (mkdir(o->outdir, 0755) != 0 && errno != EEXIST) die("%s: cannot create: %s", o->outdir, strerror(errno));
    if (strlen(o->outdir) + strlen(name) + 16 >= sizeof cpath)
        die_input("--outdir: '%.60s...' is too long", o->outdir);
    strfmt(cpath, sizeof cpath, "%s/%s.c", o->outdir, name);
    strfmt(hpath, sizeof hpath, "%s/%s.h", o->outdir, name);
    strfmt(dpath, sizeof dpath, "%s/%s_desc.h", o->outdir, name);
    strfmt(fpath, sizeof fpath, "%s/%s.cflags", o->outdir, name);
    target_cflags(&f, pl->t, pl->k.elem, pl->k.bs, o->compiler, &pl->m);
    buf_puts(&f, "\n");
    const char *paths[] = { cpath, hpath, dpath, fpath }, *texts[] = { c.s, h.s, d.s, f.s };
    write_files_atomic(paths, texts, o->cflags_file ? 4 : 3);
    printf("%s\n%s\n%s\n", cpath, hpath, dpath);
    buf_free(&c); buf_free(&h); buf_free(&d); buf_free(&f);
}

/* --small-tile where the machine names no small tile for the type: there
 * is nothing to write (ggkernel then leaves the runtime's slot empty). */
static bool no_small_tile(const struct options *o)
{
    struct machine m;
    if (!o->small_tile || o->mr || o->nr || o->cplx || elem_group(o->elem) > 1)
        return false;   /* refused later */
    machine_load(&m, o->machine_path);
    if (m.runtime.small_tile[o->elem].mr) return false;
    fprintf(stderr, "gemmgen: %s: runtime.small_tile: no %s tile given; nothing written\n",
            m.path, elem_names[o->elem]);
    return true;
}

int main(int argc, char **argv)
{
    struct options o = { .elem = ELEM_F64, .outdir = "out", .force_bs = -1 };
    bool print_machine = false;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:", longopts, NULL)) != -1) {
        if (c == 'o') { o.outdir = optarg; continue; }
        if (c == '?' || c == ':' || !handle(&o, c, optarg, &print_machine))
            die_input("%s: unknown or incomplete option (see --help)", argv[optind - 1]);
    }
    if (optind < argc) die_input("%s: unexpected argument (see --help)", argv[optind]);
    /* the paper's RTG rotates accumulators, which the emitter keeps fixed */
    if (o.paper && !o.explain) die_input("--paper: only with --explain (kernels use gemmgen's method)");
    char hostpath[1024], namedpath[4096];
    if (o.machine_path) o.machine_path = machine_find(o.machine_path, namedpath, sizeof namedpath);
    if (!o.machine_path && !(o.machine_path = host_machine(hostpath, sizeof hostpath)))
        die_input("cannot match this CPU to a file in %s; give --machine FILE", machines_dir());
    if (print_machine) { puts(o.machine_path); return 0; }
    if (no_small_tile(&o)) return 0;
    struct plan pl;
    plan_build(&pl, &o);
    struct buf out = { 0 };
    if (o.print_cflags || o.print == 3) {   /* %b: the machine's vector bits (SVE length) */
        if (o.print_cflags) target_cflags(&out, pl.t, pl.k.elem, pl.k.bs, o.compiler, &pl.m);
        else target_text(&out, pl.t->runner, &pl.m);
        buf_puts(&out, "\n");
    }
    else if (o.print == 2) buf_printf(&out, "%s\n", pl.t->cc);
    else if (o.explain == 1) explain_text(&pl, &out);
    else if (o.explain == 2) explain_json(&pl, &out);
    else if (o.explain == 3) explain_svg(&pl, &out);
    if (out.s) fputs(out.s, stdout);
    else write_kernel(&pl, &o);
    buf_free(&out);
    plan_free(&pl);
    return 0;
}
