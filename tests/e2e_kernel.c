/* e2e_kernel.c: one generated kernel against a plain reference GEMM.
 * Built once per kernel with -DKNAME=<symbol> -DKHEADER="<symbol>.h"
 * -DKTYPE=double|float -DKISA="avx512f"|...; exit 77 (skip) when the host
 * cannot run the kernel's instructions. Checks odd k, edge tiles,
 * alpha/beta not 1, beta = 0 with NaN in C, column-, row- and
 * general-stride C, and that nothing outside the m x n tile is written. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include KHEADER

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define STR_(a) #a
#define STR(a) STR_(a)
#define MR CAT(KNAME, _MR)
#define NR CAT(KNAME, _NR)
typedef KTYPE T;

static uint64_t rng = 88172645463325252ull;
static T rnd(void)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (T)((double)(rng >> 11) / 9007199254740992.0 * 2.0 - 1.0);
}

static int failures, checks;

static void check_one(int m, int n, int k, T alpha, T beta, int layout)
{
    T *a = calloc((size_t)(MR * (k + 1)), sizeof *a), *b = calloc((size_t)(NR * (k + 1)), sizeof *b);
    for (int p = 0; p < k; p++) {
        for (int i = 0; i < m; i++) a[i + p * MR] = rnd();
        for (int j = 0; j < n; j++) b[j + p * NR] = rnd();
    }
    /* C lives inside a larger buffer filled with a sentinel */
    int64_t rs, cs, ld = MR + 3;
    if (layout == 0) { rs = 1; cs = ld; }
    else if (layout == 1) { rs = NR + 5; cs = 1; }
    else { rs = 2; cs = 2 * ld + 1; }
    size_t span = (size_t)((MR - 1) * rs + (NR - 1) * cs + 1) + 64;
    T *buf = malloc(span * sizeof *buf), *ref = malloc(span * sizeof *ref), *c = buf + 32;
    const T sentinel = (T)12345.0;
    for (size_t x = 0; x < span; x++) buf[x] = sentinel;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) c[i * rs + j * cs] = beta == 0 ? (T)NAN : rnd();
    memcpy(ref, buf, span * sizeof *buf);
    T *rc = ref + 32;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double s = 0, mag = 0;
            for (int p = 0; p < k; p++) {
                s += (double)a[i + p * MR] * b[j + p * NR];
                mag += fabs((double)a[i + p * MR] * b[j + p * NR]);
            }
            double old = beta == 0 ? 0 : rc[i * rs + j * cs];
            rc[i * rs + j * cs] = (T)(alpha * s + (beta == 0 ? 0 : beta * old));
            (void)mag;
        }
    KNAME(m, n, k, &alpha, a, b, &beta, c, rs, cs, a, b);
    double tol = sizeof(T) == 8 ? 1e-12 : 2e-5;
    for (size_t x = 0; x < span; x++) {
        double got = buf[x], want = ref[x];
        double err = fabs(got - want), lim = tol * (fabs(alpha) * (k + 1) + fabs(beta) + 1);
        checks++;
        if (!(err <= lim)) {   /* NaN fails too */
            if (failures++ < 10)
                fprintf(stderr, "m=%d n=%d k=%d alpha=%g beta=%g layout=%d: offset %ld got %g want %g\n",
                        m, n, k, (double)alpha, (double)beta, layout, (long)x - 32, got, want);
        }
    }
    free(a); free(b); free(buf); free(ref);
}

int main(void)
{
#ifdef KISA
    __builtin_cpu_init();
    if (!__builtin_cpu_supports(KISA)) {
        printf("SKIP: host lacks %s\n", KISA);
        return 77;
    }
#endif
    const int ks[] = { 0, 1, 2, 3, 5, 8, 17, 64, 129 };
    const int ms[] = { MR, 1, MR > 1 ? MR - 1 : 1, (MR + 1) / 2 };
    const int ns[] = { NR, 1, NR > 1 ? NR - 1 : 1, (NR + 1) / 2 };
    const T alphas[] = { (T)1.5, (T)-0.75 }, betas[] = { 0, (T)-1.25, 1 };
    for (size_t ki = 0; ki < sizeof ks / sizeof *ks; ki++)
        for (size_t mi = 0; mi < 4; mi++)
            for (size_t ni = 0; ni < 4; ni++)
                for (int layout = 0; layout < 3; layout++)
                    for (int ab = 0; ab < 6; ab++)
                        check_one(ms[mi], ns[ni], ks[ki], alphas[ab % 2], betas[ab / 2], layout);
    printf("%s: %d checks, %d failed\n", STR(KNAME), checks, failures);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures != 0;
}
