/* regalloc.c: see regalloc.h. Accumulators are pinned: each is a cycle of
 * its own with period 1 (its update kills the old instance and defines the
 * new one), so the search covers only the values that rotate. */
#include "regalloc.h"
#include "util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct life { int def_pos, def_iter, death_pos, death_dist; };

/* Where each value is defined in Pµ and where its instance dies,
 * counted in kernel executions from its definition. */
static struct life *lifetimes(const struct kernel *k, const struct seq *q)
{
    struct life *l = xcalloc((size_t)k->nval, sizeof *l);
    for (int x = 0; x < q->n; x++) {
        int d = k->inst[q->inst[x]].def;
        if (d >= 0) { l[d].def_pos = x; l[d].def_iter = q->iter[x]; l[d].death_pos = -1; }
    }
    for (int x = 0; x < q->n; x++) {
        const struct inst *in = &k->inst[q->inst[x]];
        for (int s = 0; s < NSRC; s++) {
            int v = in->src[s];
            if (v < 0) continue;
            int dist = l[v].def_iter + in->carried[s] - q->iter[x];
            if (dist > l[v].death_dist || (dist == l[v].death_dist && x > l[v].death_pos)) {
                l[v].death_dist = dist;
                l[v].death_pos = x;
            }
        }
    }
    /* an accumulator read before its update (a complex multiply-add's two
     * rotations) holds its register until the update: pinned as any other.
     * So does one whose next first rotation moved up into this iteration:
     * it dies there, but into the tied value, which keeps the register. */
    for (int v = 0; v < k->nval; v++)
        if (k->val[v].carried && (l[v].death_dist == 0
                                  || (l[v].death_dist == 1 && l[v].death_pos < l[v].def_pos))) {
            l[v].death_dist = 1;
            l[v].death_pos = l[v].def_pos;
        }
    return l;
}

static void add_edge(struct rtg *g, int from, int to, int cross)
{
    g->e = xrealloc(g->e, sizeof *g->e * (size_t)(g->nedge + 1));
    g->e[g->nedge++] = (struct rtg_edge){ from, to, cross };
}

static int class_peak(const struct kernel *k, const struct pipe *p, int rc)
{
    int *live = xmalloc(sizeof *live * (size_t)p->q.n + 1);
    int m = trace_liveness(k, p->q.inst, p->q.iter, p->q.n, rc, live);
    free(live);
    return m / k->rc_units[rc];
}

/* Algorithm 2 for one register class. */
static void build_rtg(struct rtg *g, const struct kernel *k, const struct seq *q,
                      const struct life *l, int rc, int max_regs)
{
    int *node_of = xmalloc(sizeof *node_of * (size_t)k->nval);
    memset(g, 0, sizeof *g);
    g->max_regs = max_regs;
    for (int v = 0; v < k->nval; v++) {
        node_of[v] = -1;
        if ((int)k->val[v].rc != rc || k->val[v].tie >= 0) continue;
        g->live_in += l[v].death_dist;
        g->node_val = xrealloc(g->node_val, sizeof *g->node_val * (size_t)(g->nnode + 1));
        node_of[v] = g->nnode;
        g->node_val[g->nnode++] = v;
    }
    int kfree = max_regs - g->live_in, nv = g->nnode;
    g->npseudo = kfree > 0 ? kfree : 0;
    for (int f = 0; f < g->npseudo; f++) {
        g->node_val = xrealloc(g->node_val, sizeof *g->node_val * (size_t)(g->nnode + 1));
        g->node_val[g->nnode++] = -1;
    }
    bool *dead = xcalloc((size_t)g->nnode, sizeof *dead);
    for (int f = nv; f < g->nnode; f++) dead[f] = true;
    for (int x = 0; x < q->n; x++) {
        for (int v = 0; v < k->nval; v++)
            if (node_of[v] >= 0 && l[v].death_pos == x) { dead[node_of[v]] = true; kfree++; }
        int d = k->inst[q->inst[x]].def;
        if (d < 0 || node_of[d] < 0) continue;
        for (int n = 0; n < g->nnode; n++)
            if (dead[n]) add_edge(g, n, node_of[d], n < nv ? l[g->node_val[n]].death_dist : 0);
        if (--kfree == 0) memset(dead, 0, sizeof *dead * (size_t)g->nnode);
    }
    for (int n = 0; n < g->nnode; n++)
        if (dead[n])
            for (int f = nv; f < g->nnode; f++)
                add_edge(g, n, f, (n < nv ? l[g->node_val[n]].death_dist : 0) + 1);
    free(dead);
    free(node_of);
}

