/* shape.c: the resource bound of one k iteration, and the default
 * MR x NR and B strategy: the shape whose iteration keeps the FP units
 * busiest, then the one loading the fewest elements per flop
 * (2*MR*NR/(MR+NR)) -- within INTENSITY_TIE counting as a tie, broken by the fewest
 * load instructions per FP instruction -- within the register budget. A derived shape leaves
 * one register spare, so the next B value can be loaded while the FMAs
 * still use the current one (and the C compiler is not forced to spill);
 * an explicit --mr/--nr gets exactly what it asks. Nothing per machine. */
#include "ir.h"
#include "util.h"
#include <stdio.h>
#include <string.h>

/* unit_bound(fp_only) measures the FP work itself, so an FMA by lane is charged
 * as the plain FMA it replaces: where the indexed form is dearer (A64FX: 2
 * uops, half rate) its strategy shows as lower utilization, not as busier FP
 * units, and the shape choice prefers the strategy doing the work cheaper.
 * A complex multiply-add's rotation does one FMA's work the same way. */
static enum iclass work_class(const struct machine *m, const struct inst *in, bool fp_only)
{
    bool as_fma = in->ic == IC_VFMA_LANE || in->ic == IC_VCMLA;
    return fp_only && as_fma && m->ic[IC_VFMA].present ? IC_VFMA : in->ic;
}

/* Greedy assignment of each instruction to its least-loaded alternative
 * unit; returns the busiest unit's cycles (and issue width's). */
static double unit_bound(const struct kernel *k, bool fp_only)
{
    const struct machine *m = k->m;
    double load[MAX_UNITS] = { 0 }, uops = 0;
    for (int i = 0; i < k->ninst; i++) {
        const struct inst *in = &k->inst[i];
        if (fp_only && !in->fp) continue;
        const struct timing *t = machine_timing(m, work_class(m, in, fp_only), op_names[in->op]);
        int best = t->alt[0];
        for (int a = 1; a < t->nalt; a++) {
            int u = t->alt[a];
            if ((load[u] + t->occupancy) / m->units[u].count <
                (load[best] + t->occupancy) / m->units[best].count) best = u;
        }
        load[best] += t->occupancy;
        uops += t->uops;
    }
    double worst = fp_only ? 0 : uops / m->dispatch_width;
    for (int u = 0; u < m->nunits; u++)
        if (load[u] / m->units[u].count > worst) worst = load[u] / m->units[u].count;
    return worst;
}

/* An accumulator's update chain runs once per iteration: an iteration
 * cannot be shorter than its latency (one multiply-add, or the two
 * rotations of a complex one: the chain back through operand 0). */
static double recurrence_bound(const struct kernel *k)
{
    double worst = 0;
    for (int i = 0; i < k->ninst; i++) {
        const struct inst *in = &k->inst[i];
        if (in->def >= 0 && k->val[in->def].carried) {
            int lat = k->m->ic[in->ic].latency;
            for (const struct inst *x = in; !x->carried[0] && x->src[0] >= 0 &&
                                            k->val[x->src[0]].def >= 0;) {
                x = &k->inst[k->val[x->src[0]].def];
                lat += k->m->ic[x->ic].latency;
            }
            if (lat > worst) worst = lat;
        }
    }
    return worst;
}

double kernel_resource_bound(const struct kernel *k)
{
    double u = unit_bound(k, false), r = recurrence_bound(k);
    return u > r ? u : r;
}

double kernel_fp_bound(const struct kernel *k) { return unit_bound(k, true); }

/* rate: multiply-adds (C elements times k steps) per cycle, which tells
 * strategies doing unlike work per instruction apart (an MMLA does twice a
 * dot product's); among those doing alike work it orders as util does. */
struct cand { struct shape s; double rate, util, loads, intensity; };

/* Loads (A, B, broadcasts) per FP instruction of one iteration: the
 * load-port headroom left for A streaming from L2, prefetches and spills. */
static double loads_per_fp(const struct kernel *k)
{
    int loads = 0, fp = 0;
    for (int i = 0; i < k->ninst; i++) {
        enum op o = k->inst[i].op;
        loads += o == OP_LOAD_A || o == OP_LOAD_B || o == OP_BCAST_B;
        fp += k->inst[i].fp;
    }
    return fp ? (double)loads / fp : 0;
}

/* Intensities this close (relative) count as equal: A streaming from L2
 * does not bind at these rates, while load-port slots and even MR/NR do.
 * Measured on SGEMM 32x14 against 16x29: docs/decisions.md. Near-ties
 * are not transitive, so the result can depend on the enumeration order
 * (mr, then nr, ascending). */
