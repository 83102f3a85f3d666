/* Debian's BLIS running the gemmgen kernels ggblis_d (f64) and ggblis_s
 * (f32) through their BLIS wrappers: every transpose, row/column/general
 * C storage, odd sizes, alpha/beta including 0 with NaN in C, block-edge
 * sizes, two threads and trsm; each result is compared with a naive
 * reference, and a counter in front of the wrapper proves BLIS called our
 * kernel rather than its own. */
#include "gemmgen_blis.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ggblis_d.h"
#include "ggblis_s.h"

static atomic_long calls;   /* micro-kernel calls, both types, all threads */

#define COUNTING(T, W)                                                        \
    static void W##_counted(dim_t m, dim_t n, dim_t k, T *alpha, T *a, T *b,  \
                            T *beta, T *c, inc_t rs_c, inc_t cs_c,            \
                            auxinfo_t *data, cntx_t *cntx)                    \
    {                                                                         \
        atomic_fetch_add(&calls, 1);                                          \
        W(m, n, k, alpha, a, b, beta, c, rs_c, cs_c, data, cntx);             \
    }
COUNTING(double, ggblis_d_blis)
COUNTING(float, ggblis_s_blis)

/* ---- matrices of either type, stored with arbitrary strides ---------- */

enum layout { COL, ROW, GEN, NLAYOUT };
static const char *layout_name[] = { "col", "row", "gen" };
static const double SENTINEL = 12345.0;

typedef struct mat {
    num_t dt;
    dim_t rows, cols;
    inc_t rs, cs;
    size_t len;   /* elements in buf, gaps included */
    void *buf;
} mat;

static double get(const mat *x, size_t i)
{
    return x->dt == BLIS_DOUBLE ? ((double *)x->buf)[i] : ((float *)x->buf)[i];
}

static void put(mat *x, size_t i, double v)
{
    if (x->dt == BLIS_DOUBLE) ((double *)x->buf)[i] = v;
    else ((float *)x->buf)[i] = (float)v;
}

static size_t at(const mat *x, dim_t i, dim_t j) { return (size_t)(i * x->rs + j * x->cs); }

/* Strides with gaps (leading dimension > extent; general: both != 1) so
 * writes outside the matrix show up in the sentinel check. */
static mat mat_new(num_t dt, dim_t rows, dim_t cols, enum layout l)
{
    mat x = { .dt = dt, .rows = rows, .cols = cols };
    if (l == COL) { x.rs = 1; x.cs = rows + 2; }
    if (l == ROW) { x.rs = cols + 3; x.cs = 1; }
    if (l == GEN) { x.rs = 2; x.cs = 2 * rows + 3; }
    x.len = (size_t)((rows - 1) * x.rs + (cols - 1) * x.cs + 1 + 4);
    x.buf = malloc(x.len * (dt == BLIS_DOUBLE ? 8 : 4));
    for (size_t i = 0; i < x.len; i++) put(&x, i, SENTINEL);
    return x;
}

static unsigned long long rng = 88172645463325252ull;
static double rnd(void)   /* xorshift: uniform in [-1, 1) */
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (double)(rng >> 11) / 4503599627370496.0 - 1.0;
}

static void fill(mat *x, double nan_fill)
{
    for (dim_t j = 0; j < x->cols; j++)
        for (dim_t i = 0; i < x->rows; i++)
            put(x, at(x, i, j), nan_fill ? NAN : rnd());
}

/* ---- the check ------------------------------------------------------- */

typedef struct gemm_case {
    num_t dt;
    trans_t ta, tb;
    dim_t m, n, k;
    double alpha, beta;
    enum layout l;
} gemm_case;

static double op(const mat *x, trans_t t, dim_t i, dim_t j)
{
    return t == BLIS_NO_TRANSPOSE ? get(x, at(x, i, j)) : get(x, at(x, j, i));
}

