/* e2e_group.c: one generated rank-G kernel (gemmgen --type bf16 |
 * u8s8s32 | s8u8s32) against a plain reference on the same packed operands. Built
 * once per kernel with -DKNAME=<symbol> -DKHEADER="<symbol>.h", -DKBF16,
 * -DKU8S8 or -DKS8U8, and -DKISA="<cpu feature>"; exit 77 (skip) when the host lacks
 * it. Every kernel of the file (the main one and each packed edge, on
 * operands packed as high and wide as it is). Checks k = 0, k not a
 * multiple of G (the packed groups zero-padded),
 * edge tiles (m < MR, n < NR), alpha and beta not 1 and the alpha = 1,
 * beta 0 or 1 branches, beta = 0 with NaN in C (bf16), C stored by
 * columns, by rows and with both strides > 1, and that nothing around the
 * m x n tile is written (guards compared bit by bit). the 8-bit types are
 * exact (int32, wrapping); bf16 within f32 summation error of a double sum. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include KHEADER

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define MR CAT(KNAME, _MR)
#define NR CAT(KNAME, _NR)
#define G CAT(KNAME, _KGROUP)
#define GA CAT(KNAME, _KGROUP_A)   /* A's packing group (AMX: below G) */
_Static_assert(CAT(KNAME, _DIRECT) == 0, "a rank-G kernel comes without companions");

#ifdef KBF16
typedef uint16_t TA;
typedef uint16_t TB;
typedef float TC;
_Static_assert(G == 2 || G == 4 || G == 32, "bf16: pairs of k steps (dot products), quads (MMLA), tile rows (AMX)");
#elif defined KS8U8
typedef int8_t TA;
typedef uint8_t TB;
typedef int32_t TC;
_Static_assert(G == 4 || G == 8 || G == 64, "s8u8s32: quads of k steps (dot products), eights (MMLA), tile rows (AMX)");
#else
typedef uint8_t TA;
typedef int8_t TB;
typedef int32_t TC;
_Static_assert(G == 4, "u8s8s32: quads of k steps");
#endif

static int checks, failures;
static unsigned rng = 12345u;

static unsigned rnd(void)
{
    rng = rng * 1103515245u + 12345u;
    return rng >> 16 & 0x7fff;
}

