/* rtg_svg.c: the register transfer graph of --explain=svg: a node per
 * register, the chosen partition's cycles as coloured rings, the pinned
 * accumulators in a row, the other transfers faint. */
#include "plan.h"
#include "util.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

enum { PAD = 16, NODE_R = 17 };   /* PAD: explain_svg.c's margin */

enum { NCOLOUR = 7 };
static const char *const colour[NCOLOUR] = { "#1b9e77", "#d95f02", "#7570b3", "#e7298a",
                                             "#66a61e", "#b8860b", "#1f78b4" };
static const char *const rc_title[RC_COUNT] = { "vector", "pair", "accumulator" };

struct node_pos { double x, y; };

struct ring { int first, n; };   /* nodes on one cover cycle, in order of the cycle */

static int succ_of(const struct rtg *g, int n)
{
    return g->cover_edge && g->cover_edge[n] >= 0 ? g->e[g->cover_edge[n]].to : -1;
}

static void node_name(char out[24], const struct plan *pl, const struct rtg *g, int n)
{
    int v = g->node_val[n];
    if (v >= 0) snprintf(out, 24, "%s", pl->k.val[v].name);
    else snprintf(out, 24, "F%d", n - (g->nnode - g->npseudo));
}

/* The cover's cycles as rings (in node order of their first node), then
 * the nodes on none (pinned accumulators) as one row. `order` lists the
 * nodes ring by ring. */
static int rings_of(const struct rtg *g, int *order, struct ring *rg, int *npinned)
{
    bool *seen = xcalloc((size_t)g->nnode + 1, sizeof *seen);
    int nr = 0, at = 0;
    for (int a = 0; a < g->nnode; a++) {
        if (seen[a] || succ_of(g, a) < 0) continue;
        rg[nr].first = at;
        for (int x = a; !seen[x] && x >= 0; x = succ_of(g, x)) { seen[x] = true; order[at++] = x; }
        rg[nr].n = at - rg[nr].first;
        nr++;
    }
    *npinned = 0;
    for (int a = 0; a < g->nnode; a++)
        if (!seen[a]) { order[at++] = a; (*npinned)++; }
    free(seen);
    return nr;
}

static double ring_radius(int n)
{
    if (n <= 1) return 0;
    if (n == 2) return 40;
    double r = n * (2.0 * NODE_R + 30) / (2 * PI);
    return r > 48 ? r : 48;
}

static void arrow(struct buf *b, const char *d, const char *col, double width, int marker)
{
    buf_printf(b, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\" marker-end=\"url(#m%d)\"/>\n",
               d, col, width, marker);
}

static void self_loop(struct buf *b, struct node_pos p, const char *col, double width, int marker)
{
    char d[160];
    snprintf(d, sizeof d, "M%.1f %.1f C%.1f %.1f %.1f %.1f %.1f %.1f", p.x - 9, p.y - NODE_R + 3,
             p.x - 30, p.y - NODE_R - 36, p.x + 30, p.y - NODE_R - 36, p.x + 9, p.y - NODE_R + 3);
    arrow(b, d, col, width, marker);
}

/* A cover edge bends to the left of its direction: outward on a ring
 * drawn clockwise, and apart for the two edges of a two-node ring. */
static void bent_edge(struct buf *b, struct node_pos p, struct node_pos q, const char *col, int marker,
                      int cross)
{
    double dx = q.x - p.x, dy = q.y - p.y, len = sqrt(dx * dx + dy * dy);
    double cx = (p.x + q.x) / 2 + dy * 0.25, cy = (p.y + q.y) / 2 - dx * 0.25;
    double ax = cx - p.x, ay = cy - p.y, al = sqrt(ax * ax + ay * ay);
    double bx = cx - q.x, by = cy - q.y, bl = sqrt(bx * bx + by * by);
    char d[200];
    snprintf(d, sizeof d, "M%.1f %.1f Q%.1f %.1f %.1f %.1f", p.x + ax / al * NODE_R, p.y + ay / al * NODE_R,
             cx, cy, q.x + bx / bl * (NODE_R + 1), q.y + by / bl * (NODE_R + 1));
    arrow(b, d, col, 2.5, marker);
    if (cross && len > 0)
        buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"%s\" text-anchor=\"middle\" "
                      "font-weight=\"bold\">+%d</text>\n",
                   (p.x + q.x) / 4 + cx / 2 + dy / len * (10 + 6 * fabs(dy) / len), (p.y + q.y) / 4 + cy / 2 - dx / len * 10 + 4,
                   col, cross);
}

