/* pipeline.c: two-iteration pipelining (POCA Algorithm 1). Instructions
 * of the next iteration S' are moved up into S, keeping both orders, as
 * long as LiveReg stays within MaxReg and every remaining instruction of S
 * keeps its EarliestCycle. The kernel Pµ is the merged sequence without
 * the prologue S[0..j-1]. */
#include "sched.h"
#include "util.h"
#include <stdlib.h>
#include <string.h>

struct merge {
    const struct kernel *k;
    const struct dag *g;
    const struct seq *s;
    int *spos;          /* position of each instruction in S */
    struct seq p;       /* merged sequence so far */
    int *cyc[2];        /* cycle per instruction, iteration 0 and 1 (-1: not placed) */
    struct rtab rt;
};

static int ready_in_merge(const struct merge *mg, int inst, int iter)
{
    int r = 0;
    for (int x = 0; x < mg->g->nedge; x++) {
        const struct edge *e = &mg->g->e[x];
        if (e->to != inst) continue;
        int from_iter = iter - e->carried;
        if (from_iter < 0) continue;
        int c = mg->cyc[from_iter][e->from];
        if (c < 0) return -1;                 /* a predecessor is not placed yet */
        if (c + e->lat > r) r = c + e->lat;
    }
    return r;
}

static void append(struct merge *mg, int inst, int iter, int cycle)
{
    int x = mg->p.n++;
    mg->p.inst[x] = inst;
    mg->p.iter[x] = iter;
    mg->p.cycle[x] = cycle;
    mg->cyc[iter][inst] = cycle;
    mg->p.unit[x] = rt_place(&mg->rt, &mg->k->m->ic[mg->k->inst[inst].ic], cycle);
}

/* Would the rest of S, S[i..], keep its cycles after I'_j at cycle c? */
static bool rest_unchanged(struct merge *mg, int i, int inst_j, int c)
{
    struct rtab r;
    rt_copy(&r, &mg->rt);
    rt_place(&r, &mg->k->m->ic[mg->k->inst[inst_j].ic], c);
    bool ok = true;
    for (int x = i; x < mg->s->n && ok; x++) {
        const struct timing *t = &mg->k->m->ic[mg->k->inst[mg->s->inst[x]].ic];
        int e = rt_earliest(&r, t, mg->s->cycle[x], mg->p.n + 1 + (x - i));
        ok = e == mg->s->cycle[x];
        rt_place(&r, t, e);
    }
    rt_free(&r);
    return ok;
}

/* LiveReg of the merged sequence with I'_j and then the rest of S. The
 * rest of S' follows in the trace, so a value of iteration 1 stays live
 * up to its last use there, but only positions up to the end of S count
 * (--paper only: the default's steady-state check catches the rest). */
static bool regs_fit(struct merge *mg, int i, int inst_j)
{
    int j = 0;
    for (int x = 0; x < mg->p.n; x++) j += mg->p.iter[x];
    int head = mg->p.n + 1 + (mg->s->n - i), tail = mg->k->paper ? mg->s->n - j - 1 : 0;
    int n = head + tail;
    int *inst = xmalloc(sizeof *inst * (size_t)n), *iter = xmalloc(sizeof *iter * (size_t)n);
    int *live = xmalloc(sizeof *live * (size_t)n);
    memcpy(inst, mg->p.inst, sizeof *inst * (size_t)mg->p.n);
    memcpy(iter, mg->p.iter, sizeof *iter * (size_t)mg->p.n);
    inst[mg->p.n] = inst_j;
    iter[mg->p.n] = 1;
    for (int x = i; x < mg->s->n; x++) {
        inst[mg->p.n + 1 + x - i] = mg->s->inst[x];
        iter[mg->p.n + 1 + x - i] = 0;
    }
    for (int x = 0; x < tail; x++) { inst[head + x] = mg->s->inst[j + 1 + x]; iter[head + x] = 1; }
    trace_liveness(mg->k, inst, iter, n, -1, live);
    bool ok = true;
    for (int x = 0; x < head; x++) ok = ok && live[x] <= mg->k->max_regs;
    free(inst); free(iter); free(live);
    return ok;
}