/* Depth-first search over cycle covers (each node one successor, each
 * node one predecessor), within a step budget. out[out_at[n] ..
 * out_at[n+1]) are node n's edges in the RTG's order, so a step costs its
 * out-degree rather than a scan of every edge (several times faster on
 * the large RTGs of POWER), and the search visits
 * covers in the same order as that scan: the same kernels. */
struct search {
    const struct rtg *g;
    const bool *pinned;
    int *succ, *cross, *best_succ, *best_cross;
    int *out, *out_at;
    bool *taken, *seen;
    int best_uf, want_uf, best_ncyc, ncyc;
    bool paper;
    long steps;
};

static int cover_uf(struct search *s, const int *succ, const int *cross)
{
    int n = s->g->nnode, uf = 1, ncyc = 0;
    bool *seen = s->seen;
    memset(seen, 0, (size_t)n * sizeof *seen);
    for (int a = 0; a < n; a++) {
        if (seen[a] || s->pinned[a]) continue;
        int t = 0, x = a;
        do { seen[x] = true; t += cross[x]; x = succ[x]; } while (x != a);
        ncyc++;
        if (t == 0) { uf = -1; break; }      /* impossible: a register used twice at once */
        uf = lcm(uf, t);
        if (uf > 1 << 20) { uf = -1; break; }
    }
    s->ncyc = ncyc;
    return uf;
}

/* --paper: "a UF within [2, 8] if it exists and the smallest otherwise";
 * which one within [2, 8] the paper does not say. Here a power of two
 * first (it divides the usual k), then the fewest cycles, which gives
 * Figure 6's four cycles and UF 4 where 3 to 8 and 10 all occur. */
static bool prefer_paper(int uf, int ncyc, int best, int best_ncyc)
{
    bool in = uf >= 2 && uf <= 8, bin = best >= 2 && best <= 8;
    bool pow2 = in && !(uf & (uf - 1)), bpow2 = bin && !(best & (best - 1));
    if (best < 0) return true;
    if (in != bin) return in;
    if (!in) return uf < best;
    if (pow2 != bpow2) return pow2;
    return uf < best || (uf == best && ncyc < best_ncyc);
}

static bool prefer(int uf, int best, int want)
{
    if (want > 0) return want % uf == 0 && (best < 0 || uf < best);
    bool in = uf >= 2 && uf <= 8, bin = best >= 2 && best <= 8;
    if (best < 0) return true;
    if (in != bin) return in;
    return uf < best;
}

static bool done_searching(const struct search *s)
{
    return s->steps > 400000 || (s->want_uf <= 0 && s->best_uf == 2 && !s->paper) ||
           (s->want_uf > 0 && s->best_uf == 1);
}

static void dfs(struct search *s, int n)
{
    if (done_searching(s)) return;
    s->steps++;
    const struct rtg *g = s->g;
    while (n < g->nnode && s->pinned[n]) n++;
    if (n == g->nnode) {
        int uf = cover_uf(s, s->succ, s->cross);
        bool better = s->paper && s->want_uf <= 0 ? prefer_paper(uf, s->ncyc, s->best_uf, s->best_ncyc)
                                                   : prefer(uf, s->best_uf, s->want_uf);
        if (uf > 0 && better) {
            s->best_uf = uf;
            s->best_ncyc = s->ncyc;
            memcpy(s->best_succ, s->succ, sizeof *s->succ * (size_t)g->nnode);
            memcpy(s->best_cross, s->cross, sizeof *s->cross * (size_t)g->nnode);
        }
        return;
    }
    for (int i = s->out_at[n]; i < s->out_at[n + 1]; i++) {
        const struct rtg_edge *e = &g->e[s->out[i]];
        if (s->taken[e->to] || s->pinned[e->to]) continue;
        s->taken[e->to] = true;
        s->succ[n] = e->to;
        s->cross[n] = e->cross;
        dfs(s, n + 1);
        s->taken[e->to] = false;
        if (done_searching(s)) return;
    }
}

