/* measure.c: see measure.h. Best-of-samples, because on a shared machine
 * the noise only ever makes a run slower. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "measure.h"

double gb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double gb_measure(void (*fn)(void *), void *ctx, double flops, double budget)
{
    double t0 = gb_now();
    fn(ctx);                                  /* warm-up: pages, threads, caches */
    double once = gb_now() - t0;
    long batch = once > 1e-3 ? 1 : (long)(1e-3 / (once > 1e-7 ? once : 1e-7)) + 1;
    /* a call longer than half the budget is itself the first sample */
    double best = once > budget / 2 ? flops / once * 1e-9 : 0, start = gb_now();
    for (int samples = best > 0; ; samples++) {
        double spent = gb_now() - start;
        if (samples >= 2 && spent >= budget) break;
        if (samples >= 1 && spent + once > 2 * budget) break;  /* slow: one sample */
        double s = gb_now();
        for (long i = 0; i < batch; i++) fn(ctx);
        double g = flops * batch / (gb_now() - s) * 1e-9;
        if (g > best) best = g;
    }
    return best;
}

/* count elements of elem bytes: double, float, bfloat16 (2: the float's
 * upper half) or a byte (1: its bits at random) */
static void *filled(int64_t count, int elem, unsigned seed)
{
    void *p = aligned_alloc(64, ((size_t)count * elem + 63) / 64 * 64 + 64);
    if (!p) return NULL;
    for (int64_t i = 0; i < count; i++) {
        seed = seed * 1103515245u + 12345u;
        double v = (double)(seed >> 8) / (1 << 24) * 2 - 1;
        float f = (float)v;
        uint32_t u;
        memcpy(&u, &f, sizeof u);
        if (elem == 8) ((double *)p)[i] = v;
        else if (elem == 4) ((float *)p)[i] = f;
        else if (elem == 2) ((uint16_t *)p)[i] = (uint16_t)(u >> 16);
        else ((uint8_t *)p)[i] = (uint8_t)(seed >> 16);
    }
    return p;
}

int gb_mats_alloc(struct gb_mats *x, int64_t m, int64_t n, int64_t k, int elem)
{
    x->m = m; x->n = n; x->k = k; x->elem = elem;
    x->a = filled(m * k, elem, 1);
    x->b = filled(k * n, elem, 2);
    x->c = filled(m * n, elem, 3);
    return x->a && x->b && x->c ? 0 : -1;
}

char gb_real_type(char type) { return type == 'z' ? 'd' : type == 'c' ? 's' : type; }

double gb_flops(char type, int64_t m, int64_t n, int64_t k)
{
    return (gb_real_type(type) != type ? 8.0 : 2.0) * (double)m * (double)n * (double)k;
}

int gb_mats_alloc_type(struct gb_mats *x, char type, int64_t m, int64_t n, int64_t k)
{
    if (type == 'b' || type == 'i') {         /* A and B of 2 or 1 bytes, C of 4 */
        x->m = m; x->n = n; x->k = k; x->elem = type == 'b' ? 2 : 1;
        x->a = filled(m * k, x->elem, 1);
        x->b = filled(k * n, x->elem, 2);
        x->c = filled(m * n, 4, 3);
        return x->a && x->b && x->c ? 0 : -1;
    }
    const int cplx = gb_real_type(type) != type, elem = gb_real_type(type) == 'd' ? 8 : 4;
    if (gb_mats_alloc(x, m, cplx ? 2 * n : n, cplx ? 2 * k : k, elem)) return -1;
    x->n = n; x->k = k;
    return 0;
}

void gb_mats_free(struct gb_mats *x)
{
    free(x->a); free(x->b); free(x->c);
    memset(x, 0, sizeof *x);
}