static bool try_insert(struct merge *mg, int i, int j)
{
    int inst = mg->s->inst[j];
    int ready = ready_in_merge(mg, inst, 1);
    if (ready < 0) return false;
    int c = rt_earliest(&mg->rt, &mg->k->m->ic[mg->k->inst[inst].ic], ready, mg->p.n);
    if (!rest_unchanged(mg, i, inst, c) || !regs_fit(mg, i, inst)) return false;
    append(mg, inst, 1, c);
    return true;
}

static int merge_run(struct merge *mg, int max_j)
{
    int n = mg->s->n, i = 0, j = 0;
    while (i < n) {
        if (j < n && (max_j < 0 || j < max_j) && try_insert(mg, i, j)) { j++; continue; }
        append(mg, mg->s->inst[i], 0, mg->s->cycle[i]);
        i++;
    }
    return j;
}

/* Steady-state LiveReg: prologue, three kernel iterations, epilogue. */
static int steady_live(const struct kernel *k, const struct pipe *p)
{
    int n = p->pro.n + 3 * p->q.n + (p->q.n - p->j), x = 0;
    int *inst = xmalloc(sizeof *inst * (size_t)n), *iter = xmalloc(sizeof *iter * (size_t)n);
    for (int y = 0; y < p->pro.n; y++, x++) { inst[x] = p->pro.inst[y]; iter[x] = 0; }
    for (int e = 0; e < 3; e++)
        for (int y = 0; y < p->q.n; y++, x++) { inst[x] = p->q.inst[y]; iter[x] = e + p->q.iter[y]; }
    for (int y = 0; y < p->q.n; y++)
        if (p->q.iter[y] == 0) { inst[x] = p->q.inst[y]; iter[x++] = 3; }
    int m = trace_liveness(k, inst, iter, x, -1, NULL);
    free(inst); free(iter);
    return m;
}

static void split(struct pipe *p, const struct merge *mg)
{
    seq_alloc(&p->pro, p->j);
    seq_alloc(&p->q, mg->s->n);
    int np = 0, nq = 0;
    for (int x = 0; x < mg->p.n; x++) {
        bool pro = mg->p.iter[x] == 0 && mg->spos[mg->p.inst[x]] < p->j;
        struct seq *d = pro ? &p->pro : &p->q;
        int y = pro ? np++ : nq++;
        d->inst[y] = mg->p.inst[x];
        d->iter[y] = mg->p.iter[x];
        d->cycle[y] = mg->p.cycle[x];
        d->unit[y] = mg->p.unit[x];
    }
}

static int max_cycle(const struct seq *s)
{
    int m = 0;
    for (int x = 0; x < s->n; x++) if (s->cycle[x] > m) m = s->cycle[x];
    return m;
}

/* Two iterations as the paper counts them (Table 4: 12 + 8 = 20 cycles):
 * place the rest of S' after the merge (kept in p->rest for the picture);
 * the iteration interval is the end of iteration 1 minus the end of
 * iteration 0. */
static int interval(struct pipe *p, struct merge *mg, int j)
{
    int end0 = 0, end1 = 0, merged = mg->p.n;
    for (int x = j; x < mg->s->n; x++) {
        int inst = mg->s->inst[x];
        int c = rt_earliest(&mg->rt, &mg->k->m->ic[mg->k->inst[inst].ic],
                            ready_in_merge(mg, inst, 1), mg->p.n);
        append(mg, inst, 1, c);
    }
    seq_alloc(&p->rest, mg->p.n - merged);
    for (int x = merged; x < mg->p.n; x++) {
        p->rest.inst[x - merged] = mg->p.inst[x];
        p->rest.iter[x - merged] = 1;
        p->rest.cycle[x - merged] = mg->p.cycle[x];
        p->rest.unit[x - merged] = mg->p.unit[x];
    }
    for (int x = 0; x < mg->p.n; x++) {
        int *end = mg->p.iter[x] ? &end1 : &end0;
        if (mg->p.cycle[x] > *end) *end = mg->p.cycle[x];
    }
    return end1 - end0;
}