/* |c - ref| within the rounding of a k-term dot product in the type */
static void check_c(const gemm_case *g, const mat *a, const mat *b,
                    const mat *c0, const mat *c)
{
    double eps = g->dt == BLIS_DOUBLE ? 2.2e-16 : 1.2e-7;
    for (dim_t j = 0; j < g->n; j++)
        for (dim_t i = 0; i < g->m; i++) {
            double s = 0, mag = 0;
            for (dim_t p = 0; p < g->k; p++) {
                double t = op(a, g->ta, i, p) * op(b, g->tb, p, j);
                s += t; mag += fabs(t);
            }
            double ref = g->alpha * s, bnd = fabs(g->alpha) * mag;
            if (g->beta != 0) {
                ref += g->beta * get(c0, at(c0, i, j));
                bnd += fabs(g->beta * get(c0, at(c0, i, j)));
            }
            double got = get(c, at(c, i, j));
            if (!(fabs(got - ref) <= 4 * (g->k + 2) * eps * bnd + 1e-30))
                fail_msg("%s %c%c %s m=%d n=%d k=%d alpha=%g beta=%g: C(%d,%d)=%g want %g",
                         g->dt == BLIS_DOUBLE ? "d" : "s",
                         g->ta == BLIS_NO_TRANSPOSE ? 'n' : 't',
                         g->tb == BLIS_NO_TRANSPOSE ? 'n' : 't', layout_name[g->l],
                         (int)g->m, (int)g->n, (int)g->k, g->alpha, g->beta,
                         (int)i, (int)j, got, ref);
        }
}

/* nothing outside the m x n matrix may change */
static void check_gaps(const mat *c)
{
    char *inside = calloc(c->len, 1);
    for (dim_t j = 0; j < c->cols; j++)
        for (dim_t i = 0; i < c->rows; i++) inside[at(c, i, j)] = 1;
    for (size_t i = 0; i < c->len; i++)
        if (!inside[i] && get(c, i) != SENTINEL) fail_msg("C[%zu] outside the matrix written", i);
    free(inside);
}

static void call_typed(const gemm_case *g, mat *a, mat *b, mat *c)
{
    if (g->dt == BLIS_DOUBLE) {
        double al = g->alpha, be = g->beta;
        bli_dgemm(g->ta, g->tb, g->m, g->n, g->k, &al, a->buf, a->rs, a->cs,
                  b->buf, b->rs, b->cs, &be, c->buf, c->rs, c->cs);
    } else {
        float al = (float)g->alpha, be = (float)g->beta;
        bli_sgemm(g->ta, g->tb, g->m, g->n, g->k, &al, a->buf, a->rs, a->cs,
                  b->buf, b->rs, b->cs, &be, c->buf, c->rs, c->cs);
    }
}

/* Through the object API with a private context (NULL: typed API, global). */
static void call_obj(const gemm_case *g, mat *a, mat *b, mat *c, cntx_t *cntx)
{
    obj_t ao, bo, co, alpha, beta;
    bli_obj_create_with_attached_buffer(g->dt, a->rows, a->cols, a->buf, a->rs, a->cs, &ao);
    bli_obj_create_with_attached_buffer(g->dt, b->rows, b->cols, b->buf, b->rs, b->cs, &bo);
    bli_obj_create_with_attached_buffer(g->dt, c->rows, c->cols, c->buf, c->rs, c->cs, &co);
    bli_obj_set_onlytrans(g->ta, &ao);
    bli_obj_set_onlytrans(g->tb, &bo);
    double ad = g->alpha, bd = g->beta;          /* scalars in the matrices' type */
    float as = (float)g->alpha, bs = (float)g->beta;
    bool dbl = g->dt == BLIS_DOUBLE;
    bli_obj_create_1x1_with_attached_buffer(g->dt, dbl ? (void *)&ad : (void *)&as, &alpha);
    bli_obj_create_1x1_with_attached_buffer(g->dt, dbl ? (void *)&bd : (void *)&bs, &beta);
    gemmgen_blis_gemm(&alpha, &ao, &bo, &beta, &co, cntx, 0);
}

