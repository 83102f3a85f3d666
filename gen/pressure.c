/* pressure.c: see pressure.h. */
#include "pressure.h"
#include "util.h"
#include <stdlib.h>
#include <string.h>

/* An operand listed twice (same instance) counts once. */
static bool first_use(const struct inst *in, int s)
{
    for (int t = 0; t < s; t++)
        if (in->src[t] == in->src[s] && in->carried[t] == in->carried[s]) return false;
    return in->src[s] >= 0;
}

void press_init(struct press *p, const struct kernel *k, const struct dag *g)
{
    *p = (struct press){ .k = k, .g = g };
    p->done = xcalloc((size_t)k->ninst, sizeof *p->done);
    p->left = xcalloc((size_t)k->nval, sizeof *p->left);
    p->left_prev = xcalloc((size_t)k->nval, sizeof *p->left_prev);
    p->preds_left = xmalloc(sizeof *p->preds_left * (size_t)k->ninst);
    memcpy(p->preds_left, g->npred, sizeof *p->preds_left * (size_t)k->ninst);
    for (int i = 0; i < k->ninst; i++)
        for (int s = 0; s < NSRC; s++)
            if (first_use(&k->inst[i], s))
                (k->inst[i].carried[s] ? p->left_prev : p->left)[k->inst[i].src[s]]++;
    for (int a = 0; a < k->nacc; a++) p->live += k->rc_units[k->val[k->acc[a]].rc];
}

void press_copy(struct press *d, const struct press *s)
{
    const struct kernel *k = s->k;
    press_init(d, k, s->g);
    memcpy(d->done, s->done, sizeof *d->done * (size_t)k->ninst);
    memcpy(d->left, s->left, sizeof *d->left * (size_t)k->nval);
    memcpy(d->left_prev, s->left_prev, sizeof *d->left_prev * (size_t)k->nval);
    memcpy(d->preds_left, s->preds_left, sizeof *d->preds_left * (size_t)k->ninst);
    d->live = s->live;
}

void press_free(struct press *p)
{
    free(p->done); free(p->left); free(p->left_prev); free(p->preds_left);
}

int press_delta(const struct press *p, int i)
{
    const struct kernel *k = p->k;
    const struct inst *in = &k->inst[i];
    int d = in->def >= 0 ? k->rc_units[k->val[in->def].rc] : 0;
    for (int s = 0; s < NSRC; s++) {
        if (!first_use(in, s)) continue;
        int v = in->src[s];
        /* this iteration's accumulators are live out: never freed here */
        if ((in->carried[s] ? p->left_prev[v] : p->left[v]) == 1 && (in->carried[s] || !k->val[v].carried))
            d -= k->rc_units[k->val[v].rc];
    }
    return d;
}

void press_commit(struct press *p, int i)
{
    const struct inst *in = &p->k->inst[i];
    p->live += press_delta(p, i);
    for (int s = 0; s < NSRC; s++)
        if (first_use(in, s)) (in->carried[s] ? p->left_prev : p->left)[in->src[s]]--;
    for (int x = p->g->succ_at[i]; x < p->g->succ_at[i + 1]; x++) p->preds_left[p->g->succ[x]]--;
    p->done[i] = true;
}

bool press_ready(const struct press *p, int i) { return !p->done[i] && !p->preds_left[i]; }

bool press_completable(const struct press *p, int i)
{
    struct press t;
    press_copy(&t, p);
    press_commit(&t, i);
    bool ok = t.live <= t.k->max_regs;
    for (int n = 0; ok; n++) {
        int best = -1, bd = 0;
        for (int x = 0; x < t.k->ninst; x++) {
            if (!press_ready(&t, x)) continue;
            int d = press_delta(&t, x);
            if (best < 0 || d < bd) { best = x; bd = d; }
        }
        if (best < 0) break;
        press_commit(&t, best);
        ok = t.live <= t.k->max_regs;
    }
    press_free(&t);
    return ok;
}
