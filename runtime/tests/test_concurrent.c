/* test_concurrent.c: GEMMs called from several application threads at
 * once, as a threaded application (or numpy under a thread pool) calls a
 * BLAS. libgemmgen lets one call use its worker pool at a time and runs a
 * concurrent one on its caller's thread; each must still compute its own
 * product. Every thread checks every result against a naive product
 * computed before the threads start. And a process may fork after its
 * GEMMs started the pool. */
#define _DEFAULT_SOURCE     /* alarm, fork */
#include <complex.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "gemmgen.h"

enum { THREADS = 4, ROUNDS = 6, NSHAPES = 4, NTYPES = 4 };

/* Small and odd (the small-operand loops and the edge kernels), and large
 * enough for the pool's two threads and several cache blocks. */
static const int64_t shapes[NSHAPES][3] = { { 7, 5, 9 }, { 37, 41, 53 }, { 131, 127, 67 },
                                            { 260, 190, 300 } };

struct job {
    char type;              /* 'd', 's', 'z' or 'b' (bf16 A and B, f32 C) */
    int64_t m, n, k;
    void *a, *b, *c, *c0, *want;   /* c0: C before every call */
    int bad;                /* results out of bounds, over all rounds */
};

static uint64_t seed = 0x9e3779b97f4a7c15ull;
static double rnd(void)
{
    seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17;
    return (double)(seed >> 11) / 9007199254740992.0 * 2 - 1;
}

/* bytes of an element of C, and of A and B */
static size_t esize(char t) { return t == 'z' ? sizeof(double _Complex) : t == 'd' ? sizeof(double) : sizeof(float); }
static size_t absize(char t) { return t == 'b' ? sizeof(uint16_t) : esize(t); }

static float bf16(uint16_t x)
{
    uint32_t w = (uint32_t)x << 16;
    float f;
    memcpy(&f, &w, sizeof f);
    return f;
}

/* element x of operand p (A or B) as a real */
static long double real_at(char t, const void *p, int64_t x)
{
    return t == 'd' ? ((const double *)p)[x] : t == 's' ? ((const float *)p)[x]
                                                        : bf16(((const uint16_t *)p)[x]);
}

/* want = 0.5 A B - 1.5 C0 in long double, column major, no transposes. */
static void reference(struct job *j)
{
    const void *c0 = j->c0;
    for (int64_t i = 0; i < j->m; i++)
        for (int64_t q = 0; q < j->n; q++) {
            long double re = 0, im = 0;
            for (int64_t p = 0; p < j->k; p++) {
                if (j->type == 'z') {
                    double _Complex x = ((double _Complex *)j->a)[i + p * j->m];
                    double _Complex y = ((double _Complex *)j->b)[p + q * j->k];
                    re += (long double)creal(x) * creal(y) - (long double)cimag(x) * cimag(y);
                    im += (long double)creal(x) * cimag(y) + (long double)cimag(x) * creal(y);
                } else {
                    re += real_at(j->type, j->a, i + p * j->m) * real_at(j->type, j->b, p + q * j->k);
                }
            }
            int64_t x = i + q * j->m;
            if (j->type == 'z') {
                double _Complex c = ((const double _Complex *)c0)[x];
                ((double _Complex *)j->want)[x] = (double)(0.5L * re - 1.5L * creal(c)) +
                                                  I * (double)(0.5L * im - 1.5L * cimag(c));
            } else if (j->type == 'd') {
                ((double *)j->want)[x] = (double)(0.5L * re - 1.5L * ((const double *)c0)[x]);
            } else {
                ((float *)j->want)[x] = (float)(0.5L * re - 1.5L * ((const float *)c0)[x]);
            }
        }
}

/* count random elements of size `size` (2: bf16 bits) */
static void *filled(char t, size_t size, int64_t count)
{
    void *p = malloc((size_t)count * size);
    for (int64_t x = 0; x < count; x++) {
        if (t == 'z') ((double _Complex *)p)[x] = rnd() + I * rnd();
        else if (t == 'd') ((double *)p)[x] = rnd();
        else if (size == sizeof(uint16_t)) {    /* bf16: a float's upper half */
            float f = (float)rnd();
            uint32_t w;
            memcpy(&w, &f, sizeof w);
            ((uint16_t *)p)[x] = (uint16_t)(w >> 16);
        }
        else ((float *)p)[x] = (float)rnd();
    }
    return p;
}

static void job_init(struct job *j, char type, const int64_t *s)
{
    *j = (struct job){ .type = type, .m = s[0], .n = s[1], .k = s[2] };
    j->a = filled(type, absize(type), j->m * j->k);
    j->b = filled(type, absize(type), j->k * j->n);
    j->c0 = filled(type, esize(type), j->m * j->n);
    j->c = malloc((size_t)(j->m * j->n) * esize(type));
    j->want = malloc((size_t)(j->m * j->n) * esize(type));
    reference(j);
}

