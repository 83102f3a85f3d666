/* ref.h: the tests' yardstick, a naive GEMM in long double on general
 * strides, and an element-wise comparison with a forward error bound. */
#ifndef GG_TEST_REF_H
#define GG_TEST_REF_H
#include <math.h>
#include <stdint.h>

/* The sanitizer build checks the library, not this yardstick: the naive
 * loops (and gemm_case.h's randomize) instrumented were 60% of its
 * test time. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8
#define GG_TEST_NOSAN __attribute__((no_sanitize("address", "undefined")))
#else
#define GG_TEST_NOSAN
#endif

/* C = alpha A B + beta C (beta = 0: C not read); X(i,j) = x[i*rs + j*cs].
 * Also returns, in bound[i + j*m], sum |alpha a b| + |beta c| for the error
 * bound of element (i,j). */
GG_TEST_NOSAN
static void ref_gemm(int64_t m, int64_t n, int64_t k, double alpha,
                     const double *a, int64_t rsa, int64_t csa,
                     const double *b, int64_t rsb, int64_t csb,
                     double beta, double *c, int64_t rsc, int64_t csc,
                     double *bound)
{
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            /* two sums in turn: each x87 add waits for the one before, and
             * this loop is most of the test suite's time */
            long double s = 0, mag = 0, s1 = 0, mag1 = 0;
            int64_t p = 0;
            for (; p + 1 < k; p += 2) {
                long double t = (long double)a[i * rsa + p * csa] * b[p * rsb + j * csb];
                long double t1 = (long double)a[i * rsa + (p + 1) * csa] * b[(p + 1) * rsb + j * csb];
                s += t;
                mag += fabsl(t);
                s1 += t1;
                mag1 += fabsl(t1);
            }
            if (p < k) {
                long double t = (long double)a[i * rsa + p * csa] * b[p * rsb + j * csb];
                s += t;
                mag += fabsl(t);
            }
            s += s1;
            mag += mag1;
            double *cij = &c[i * rsc + j * csc];
            long double r = alpha * s, rb = fabs(alpha) * mag;
            if (beta != 0) {
                r += (long double)beta * *cij;
                rb += fabsl((long double)beta * *cij);
            }
            *cij = (double)r;
            bound[i + j * m] = (double)rb;
        }
}

#endif
