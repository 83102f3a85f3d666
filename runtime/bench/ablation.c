/* ablation.c: see ablation.h. The variants are kernel sets that
 * runtime/bench/meson.build has ggkernel generate at build time (the
 * --optional ones gemmgen may refuse, e.g. an unroll factor the rotation
 * cannot honour: their slots are empty). */
#include <stdio.h>
#include "ablation.h"
#include "gg_internal.h"
#include "micro.h"
#include "gb_ablation_sets.h"

#define DECLARE(sym, label, flags) extern const struct gg_kernel_set sym;
GB_ABLATION_SETS(DECLARE)

struct variant { const struct gg_kernel_set *set; const char *label, *flags; };
#define ENTRY(sym, label, flags) { &sym, label, flags },
static const struct variant variants[] = { GB_ABLATION_SETS(ENTRY) {0, 0, 0} };
enum { NVARIANTS = sizeof variants / sizeof variants[0] - 1 };   /* less the end mark */

/* GFLOPS of one slot, or 0 when it is empty or this CPU cannot run it. */
static double time_slot(const struct gg_kernel_set *s, char type)
{
    const struct gg_ukernel *uk = type == 'd' ? &s->d : &s->s;
    if (!uk->fn || (s->features & ~gg_cpu_features()))
        return 0;
    return gb_micro_kernel(uk, type, GB_KC_HALF_L1, NULL);
}

static void cell(double g, double base, const struct gg_ukernel *uk)
{
    if (g > 0)
        printf(" %d x %d | %.1f | %.1f |", uk->mr, uk->nr, g, base > 0 ? 100 * g / base : 0);
    else
        printf(" - | %s | - |", uk->fn ? "cannot run here" : "refused by gemmgen");
}

void gb_ablation(void)
{
    printf("\n### ablation (seed 001 Figures 9-10): %s kernels in L1, 1 thread\n\n",
           NVARIANTS ? variants[0].set->name : "no");
    printf("| variant | gemmgen flags | f64 MR x NR | f64 GFLOPS | %% of all |"
           " f32 MR x NR | f32 GFLOPS | %% of all |\n|---|---|---|---|---|---|---|---|\n");
    double base[2] = {0, 0};
    for (int v = 0; v < NVARIANTS; v++) {
        const struct gg_kernel_set *s = variants[v].set;
        printf("| %s | %s |", variants[v].label, variants[v].flags[0] ? variants[v].flags : "(none)");
        for (int t = 0; t < 2; t++) {
            double g = time_slot(s, t ? 's' : 'd');
            if (v == 0) base[t] = g;
            cell(g, base[t], t ? &s->s : &s->d);
        }
        printf("\n");
        fflush(stdout);
    }
}
