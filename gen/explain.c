/* explain.c: --explain prints the schedules as the paper's Tables 3 and 4,
 * the RTG and the unroll factor; --explain=json the figures for scripts. */
#include "plan.h"
#include "util.h"
#include <stdio.h>
#include <string.h>

static void row(struct buf *b, const char *title, const struct seq *s, const struct kernel *k,
                int what)
{
    buf_printf(b, "%-12s", title);
    for (int x = 0; x < s->n; x++) {
        char cell[24];
        if (what == 0)
            snprintf(cell, sizeof cell, "%s%s", k->inst[s->inst[x]].label, s->iter[x] ? "'" : "");
        else snprintf(cell, sizeof cell, "%d", what == 1 ? s->cycle[x] : s->live[x]);
        buf_printf(b, " %6s", cell);
    }
    buf_puts(b, "\n");
}

static void table(struct buf *b, const char *caption, const struct seq *s, const struct kernel *k)
{
    buf_printf(b, "%s\n", caption);
    for (int start = 0; start < s->n; start += 16) {
        struct seq part = { .n = s->n - start < 16 ? s->n - start : 16, .inst = s->inst + start,
                            .iter = s->iter + start, .cycle = s->cycle + start, .live = s->live + start };
        row(b, "Instruction", &part, k, 0);
        row(b, "Cycle", &part, k, 1);
        row(b, "LiveReg", &part, k, 2);
        if (start + 16 < s->n) buf_puts(b, "\n");
    }
}

static void rtg_text(struct buf *b, const struct plan *pl)
{
    const struct kernel *k = &pl->k;
    for (int rc = 0; rc < RC_COUNT; rc++) {
        const struct rtg *g = &pl->r.g[rc];
        if (!g->nnode) continue;
        buf_printf(b, "RTG (%s registers): %d nodes (%d pseudo), %d edges, MaxReg %d, LiveIn %d\n",
                   rc == RC_VEC ? "vector" : rc == RC_PAIR ? "pair" : "accumulator",
                   g->nnode, g->npseudo, g->nedge, g->max_regs, g->live_in);
        for (int x = 0; x < g->nedge; x++) {
            int f = g->node_val[g->e[x].from], t = g->node_val[g->e[x].to];
            buf_printf(b, "%s%s->%s(%d)", x % 10 ? "  " : x ? "\n  " : "  ",
                       f >= 0 ? k->val[f].name : "F", t >= 0 ? k->val[t].name : "F", g->e[x].cross);
        }
        buf_puts(b, "\n");
    }
    buf_printf(b, "partition (%s):", pl->r.rotating ? "rotating" : "none found");
    for (int c = 0; c < pl->r.ncycles; c++)
        buf_printf(b, "%s %s [period %d]", c ? "," : "", pl->r.cycle_text[c], pl->r.cycle_period[c]);
    if (!k->paper) buf_printf(b, "\naccumulators pinned: %d (period 1)", k->nacc);
    buf_printf(b, "\nunroll factor UF = %d", pl->r.uf);
    if (pl->r.uf != pl->rtg_uf)
        buf_printf(b, " (the RTG's %d, raised to the machine file's unroll: %d)", pl->rtg_uf, pl->m.unroll);
    buf_puts(b, "\n");
}

void explain_text(const struct plan *pl, struct buf *b)
{
    const struct kernel *k = &pl->k;
    buf_printf(b, "machine %s (%s), target %s, %s %dx%d, B strategy %s, MaxReg %d\n",
               pl->m.name, pl->m.path, pl->t->name, kernel_type_name(k), k->mr, k->nr,
               bstrat_names[k->bs], k->max_regs);
    if (k->cplx) {
        struct buf cs = { 0 };
        cstrat_text(&cs, pl, " ");
        buf_printf(b, "complex strategy: %s\n", cs.s);
        buf_free(&cs);
    }
    if (elem_group(k->elem) > 1) {
        struct buf rg = { 0 };
        rankg_text(&rg, pl);
        buf_printf(b, "rank-%d multiply-add: %s\n", k->group, rg.s);
        buf_free(&rg);
    }
    table(b, "\nSingle-iteration schedule S (cf. POCA Table 3):", &pl->s, k);
    buf_printf(b, "single-iteration cycles: %d\n", pl->single_cycles);
    table(b, "\nPipelined kernel P (cf. POCA Table 4; ' = next iteration):", &pl->p.q, k);
    buf_printf(b, "moved up j = %d, kernel cycles per iteration: %d, resource bound %.2f\n",
               pl->p.j, pl->p.kernel_cycles, pl->resource_bound);
    buf_printf(b, "predicted cycles per iteration %.2f, FP utilization %.1f%%, max LiveReg %d\n\n",
               pl->cycles_per_iter, 100.0 * pl->fp_utilization, pl->p.max_live);
    rtg_text(b, pl);
    method_text(pl, b);
}

void explain_json(const struct plan *pl, struct buf *b)
{
    const struct kernel *k = &pl->k;
    int max_live_s = 0;
    for (int x = 0; x < pl->s.n; x++) if (pl->s.live[x] > max_live_s) max_live_s = pl->s.live[x];
    int max_live = pl->p.max_live > max_live_s ? pl->p.max_live : max_live_s;
    buf_printf(b, "{\"machine\": \"%s\", \"target\": \"%s\", \"mr\": %d, \"nr\": %d, \"type\": \"%s\", "
                  "\"b_strategy\": \"%s\", \"max_regs\": %d, \"max_live\": %d, "
                  "\"single_iteration_cycles\": %d, \"moved_up\": %d, "
                  "\"pipelined_cycles_per_iteration\": %.2f, \"kernel_cycles\": %d, "
                  "\"resource_bound\": %.2f, \"unroll_factor\": %d, \"rtg_unroll_factor\": %d, \"rotating\": %s, "
                  "\"predicted_fma_utilization\": %.4f, \"instructions\": %d}\n",
               pl->m.name, pl->t->name, k->mr, k->nr, kernel_type_name(k), bstrat_names[k->bs],
               k->max_regs, max_live, pl->single_cycles, pl->p.j, pl->cycles_per_iter,
               pl->p.kernel_cycles, pl->resource_bound, pl->r.uf, pl->rtg_uf, pl->r.rotating ? "true" : "false",
               pl->fp_utilization, k->ninst);
}