static void job_free(struct job *j)
{
    free(j->a); free(j->b); free(j->c); free(j->c0); free(j->want);
}

/* One call from C0; the result is compared with want. */
static void run(struct job *j)
{
    memcpy(j->c, j->c0, (size_t)(j->m * j->n) * esize(j->type));
    const gemmgen_layout cm = GEMMGEN_COL_MAJOR;
    const gemmgen_trans nt = GEMMGEN_NO_TRANS;
    if (j->type == 'z') {
        const double alpha[2] = { 0.5, 0 }, beta[2] = { -1.5, 0 };
        gemmgen_zgemm(cm, nt, nt, j->m, j->n, j->k, alpha, j->a, j->m, j->b, j->k, beta, j->c, j->m);
    } else if (j->type == 'd') {
        gemmgen_dgemm(cm, nt, nt, j->m, j->n, j->k, 0.5, j->a, j->m, j->b, j->k, -1.5, j->c, j->m);
    } else if (j->type == 'b') {
        gemmgen_sbgemm(cm, nt, nt, j->m, j->n, j->k, 0.5f, j->a, j->m, j->b, j->k, -1.5f, j->c, j->m);
    } else {
        gemmgen_sgemm(cm, nt, nt, j->m, j->n, j->k, 0.5f, j->a, j->m, j->b, j->k, -1.5f, j->c, j->m);
    }
    /* forward error bound: k products of operands below 1, and C */
    double tol = (j->type == 's' || j->type == 'b' ? 1e-5 : 1e-13) * (double)(j->k + 2);
    for (int64_t x = 0; x < j->m * j->n; x++) {
        double err = j->type == 'z'
            ? cabs(((double _Complex *)j->c)[x] - ((double _Complex *)j->want)[x])
            : j->type == 'd' ? fabs(((double *)j->c)[x] - ((double *)j->want)[x])
                             : fabs((double)((float *)j->c)[x] - ((float *)j->want)[x]);
        if (!(err <= tol)) j->bad++;
    }
}

struct worker { struct job jobs[NSHAPES * NTYPES]; };

static void *work(void *arg)
{
    struct worker *w = arg;
    for (int r = 0; r < ROUNDS; r++)
        for (int x = 0; x < NSHAPES * NTYPES; x++) {
            run(&w->jobs[(x + r) % (NSHAPES * NTYPES)]);   /* each round in another order */
        }
    return NULL;
}

static void concurrent_calls(int pool_threads)
{
    static struct worker w[THREADS];
    static const char types[NTYPES] = { 'd', 's', 'z', 'b' };
    for (int t = 0; t < THREADS; t++)
        for (int x = 0; x < NSHAPES * NTYPES; x++)
            job_init(&w[t].jobs[x], types[x % NTYPES], shapes[x / NTYPES]);
    gemmgen_set_num_threads(pool_threads);
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++) assert_int_equal(pthread_create(&th[t], NULL, work, &w[t]), 0);
    for (int t = 0; t < THREADS; t++) assert_int_equal(pthread_join(th[t], NULL), 0);
    gemmgen_set_num_threads(0);
    int bad = 0;
    for (int t = 0; t < THREADS; t++)
        for (int x = 0; x < NSHAPES * NTYPES; x++) {
            bad += w[t].jobs[x].bad;
            job_free(&w[t].jobs[x]);
        }
    assert_int_equal(bad, 0);
}

static void with_pool(void **state) { (void)state; concurrent_calls(2); }
static void one_thread_each(void **state) { (void)state; concurrent_calls(1); }

/* A process that forks after its GEMMs started the pool (Python's
 * multiprocessing does): the child has none of the workers, and its own
 * two-thread GEMM must neither wait for them nor compute wrong. */
static void after_fork(void **state)
{
    (void)state;
    struct job j;
    job_init(&j, 'd', shapes[NSHAPES - 1]);
    gemmgen_set_num_threads(2);
    run(&j);                        /* the pool's worker now exists */
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        alarm(20);                      /* a hang fails the test, as SIGALRM */
        j.bad = 0;
        for (int r = 0; r < 3; r++) run(&j);
        _exit(j.bad == 0 ? 0 : 1);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    run(&j);                            /* and the parent's pool still works */
    assert_int_equal(j.bad, 0);
    gemmgen_set_num_threads(0);
    job_free(&j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(with_pool),
        cmocka_unit_test(one_thread_each),
        cmocka_unit_test(after_fork),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
