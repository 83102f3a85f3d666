/* sched.c: single-iteration list scheduling with POCA's eight heuristics
 * (Table 2), applied in order, each breaking the previous one's ties:
 * RegPress, EarliestCycle, BalancedWKLD, FPFirst, MaxRelease, MinDepth,
 * MaxHeight, InstOrder. */
#include "sched.h"
#include "util.h"
#include <stdlib.h>
#include <string.h>

void seq_alloc(struct seq *s, int n)
{
    s->n = n;
    s->inst = xcalloc((size_t)n + 1, sizeof *s->inst);
    s->iter = xcalloc((size_t)n + 1, sizeof *s->iter);
    s->cycle = xcalloc((size_t)n + 1, sizeof *s->cycle);
    s->live = xcalloc((size_t)n + 1, sizeof *s->live);
}

void seq_free(struct seq *s)
{
    free(s->inst); free(s->iter); free(s->cycle); free(s->live);
    memset(s, 0, sizeof *s);
}

struct state {
    const struct kernel *k;
    const struct dag *g;
    struct rtab rt;
    bool *done;
    int *cycle;       /* per instruction, once scheduled */
    int *left;        /* per value: non-carried uses not yet scheduled */
    int *left_prev;   /* per value: carried uses (previous instance) left */
    int *preds_left;
    int live, last;   /* LiveReg; instruction scheduled last */
};

/* Units freed by scheduling i: operands whose last use this is. */
static int killed_units(const struct state *st, int i)
{
    const struct inst *in = &st->k->inst[i];
    int freed = 0;
    for (int s = 0; s < NSRC; s++) {
        int v = in->src[s];
        if (v < 0) continue;
        bool dup = false;
        for (int t = 0; t < s; t++) dup |= in->src[t] == v && in->carried[t] == in->carried[s];
        if (dup) continue;
        int left = in->carried[s] ? st->left_prev[v] : st->left[v];
        if (left == 1 && (in->carried[s] || !st->k->val[v].carried))
            freed += st->k->rc_units[st->k->val[v].rc];
    }
    return freed;
}

static int def_units(const struct state *st, int i)
{
    int d = st->k->inst[i].def;
    return d < 0 ? 0 : st->k->rc_units[st->k->val[d].rc];
}

static int ready_cycle(const struct state *st, int i)
{
    int r = 0;
    for (int x = 0; x < st->g->nedge; x++) {
        const struct edge *e = &st->g->e[x];
        if (e->to == i && !e->carried && st->cycle[e->from] + e->lat > r)
            r = st->cycle[e->from] + e->lat;
    }
    return r;
}

static bool share_unit(const struct machine *m, enum iclass a, enum iclass b)
{
    for (int x = 0; x < m->ic[a].nalt; x++)
        for (int y = 0; y < m->ic[b].nalt; y++)
            if (m->ic[a].alt[x] == m->ic[b].alt[y]) return true;
    return false;
}

/* Instructions that become ready once i is scheduled. */
static int releases(const struct state *st, int i)
{
    int n = 0;
    for (int x = 0; x < st->g->nedge; x++) {
        const struct edge *e = &st->g->e[x];
        if (e->from == i && !e->carried && st->preds_left[e->to] == 1) n++;
    }
    return n;
}

struct score { int v[8]; };   /* larger is better, compared in order */

static struct score score_of(struct state *st, int i, int pos)
{
    const struct kernel *k = st->k;
    const struct timing *t = &k->m->ic[k->inst[i].ic];
    struct score s;
    s.v[0] = st->live + def_units(st, i) - killed_units(st, i) <= k->max_regs;   /* RegPress */
    s.v[1] = -rt_earliest(&st->rt, t, ready_cycle(st, i), pos);                 /* EarliestCycle */
    s.v[2] = st->last < 0 || !share_unit(k->m, k->inst[st->last].ic, k->inst[i].ic); /* BalancedWKLD */
    s.v[3] = k->inst[i].fp;                                                      /* FPFirst */
    s.v[4] = releases(st, i);                                                    /* MaxRelease */
    s.v[5] = -st->g->depth[i];                                                   /* MinDepth */
    s.v[6] = st->g->height[i];                                                   /* MaxHeight */
    s.v[7] = -i;                                                                 /* InstOrder */
    return s;
}

