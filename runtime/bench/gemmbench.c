/* gemmbench: libgemmgen against BLIS and OpenBLAS, in one run.
 *
 *   gemmbench            the full table: square 64..4000 and skinny shapes,
 *                        f64, f32, c64 and c32, 1 thread and all threads
 *   gemmbench --quick    fewer shapes and shorter timing (about a minute)
 *   gemmbench --small    1 thread, squares 16..256 in steps of 8 to 16
 *                        (remainders of MR and NR; about 3 minutes)
 *   gemmbench --micro    only the in-L1 micro-kernel mode
 *   gemmbench --ablation the in-L1 mode and seed 001 Figures 9-10: the
 *                        kernel with scheduling / pipelining switched off
 *                        and with unroll factors 1..8, and ZGEMM / CGEMM
 *                        against seed 001's four real GEMMs on the parts
 *                        (about a minute)
 *   gemmbench --blis ... BLIS with the gemmgen kernel registered (runtime/blis)
 *   gemmbench --lowp     bf16 -> f32 (against the vdpbf16ps peak and oneDNN's
 *                        dnnl_gemm_bf16bf16f32, AMX where the CPU has it) and
 *                        u8s8s32 (GOPS, against dnnl_gemm_u8s8s32), row major
 *                        as oneDNN's API, OpenMP threads as many as gemmgen's,
 *                        instead of the BLAS types
 *   ... --smoke          two tiny shapes, short timing: that it runs, not figures
 *   ... --svg FILE       also plots each table (GFLOPS against size, the peak
 *                        as a line) into FILE (plot_svg.c)
 *
 * GFLOPS are best-of-samples (see measure.c); "% peak" is of the FMA
 * throughput measured by the built-in probe (peak.c) for the same number
 * of threads; "x best" is libgemmgen over the fastest peer in that row.
 * Peers run in child processes: as a user gets them (the inherited
 * environment) and forced to their best kernels (BLIS_ARCH_TYPE=0, the
 * skx configuration of Debian's BLIS 0.9; OPENBLAS_CORETYPE unset, so
 * OpenBLAS detects the CPU itself, which 0.3.21 gets wrong on CPUs newer
 * than it, and OPENBLAS_CORETYPE=Cooperlake, its AVX-512 kernels). Output is Markdown. */
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include "gemmgen.h"
#include "measure.h"
#include "ablation.h"
#include "split_cplx.h"
#include "micro.h"
#include "peak.h"
#include "peers.h"
#include "plot_svg.h"
#ifdef GEMMBENCH_HAVE_BLIS
#include "bench_blis.h"
#endif

#ifndef GEMMBENCH_OPENBLAS
#define GEMMBENCH_OPENBLAS "libopenblas.so.0"
#endif
#define BLIS_SONAME "libblis.so.4"

enum { MAXSHAPES = 20, MAXPEERS = 6 };

struct plan {
    struct gb_shape shapes[MAXSHAPES];
    int nshapes;
    double budget;              /* seconds per measurement */
    double big_budget;          /* ... for shapes of 1e10 flops and more (0: budget) */
};

static const struct plan full = {
    { {64, 64, 64}, {128, 128, 128}, {256, 256, 256}, {512, 512, 512},
      {1000, 1000, 1000}, {2000, 2000, 2000}, {4000, 4000, 4000},
      {4000, 4000, 128}, {4000, 128, 4000}, {128, 4000, 4000} }, 10, 0.3, 1.0 };
static const struct plan quick = {
    { {64, 64, 64}, {256, 256, 256}, {1000, 1000, 1000}, {2000, 2000, 2000},
      {4000, 4000, 128} }, 5, 0.15, 0 };
/* That the tables run at all (the build's check), in a second or so. */
static const struct plan smoke = { { {16, 16, 16}, {48, 40, 36} }, 2, 0.01, 0 };
/* Small squares between the full table's 64, 128 and 256, one thread:
 * where a remainder of MR or NR decides the speed. */
static const struct plan small = {
    { {16, 16, 16}, {24, 24, 24}, {32, 32, 32}, {40, 40, 40}, {48, 48, 48}, {56, 56, 56},
      {64, 64, 64}, {72, 72, 72}, {80, 80, 80}, {88, 88, 88}, {96, 96, 96},
      {100, 100, 100}, {112, 112, 112}, {128, 128, 128}, {160, 160, 160},
      {192, 192, 192}, {256, 256, 256} }, 17, 0.15, 0 };

struct peers { struct gb_peer p[MAXPEERS]; int n; char env_coretype[64]; };

/* BLIS and OpenBLAS as the user's environment has them, then forced. The
 * inherited OpenBLAS run is left out when OPENBLAS_CORETYPE is not set:
 * it would be the same as the unset one. */
