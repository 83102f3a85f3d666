/* sched.c: single-iteration list scheduling with POCA's eight heuristics
 * (Table 2), applied in order, each breaking the previous one's ties:
 * RegPress, EarliestCycle, BalancedWKLD, FPFirst, MaxRelease, MinDepth,
 * MaxHeight, InstOrder. RegPress here also asks that the rest of the
 * iteration stay schedulable within MaxReg, so the greedy choice never
 * paints itself into a corner the paper's shapes merely avoid (not with
 * --paper: method.c lists the differences). */
#include "pressure.h"
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
    s->unit = xcalloc((size_t)n + 1, sizeof *s->unit);
}

void seq_free(struct seq *s)
{
    free(s->inst); free(s->iter); free(s->cycle); free(s->live); free(s->unit);
    memset(s, 0, sizeof *s);
}

struct state {
    const struct kernel *k;
    const struct dag *g;
    struct press pr;
    struct rtab rt;
    int *cycle;       /* per instruction, once scheduled */
    int last;         /* instruction scheduled last */
};

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

/* Units a and b may both use; --paper: only a unit there is one of
 * clashes (the paper's sets of units: Table 3 puts A0 beside B0 on
 * Sandy Bridge's second load port). */
static bool share_unit(const struct machine *m, enum iclass a, enum iclass b, bool paper)
{
    for (int x = 0; x < m->ic[a].nalt; x++)
        for (int y = 0; y < m->ic[b].nalt; y++)
            if (m->ic[a].alt[x] == m->ic[b].alt[y] && (!paper || m->units[m->ic[a].alt[x]].count == 1))
                return true;
    return false;
}

/* Instructions that become ready once i is scheduled. */
static int releases(const struct state *st, int i)
{
    int n = 0;
    for (int x = st->g->succ_at[i]; x < st->g->succ_at[i + 1]; x++)
        n += st->pr.preds_left[st->g->succ[x]] == 1;
    return n;
}

struct score { int v[8]; };   /* larger is better, compared in order */

static struct score score_of(struct state *st, int i, int pos)
{
    const struct kernel *k = st->k;
    const struct timing *t = &k->m->ic[k->inst[i].ic];
    struct score s;
    s.v[0] = st->pr.live + press_delta(&st->pr, i) <= k->max_regs &&
             (k->paper || press_completable(&st->pr, i));                        /* RegPress */
    s.v[1] = -rt_earliest(&st->rt, t, ready_cycle(st, i), pos);                 /* EarliestCycle */
    s.v[2] = st->last < 0 || !share_unit(k->m, k->inst[st->last].ic, k->inst[i].ic, k->paper); /* BalancedWKLD */
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

static int pick(struct state *st, int pos, bool list)
{
    int best = -1;
    struct score bs = { { 0 } };
    for (int i = 0; i < st->k->ninst; i++) {
        if (!press_ready(&st->pr, i)) continue;
        if (!list) return i;   /* IR order */
        struct score s = score_of(st, i, pos);
        if (best < 0 || beats(&s, &bs)) { best = i; bs = s; }
    }
    return best;
}

int schedule_single(struct seq *s, const struct kernel *k, const struct dag *g,
                    struct sched_opts o)
{
    struct state st = { .k = k, .g = g, .last = -1 };
    press_init(&st.pr, k, g);
    rt_init(&st.rt, k->m);
    st.cycle = xcalloc((size_t)k->ninst, sizeof *st.cycle);
    seq_alloc(s, k->ninst);
    int len = 0;
    for (int pos = 0; pos < k->ninst; pos++) {
        int i = pick(&st, pos, o.list_schedule);
        const struct timing *t = &k->m->ic[k->inst[i].ic];
        int c = rt_earliest(&st.rt, t, ready_cycle(&st, i), pos);
        press_commit(&st.pr, i);
        s->unit[pos] = rt_place(&st.rt, t, c);
        st.cycle[i] = c;
        st.last = i;
        s->inst[pos] = i;
        s->cycle[pos] = c;
        s->live[pos] = st.pr.live;
        if (c > len) len = c;
    }
    press_free(&st.pr);
    rt_free(&st.rt);
    free(st.cycle);
    return len;
}
