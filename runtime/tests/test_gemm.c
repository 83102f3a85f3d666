/* test_gemm.c: libgemmgen against the naive reference GEMM (ref.h), for
 * every kernel set this CPU runs, with 1 and 2 threads: all transposes,
 * both layouts, leading dimensions larger than needed, sizes 0, 1,
 * MR+-1, NR+-1, KC+-1, MC+1 and odd primes, alpha/beta including 0, and
 * NaN-filled C with beta = 0, then a reproducible stream of random shapes
 * near the kernel's units (test_random). The padding around C must stay
 * untouched, and A and B end where an inaccessible page begins, so reading
 * past an operand (the unpacked path's edge tiles) faults. */
#define _DEFAULT_SOURCE             /* MAP_ANONYMOUS */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>
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
static double rnd(void)         /* xorshift: reproducible values in [-1, 1) */
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

static double *fill(int64_t size, double v, int random)
{
    double *x = malloc((size_t)(size > 0 ? size : 1) * sizeof *x);
    for (int64_t i = 0; i < size; i++) x[i] = random ? rnd() : v;
    return x;
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
struct guarded { char *base; size_t len; void *p; };

static struct guarded guard_copy(char type, const double *x, int64_t size)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), esz = type == 'd' ? 8 : 4;
    size_t bytes = (size_t)(size > 0 ? size : 0) * esz;
    struct guarded g;
    g.len = (bytes + page - 1) / page * page + page;
    g.base = mmap(NULL, g.len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(g.base != MAP_FAILED);
    assert_int_equal(mprotect(g.base + g.len - page, page, PROT_NONE), 0);
    g.p = g.base + g.len - page - bytes;
    for (int64_t i = 0; i < size; i++) {
        if (type == 'd') ((double *)g.p)[i] = x[i];
        else ((float *)g.p)[i] = (float)x[i];
    }
    return g;
}

static void unguard(struct guarded *g) { munmap(g->base, g->len); }

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

