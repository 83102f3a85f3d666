/* explain_svg.c: --explain=svg draws what --explain prints: the two
 * iterations of the pipelined schedule (cycles across, functional units
 * down, one box per instruction) and the register transfer graph with the
 * partition's cycles (rtg_svg.c), from the same plan. Integer or %.1f
 * coordinates only: the same plan gives the same bytes. */
#include "plan.h"
#include "util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PAD = 16, ROW_H = 24, BOX_H = 18, HEAD_H = 118, CHAR_W = 7 };

static const char *const it_fill[2] = { "#9ecae1", "#fdae6b" }, *const it_line[2] = { "#08519c", "#a63603" };

static void esc(struct buf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '<') buf_puts(b, "&lt;");
        else if (*s == '>') buf_puts(b, "&gt;");
        else if (*s == '&') buf_puts(b, "&amp;");
        else if (*s == '"') buf_puts(b, "&quot;");
        else buf_printf(b, "%c", *s);
    }
}

/* ---- the schedule ---- */

struct box { int inst, iter, cycle, unit, lane; bool body; };

struct grid {
    int left, top, cw, ncycles, nrows;
    int row0[MAX_UNITS];   /* first row of each unit (one row per copy of it) */
};

static int occupancy(const struct plan *pl, int inst)
{
    int o = pl->m.ic[pl->k.inst[inst].ic].occupancy;
    return o > 0 ? o : 1;
}

static void add_seq(struct box *bx, int *n, const struct seq *s, bool body)
{
    for (int x = 0; x < s->n; x++)
        bx[(*n)++] = (struct box){ s->inst[x], s->iter[x], s->cycle[x], s->unit[x], 0, body };
}

static int by_cycle(const void *a, const void *b)
{
    const struct box *x = a, *y = b;
    return (x->cycle > y->cycle) - (x->cycle < y->cycle);
}

/* Iteration 0 whole (prologue, then its part of Pµ) and iteration 1 (its
 * part of Pµ, then the rest), each copy of a unit a row of its own. */
static struct box *boxes(const struct plan *pl, int *n)
{
    const struct pipe *p = &pl->p;
    struct box *bx = xcalloc((size_t)(p->pro.n + p->q.n + p->rest.n) + 1, sizeof *bx);
    *n = 0;
    add_seq(bx, n, &p->pro, false);
    add_seq(bx, n, &p->q, true);
    add_seq(bx, n, &p->rest, false);
    for (int x = 0; x < *n; x++) bx[x].cycle = bx[x].cycle * 1024 + x;   /* stable order */
    qsort(bx, (size_t)*n, sizeof *bx, by_cycle);
    for (int x = 0; x < *n; x++) bx[x].cycle /= 1024;
    int free_at[MAX_UNITS][64] = { { 0 } };
    for (int x = 0; x < *n; x++) {
        int u = bx[x].unit, copies = pl->m.units[u].count < 64 ? pl->m.units[u].count : 64;
        bx[x].lane = 0;
        for (int l = 0; l < copies; l++)
            if (free_at[u][l] <= bx[x].cycle) { bx[x].lane = l; break; }
        free_at[u][bx[x].lane] = bx[x].cycle + occupancy(pl, bx[x].inst);
    }
    return bx;
}

static struct grid grid_of(const struct plan *pl, const struct box *bx, int n)
{
    struct grid g = { .top = HEAD_H };
    int name = 4, label = 3;
    for (int u = 0; u < pl->m.nunits; u++) {
        g.row0[u] = g.nrows;
        g.nrows += pl->m.units[u].count;
        if ((int)strlen(pl->m.units[u].name) + 3 > name) name = (int)strlen(pl->m.units[u].name) + 3;
    }
    for (int x = 0; x < n; x++) {
        int len = (int)strlen(pl->k.inst[bx[x].inst].label) + bx[x].iter;
        if (len > label) label = len;
        if (bx[x].cycle + occupancy(pl, bx[x].inst) > g.ncycles)
            g.ncycles = bx[x].cycle + occupancy(pl, bx[x].inst);
    }
    g.left = PAD + 24 + name * CHAR_W;
    g.cw = label * CHAR_W + 10 > 30 ? label * CHAR_W + 10 : 30;
    return g;
}