static bool beats(const struct score *a, const struct score *b)
{
    for (int h = 0; h < 8; h++)
        if (a->v[h] != b->v[h]) return a->v[h] > b->v[h];
    return false;
}

static void commit(struct state *st, int i, int c)
{
    const struct kernel *k = st->k;
    st->live += def_units(st, i) - killed_units(st, i);
    const struct inst *in = &k->inst[i];
    for (int s = 0; s < NSRC; s++) {
        int v = in->src[s];
        bool dup = false;
        for (int t = 0; t < s; t++) dup |= in->src[t] == v && in->carried[t] == in->carried[s];
        if (v < 0 || dup) continue;
        if (in->carried[s]) st->left_prev[v]--; else st->left[v]--;
    }
    for (int x = 0; x < st->g->nedge; x++)
        if (st->g->e[x].from == i && !st->g->e[x].carried) st->preds_left[st->g->e[x].to]--;
    rt_place(&st->rt, &k->m->ic[in->ic], c);
    st->cycle[i] = c;
    st->done[i] = true;
    st->last = i;
}

static void state_init(struct state *st, const struct kernel *k, const struct dag *g)
{
    *st = (struct state){ .k = k, .g = g, .last = -1 };
    rt_init(&st->rt, k->m);
    st->done = xcalloc((size_t)k->ninst, sizeof *st->done);
    st->cycle = xcalloc((size_t)k->ninst, sizeof *st->cycle);
    st->left = xcalloc((size_t)k->nval, sizeof *st->left);
    st->left_prev = xcalloc((size_t)k->nval, sizeof *st->left_prev);
    st->preds_left = xcalloc((size_t)k->ninst, sizeof *st->preds_left);
    memcpy(st->preds_left, g->npred, sizeof *st->preds_left * (size_t)k->ninst);
    for (int i = 0; i < k->ninst; i++)
        for (int s = 0; s < NSRC; s++) {
            int v = k->inst[i].src[s];
            bool dup = false;
            for (int t = 0; t < s; t++) dup |= k->inst[i].src[t] == v && k->inst[i].carried[t] == k->inst[i].carried[s];
            if (v < 0 || dup) continue;
            if (k->inst[i].carried[s]) st->left_prev[v]++; else st->left[v]++;
        }
    for (int a = 0; a < k->nacc; a++) st->live += k->rc_units[k->val[k->acc[a]].rc];
}

static void state_free(struct state *st)
{
    rt_free(&st->rt);
    free(st->done); free(st->cycle); free(st->left); free(st->left_prev); free(st->preds_left);
}

static int pick(struct state *st, int pos, bool list)
{
    int best = -1;
    struct score bs = { { 0 } };
    for (int i = 0; i < st->k->ninst; i++) {
        if (st->done[i] || st->preds_left[i]) continue;
        if (!list) return i;   /* IR order */
        struct score s = score_of(st, i, pos);
        if (best < 0 || beats(&s, &bs)) { best = i; bs = s; }
    }
    return best;
}

int schedule_single(struct seq *s, const struct kernel *k, const struct dag *g,
                    struct sched_opts o)
{
    struct state st;
    state_init(&st, k, g);
    seq_alloc(s, k->ninst);
    int len = 0;
    for (int pos = 0; pos < k->ninst; pos++) {
        int i = pick(&st, pos, o.list_schedule);
        int c = rt_earliest(&st.rt, &k->m->ic[k->inst[i].ic], ready_cycle(&st, i), pos);
        commit(&st, i, c);
        s->inst[pos] = i;
        s->cycle[pos] = c;
        s->live[pos] = st.live;
        if (c > len) len = c;
    }
    state_free(&st);
    return len;
}