static void check(const struct gcase *g, const double *got, const double *want,
                  const double *bound, int64_t rsc, int64_t csc, int64_t csize)
{
    double eps = g->type == 'd' ? 2.3e-16 : 1.2e-7;
    int64_t bad = 0;
    for (int64_t i = 0; i < g->m; i++)
        for (int64_t j = 0; j < g->n; j++) {
            int64_t at = i * rsc + j * csc;
            double tol = (double)(g->k + 4) * eps * bound[i + j * g->m] + 1e-300;
            if (!(fabs(got[at] - want[at]) <= tol) && bad++ < 3)
                print_error("C(%lld,%lld) = %.17g, want %.17g\n", (long long)i,
                            (long long)j, got[at], want[at]);
        }
    for (int64_t x = 0; x < csize; x++)   /* padding: never written */
        if (want[x] == SENTINEL && got[x] != SENTINEL && bad++ < 3)
            print_error("padding C[%lld] written\n", (long long)x);
    if (bad)
        fail_msg("%c %s ta=%d tb=%d m=%lld n=%lld k=%lld pad=%lld alpha=%g beta=%g nan=%d:"
                 " %lld bad", g->type, g->layout == GEMMGEN_ROW_MAJOR ? "row" : "col",
                 g->ta == GEMMGEN_TRANS, g->tb == GEMMGEN_TRANS, (long long)g->m,
                 (long long)g->n, (long long)g->k, (long long)g->pad, g->alpha, g->beta,
                 g->nan_c, (long long)bad);
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

static void run(const struct gcase *g)
{
    int64_t lda, rsa, csa, sa, ldb, rsb, csb, sb, ldc, rsc, csc, sc;
    shape(g->layout, g->ta == GEMMGEN_TRANS, g->m, g->k, g->pad, &lda, &rsa, &csa, &sa);
    shape(g->layout, g->tb == GEMMGEN_TRANS, g->k, g->n, g->pad, &ldb, &rsb, &csb, &sb);
    shape(g->layout, 0, g->m, g->n, g->pad, &ldc, &rsc, &csc, &sc);
    double *a = fill(sa, 0, 1), *b = fill(sb, 0, 1), *c = fill(sc, 0, 1);
    if (g->type == 's') {            /* the reference sees the rounded inputs */
        for (int64_t i = 0; i < sa; i++) a[i] = (float)a[i];
        for (int64_t i = 0; i < sb; i++) b[i] = (float)b[i];
    }
    mark_padding(c, sc, g->m, g->n, rsc, csc, g->nan_c ? NAN : 0);
    if (!g->nan_c)
        for (int64_t i = 0; i < sc; i++)
            if (c[i] != SENTINEL) c[i] = g->type == 's' ? (float)rnd() : rnd();
    double *want = fill(sc, 0, 0), *bound = fill(g->m * g->n, 0, 0);
    memcpy(want, c, (size_t)sc * sizeof *c);
    ref_gemm(g->m, g->n, g->k, g->alpha, a, rsa, csa, b, rsb, csb, g->beta, want,
             rsc, csc, bound);
    struct guarded ga = guard_copy(g->type, a, sa), gb = guard_copy(g->type, b, sb);
    void *tc = to_type(g->type, c, sc);
    assert_int_equal(call(g, ga.p, lda, gb.p, ldb, tc, ldc), 0);
    if (g->type == 's') from_float(c, tc, sc);
    check(g, c, want, bound, rsc, csc, sc);
    if (g->type == 's') free(tc);
    unguard(&ga); unguard(&gb);
    free(a); free(b); free(c); free(want); free(bound);
}

/* ---- the size list, from the blocking of the kernel in use ---- */
struct size3 { int64_t m, n, k; };

static int sizes_for(char type, struct size3 *s)
{
    int mr, nr, mc, kc, nc, i = 0;
    gemmgen_blocking(type, &mr, &nr, &mc, &kc, &nc);
    s[i++] = (struct size3){0, 5, 3};
    s[i++] = (struct size3){5, 0, 3};
    s[i++] = (struct size3){5, 3, 0};
    s[i++] = (struct size3){1, 1, 1};
    s[i++] = (struct size3){mr - 1 > 0 ? mr - 1 : 1, nr + 1, 7};
    s[i++] = (struct size3){mr + 1, nr - 1 > 0 ? nr - 1 : 1, kc - 1};
    s[i++] = (struct size3){mr, nr, kc};
    s[i++] = (struct size3){2 * mr + 1, 2 * nr - 1, kc + 1};
    s[i++] = (struct size3){mc + 1, nr + 1, 13};
    s[i++] = (struct size3){17, 19, 23};
    s[i++] = (struct size3){37, 41, 2 * kc + 3};
    s[i++] = (struct size3){131, 127, 67};       /* big enough for 2 threads */
    return i;
}

static void sweep(char type)
{
    static const double ab[][2] = { {1, 0}, {-1.5, 0.5}, {0.75, 1}, {1, 1} };
    struct size3 s[16];
    int ns = sizes_for(type, s);
    for (int z = 0; z < ns; z++)
        for (int lay = 0; lay < 2; lay++)
            for (int t = 0; t < 4; t++)
                for (int v = 0; v < 4; v++) {
                    struct gcase g = { type, lay ? GEMMGEN_ROW_MAJOR : GEMMGEN_COL_MAJOR,
                                       t & 1 ? GEMMGEN_TRANS : GEMMGEN_NO_TRANS,
                                       t & 2 ? GEMMGEN_TRANS : GEMMGEN_NO_TRANS,
                                       s[z].m, s[z].n, s[z].k, (z + t) % 3,
                                       ab[v][0], ab[v][1], 0 };
                    run(&g);
                    if (g.beta == 0) { g.nan_c = 1; run(&g); }
                }
}

/* Runs body for every kernel set the CPU supports and 1 and 2 threads. */
static void each_kernel(void (*body)(char), char type)
{
    for (int i = 0; i < gemmgen_kernel_count(); i++) {
        if (!gemmgen_kernel_supported(i)) continue;
        assert_int_equal(gemmgen_kernel_select(gemmgen_kernel_name(i)), 0);
        for (int th = 1; th <= 2; th++) {
            gemmgen_set_num_threads(th);
            body(type);
        }
    }
    gemmgen_set_num_threads(0);
}

static void test_dgemm_sweep(void **st) { (void)st; each_kernel(sweep, 'd'); }
static void test_sgemm_sweep(void **st) { (void)st; each_kernel(sweep, 's'); }

/* alpha = 0 and k = 0 only scale C; beta = 0 then writes zeros over NaN. */
static void scale_only(char type)
{
    for (int v = 0; v < 4; v++) {
        struct gcase g = { type, GEMMGEN_COL_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_TRANS,
                           9, 7, v < 2 ? 5 : 0, 2, v < 2 ? 0.0 : 1.0, v & 1 ? 2.0 : 0.0,
                           !(v & 1) };
        run(&g);
    }
}
static void test_scale_only(void **st) { (void)st; each_kernel(scale_only, 'd'); each_kernel(scale_only, 's'); }

/* A big problem: several KC, MC and NC blocks, with two threads. */
static void big(char type)
{
    struct gcase g = { type, GEMMGEN_ROW_MAJOR, GEMMGEN_TRANS, GEMMGEN_NO_TRANS,
                       301, 283, 0, 1, 1.25, -0.5, 0 };
    int kc;
    gemmgen_blocking(type, NULL, NULL, NULL, &kc, NULL);
    g.k = 2 * kc + 5;
    run(&g);
    /* n < m: two threads split the rows (tm = 2), so slabs start at m0 > 0 */
    struct gcase h = { type, GEMMGEN_COL_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_TRANS,
                       301, 150, 2 * kc + 5, 2, -0.75, 0, 1 };
    run(&h);
}
static void test_big(void **st) { (void)st; each_kernel(big, 'd'); each_kernel(big, 's'); }

/* Random shapes around the kernel's units: a reproducible stream of cases
 * (GEMMGEN_TEST_SEED, GEMMGEN_TEST_CASES to run more), sizes near
 * multiples of MR, NR and KC, small primes, 0, and up to 200, with random
 * layout, transposes, padding, alpha and beta. It reaches remainders the
 * fixed list above does not: every m mod MR (the packed row edges), n mod
 * NR of 1 and 2 (the tail split into two narrow panels), k just past KC. */
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

static long env_long(const char *name, long dflt)
{
    const char *s = getenv(name);
    return s && *s ? strtol(s, NULL, 0) : dflt;
}

static void random_cases(char type)
{
    static const double alphas[] = { 1, -1.5, 0.75, 0, 2 }, betas[] = { 0, 1, 0.5, -1 };
    int mr, nr, mc, kc;
    gemmgen_blocking(type, &mr, &nr, &mc, &kc, NULL);
    case_rng = (uint64_t)env_long("GEMMGEN_TEST_SEED", 0x9e3779b97f4a7c15) | 1;
    long count = env_long("GEMMGEN_TEST_CASES", 40);
    for (long i = 0; i < count; i++) {
        struct gcase g = { type, pick(2) ? GEMMGEN_ROW_MAJOR : GEMMGEN_COL_MAJOR,
                           pick(2) ? GEMMGEN_TRANS : GEMMGEN_NO_TRANS,
                           pick(2) ? GEMMGEN_TRANS : GEMMGEN_NO_TRANS,
                           dim_near(mr, mc), dim_near(nr, nr), dim_near(16, kc), pick(3),
                           alphas[pick(5)], betas[pick(4)], 0 };
        if (g.m < 0) g.m = 0;
        if (g.n < 0) g.n = 0;
        if (g.k < 0) g.k = 0;
        g.nan_c = g.beta == 0 && pick(2);
        run(&g);
    }
}
static void test_random(void **st) { (void)st; each_kernel(random_cases, 'd'); each_kernel(random_cases, 's'); }

/* Invalid arguments: the position comes back negative, C is untouched. */
static void test_bad_args(void **st)
{
    (void)st;
    double a[4] = {1, 2, 3, 4}, c[4] = {7, 7, 7, 7};
    assert_int_equal(gemmgen_dgemm(99, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS, 2, 2, 2, 1, a, 2, a, 2, 0, c, 2), -1);
    assert_int_equal(gemmgen_dgemm(GEMMGEN_COL_MAJOR, 5, GEMMGEN_NO_TRANS, 2, 2, 2, 1, a, 2, a, 2, 0, c, 2), -2);
    assert_int_equal(gemmgen_dgemm(GEMMGEN_COL_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS, -1, 2, 2, 1, a, 2, a, 2, 0, c, 2), -4);
    assert_int_equal(gemmgen_dgemm(GEMMGEN_COL_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS, 2, 2, 2, 1, a, 1, a, 2, 0, c, 2), -9);
    assert_int_equal(gemmgen_dgemm(GEMMGEN_ROW_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS, 2, 3, 2, 1, a, 2, a, 2, 0, c, 3), -11);
    assert_int_equal(gemmgen_dgemm(GEMMGEN_COL_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS, 2, 2, 2, 1, a, 2, a, 2, 0, c, 1), -14);
    for (int i = 0; i < 4; i++) assert_true(c[i] == 7);
}

/* General strides, none of them 1, both types of C storage order. */
static void test_strided(void **st)
{
    (void)st;
    enum { M = 23, N = 17, K = 29 };
    static double a[3 * M * K + 64], b[3 * K * N + 64], c[5 * M * N + 64], w[5 * M * N + 64];
    double bound[M * N];
    for (size_t i = 0; i < sizeof a / sizeof *a; i++) a[i] = rnd();
    for (size_t i = 0; i < sizeof b / sizeof *b; i++) b[i] = rnd();
    for (int order = 0; order < 2; order++) {
        for (size_t i = 0; i < sizeof c / sizeof *c; i++) c[i] = w[i] = rnd();
        int64_t rsc = order ? 2 * N + 1 : 2, csc = order ? 2 : 2 * M + 1;
        /* B(p, j) at b[p*3N + j*3]: 3K as its row stride ran past b (and
         * read c, which the call writes) until clang's layout showed it */
        ref_gemm(M, N, K, 0.5, a, 3, 3 * M, b, 3 * N, 3, 2, w, rsc, csc, bound);
        gemmgen_dgemm_strided(M, N, K, 0.5, a, 3, 3 * M, b, 3 * N, 3, 2, c, rsc, csc);
        for (size_t i = 0; i < sizeof c / sizeof *c; i++)
            assert_true(fabs(c[i] - w[i]) <= 1e-13);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_args),
        cmocka_unit_test(test_scale_only),
        cmocka_unit_test(test_strided),
        cmocka_unit_test(test_dgemm_sweep),
        cmocka_unit_test(test_sgemm_sweep),
        cmocka_unit_test(test_big),
        cmocka_unit_test(test_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