static int box_y(const struct grid *g, const struct box *b)
{
    return g->top + (g->row0[b->unit] + b->lane) * ROW_H;
}

static void grid_lines(struct buf *b, const struct plan *pl, const struct grid *g)
{
    int w = g->ncycles * g->cw, h = g->nrows * ROW_H;
    buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">cycle</text>\n",
               g->left + w / 2, g->top - 24);
    for (int c = 0; c <= g->ncycles; c++) {
        buf_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>\n",
                   g->left + c * g->cw, g->top, g->left + c * g->cw, g->top + h);
        if (c < g->ncycles)
            buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%d</text>\n",
                       g->left + c * g->cw + g->cw / 2, g->top - 6, c);
    }
    buf_printf(b, "<text transform=\"translate(%d %d) rotate(-90)\" font-size=\"12\" "
                  "text-anchor=\"middle\">functional unit</text>\n", PAD + 4, g->top + h / 2);
    for (int u = 0; u < pl->m.nunits; u++)
        for (int l = 0; l < pl->m.units[u].count; l++) {
            int y = g->top + (g->row0[u] + l) * ROW_H;
            if ((g->row0[u] + l) % 2 == 0)
                buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f4f4f4\"/>\n",
                           g->left, y, w, ROW_H);
            buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"end\">", g->left - 6,
                       y + ROW_H / 2 + 4);
            esc(b, pl->m.units[u].name);
            if (pl->m.units[u].count > 1) buf_printf(b, " %d", l);
            buf_puts(b, "</text>\n");
        }
    buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888\"/>\n",
               g->left, g->top, w, h);
}

static void draw_box(struct buf *b, const struct plan *pl, const struct grid *g, const struct box *x)
{
    const char *label = pl->k.inst[x->inst].label;
    int bx = g->left + x->cycle * g->cw + 2, by = box_y(g, x) + (ROW_H - BOX_H) / 2;
    int w = occupancy(pl, x->inst) * g->cw - 4;
    buf_printf(b, "<rect class=\"inst iter%d%s\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"3\" "
                  "fill=\"%s\" stroke=\"%s\"%s>",
               x->iter, x->body ? " body" : "", bx, by, w, BOX_H, it_fill[x->iter], it_line[x->iter],
               x->body ? " stroke-width=\"2\"" : " fill-opacity=\"0.45\" stroke-dasharray=\"3 2\"");
    buf_printf(b, "<title>%s%s: iteration %d, cycle %d, %s%s</title></rect>\n", label,
               x->iter ? "'" : "", x->iter, x->cycle, pl->m.units[x->unit].name,
               x->body ? ", kernel loop body" : "");
    buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\"%s>%s%s</text>\n",
               bx + w / 2, by + BOX_H / 2 + 4, x->body ? " font-weight=\"bold\"" : "", label,
               x->iter ? "'" : "");
}

/* The ends of the two iterations: Algorithm 1's interval between them is
 * the kernel's cycles per iteration. */
static void interval_mark(struct buf *b, const struct plan *pl, const struct grid *g,
                          const struct box *bx, int n)
{
    int end[2] = { 0, 0 };
    for (int x = 0; x < n; x++) if (bx[x].cycle > end[bx[x].iter]) end[bx[x].iter] = bx[x].cycle;
    int x0 = g->left + (end[0] + 1) * g->cw, x1 = g->left + (end[1] + 1) * g->cw;
    int y = g->top + g->nrows * ROW_H + 14;
    for (int i = 0; i < 2; i++)
        buf_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\" "
                      "stroke-dasharray=\"6 3\"/>\n", i ? x1 : x0, g->top - 2, i ? x1 : x0, y + 4,
                   it_line[i]);
    buf_printf(b, "<path d=\"M%d %d V%d H%d V%d\" fill=\"none\" stroke=\"#333\"/>\n", x0, y - 4, y, x1, y - 4);
    buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"%s\">iterations end %d cycles "
                  "apart: the kernel loop issues one iteration every %d cycles</text>\n",
               x1, y + 16, x1 > 500 ? "end" : "start", pl->p.kernel_cycles, pl->p.kernel_cycles);
}

