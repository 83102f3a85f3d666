/* e2e_cplx.c: one generated complex kernel (gemmgen --type c64|c32)
 * against a plain reference complex GEMM. Built once per kernel with
 * -DKNAME=<symbol> -DKHEADER="<symbol>.h" -DKTYPE=double|float (the real
 * type of the parts) -DKISA="avx512f"|...; exit 77 (skip) when the host
 * cannot run the kernel's instructions. Every kernel of the file (the
 * main one and each packed edge, on operands packed as high and wide as
 * it is). Checks k = 0 and odd k, edge tiles
 * (odd m < MR, n < NR), alpha and beta with non-zero imaginary parts and
 * the alpha = 1, beta 0 or 1 branches, beta = 0 with NaN in C, C stored by
 * columns, by rows and with both strides > 1, and that nothing around the
 * m x n tile is written (guard values compared bit by bit). */
#include <complex.h>
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
typedef KTYPE R;
typedef KTYPE _Complex T;
_Static_assert(CAT(KNAME, _COMPLEX) == 1 && CAT(KNAME, _DIRECT) == 0,
               "a complex kernel's header says it is one, without companions");

static int checks, failures;
static unsigned rng = 12345u;

static R rnd(void)
{
    rng = rng * 1103515245u + 12345u;
    return (R)((int)(rng >> 16 & 0x7fff) - 16384) / 8192;
}

static T crnd(void) { R re = rnd(); return re + rnd() * 1.0i; }

static const R guard_re = (R)-777.25;

/* A kernel of the file: its tile and function. */
typedef void kernel_fn(int64_t, int64_t, int64_t, const T *, const T *, const T *, const T *,
                       T *, int64_t, int64_t, const T *, const T *);
#include "packed_kernels.h"

/* C(i,j) at c[i*rs + j*cs] inside a buffer of size cells; the rest guards */
static void check_one(const struct kern *kx, int m, int n, int k, T alpha, T beta, int layout)
{
    const int MR_ = kx->mr, NR_ = kx->nr;
    int64_t rs, cs, size;
    if (layout == 0) { rs = 1; cs = MR_ + 3; }
    else if (layout == 1) { rs = NR_ + 2; cs = 1; }
    else { rs = 2; cs = 2 * MR_ + 5; }
    size = (m - 1) * rs + (n - 1) * cs + 1 + 16;
    T *a = malloc(sizeof(T) * (size_t)(MR_ * k + 1)), *b = malloc(sizeof(T) * (size_t)(NR_ * k + 1));
    T *cbuf = malloc(sizeof(T) * (size_t)size), *c = cbuf + 8, *c0 = malloc(sizeof(T) * (size_t)size);
    for (int x = 0; x < MR_ * k; x++) a[x] = crnd();
    for (int x = 0; x < NR_ * k; x++) b[x] = crnd();
    for (int64_t x = 0; x < size; x++) cbuf[x] = guard_re + (R)x * 1.0i;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) c[i * rs + j * cs] = beta == 0 ? NAN + NAN * 1.0i : crnd();
    memcpy(c0, cbuf, sizeof(T) * (size_t)size);
    kx->fn(m, n, k, &alpha, a, b, &beta, c, rs, cs, a, b);
    int bad = 0;
    for (int64_t x = 0; x < size; x++) {   /* outside the tile: untouched bits */
        int64_t off = x - 8;
        int inside = 0;
        for (int j = 0; j < n && !inside; j++)
            for (int i = 0; i < m; i++) if (off == i * rs + j * cs) { inside = 1; break; }
        if (!inside && memcmp(&cbuf[x], &c0[x], sizeof(T))) bad = 1;
    }
    R eps = sizeof(R) == 8 ? (R)1e-15 : (R)1e-6;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            long double _Complex s = 0;
            long double mag = 0;
            for (int p = 0; p < k; p++) {
                s += (long double _Complex)a[i + p * MR_] * b[j + p * NR_];
                mag += cabsl((long double _Complex)a[i + p * MR_]) * cabsl((long double _Complex)b[j + p * NR_]);
            }
            T old = c0[8 + i * rs + j * cs];
            long double _Complex want = alpha * s;
            mag = mag * cabsl(alpha) + 1;
            if (beta != 0) { want += beta * (long double _Complex)old; mag += cabsl(beta) * cabsl(old); }
            T got = c[i * rs + j * cs];
            if (!(cabsl(got - want) <= 16 * eps * (k + 4) * mag)) bad = 1;
        }
    checks++;
    if (bad) {
        failures++;
        if (failures <= 10)
            printf("FAIL %dx%d kernel: m=%d n=%d k=%d alpha=(%g,%g) beta=(%g,%g) layout=%d\n",
                   MR_, NR_, m, n, k,
                   (double)creal(alpha), (double)cimag(alpha), (double)creal(beta),
                   (double)cimag(beta), layout);
    }
    free(a); free(b); free(cbuf); free(c0);
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
    struct kern all[MAX_KERNS];
    const int nk = packed_kernels(all);
    /* the edges run the main kernel's code on other tiles: fewer k and
     * scalar cases (each branch of C's update still taken), which keeps
     * the qemu runs of the long double reference short */
    static const int ks[] = { 0, 1, 2, 3, 8, 17, 64 }, ks_edge[] = { 0, 1, 3, 17 };
    static const int abs_main[] = { 0, 1, 2, 3, 4, 5 }, abs_edge[] = { 0, 3, 5 };
    const T alphas[] = { 1, (R)0.5 - (R)1.25 * 1.0i }, betas[] = { 0, 1, (R)-0.75 + (R)0.5 * 1.0i };
    for (int q = 0; q < nk; q++) {
        const int mr = all[q].mr, nr = all[q].nr;
        const int ms[] = { mr, 1, mr > 1 ? mr - 1 : 1, (mr + 1) / 2 | 1 };
        const int ns[] = { nr, 1, nr > 1 ? nr - 1 : 1, (nr + 1) / 2 | 1 };
        const int *kq = q ? ks_edge : ks, *abq = q ? abs_edge : abs_main;
        const int nkq = q ? (int)(sizeof ks_edge / sizeof *ks_edge) : (int)(sizeof ks / sizeof *ks);
        const int nab = q ? (int)(sizeof abs_edge / sizeof *abs_edge)
                          : (int)(sizeof abs_main / sizeof *abs_main);
        for (int ki = 0; ki < nkq; ki++)
            for (size_t mi = 0; mi < sizeof ms / sizeof *ms; mi++)
                for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ni++)
                    for (int layout = 0; layout < 3; layout++)
                        for (int x = 0; x < nab; x++)
                            check_one(&all[q], ms[mi] < mr ? ms[mi] : mr, ns[ni] < nr ? ns[ni] : nr,
                                      kq[ki], alphas[abq[x] % 2], betas[abq[x] / 2], layout);
    }
    printf("%s: %d kernels, %d checks, %d failed\n", STR(KNAME), nk, checks, failures);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures != 0;
}
