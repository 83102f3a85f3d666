/* gemm_case.h: one GEMM case through libgemmgen against ref_gemm, for
 * the runtime tests: test_gemm.c (cmocka, on this CPU) and cross_check.c
 * (plain exit status, other ISAs under qemu-user). The operands get
 * random values, leading dimensions pad larger than needed, C's padding a
 * sentinel that must survive, and A and B end where an inaccessible page
 * begins, so reading past an operand faults. The including file defines
 * _DEFAULT_SOURCE (MAP_ANONYMOUS) before any system header. */
#ifndef GEMM_CASE_H
#define GEMM_CASE_H
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "gemmgen.h"
#include "ref.h"

#define SENTINEL 12345.5        /* in C's padding; must survive */

struct gcase {
    char type;                  /* 'd' or 's' */
    gemmgen_layout layout;
    gemmgen_trans ta, tb;
    int64_t m, n, k, pad;       /* pad: extra leading dimension */
    double alpha, beta;
    int nan_c;                  /* fill C with NaN (only with beta = 0) */
};

static uint64_t rng = 88172645463325252ull;
GG_TEST_NOSAN static double rnd(void)       /* xorshift: reproducible values in [-1, 1) */
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0 * 2 - 1;
}

/* Stored rows x cols of an operand and its strides in the stored array. */
static void shape(gemmgen_layout l, int tr, int64_t r, int64_t c, int64_t pad,
                  int64_t *ld, int64_t *rs, int64_t *cs, int64_t *size)
{
    int64_t sr = tr ? c : r, sc = tr ? r : c;        /* stored dimensions */
    int row = l == GEMMGEN_ROW_MAJOR;
    *ld = (row ? sc : sr) + pad;
    if (*ld < 1) *ld = 1;
    *size = *ld * (row ? sr : sc);
    /* element (i,j) of op(X): row major, no transpose -> x[i*ld + j] */
    int flip = row ^ tr;
    *rs = flip ? *ld : 1;
    *cs = flip ? 1 : *ld;
}

GG_TEST_NOSAN static void randomize(double *x, int64_t size)
{
    for (int64_t i = 0; i < size; i++) x[i] = rnd();
}

/* The test's own arrays (A, B, the expected C, the bounds), kept from case
 * to case: the library never sees them (it gets guard copies of A and B
 * and a C of its exact size), and allocated anew each time they were a
 * third of the sanitizer build's test time in page faults (ASan maps each
 * large block afresh). */
static double *scratch(int slot, int64_t size)
{
    static double *buf[4];
    static int64_t cap[4];
    if (size < 1) size = 1;           /* never NULL: memcpy of 0 elements too */
    if (size > cap[slot]) {
        free(buf[slot]);
        cap[slot] = size;
        buf[slot] = malloc((size_t)size * sizeof *buf[slot]);
    }
    return buf[slot];
}

static void *to_type(char type, const double *x, int64_t size)
{
    if (type == 'd') return (void *)x;
    float *f = malloc((size_t)(size > 0 ? size : 1) * sizeof *f);
    for (int64_t i = 0; i < size; i++) f[i] = (float)x[i];
    return f;
}

/* x converted to the element type, its last byte just before a PROT_NONE
 * page. */
/* Two arenas (A's and B's) that end in an inaccessible page, kept from case
 * to case and grown when too small: a fresh mapping per operand made page
 * faults two fifths of test_gemm's time. */
struct guarded { char *base; size_t len; };
static struct guarded guard_arena[2];

static void *guard_copy(int slot, char type, const double *x, int64_t size)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), esz = type == 'd' ? 8 : 4;
    size_t bytes = (size_t)(size > 0 ? size : 0) * esz;
    size_t need = (bytes + page - 1) / page * page + page;
    struct guarded *g = &guard_arena[slot];
    if (g->len < need) {
        if (g->base) munmap(g->base, g->len);
        g->len = need < ((size_t)1 << 20) ? (size_t)1 << 20 : need;
        g->base = mmap(NULL, g->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (g->base == MAP_FAILED || mprotect(g->base + g->len - page, page, PROT_NONE) != 0) {
            perror("gemm_case: guard page");
            abort();
        }
    }
    char *p = g->base + g->len - page - bytes;
    for (int64_t i = 0; i < size; i++) {
        if (type == 'd') ((double *)p)[i] = x[i];
        else ((float *)p)[i] = (float)x[i];
    }
    return p;
}

static void from_float(double *x, const float *f, int64_t size)
{
    for (int64_t i = 0; i < size; i++) x[i] = f[i];
}

static int call(const struct gcase *g, const void *a, int64_t lda,
                const void *b, int64_t ldb, void *c, int64_t ldc)
{
    if (g->type == 'd')
        return gemmgen_dgemm(g->layout, g->ta, g->tb, g->m, g->n, g->k, g->alpha,
                             a, lda, b, ldb, g->beta, c, ldc);
    return gemmgen_sgemm(g->layout, g->ta, g->tb, g->m, g->n, g->k, (float)g->alpha,
                         a, lda, b, ldb, (float)g->beta, c, ldc);
}

/* Elements of got that differ from want beyond the rounding bound, or
 * padding that changed; the first three and the case are printed. */