static void legend_item(struct buf *b, int x, int y, int iter, bool body, const char *text)
{
    buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"26\" height=\"14\" rx=\"3\" fill=\"%s\" stroke=\"%s\"%s/>\n",
               x, y - 11, it_fill[iter], it_line[iter],
               body ? " stroke-width=\"2\"" : " fill-opacity=\"0.45\" stroke-dasharray=\"3 2\"");
    buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"12\">%s</text>\n", x + 32, y, text);
}

static void head(struct buf *b, const struct plan *pl)
{
    const struct kernel *k = &pl->k;
    buf_printf(b, "<text x=\"%d\" y=\"26\" font-size=\"16\" font-weight=\"bold\">", PAD);
    esc(b, pl->m.name);
    buf_printf(b, " (%s) %s %dx%d, B %s, MaxReg %d: the pipelined schedule</text>\n", pl->t->name,
               elem_names[k->elem], k->mr, k->nr, bstrat_names[k->bs], k->max_regs);
    buf_printf(b, "<text x=\"%d\" y=\"46\" font-size=\"12\">single iteration S: %d cycles; %d of "
                  "the next iteration moved up; kernel %d cycles per iteration, resource bound %.2f; "
                  "FP utilization %.1f%%; max LiveReg %d</text>\n",
               PAD, pl->single_cycles, pl->p.j, pl->p.kernel_cycles, pl->resource_bound,
               100.0 * pl->fp_utilization, pl->p.max_live);
    legend_item(b, PAD, 70, 0, true, "iteration i");
    legend_item(b, PAD + 130, 70, 1, true, "iteration i+1 (')");
    legend_item(b, PAD + 300, 70, 0, true, "");
    legend_item(b, PAD + 318, 70, 1, true, "solid: the kernel loop body (steady state)");
    legend_item(b, PAD + 650, 70, 0, false, "");
    legend_item(b, PAD + 668, 70, 1, false, "dashed: prologue, and iteration i+1's rest (the next trip)");
}

void explain_svg(const struct plan *pl, struct buf *out)
{
    int n;
    struct box *bx = boxes(pl, &n);
    struct grid g = grid_of(pl, bx, n);
    int width = g.left + g.ncycles * g.cw + PAD;
    if (width < 1100) width = 1100;
    struct buf b = { 0 };
    head(&b, pl);
    grid_lines(&b, pl, &g);
    for (int x = 0; x < n; x++) draw_box(&b, pl, &g, &bx[x]);
    interval_mark(&b, pl, &g, bx, n);
    int y = g.top + g.nrows * ROW_H + 50;
    for (int rc = 0; rc < RC_COUNT; rc++)
        if (pl->r.g[rc].nnode) y = rtg_svg_panel(&b, pl, rc, y, width - 2 * PAD) + 10;
    buf_printf(&b, "<text x=\"%d\" y=\"%d\" font-size=\"13\" font-weight=\"bold\">unroll factor UF = %d%s", PAD,
               y + 12, pl->r.uf, pl->r.rotating ? " (least common multiple of the periods)" : "");
    if (pl->r.uf != pl->rtg_uf)
        buf_printf(&b, "; the RTG's %d, raised to the machine file's unroll %d", pl->rtg_uf, pl->m.unroll);
    if (!pl->r.rotating) buf_puts(&b, "; no rotating partition found: a name per value and copy");
    buf_puts(&b, "</text>\n");
    buf_printf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                    "font-family=\"DejaVu Sans, Verdana, sans-serif\">\n", width, y + 30, width, y + 30);
    buf_printf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", width, y + 30);
    rtg_svg_defs(out);
    buf_puts(out, b.s);
    buf_puts(out, "</svg>\n");
    buf_free(&b);
    free(bx);
}