#ifdef KBF16
/* small integers over 8 and signs: exact in bf16, products exact in f32 */
static float bf16_value(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
static uint16_t rnd_a(void)
{
    float f = ((float)(int)(rnd() % 64) - 32) / 8;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return (uint16_t)(u >> 16);
}
static uint16_t rnd_b(void) { return rnd_a(); }
static double val_a(TA x) { return bf16_value(x); }
static double val_b(TB x) { return bf16_value(x); }
static TC rnd_c(void) { return ((float)(int)(rnd() % 200) - 100) / 16; }
#else
static TA rnd_a(void) { return (TA)rnd(); }
static TB rnd_b(void) { return (TB)rnd(); }
static TC rnd_c(void) { return (TC)(rnd() * 40503u); }
#endif

static const TC guard = (TC)-777;

/* The expected C(i,j) for the sums s: wrapping int32 or double. */
#ifdef KBF16
static int close_to(TC got, double want, double mag, int k)
{
    double tol = (2.0 * k + 8) * 0x1p-24 * (mag + fabs(want)) + 1e-30;
    return fabs((double)got - want) <= tol;
}
#endif

/* A kernel of the file: its tile and function. */
typedef void kernel_fn(int64_t, int64_t, int64_t, const TC *, const TA *, const TB *,
                       const TC *, TC *, int64_t, int64_t, const TA *, const TB *);
#include "packed_kernels.h"

static void pack(const struct kern *x, int k, TA *a, TB *b)
{
    int kp = (k + G - 1) / G * G;
    for (int p = 0; p < kp; p++) {
        for (int i = 0; i < x->mr; i++) a[(p / GA) * x->mr * GA + i * GA + p % GA] = p < k ? rnd_a() : 0;
        for (int j = 0; j < x->nr; j++) b[(p / G) * x->nr * G + j * G + p % G] = p < k ? rnd_b() : 0;
    }
}

static TA pa(const struct kern *x, const TA *a, int i, int p)
{
    return a[(p / GA) * x->mr * GA + i * GA + p % GA];
}
static TB pb(const struct kern *x, const TB *b, int j, int p)
{
    return b[(p / G) * x->nr * G + j * G + p % G];
}

static void check_one(const struct kern *x, int m, int n, int k, TC alpha, TC beta, int layout)
{
    int64_t rs, cs, size;
    if (layout == 0) { rs = 1; cs = x->mr + 3; }
    else if (layout == 1) { rs = x->nr + 2; cs = 1; }
    else { rs = 2; cs = 2 * x->mr + 5; }
    size = (m - 1) * rs + (n - 1) * cs + 1 + 16;
    int kp = (k + G - 1) / G * G;
    TA *a = malloc(sizeof(TA) * (size_t)(x->mr * kp + G));
    TB *b = malloc(sizeof(TB) * (size_t)(x->nr * kp + G));
    TC *cbuf = malloc(sizeof(TC) * (size_t)size), *c = cbuf + 8, *c0 = malloc(sizeof(TC) * (size_t)size);
    pack(x, k, a, b);
    for (int64_t x = 0; x < size; x++) cbuf[x] = guard - (TC)x;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
#ifdef KBF16
            c[i * rs + j * cs] = beta == 0 ? NAN : rnd_c();
#else
            c[i * rs + j * cs] = rnd_c();
#endif
        }
    memcpy(c0, cbuf, sizeof(TC) * (size_t)size);
    x->fn(m, n, k, &alpha, a, b, &beta, c, rs, cs, a, b);
    int bad = 0;
    for (int64_t x = 0; x < size; x++) {   /* outside the tile: untouched bits */
        int64_t off = x - 8;
        int inside = 0;
        for (int j = 0; j < n && !inside; j++)
            for (int i = 0; i < m; i++)
                if (off == i * rs + j * cs) { inside = 1; break; }
        if (!inside && memcmp(&cbuf[x], &c0[x], sizeof(TC))) bad++;
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            TC got = c[i * rs + j * cs], old = (c0 + 8)[i * rs + j * cs];
#ifdef KBF16
            double s = 0, mag = 0;
            for (int p = 0; p < k; p++) {
                double t = val_a(pa(x, a, i, p)) * val_b(pb(x, b, j, p));
                s += t;
                mag += fabs(t);
            }
            double want = alpha * s + (beta == 0 ? 0 : beta * (double)old);
            mag = fabs(alpha) * mag + (beta == 0 ? 0 : fabs(beta * (double)old));
            if (!close_to(got, want, mag, k)) bad++;
#else
            uint32_t s = 0;
            for (int p = 0; p < k; p++)
                s += (uint32_t)((int32_t)pa(x, a, i, p) * (int32_t)pb(x, b, j, p));
            uint32_t want = (uint32_t)alpha * s + (beta == 0 ? 0u : (uint32_t)beta * (uint32_t)old);
            if ((uint32_t)got != want) bad++;
#endif
        }
    checks++;
    if (bad) {
        failures++;
        printf("FAIL %dx%d kernel: m=%d n=%d k=%d layout=%d alpha=%g beta=%g: %d bad cells\n",
               x->mr, x->nr, m, n, k, layout, (double)alpha, (double)beta, bad);
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
    static const int ks[] = { 0, 1, 2, 3, 5, 7, 8, 17, 67, 128, 301, 520 };
    static const TC ab[][2] = { { 1, 0 }, { 1, 1 }, { 3, 0 }, { -2, 1 }, { 3, -5 }, { 0, 2 } };
    for (int q = 0; q < nk; q++) {
        const struct kern *x = &all[q];
        int ms[] = { x->mr, x->mr - 1, 1, (x->mr + 1) / 2 }, ns[] = { x->nr, x->nr - 1, 1, (x->nr + 1) / 2 };
        for (size_t kx = 0; kx < sizeof ks / sizeof *ks; kx++)
            for (size_t y = 0; y < sizeof ab / sizeof *ab; y++)
                for (int mi = 0; mi < 4; mi++)
                    for (int ni = 0; ni < 4; ni++)
                        for (int layout = 0; layout < 3; layout++)
                            if (ms[mi] >= 1 && ns[ni] >= 1)
                                check_one(x, ms[mi], ns[ni], ks[kx], ab[y][0], ab[y][1], layout);
    }
    printf("%d kernels\n", nk);
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