static int64_t check(const struct gcase *g, const double *got, const double *want,
                     const double *bound, int64_t rsc, int64_t csc, int64_t csize)
{
    double eps = g->type == 'd' ? 2.3e-16 : 1.2e-7;
    int64_t bad = 0;
    for (int64_t i = 0; i < g->m; i++)
        for (int64_t j = 0; j < g->n; j++) {
            int64_t at = i * rsc + j * csc;
            double tol = (double)(g->k + 4) * eps * bound[i + j * g->m] + 1e-300;
            if (!(fabs(got[at] - want[at]) <= tol) && bad++ < 3)
                printf("C(%lld,%lld) = %.17g, want %.17g\n", (long long)i,
                       (long long)j, got[at], want[at]);
        }
    for (int64_t x = 0; x < csize; x++)   /* padding: never written */
        if (want[x] == SENTINEL && got[x] != SENTINEL && bad++ < 3)
            printf("padding C[%lld] written\n", (long long)x);
    if (bad)
        printf("%c %s ta=%d tb=%d m=%lld n=%lld k=%lld pad=%lld alpha=%g beta=%g nan=%d:"
               " %lld bad\n", g->type, g->layout == GEMMGEN_ROW_MAJOR ? "row" : "col",
               g->ta == GEMMGEN_TRANS, g->tb == GEMMGEN_TRANS, (long long)g->m,
               (long long)g->n, (long long)g->k, (long long)g->pad, g->alpha, g->beta,
               g->nan_c, (long long)bad);
    return bad;
}

/* Only the m x n elements are operands; the rest of C's array is padding. */
static void mark_padding(double *c, int64_t size, int64_t m, int64_t n,
                         int64_t rs, int64_t cs, double fillv)
{
    char *used = calloc((size_t)(size > 0 ? size : 1), 1);
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) used[i * rs + j * cs] = 1;
    for (int64_t x = 0; x < size; x++) c[x] = used[x] ? fillv : SENTINEL;
    free(used);
}

/* Runs case g against ref_gemm; returns the elements in error (a call
 * that refuses its arguments counts as one). */
static int64_t run_case(const struct gcase *g)
{
    int64_t lda, rsa, csa, sa, ldb, rsb, csb, sb, ldc, rsc, csc, sc;
    shape(g->layout, g->ta == GEMMGEN_TRANS, g->m, g->k, g->pad, &lda, &rsa, &csa, &sa);
    shape(g->layout, g->tb == GEMMGEN_TRANS, g->k, g->n, g->pad, &ldb, &rsb, &csb, &sb);
    shape(g->layout, 0, g->m, g->n, g->pad, &ldc, &rsc, &csc, &sc);
    double *a = scratch(0, sa), *b = scratch(1, sb);
    randomize(a, sa);
    randomize(b, sb);
    double *c = malloc((size_t)(sc > 0 ? sc : 1) * sizeof *c);   /* exact: the library writes it */
    randomize(c, sc);
    if (g->type == 's') {            /* the reference sees the rounded inputs */
        for (int64_t i = 0; i < sa; i++) a[i] = (float)a[i];
        for (int64_t i = 0; i < sb; i++) b[i] = (float)b[i];
    }
    mark_padding(c, sc, g->m, g->n, rsc, csc, g->nan_c ? NAN : 0);
    if (!g->nan_c)
        for (int64_t i = 0; i < sc; i++)
            if (c[i] != SENTINEL) c[i] = g->type == 's' ? (float)rnd() : rnd();
    double *want = scratch(2, sc), *bound = scratch(3, g->m * g->n);
    memcpy(want, c, (size_t)sc * sizeof *c);
    ref_gemm(g->m, g->n, g->k, g->alpha, a, rsa, csa, b, rsb, csb, g->beta, want,
             rsc, csc, bound);
    void *ga = guard_copy(0, g->type, a, sa), *gb = guard_copy(1, g->type, b, sb);
    void *tc = to_type(g->type, c, sc);
    int rc = call(g, ga, lda, gb, ldb, tc, ldc);
    if (rc) printf("the call returned %d\n", rc);
    if (g->type == 's') from_float(c, tc, sc);
    int64_t bad = (rc != 0) + check(g, c, want, bound, rsc, csc, sc);
    if (g->type == 's') free(tc);
    free(c);
    return bad;
}

/* Random shapes around a kernel's units (MR, NR, MC, KC): sizes near
 * multiples of them, small ones, 0, and up to 200, with random layout,
 * transposes, padding, alpha and beta; a reproducible stream from
 * case_rng (seed it odd). */
static uint64_t case_rng;
static int64_t pick(int64_t n)  /* uniform in [0, n) */
{
    case_rng ^= case_rng << 13; case_rng ^= case_rng >> 7; case_rng ^= case_rng << 17;
    return n > 0 ? (int64_t)((case_rng >> 11) % (uint64_t)n) : 0;
}

static int64_t dim_near(int64_t unit, int64_t block)
{
    switch (pick(10)) {
    case 0: case 1: case 2: case 3: return 1 + pick(3 * unit);
    case 4: case 5: case 6: return (1 + pick(6)) * unit + pick(5) - 2;
    case 7: case 8: return pick(201);
    default: return block + pick(5) - 2;
    }
}

static struct gcase random_case(char type)
{
    static const double alphas[] = { 1, -1.5, 0.75, 0, 2 }, betas[] = { 0, 1, 0.5, -1 };
    int mr, nr, mc, kc;
    gemmgen_blocking(type, &mr, &nr, &mc, &kc, NULL);
    struct gcase g = { type, pick(2) ? GEMMGEN_ROW_MAJOR : GEMMGEN_COL_MAJOR,
                       pick(2) ? GEMMGEN_TRANS : GEMMGEN_NO_TRANS,
                       pick(2) ? GEMMGEN_TRANS : GEMMGEN_NO_TRANS,
                       dim_near(mr, mc), dim_near(nr, nr), dim_near(16, kc), pick(3),
                       alphas[pick(5)], betas[pick(4)], 0 };
    if (g.m < 0) g.m = 0;
    if (g.n < 0) g.n = 0;
    if (g.k < 0) g.k = 0;
    g.nan_c = g.beta == 0 && pick(2);
    return g;
}
#endif