/* --paper: the paper's count (prologue 4 + Pµ 8 + epilogue 8 = 20 for two
 * iterations): the epilogue S'[j..] keeps its cycles of S and starts
 * where iteration 0 ends, so an iteration costs the end of S minus the
 * end of the prologue S[0..j-1]. */
static int paper_interval(const struct seq *s, int j)
{
    int pro_end = 0;
    for (int x = 0; x < j; x++) if (s->cycle[x] > pro_end) pro_end = s->cycle[x];
    return max_cycle(s) - pro_end;
}

static void attempt(struct pipe *p, const struct kernel *k, const struct dag *g,
                    const struct seq *s, int max_j)
{
    struct merge mg = { .k = k, .g = g, .s = s };
    mg.spos = xmalloc(sizeof *mg.spos * (size_t)k->ninst);
    for (int x = 0; x < s->n; x++) mg.spos[s->inst[x]] = x;
    seq_alloc(&mg.p, 2 * s->n);
    mg.p.n = 0;
    for (int it = 0; it < 2; it++) {
        mg.cyc[it] = xmalloc(sizeof *mg.cyc[it] * (size_t)k->ninst);
        for (int x = 0; x < k->ninst; x++) mg.cyc[it][x] = -1;
    }
    rt_init(&mg.rt, k->m);
    p->j = merge_run(&mg, max_j);
    split(p, &mg);
    p->kernel_cycles = k->paper ? paper_interval(s, p->j) : interval(p, &mg, p->j);
    rt_free(&mg.rt);
    seq_free(&mg.p);
    free(mg.cyc[0]); free(mg.cyc[1]); free(mg.spos);
}

/* LiveReg of Pµ as a loop body (Table 4): Pµ twice, the second run an
 * iteration on, so what the next run reads stays live to the end. */
static void loop_liveness(const struct kernel *k, struct seq *q)
{
    int n = 2 * q->n;
    int *inst = xmalloc(sizeof *inst * (size_t)n), *iter = xmalloc(sizeof *iter * (size_t)n);
    int *live = xmalloc(sizeof *live * (size_t)n);
    for (int x = 0; x < n; x++) {
        inst[x] = q->inst[x % q->n];
        iter[x] = q->iter[x % q->n] + x / q->n;
    }
    trace_liveness(k, inst, iter, n, -1, live);
    memcpy(q->live, live, sizeof *live * (size_t)q->n);
    free(inst); free(iter); free(live);
}

/* Instructions moved up that buy no cycle only lengthen live ranges; where
 * the compiler's allocation pays for that (kernel_plain_loop) none move.
 * The paper's mode keeps Algorithm 1's j. */
static void keep_unless_faster(struct pipe *p, const struct kernel *k, const struct dag *g,
                               const struct seq *s)
{
    if (p->j == 0 || k->paper || !kernel_plain_loop(k)) return;
    struct pipe none = { .single_cycles = p->single_cycles };
    attempt(&none, k, g, s, 0);
    none.max_live = steady_live(k, &none);
    if (none.kernel_cycles <= p->kernel_cycles && none.max_live <= k->max_regs) {
        pipe_free(p);
        *p = none;
    } else {
        pipe_free(&none);
    }
}

void pipeline(struct pipe *p, const struct kernel *k, const struct dag *g,
              const struct seq *s, int max_j)
{
    memset(p, 0, sizeof *p);
    p->single_cycles = max_cycle(s);
    for (;;) {
        attempt(p, k, g, s, max_j);
        p->max_live = steady_live(k, p);
        if (p->max_live <= k->max_regs || p->j == 0 || k->paper) break;
        max_j = p->j - 1;        /* the steady state needs fewer moved up */
        pipe_free(p);
        p->single_cycles = max_cycle(s);
    }
    keep_unless_faster(p, k, g, s);
    loop_liveness(k, &p->q);
}

void pipe_free(struct pipe *p)
{
    seq_free(&p->pro);
    seq_free(&p->q);
    seq_free(&p->rest);
}
