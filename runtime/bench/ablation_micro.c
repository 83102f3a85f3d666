/* ablation_micro.c: one generated kernel timed in L1 (packed A and B of
 * k = KC_L1 fit in L1; the same C tile), for scripts/ablation.sh. Built
 * once per variant with -DKNAME=<symbol> -DKHEADER="<symbol>.h"
 * -DKTYPE=double|float. Prints GFLOPS (best of 5). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include KHEADER

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define MR CAT(KNAME, _MR)
#define NR CAT(KNAME, _NR)
typedef KTYPE T;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    int k = argc > 1 ? atoi(argv[1]) : 256;
    long reps = argc > 2 ? atol(argv[2]) : 50000;
    T *a = aligned_alloc(64, sizeof(T) * (size_t)(MR * k + 64));
    T *b = aligned_alloc(64, sizeof(T) * (size_t)(NR * k + 64));
    T c[MR * NR], alpha = 1, beta = 1;
    for (int i = 0; i < MR * k; i++) a[i] = (T)1e-3 * (T)(i % 7);
    for (int i = 0; i < NR * k; i++) b[i] = (T)1e-3 * (T)(i % 5);
    for (int i = 0; i < MR * NR; i++) c[i] = 0;
    double best = 0;
    for (int rep = 0; rep < 5; rep++) {
        double t = now();
        for (long r = 0; r < reps; r++) KNAME(MR, NR, k, &alpha, a, b, &beta, c, 1, MR, a, b);
        t = now() - t;
        double gf = 2.0 * MR * NR * (double)k * (double)reps / t / 1e9;
        if (gf > best) best = gf;
    }
    printf("%.1f\n", best);
    return c[0] == (T)12345;   /* keeps the work observable */
}