/* s->out and s->out_at: the edges grouped by source node, in order. */
static void index_edges(struct search *s)
{
    const struct rtg *g = s->g;
    s->out_at = xcalloc((size_t)g->nnode + 1, sizeof(int));
    s->out = xcalloc((size_t)g->nedge + 1, sizeof(int));
    for (int x = 0; x < g->nedge; x++) s->out_at[g->e[x].from + 1]++;
    for (int n = 0; n < g->nnode; n++) s->out_at[n + 1] += s->out_at[n];
    int *fill = xcalloc((size_t)g->nnode + 1, sizeof(int));
    for (int x = 0; x < g->nedge; x++) s->out[s->out_at[g->e[x].from] + fill[g->e[x].from]++] = x;
    free(fill);
}

/* Pinned: accumulators whose self edge exists (crossing 1); none with
 * --paper, whose Figure 6 rotates two of them. */
static bool *pin(const struct rtg *g, const struct kernel *k)
{
    bool *p = xcalloc((size_t)g->nnode, sizeof *p);
    if (k->paper) return p;
    for (int x = 0; x < g->nedge; x++) {
        const struct rtg_edge *e = &g->e[x];
        if (e->from == e->to && e->cross == 1 && g->node_val[e->from] >= 0 &&
            k->val[g->node_val[e->from]].carried)
            p[e->from] = true;
    }
    return p;
}

/* The edge from n to succ crossing `cross` iterations (the cover's step). */
static int edge_of(const struct rtg *g, int n, int succ, int cross)
{
    for (int x = 0; x < g->nedge; x++)
        if (g->e[x].from == n && g->e[x].to == succ && g->e[x].cross == cross) return x;
    return -1;
}

static void assign_class(struct rot *r, const struct kernel *k, struct rtg *g,
                         const bool *pinned, const int *succ, const int *cross, int rc)
{
    int next = 0;
    g->cover_edge = xmalloc(sizeof *g->cover_edge * (size_t)g->nnode);
    g->cycle = xmalloc(sizeof *g->cycle * (size_t)g->nnode);
    for (int n = 0; n < g->nnode; n++) {
        g->cover_edge[n] = pinned[n] ? -1 : edge_of(g, n, succ[n], cross[n]);
        g->cycle[n] = -1;
    }
    for (int n = 0; n < g->nnode; n++)
        if (pinned[n]) {
            int v = g->node_val[n];
            r->reg0[v] = next++; r->period[v] = 1; r->off[v] = 0;
        }
    bool *seen = xcalloc((size_t)g->nnode, sizeof *seen);
    for (int a = 0; a < g->nnode; a++) {
        if (seen[a] || pinned[a]) continue;
        int t = 0, x = a, real = 0;
        char text[256] = "";
        do {
            seen[x] = true;
            int v = g->node_val[x];
            if (v >= 0) { r->off[v] = t; real++; }
            size_t len = strlen(text);
            snprintf(text + len, sizeof text - len, "%s%s", len ? "->" : "",
                     v >= 0 ? k->val[v].name : "F");
            t += cross[x];
            x = succ[x];
        } while (x != a);
        for (x = a;; x = succ[x]) {
            int v = g->node_val[x];
            if (v >= 0) { r->reg0[v] = next; r->period[v] = t; }
            if (succ[x] == a) break;
        }
        if (real) {
            for (x = a;; x = succ[x]) {
                g->cycle[x] = r->ncycles;
                if (succ[x] == a) break;
            }
            next += t;
            r->cycle_period = xrealloc(r->cycle_period, sizeof *r->cycle_period * (size_t)(r->ncycles + 1));
            r->cycle_text = xrealloc(r->cycle_text, sizeof *r->cycle_text * (size_t)(r->ncycles + 1));
            r->cycle_period[r->ncycles] = t;
            snprintf(r->cycle_text[r->ncycles++], 256, "%s", text);
        }
    }
    r->nregs[rc] = next;
    free(seen);
}

/* No partition: every value keeps a name of its own per copy (the C
 * compiler allocates), and the loop is unrolled as asked or not at all. */
/* A tied value takes the register of the value it is tied to. */
static void place_tied(struct rot *r, const struct kernel *k)
{
    for (int v = 0; v < k->nval; v++) {
        int t = k->val[v].tie;
        if (t >= 0) { r->reg0[v] = r->reg0[t]; r->period[v] = r->period[t]; r->off[v] = r->off[t]; }
    }
}

/* Copies an instance must survive before its name may be reused. */
static int required_period(const struct life *l)
{
    return l->death_dist + (l->death_pos > l->def_pos ? 1 : 0) > 1
               ? l->death_dist + (l->death_pos > l->def_pos ? 1 : 0) : 1;
}