static void peer_list(struct peers *ps)
{
    const char *ct = getenv("OPENBLAS_CORETYPE");
    int n = 0;
    ps->p[n++] = (struct gb_peer){ "BLIS", BLIS_SONAME, {NULL} };
    ps->p[n++] = (struct gb_peer){ "BLIS arch=0", BLIS_SONAME, {"BLIS_ARCH_TYPE=0", NULL} };
    if (ct) {
        snprintf(ps->env_coretype, sizeof ps->env_coretype, "OpenBLAS %s", ct);
        ps->p[n++] = (struct gb_peer){ ps->env_coretype, GEMMBENCH_OPENBLAS, {NULL} };
    }
    ps->p[n++] = (struct gb_peer){ "OpenBLAS auto", GEMMBENCH_OPENBLAS, {"OPENBLAS_CORETYPE", NULL} };
    ps->p[n++] = (struct gb_peer){ "OpenBLAS Cooperlake", GEMMBENCH_OPENBLAS,
                                   {"OPENBLAS_CORETYPE=Cooperlake", NULL} };
    ps->n = n;
}

/* The reduced-precision types' peer: oneDNN (libdnnl.so.3, else Debian
 * 12's .so.2), its u8s8s32 and bf16 GEMMs (the latter on AMX where the
 * CPU has it: not a vdpbf16ps peer). */
static void lowp_peer_list(struct peers *ps, char type)
{
    (void)type;
    ps->n = 0;
    ps->p[ps->n++] = (struct gb_peer){ "oneDNN", "libdnnl.so.3|libdnnl.so.2", {NULL} };
}

struct own { char type; struct gb_mats x; };

static void call_own(void *p)
{
    struct own *o = p;
    int64_t m = o->x.m, n = o->x.n, k = o->x.k;
    static const double one_z[2] = { 1, 0 };
    static const float one_c[2] = { 1, 0 };
    static const int32_t zero = 0;
    if (o->type == 'd')
        gemmgen_dgemm(GEMMGEN_COL_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS, m, n, k,
                      1.0, o->x.a, m, o->x.b, k, 1.0, o->x.c, m);
    else if (o->type == 'z')
        gemmgen_zgemm(GEMMGEN_COL_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS, m, n, k,
                      one_z, o->x.a, m, o->x.b, k, one_z, o->x.c, m);
    else if (o->type == 'b')
        gemmgen_sbgemm(GEMMGEN_ROW_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS, m, n, k,
                       1.0f, o->x.a, k, o->x.b, n, 1.0f, o->x.c, n);   /* as oneDNN's */
    else if (o->type == 'i')             /* as gb_peer_run calls oneDNN's */
        gemmgen_gemm_u8s8s32('N', 'N', 'F', m, n, k, 1.0f, o->x.a, k, 0, o->x.b, n, 0, 0.0f,
                             o->x.c, n, &zero);
    else if (o->type == 'c')
        gemmgen_cgemm(GEMMGEN_COL_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS, m, n, k,
                      one_c, o->x.a, m, o->x.b, k, one_c, o->x.c, m);
    else
        gemmgen_sgemm(GEMMGEN_COL_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS, m, n, k,
                      1.0f, o->x.a, m, o->x.b, k, 1.0f, o->x.c, m);
}

static double run_own(char type, int threads, const struct gb_shape *s, double budget)
{
    struct own o = { type, {0} };
    double g = -1;
    gemmgen_set_num_threads(threads);
    if (gb_mats_alloc_type(&o.x, type, s->m, s->n, s->k) == 0)
        g = gb_measure(call_own, &o, gb_flops(type, s->m, s->n, s->k), budget);
    gb_mats_free(&o.x);
    return g;
}

static void print_head(const struct peers *ps)
{
    printf("| shape (m n k) | gemmgen | %% peak |");
    for (int i = 0; i < ps->n; i++) printf(" %s |", ps->p[i].label);
    printf(" x best |\n|---|---|---|");
    for (int i = 0; i < ps->n; i++) printf("---|");
    printf("---|\n");
}

/* The time a shape's measurement may take. 2000^3 and 4000^3 (the
 * targets' shapes) take a large part of a second a call: in the common
 * budget that was one or two samples, too few to rank the libraries. */
static double shape_budget(const struct plan *pl, const struct gb_shape *s)
{
    return pl->big_budget > 0 && 2.0 * s->m * s->n * s->k >= 1e10 ? pl->big_budget : pl->budget;
}

/* Shape by shape, gemmgen and then each peer (a child process per shape,
 * so that no peer's idle threads spin beside the next measurement); the
 * best of ROUNDS such rounds. A noisy phase of a shared machine then
 * costs every library of a shape alike, not one library all of its
 * figures, as when each library was timed over all shapes in turn. */
