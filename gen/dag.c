/* dag.c: true dependences through values, the pointer bump after every
 * access of its stream that precedes it in the IR (anti-dependence,
 * latency 0) and before every one that follows it (--paper: the B
 * prefetch addresses the bumped pointer), and the carried edges: bump ->
 * next iteration's earlier accesses, later accesses -> next bump,
 * accumulator -> its next update. */
#include "dag.h"
#include "util.h"
#include <stdlib.h>

static void add_edge(struct dag *g, int from, int to, int lat, bool carried)
{
    g->e = xrealloc(g->e, sizeof *g->e * (size_t)(g->nedge + 1));
    g->e[g->nedge++] = (struct edge){ from, to, lat, carried };
}

static bool is_access(const struct inst *in)
{
    return in->op == OP_LOAD_A || in->op == OP_LOAD_B || in->op == OP_BCAST_B ||
           in->op == OP_PREFETCH;
}

static void value_edges(struct dag *g, const struct kernel *k)
{
    for (int i = 0; i < k->ninst; i++)
        for (int s = 0; s < NSRC; s++) {
            int v = k->inst[i].src[s];
            if (v < 0) continue;
            int d = k->val[v].def;
            add_edge(g, d, i, k->m->ic[k->inst[d].ic].latency, k->inst[i].carried[s]);
        }
}

static void pointer_edges(struct dag *g, const struct kernel *k)
{
    for (int p = 0; p < k->ninst; p++) {
        if (k->inst[p].op != OP_PTR_ADD) continue;
        for (int i = 0; i < k->ninst; i++) {
            if (!is_access(&k->inst[i]) || k->inst[i].stream != k->inst[p].stream) continue;
            bool before = i < p;
            add_edge(g, before ? i : p, before ? p : i, before ? 0 : k->m->ic[IC_IADD].latency, false);
            add_edge(g, before ? p : i, before ? i : p, before ? k->m->ic[IC_IADD].latency : 0, true);
        }
    }
}

/* Relaxes heights and depths once over all edges; true when nothing moved. */
static bool relax(struct dag *g)
{
    bool still = true;
    for (int pass = 0; pass < 2; pass++)
        for (int x = 0; x < g->nedge; x++) {
            const struct edge *e = &g->e[pass ? x : g->nedge - 1 - x];
            if (e->carried) continue;
            if (pass == 0) {
                int h = e->lat + g->height[e->to];
                if (h > g->height[e->from]) { g->height[e->from] = h; still = false; }
            } else {
                int d = g->depth[e->from] + e->lat;
                if (d > g->depth[e->to]) { g->depth[e->to] = d; still = false; }
            }
        }
    return still;
}

void dag_build(struct dag *g, const struct kernel *k)
{
    *g = (struct dag){ .n = k->ninst };
    value_edges(g, k);
    pointer_edges(g, k);
    g->height = xcalloc((size_t)g->n, sizeof *g->height);
    g->depth = xcalloc((size_t)g->n, sizeof *g->depth);
    g->npred = xcalloc((size_t)g->n, sizeof *g->npred);
    for (int i = 0; i < g->n; i++) g->height[i] = k->m->ic[k->inst[i].ic].latency;
    while (!relax(g)) {}   /* the graph is acyclic without carried edges */
    g->succ_at = xcalloc((size_t)g->n + 1, sizeof *g->succ_at);
    g->succ = xcalloc((size_t)g->nedge + 1, sizeof *g->succ);
    for (int x = 0; x < g->nedge; x++)
        if (!g->e[x].carried) { g->npred[g->e[x].to]++; g->succ_at[g->e[x].from + 1]++; }
    for (int i = 0; i < g->n; i++) g->succ_at[i + 1] += g->succ_at[i];
    int *fill = xcalloc((size_t)g->n, sizeof *fill);
    for (int x = 0; x < g->nedge; x++)
        if (!g->e[x].carried) g->succ[g->succ_at[g->e[x].from] + fill[g->e[x].from]++] = g->e[x].to;
    free(fill);
}

void dag_free(struct dag *g)
{
    free(g->e); free(g->height); free(g->depth); free(g->npred); free(g->succ_at); free(g->succ);
}