/* One GEMM through BLIS, checked; returns the micro-kernel calls it made. */
static long run_case(const gemm_case *g, cntx_t *cntx)
{
    bool ta = g->ta != BLIS_NO_TRANSPOSE, tb = g->tb != BLIS_NO_TRANSPOSE;
    mat a = mat_new(g->dt, ta ? g->k : g->m, ta ? g->m : g->k, g->l);
    mat b = mat_new(g->dt, tb ? g->n : g->k, tb ? g->k : g->n, g->l);
    mat c = mat_new(g->dt, g->m, g->n, g->l);
    fill(&a, 0); fill(&b, 0);
    fill(&c, g->beta == 0);            /* beta = 0: C starts as NaN */
    mat c0 = c;
    c0.buf = malloc(c.len * (g->dt == BLIS_DOUBLE ? 8 : 4));
    memcpy(c0.buf, c.buf, c.len * (g->dt == BLIS_DOUBLE ? 8 : 4));

    long before = atomic_load(&calls);
    if (cntx) call_obj(g, &a, &b, &c, cntx);
    else call_typed(g, &a, &b, &c);
    long made = atomic_load(&calls) - before;

    check_c(g, &a, &b, &c0, &c);
    check_gaps(&c);
    free(a.buf); free(b.buf); free(c.buf); free(c0.buf);
    return made;
}

/* ---- the sweep ------------------------------------------------------- */

static const dim_t sizes[][3] = {
    { 1, 1, 1 }, { 7, 5, 3 }, { 13, 17, 1 }, { 33, 19, 64 }, { 9, 7, 0 }, { 41, 23, 37 },
};
static const double alphabeta[][2] = { { 1, 0 }, { -0.5, 2 }, { 2, 1 }, { 0, 0.5 } };
static const trans_t trans[] = { BLIS_NO_TRANSPOSE, BLIS_TRANSPOSE };

/* Every transpose x C layout x size x alpha/beta; the kernel must run
 * whenever there is a product to compute. */
static void sweep(num_t dt, cntx_t *cntx)
{
    for (int t = 0; t < 4; t++)
        for (int l = 0; l < NLAYOUT; l++)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
                for (size_t ab = 0; ab < sizeof alphabeta / sizeof alphabeta[0]; ab++) {
                    gemm_case g = { dt, trans[t >> 1], trans[t & 1], sizes[s][0], sizes[s][1],
                                    sizes[s][2], alphabeta[ab][0], alphabeta[ab][1], l };
                    long made = run_case(&g, cntx);
                    if (g.k > 0 && g.alpha != 0) assert_true(made > 0);
                }
}

/* ---- tests ----------------------------------------------------------- */

static cntx_t private_cntx;

/* A patched copy of the context, tiny blocks so the sizes above cross
 * many MC/KC/NC edges; the global context must stay BLIS's own. */
static void test_private_context(void **state)
{
    (void)state;
    gemmgen_blis_copy_cntx(&private_cntx);
    gemmgen_blis_blocks bd = { 2 * ggblis_d_MR, 20, 3 * ggblis_d_NR };
    gemmgen_blis_blocks bs = { 2 * ggblis_s_MR, 20, 3 * ggblis_s_NR };
    assert_int_equal(gemmgen_blis_set(&private_cntx, BLIS_DOUBLE, (void_fp)ggblis_d_blis_counted,
                                      ggblis_d_MR, ggblis_d_NR, ggblis_d_ROW_PREF, &bd), 0);
    assert_int_equal(gemmgen_blis_set(&private_cntx, BLIS_FLOAT, (void_fp)ggblis_s_blis_counted,
                                      ggblis_s_MR, ggblis_s_NR, ggblis_s_ROW_PREF, &bs), 0);
    sweep(BLIS_DOUBLE, &private_cntx);
    sweep(BLIS_FLOAT, &private_cntx);

    gemm_case g = { BLIS_DOUBLE, BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, 300, 300, 300, 1, 1, COL };
    assert_int_equal(run_case(&g, NULL), 0);   /* global context untouched */
}

