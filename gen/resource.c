/* resource.c: the reservation table behind EarliestCycle. */
#include "sched.h"
#include "util.h"
#include <stdlib.h>
#include <string.h>

static void grow(struct rtab *r, int need)
{
    if (need <= r->cap) return;
    int cap = need * 2 + 64;
    r->issued = xrealloc(r->issued, sizeof *r->issued * (size_t)cap);
    r->busy = xrealloc(r->busy, sizeof *r->busy * (size_t)cap);
    memset(r->issued + r->cap, 0, sizeof *r->issued * (size_t)(cap - r->cap));
    memset(r->busy + r->cap, 0, sizeof *r->busy * (size_t)(cap - r->cap));
    r->cap = cap;
}

void rt_init(struct rtab *r, const struct machine *m)
{
    *r = (struct rtab){ .m = m };
    grow(r, 64);
}

void rt_copy(struct rtab *dst, const struct rtab *src)
{
    rt_init(dst, src->m);
    grow(dst, src->cap);
    memcpy(dst->issued, src->issued, sizeof *src->issued * (size_t)src->cap);
    memcpy(dst->busy, src->busy, sizeof *src->busy * (size_t)src->cap);
    dst->last = src->last;
}

void rt_free(struct rtab *r)
{
    free(r->issued);
    free(r->busy);
    r->cap = 0;
}

/* The alternative unit free for the whole occupancy from `c`, or -1. */
static int free_unit(struct rtab *r, const struct timing *t, int c)
{
    grow(r, c + t->occupancy + 1);
    for (int a = 0; a < t->nalt; a++) {
        int u = t->alt[a], ok = 1;
        for (int x = c; x < c + t->occupancy && ok; x++)
            ok = r->busy[x][u] < r->m->units[u].count;
        if (ok) return u;
    }
    return -1;
}

int rt_earliest(struct rtab *r, const struct timing *t, int ready, int pos)
{
    int c = ready, front = pos / r->m->dispatch_width;
    if (c < front) c = front;
    if (r->m->order == DISPATCH_IN_ORDER && c < r->last) c = r->last;
    for (;; c++) {
        grow(r, c + 1);
        if (r->issued[c] + t->uops <= r->m->dispatch_width && free_unit(r, t, c) >= 0) return c;
    }
}

int rt_place(struct rtab *r, const struct timing *t, int c)
{
    int u = free_unit(r, t, c);
    if (u < 0) u = t->alt[0];   /* forced placement (callers checked) */
    for (int x = c; x < c + t->occupancy; x++) r->busy[x][u]++;
    r->issued[c] += t->uops;
    if (c > r->last) r->last = c;
    return u;
}
