/* liveness.c: LiveReg over a trace of instruction instances. An instance
 * is (value, iteration); an operand marked carried names the previous
 * iteration's instance. */
#include "sched.h"
#include "util.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

int trace_liveness(const struct kernel *k, const int *inst, const int *iter, int n,
                   int rclass, int *live_after)
{
    int lo = INT_MAX, hi = INT_MIN;
    for (int x = 0; x < n; x++) {
        if (iter[x] - 1 < lo) lo = iter[x] - 1;
        if (iter[x] > hi) hi = iter[x];
    }
    if (n == 0) return 0;
    int span = hi - lo + 1, ninst = k->nval * span;
    int *def = xmalloc(sizeof *def * (size_t)ninst), *last = xmalloc(sizeof *last * (size_t)ninst);
    for (int i = 0; i < ninst; i++) def[i] = last[i] = INT_MIN;
    for (int x = 0; x < n; x++) {
        const struct inst *in = &k->inst[inst[x]];
        for (int s = 0; s < NSRC; s++)
            if (in->src[s] >= 0) last[in->src[s] * span + iter[x] - in->carried[s] - lo] = x;
        if (in->def >= 0) def[in->def * span + iter[x] - lo] = x;
    }
    int *delta = xcalloc((size_t)n + 2, sizeof *delta), base = 0, max = 0;
    for (int v = 0; v < k->nval; v++) {
        if (rclass >= 0 && (int)k->val[v].rc != rclass) continue;
        if (k->val[v].tie >= 0) continue;     /* counted as the value it shares with */
        int units = k->rc_units[k->val[v].rc];
        for (int t = 0; t < span; t++) {
            int d = def[v * span + t], l = last[v * span + t];
            if (d == INT_MIN && l == INT_MIN) continue;
            /* an accumulator read before its update (a complex multiply-add's
             * two rotations) keeps its register until the update */
            int next = t + 1 < span ? def[v * span + t + 1] : INT_MIN;
            if (k->val[v].carried && l != INT_MIN && next != INT_MIN && l < next) l = next;
            if (d == INT_MIN || l < d) l = d == INT_MIN ? l : n;   /* live-in / live-out */
            if (d == INT_MIN) base += units; else delta[d] += units;
            if (l < n) delta[l] -= units;
        }
    }
    for (int x = 0; x < n; x++) {
        base += delta[x];
        if (live_after) live_after[x] = base;
        if (base > max) max = base;
    }
    free(def); free(last); free(delta);
    return max;
}