#define INTENSITY_TIE 0.10

static bool better(const struct cand *a, const struct cand *b)
{
    if (a->rate > b->rate * (1 + 1e-9)) return true;
    if (a->rate < b->rate * (1 - 1e-9)) return false;
    if (a->util > b->util + 1e-9) return true;
    if (a->util < b->util - 1e-9) return false;
    double tie = INTENSITY_TIE * (a->intensity > b->intensity ? a->intensity : b->intensity);
    if (a->intensity > b->intensity + tie) return true;
    if (a->intensity < b->intensity - tie) return false;
    if (a->loads < b->loads - 1e-9) return true;
    if (a->loads > b->loads + 1e-9) return false;
    if (a->intensity > b->intensity + 1e-9) return true;
    if (a->intensity < b->intensity - 1e-9) return false;
    return a->s.nr > b->s.nr;   /* ties: wider B, fewer A loads per flop */
}

static bool timings_present(const struct machine *m, const struct kernel *k)
{
    for (int i = 0; i < k->ninst; i++)
        if (!m->ic[k->inst[i].ic].present) return false;
    return true;
}

static void consider(struct cand *best, const struct machine *m, const struct target *t,
                     enum elem e, enum bstrat bs, int mr, int nr, int max_regs, int slack)
{
    if (kernel_shape_error(m, t, bs, e, mr, nr)) return;
    if (kernel_min_regs(m, t, bs, e, mr, nr) + slack > kernel_reg_budget(t, e, bs, max_regs)) return;
    struct kernel k;
    kernel_build(&k, m, t, e, bs, mr, nr, max_regs);
    if (timings_present(m, &k)) {
        double bound = kernel_resource_bound(&k);
        struct cand c = { { bs, mr, nr }, (double)mr * nr * k.group / bound,
                          kernel_fp_bound(&k) / bound,
                          loads_per_fp(&k),
                          2.0 * mr * nr / (mr + nr) };
        if (best->s.mr == 0 || better(&c, best)) *best = c;
    }
    kernel_free(&k);
}

/* BLIS 0.9 packs fast only for these micro-panel widths. */
static bool blis_fast(int x)
{
    static const int ok[] = { 2, 3, 4, 6, 8, 10, 12, 14, 16, 24 };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) if (ok[i] == x) return true;
    return false;
}

/* Strategies in POCA's order of preference (vector loads first). */
static const enum bstrat pref_order[BS_COUNT] = {
    BS_OUTER_PRODUCT, BS_VECTOR_BROADCAST, BS_VECTOR_SHUFFLE, BS_SCALAR_BROADCAST,
    BS_CMLA, BS_SPLIT_COMPLEX_LANE, BS_SPLIT_COMPLEX,
};

/* Real (cplx false) or complex kernels' strategies, best shape of any. */
static struct shape choose(const struct machine *m, const struct target *t, enum elem e,
                           int want_mr, int want_nr, int max_regs, int force_bs, bool blis_sizes,
                           bool cplx)
{
    struct cand best = { 0 };
    for (int s = 0; s < BS_COUNT; s++) {
        enum bstrat bs = pref_order[s];
        if (force_bs >= 0 && (int)bs != force_bs) continue;
        if (bstrat_complex(bs) != cplx) continue;
        if (!target_offers(t, bs, e, cplx)) continue;
        for (int mr = want_mr ? want_mr : 1; mr <= (want_mr ? want_mr : 64); mr++)
            for (int nr = want_nr ? want_nr : 1; nr <= (want_nr ? want_nr : 32); nr++)
                if (!blis_sizes || (blis_fast(mr) && blis_fast(nr)))
                    consider(&best, m, t, e, bs, mr, nr, max_regs, want_mr && want_nr ? 0 : 1);
    }
    return best.s;   /* mr == 0: nothing fits */
}

struct shape shape_choose(const struct machine *m, const struct target *t, enum elem e,
                          int want_mr, int want_nr, int max_regs, int force_bs, bool blis_sizes)
{
    return choose(m, t, e, want_mr, want_nr, max_regs, force_bs, blis_sizes, false);
}

struct shape shape_choose_complex(const struct machine *m, const struct target *t, enum elem e,
                                  int want_mr, int want_nr, int max_regs, int force_bs,
                                  bool blis_sizes)
{
    return choose(m, t, e, want_mr, want_nr, max_regs, force_bs, blis_sizes, true);
}