static void straight_edge(struct buf *b, struct node_pos p, struct node_pos q)
{
    double dx = q.x - p.x, dy = q.y - p.y, len = sqrt(dx * dx + dy * dy);
    if (len < 1) return;
    char d[160];
    snprintf(d, sizeof d, "M%.1f %.1f L%.1f %.1f", p.x + dx / len * NODE_R, p.y + dy / len * NODE_R,
             q.x - dx / len * (NODE_R + 1), q.y - dy / len * (NODE_R + 1));
    arrow(b, d, "#c4c4c4", 1.0, NCOLOUR);
}

static const char *cycle_colour(const struct rtg *g, int n)
{
    return g->cycle && g->cycle[n] >= 0 ? colour[g->cycle[n] % NCOLOUR] : "#777";
}

/* Node positions of the rings, left to right, wrapping at `width`.
 * Returns the height used. */
static int place_rings(const int *order, const struct ring *rg, int nr, int x0, int y0, int width,
                       struct node_pos *pos)
{
    int x = x0, y = y0, row_h = 0;
    for (int r = 0; r < nr; r++) {
        double rad = ring_radius(rg[r].n);
        int size = (int)(2 * rad) + 2 * NODE_R + 44, lift = rg[r].n == 1 ? 18 : 0;
        if (x > x0 && x + size > x0 + width) { x = x0; y += row_h; row_h = 0; }
        for (int i = 0; i < rg[r].n; i++) {
            double a = -PI / 2 + 2 * PI * i / rg[r].n;
            pos[order[rg[r].first + i]] = (struct node_pos){ x + size / 2.0 + rad * cos(a),
                                                              y + size / 2.0 + rad * sin(a) + lift };
        }
        x += size;
        if (size + 10 > row_h) row_h = size + 10;
    }
    return x > x0 ? y + row_h - y0 : 0;
}

/* The n nodes of `row` in rows under y0, room above each for its self
 * loop. Returns the height used. */
static int place_row(const int *row, int n, int x0, int y0, int width, struct node_pos *pos)
{
    int step = 2 * NODE_R + 30, per_row = width / step > 0 ? width / step : 1;
    for (int i = 0; i < n; i++)
        pos[row[i]] = (struct node_pos){ x0 + NODE_R + 20 + (i % per_row) * step,
                                         y0 + 44 + NODE_R + (i / per_row) * (step + 30) };
    return n ? 44 + (n - 1) / per_row * (step + 30) + 2 * NODE_R + 16 : 0;
}

static bool is_cover(const struct rtg *g, int e)
{
    return g->cover_edge && g->cover_edge[g->e[e].from] == e;
}

/* The transfers not on the cover, faint, once per pair of nodes. */
static void other_edges(struct buf *b, const struct rtg *g, const struct node_pos *pos)
{
    for (int e = 0; e < g->nedge; e++) {
        int f = g->e[e].from, t = g->e[e].to, dup = 0;
        if (is_cover(g, e)) continue;
        for (int x = 0; x < e && !dup; x++)
            dup = g->e[x].from == f && g->e[x].to == t && !is_cover(g, x);
        if (dup) continue;
        if (f == t && succ_of(g, f) < 0) continue;   /* a pinned accumulator: drawn as such */
        if (f == t) self_loop(b, pos[f], "#c4c4c4", 1.0, NCOLOUR);
        else straight_edge(b, pos[f], pos[t]);
    }
}

static void nodes(struct buf *b, const struct plan *pl, const struct rtg *g, const struct node_pos *pos)
{
    for (int n = 0; n < g->nnode; n++) {
        char name[24];
        node_name(name, pl, g, n);
        buf_printf(b, "<circle class=\"node\" cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" fill=\"#fff\" stroke=\"%s\" "
                      "stroke-width=\"2\"%s/>\n", pos[n].x, pos[n].y, NODE_R, cycle_colour(g, n),
                   g->node_val[n] < 0 ? " stroke-dasharray=\"4 3\"" : "");
        buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"middle\">%s</text>\n",
                   pos[n].x, pos[n].y + 4, strlen(name) > 4 ? 9 : 11, name);
    }
}