static int divisor_at_least(int uf, int need)
{
    for (int p = need; p <= uf; p++) if (uf % p == 0) return p;
    return 0;
}

static void virtual_names(struct rot *r, const struct kernel *k, const struct life *l, int want_uf)
{
    r->rotating = false;
    r->uf = want_uf > 0 ? want_uf : 1;
    for (int v = 0; v < k->nval; v++)
        if (!divisor_at_least(r->uf, required_period(&l[v]))) r->uf = lcm(r->uf, required_period(&l[v]));
    int next[RC_COUNT] = { 0 };
    for (int v = 0; v < k->nval; v++) {
        if (k->val[v].tie >= 0) continue;
        int rc = k->val[v].rc, per = divisor_at_least(r->uf, required_period(&l[v]));
        r->reg0[v] = next[rc]; r->period[v] = per; r->off[v] = 0;
        next[rc] += per;
    }
    memcpy(r->nregs, next, sizeof next);
}

static bool allocate_class(struct rot *r, const struct kernel *k, const struct pipe *p,
                           const struct life *l, int rc, int budget, int want_uf, int *uf)
{
    struct rtg *g = &r->g[rc];
    build_rtg(g, k, &p->q, l, rc, budget);
    if (g->nnode == 0) return true;
    struct search s = { .g = g, .best_uf = -1, .want_uf = want_uf, .paper = k->paper };
    s.pinned = pin(g, k);
    s.succ = xcalloc((size_t)g->nnode, sizeof(int));
    s.cross = xcalloc((size_t)g->nnode, sizeof(int));
    s.best_succ = xcalloc((size_t)g->nnode, sizeof(int));
    s.best_cross = xcalloc((size_t)g->nnode, sizeof(int));
    s.taken = xcalloc((size_t)g->nnode, sizeof(bool));
    s.seen = xcalloc((size_t)g->nnode, sizeof(bool));
    index_edges(&s);
    dfs(&s, 0);
    bool ok = s.best_uf > 0;
    if (ok) {
        assign_class(r, k, g, s.pinned, s.best_succ, s.best_cross, rc);
        *uf = lcm(*uf, s.best_uf);
    }
    free((void *)s.pinned); free(s.succ); free(s.cross); free(s.best_succ); free(s.best_cross);
    free(s.taken); free(s.seen); free(s.out); free(s.out_at);
    return ok;
}

void regalloc(struct rot *r, const struct kernel *k, const struct pipe *p, int want_uf)
{
    memset(r, 0, sizeof *r);
    r->reg0 = xcalloc((size_t)k->nval, sizeof *r->reg0);
    r->period = xcalloc((size_t)k->nval, sizeof *r->period);
    r->off = xcalloc((size_t)k->nval, sizeof *r->off);
    struct life *l = lifetimes(k, &p->q);
    /* Classes other than plain vectors get their peak; vectors the rest. */
    int budget[RC_COUNT], rest = k->max_regs;
    for (int rc = RC_PAIR; rc < RC_COUNT; rc++) {
        budget[rc] = class_peak(k, p, rc);
        rest -= budget[rc] * k->rc_units[rc];
    }
    budget[RC_VEC] = rest;
    int uf = 1;
    r->rotating = true;
    for (int rc = 0; rc < RC_COUNT && r->rotating; rc++)
        r->rotating = allocate_class(r, k, p, l, rc, budget[rc], want_uf, &uf);
    r->uf = want_uf > 0 ? want_uf : uf;
    if (!r->rotating || (want_uf > 0 && want_uf % uf)) virtual_names(r, k, l, want_uf);
    place_tied(r, k);
    free(l);
}

int rot_reg(const struct rot *r, int v, int copy)
{
    int t = r->period[v];
    return r->reg0[v] + (((r->off[v] - copy) % t) + t) % t;
}

void rot_free(struct rot *r, const struct kernel *k)
{
    (void)k;
    for (int rc = 0; rc < RC_COUNT; rc++) {
        free(r->g[rc].node_val); free(r->g[rc].e); free(r->g[rc].cover_edge); free(r->g[rc].cycle);
    }
    free(r->reg0); free(r->period); free(r->off); free(r->cycle_period); free(r->cycle_text);
    memset(r, 0, sizeof *r);
}