enum { ROUNDS = 2 };

static void measure_all(const struct plan *pl, const struct peers *ps, char type, int threads,
                        double own[MAXSHAPES], double g[MAXPEERS][MAXSHAPES],
                        char info[MAXPEERS][128])
{
    for (int i = 0; i < pl->nshapes; i++) own[i] = 0;
    for (int p = 0; p < ps->n; p++)
        for (int i = 0; i < pl->nshapes; i++) g[p][i] = 0;
    for (int r = 0; r < ROUNDS; r++)
        for (int i = 0; i < pl->nshapes; i++) {
            const double budget = shape_budget(pl, &pl->shapes[i]);
            double x = run_own(type, threads, &pl->shapes[i], budget), once;
            if (x > own[i]) own[i] = x;
            for (int p = 0; p < ps->n; p++) {
                gb_peer_run(&ps->p[p], type, threads, &pl->shapes[i], 1, budget, &once,
                            info[p], 128);
                if (once > g[p][i]) g[p][i] = once;
            }
        }
}

static const char *type_title(char type)
{
    return type == 'd' ? "DGEMM f64" : type == 's' ? "SGEMM f32" : type == 'z' ? "ZGEMM c64"
         : type == 'c' ? "CGEMM c32" : type == 'b' ? "SBGEMM bf16 -> f32"
         : "u8s8s32 (GOPS)";
}

/* The tables measured so far, for --svg. */
static struct gb_plot plots[8];
static int nplots;

static void keep_plot(const struct plan *pl, const struct peers *ps, char type, int threads,
                      double peak, const double *own, double g[][MAXSHAPES])
{
    if (nplots == (int)(sizeof plots / sizeof plots[0])) return;
    struct gb_plot *p = &plots[nplots++];
    snprintf(p->title, sizeof p->title, "%s, %d thread%s", type_title(type), threads,
             threads > 1 ? "s" : "");
    p->peak = peak;
    p->nx = pl->nshapes < GB_PLOT_MAXX ? pl->nshapes : GB_PLOT_MAXX;
    p->nseries = 1 + (ps->n < GB_PLOT_MAXSERIES - 1 ? ps->n : GB_PLOT_MAXSERIES - 1);
    snprintf(p->series[0], sizeof p->series[0], "gemmgen");
    for (int s = 1; s < p->nseries; s++) snprintf(p->series[s], sizeof p->series[s], "%s", ps->p[s - 1].label);
    for (int x = 0; x < p->nx; x++) {
        const struct gb_shape *sh = &pl->shapes[x];
        gb_plot_size_label(p->xlabel[x], (long long)sh->m, (long long)sh->n, (long long)sh->k);
        p->y[0][x] = own[x];
        for (int s = 1; s < p->nseries; s++) p->y[s][x] = g[s - 1][x];
    }
}

/* One table: every shape for one type and thread count. */
static void table(const struct plan *pl, const struct peers *ps, char type, int threads)
{
    double peak = gb_peak(gb_real_type(type), threads), own[MAXSHAPES], g[MAXPEERS][MAXSHAPES];
    char info[MAXPEERS][128];
    measure_all(pl, ps, type, threads, own, g, info);
    printf("\n### %s, %d thread%s (peak %.1f %s)\n\n", type_title(type), threads,
           threads > 1 ? "s" : "", peak, type == 'i' ? "GOPS" : "GFLOPS");
    for (int p = 0; p < ps->n; p++) printf("- %s: %s\n", ps->p[p].label, info[p]);
    printf("\n");
    print_head(ps);
    for (int i = 0; i < pl->nshapes; i++) {
        const struct gb_shape *s = &pl->shapes[i];
        double best = 0;
        printf(peak > 0 ? "| %lld %lld %lld | %.1f | %.0f |" : "| %lld %lld %lld | %.1f | - |",
               (long long)s->m, (long long)s->n, (long long)s->k, own[i], 100 * own[i] / peak);
        for (int p = 0; p < ps->n; p++) {
            printf(g[p][i] > 0 ? " %.1f |" : " - |", g[p][i]);
            if (g[p][i] > best) best = g[p][i];
        }
        printf(best > 0 ? " %.2f |\n" : " - |\n", own[i] / best);
    }
    keep_plot(pl, ps, type, threads, peak, own, g);
    fflush(stdout);
}