static void test_register_global(void **state)
{
    (void)state;
    assert_int_equal(gemmgen_blis_register(BLIS_DOUBLE, (void_fp)ggblis_d_blis_counted,
                                           ggblis_d_MR, ggblis_d_NR, ggblis_d_ROW_PREF, NULL), 0);
    assert_int_equal(gemmgen_blis_register(BLIS_FLOAT, (void_fp)ggblis_s_blis_counted,
                                           ggblis_s_MR, ggblis_s_NR, ggblis_s_ROW_PREF, NULL), 0);
    cntx_t *c = bli_gks_query_cntx();
    assert_int_equal(bli_cntx_get_blksz_max_dt(BLIS_DOUBLE, BLIS_MR, c), ggblis_d_MR);
    assert_int_equal(bli_cntx_get_blksz_def_dt(BLIS_FLOAT, BLIS_NR, c), ggblis_s_NR);
    assert_int_equal(bli_cntx_get_blksz_def_dt(BLIS_DOUBLE, BLIS_MC, c) % ggblis_d_MR, 0);
    assert_int_equal(bli_cntx_get_blksz_def_dt(BLIS_DOUBLE, BLIS_NC, c) % ggblis_d_NR, 0);
    assert_int_equal(gemmgen_blis_register(BLIS_INT, (void_fp)ggblis_d_blis, 4, 4, 0, NULL), -1);
}

static void test_typed_d(void **state) { (void)state; sweep(BLIS_DOUBLE, NULL); }
static void test_typed_s(void **state) { (void)state; sweep(BLIS_FLOAT, NULL); }

/* Sizes across the derived MC/KC/NC, one and two threads. */
static void test_block_edges(void **state)
{
    (void)state;
    cntx_t *cx = bli_gks_query_cntx();
    for (int nt = 1; nt <= 2; nt++) {
        bli_thread_set_num_threads(nt);
        for (int d = 0; d < 2; d++) {
            num_t dt = d ? BLIS_FLOAT : BLIS_DOUBLE;
            dim_t mc = bli_cntx_get_blksz_def_dt(dt, BLIS_MC, cx);
            dim_t kc = bli_cntx_get_blksz_def_dt(dt, BLIS_KC, cx);
            gemm_case g1 = { dt, BLIS_TRANSPOSE, BLIS_NO_TRANSPOSE, mc + 7, 29, kc + 5, 1.5, -1, COL };
            gemm_case g2 = { dt, BLIS_NO_TRANSPOSE, BLIS_TRANSPOSE, 11, 203, 2 * kc + 1, 1, 0, ROW };
            assert_true(run_case(&g1, NULL) > 0);
            assert_true(run_case(&g2, NULL) > 0);
        }
    }
    bli_thread_set_num_threads(1);
}

/* trsm goes through the reference gemmtrsm kernels, which call ours. */
static void test_trsm(void **state)
{
    (void)state;
    dim_t m = 45, n = 31;
    double *a = malloc(sizeof(double) * m * m), *b = malloc(sizeof(double) * m * n);
    double *x = malloc(sizeof(double) * m * n), one = 1;
    for (dim_t i = 0; i < m * m; i++) a[i] = 0.1 * rnd();
    for (dim_t i = 0; i < m; i++) a[i + i * m] = 2 + rnd();   /* well conditioned */
    for (dim_t i = 0; i < m * n; i++) x[i] = b[i] = rnd();
    long before = atomic_load(&calls);
    bli_dtrsm(BLIS_LEFT, BLIS_LOWER, BLIS_NO_TRANSPOSE, BLIS_NONUNIT_DIAG, m, n, &one,
              a, 1, m, x, 1, m);
    assert_true(atomic_load(&calls) > before);
    for (dim_t j = 0; j < n; j++)
        for (dim_t i = 0; i < m; i++) {
            double s = 0;
            for (dim_t p = 0; p <= i; p++) s += a[i + p * m] * x[p + j * m];
            assert_true(fabs(s - b[i + j * m]) < 1e-12);
        }
    free(a); free(b); free(x);
}

int main(void)
{
    bli_thread_set_num_threads(1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_private_context),   /* must run before the global patch */
        cmocka_unit_test(test_register_global),
        cmocka_unit_test(test_typed_d),
        cmocka_unit_test(test_typed_s),
        cmocka_unit_test(test_block_edges),
        cmocka_unit_test(test_trsm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