static int rtg_caption(struct buf *b, const struct plan *pl, const struct rtg *g, int rc, int y)
{
    buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"14\" font-weight=\"bold\">Register transfer graph "
                  "(%s registers): %d nodes (%d pseudo), %d edges, MaxReg %d</text>\n",
               PAD, y, rc_title[rc], g->nnode, g->npseudo, g->nedge, g->max_regs);
    buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"12\">node: a value's register (F: a free one); "
                  "arrow: the register passes to the next value; +n: across n iterations. "
                  "A cycle's registers rotate; its period is the sum of its +n.</text>\n", PAD, y + 18);
    y += 38;
    for (int c = 0; c < pl->r.ncycles && g->cycle; c++) {
        bool here = false;
        for (int n = 0; n < g->nnode; n++) here |= g->cycle[n] == c;
        if (!here) continue;
        buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"12\" fill=\"%s\" font-weight=\"bold\">", PAD + 10, y,
                   colour[c % NCOLOUR]);
        for (const char *s = pl->r.cycle_text[c]; *s; s++)
            if (s[0] == '-' && s[1] == '>') { buf_puts(b, " \xe2\x86\x92 "); s++; }
            else buf_printf(b, "%c", *s);
        buf_printf(b, ": period %d</text>\n", pl->r.cycle_period[c]);
        y += 16;
    }
    return y;
}

/* Transfers drawn faint beside the cover: beyond this many they would
 * hide it. */
enum { MAX_FAINT_EDGES = 160 };

int rtg_svg_panel(struct buf *b, const struct plan *pl, int rc, int y, int width)
{
    const struct rtg *g = &pl->r.g[rc];
    int *order = xcalloc((size_t)g->nnode + 1, sizeof *order), npinned;
    struct ring *rg = xcalloc((size_t)g->nnode + 1, sizeof *rg);
    struct node_pos *pos = xcalloc((size_t)g->nnode + 1, sizeof *pos);
    int nr = rings_of(g, order, rg, &npinned);
    y = rtg_caption(b, pl, g, rc, y + 24);
    y += place_rings(order, rg, nr, PAD, y, width, pos);
    int pinned_y = y + 14;
    if (npinned) y += 20 + place_row(order + g->nnode - npinned, npinned, PAD, y + 20, width, pos);
    if (g->nedge <= MAX_FAINT_EDGES) other_edges(b, g, pos);
    else buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"12\" fill=\"#555\">(the transfers off the "
                       "cycles are left out: %d are too many to draw)</text>\n", PAD, y + 4, g->nedge);
    for (int n = 0; n < g->nnode; n++) {
        int s = succ_of(g, n);
        int marker = s >= 0 && g->cycle[n] >= 0 ? g->cycle[n] % NCOLOUR : NCOLOUR + 1;
        if (s < 0 && pl->r.rotating) self_loop(b, pos[n], "#777", 2.0, marker);   /* pinned */
        else if (s == n) self_loop(b, pos[n], cycle_colour(g, n), 2.5, marker);
        else if (s >= 0) bent_edge(b, pos[n], pos[s], cycle_colour(g, n), marker, g->e[g->cover_edge[n]].cross);
    }
    nodes(b, pl, g, pos);
    if (npinned)
        buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"12\" stroke=\"#fff\" stroke-width=\"4\" "
                      "paint-order=\"stroke\">%d %s</text>\n", PAD, pinned_y, npinned,
                   pl->r.rotating ? "accumulators on no cycle: each pinned to one register (period 1)"
                                  : "values: no rotating partition found, a register name per value and copy");
    free(order); free(rg); free(pos);
    return y + (g->nedge > MAX_FAINT_EDGES ? 14 : 0);
}

void rtg_svg_defs(struct buf *b)
{
    buf_puts(b, "<defs>\n");
    for (int m = 0; m < NCOLOUR + 2; m++)
        buf_printf(b, "<marker id=\"m%d\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"%d\" "
                      "markerHeight=\"%d\" markerUnits=\"userSpaceOnUse\" orient=\"auto\"><path d=\"M0 0 L10 5 "
                      "L0 10 z\" fill=\"%s\"/></marker>\n",
                   m, m == NCOLOUR ? 7 : 10, m == NCOLOUR ? 7 : 10,
                   m < NCOLOUR ? colour[m] : m == NCOLOUR ? "#c4c4c4" : "#777");
    buf_puts(b, "</defs>\n");
}