/* The types' in-L1 rows: f64 and f32, or bf16 and u8s8s32 (lowp). */
static void micro(int lowp)
{
    static const char *rule_name[] = { "A+B in half L1", "A+B+C fill L1" };
    printf("\n### in-L1 micro-kernel (%s), 1 thread\n\n| type (set) | MR x NR | kc rule | kc | GFLOPS | peak | %% peak |\n|---|---|---|---|---|---|---|\n",
           gemmgen_kernel_current());
    const char *types = lowp ? "bi" : "dszc";
    for (int t = 0; t < 2 * (int)strlen(types); t++) {
        char type = types[t / 2];
        enum gb_kc_rule rule = t % 2 ? GB_KC_FILL_L1 : GB_KC_HALF_L1;
        int mr, nr, kc;
        double peak = gb_peak(gb_real_type(type), 1), g = gb_micro(type, rule, &kc);
        gemmgen_blocking(type, &mr, &nr, NULL, NULL, NULL);
        printf(peak > 0 ? "| %s (%s) | %d x %d | %s | %d | %.1f | %.1f | %.1f |\n"
                        : "| %s (%s) | %d x %d | %s | %d | %.1f | - | - |\n",
               type == 's' ? "f32" : type == 'd' ? "f64" : type == 'z' ? "c64" : type == 'c' ? "c32"
               : type == 'b' ? "bf16" : "u8s8s32",
               gemmgen_kernel_current_for(type), mr,
               nr, rule_name[rule], kc, g, peak, 100 * g / peak);
    }
    fflush(stdout);
}

static void preamble(void)
{
    printf("## gemmbench\n\nkernel set: %s (of", gemmgen_kernel_current());
    for (int i = 0; i < gemmgen_kernel_count(); i++)
        printf(" %s%s", gemmgen_kernel_name(i), gemmgen_kernel_supported(i) ? "" : "(unsupported)");
    printf("); probe ISA %s; all threads = %d\n", gb_peak_isa(), gemmgen_get_num_threads());
    for (int t = 0; t < 2; t++) {
        int mr, nr, mc, kc, nc;
        gemmgen_blocking(t ? 's' : 'd', &mr, &nr, &mc, &kc, &nc);
        printf("blocking %s: MR %d NR %d MC %d KC %d NC %d\n", t ? "f32" : "f64", mr, nr, mc, kc, nc);
    }
}

int main(int argc, char **argv)
{
    const struct plan *pl = &full;
    int only_micro = 0, ablation = 0, one_thread = 0, lowp = 0;
    const char *svg = NULL, *mode = "";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--blis")) {
#ifdef GEMMBENCH_HAVE_BLIS
            return gemmbench_blis(argc, argv);
#else
            fprintf(stderr, "gemmbench: built without BLIS (libblis-dev)\n");
            return 1;
#endif
        }
        if (!strcmp(argv[i], "--svg") && i + 1 < argc) svg = argv[++i];
        else if (!strcmp(argv[i], "--quick")) { pl = &quick; mode = " --quick"; }
        else if (!strcmp(argv[i], "--small")) { pl = &small; one_thread = 1; mode = " --small"; }
        else if (!strcmp(argv[i], "--smoke")) { pl = &smoke; mode = " --smoke"; }
        else if (!strcmp(argv[i], "--lowp")) lowp = 1;
        else if (!strcmp(argv[i], "--micro")) only_micro = 1;
        else if (!strcmp(argv[i], "--ablation")) only_micro = ablation = 1;
        else {
            fprintf(stderr, "usage: gemmbench [--quick | --small | --smoke | --micro | --ablation | --blis [options]] [--lowp] [--svg FILE]\n");
            return 2;
        }
    }
    if (svg && only_micro) {
        fprintf(stderr, "gemmbench: --svg: --micro and --ablation measure no table to plot\n");
        return 2;
    }
    double t0 = gb_now();
    int all = one_thread ? 1 : gemmgen_get_num_threads();
    preamble();
    micro(lowp);
    if (ablation) {
        gb_ablation();
        gb_ablation_complex();
    }
    if (!only_micro) {
        struct peers ps;
        peer_list(&ps);
        for (const char *t = lowp ? "bi" : "dszc"; *t; t++) {   /* complex: 4 real multiply-adds each */
            if (lowp) lowp_peer_list(&ps, *t);
            for (int th = 1; th <= all; th = th == all ? all + 1 : all)
                table(pl, &ps, *t, th);
        }
    }
    printf("\ntotal time %.0f s\n", gb_now() - t0);
    if (svg) {
        char caption[160];
        snprintf(caption, sizeof caption, "gemmbench%s: GFLOPS by size, kernel set %s (best of samples)",
                 mode, gemmgen_kernel_current());
        if (gb_plot_write(svg, caption, plots, nplots) != 0) {
            fprintf(stderr, "gemmbench: %s: %s\n", svg, strerror(errno));
            return 1;
        }
    }
    return 0;
}
