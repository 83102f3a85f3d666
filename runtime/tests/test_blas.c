/* test_blas.c: the CBLAS and Fortran entry points: results for both
 * layouts and the transposes, and the reference-BLAS argument checks,
 * which must reach the program's own xerbla_ (replacing the library's
 * weak one) with the right routine name and position, computing nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>
#include <cblas.h>
#include "ref.h"

void dgemm_(const char *, const char *, const int *, const int *, const int *,
            const double *, const double *, const int *, const double *, const int *,
            const double *, double *, const int *, size_t, size_t);
void sgemm_(const char *, const char *, const int *, const int *, const int *,
            const float *, const float *, const int *, const float *, const int *,
            const float *, float *, const int *, size_t, size_t);

static char err_name[32];
static int err_info, err_calls;

void xerbla_(const char *name, const int *info, size_t len)
{
    snprintf(err_name, sizeof err_name, "%.*s", (int)len, name);
    err_info = *info;
    err_calls++;
}

static void expect_error(const char *name, int info)
{
    assert_int_equal(err_calls, 1);
    assert_string_equal(err_name, name);
    assert_int_equal(err_info, info);
    err_calls = 0;
}

/* A 3x2 times 2x4 product whose result is known exactly. */
static const double A[6] = {1, 2, 3, 4, 5, 6};           /* col major 3x2 */
static const double B[8] = {1, 0, 2, 1, -1, 3, 0, -2};   /* col major 2x4 */

static void test_cblas_both_layouts(void **st)
{
    (void)st;
    double want[12], c[12], bound[12];
    memset(want, 0, sizeof want);
    ref_gemm(3, 4, 2, 2.0, A, 1, 3, B, 1, 2, 0, want, 1, 3, bound);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 3, 4, 2, 2.0, A, 3, B, 2, 0.0, c, 3);
    for (int i = 0; i < 12; i++) assert_true(c[i] == want[i]);
    /* row major C^T = B^T A^T with the same arrays read as transposes */
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 4, 3, 2, 2.0, B, 2, A, 3, 0.0, c, 3);
    for (int i = 0; i < 12; i++) assert_true(c[i] == want[i]);
    float fa[6], fb[8], fc[12];
    for (int i = 0; i < 6; i++) fa[i] = (float)A[i];
    for (int i = 0; i < 8; i++) fb[i] = (float)B[i];
    cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 3, 4, 2, 2.0f, fa, 3, fb, 2, 0.0f, fc, 3);
    for (int i = 0; i < 12; i++) assert_true(fc[i] == (float)want[i]);
    assert_int_equal(err_calls, 0);
}

static void test_fortran(void **st)
{
    (void)st;
    double want[12], c[12], bound[12], at[6];
    for (int i = 0; i < 3; i++)          /* A^T stored 2x3 */
        for (int p = 0; p < 2; p++) at[p + 2 * i] = A[i + 3 * p];
    for (int i = 0; i < 12; i++) c[i] = want[i] = i;
    ref_gemm(3, 4, 2, -1.0, A, 1, 3, B, 1, 2, 0.5, want, 1, 3, bound);
    int m = 3, n = 4, k = 2, lda = 2, ldb = 2, ldc = 3;
    double alpha = -1, beta = 0.5;
    dgemm_("t", "N", &m, &n, &k, &alpha, at, &lda, B, &ldb, &beta, c, &ldc, 1, 1);
    for (int i = 0; i < 12; i++) assert_true(c[i] == want[i]);
    float fa[6], fb[8], fc[12], fal = -1, fbe = 0.5f;
    for (int i = 0; i < 6; i++) fa[i] = (float)at[i];
    for (int i = 0; i < 8; i++) fb[i] = (float)B[i];
    for (int i = 0; i < 12; i++) fc[i] = (float)i;
    sgemm_("T", "n", &m, &n, &k, &fal, fa, &lda, fb, &ldb, &fbe, fc, &ldc, 1, 1);
    for (int i = 0; i < 12; i++) assert_true(fc[i] == (float)want[i]);
    assert_int_equal(err_calls, 0);
}

static void test_cblas_errors(void **st)
{
    (void)st;
    double c[12] = {0};
    cblas_dgemm(77, CblasNoTrans, CblasNoTrans, 3, 4, 2, 1, A, 3, B, 2, 0, c, 3);
    expect_error("cblas_dgemm", 1);
    cblas_dgemm(CblasColMajor, 1, CblasNoTrans, 3, 4, 2, 1, A, 3, B, 2, 0, c, 3);
    expect_error("cblas_dgemm", 2);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 3, -4, 2, 1, A, 3, B, 2, 0, c, 3);
    expect_error("cblas_dgemm", 5);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 3, 4, 2, 1, A, 2, B, 2, 0, c, 3);
    expect_error("cblas_dgemm", 9);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 4, 3, 2, 1, B, 2, A, 2, 0, c, 3);
    expect_error("cblas_dgemm", 11);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 4, 3, 2, 1, NULL, 2, NULL, 3, 0, NULL, 2);
    expect_error("cblas_sgemm", 14);
    for (int i = 0; i < 12; i++) assert_true(c[i] == 0);
}

static void test_fortran_errors(void **st)
{
    (void)st;
    double c[12] = {0}, one = 1;
    int m = 3, n = 4, k = 2, two = 2, three = 3, neg = -1;
    dgemm_("X", "N", &m, &n, &k, &one, A, &three, B, &two, &one, c, &three, 1, 1);
    expect_error("DGEMM ", 1);
    dgemm_("N", "N", &m, &n, &neg, &one, A, &three, B, &two, &one, c, &three, 1, 1);
    expect_error("DGEMM ", 5);
    dgemm_("N", "N", &m, &n, &k, &one, A, &two, B, &two, &one, c, &three, 1, 1);
    expect_error("DGEMM ", 8);
    dgemm_("N", "T", &m, &n, &k, &one, A, &three, B, &two, &one, c, &three, 1, 1);
    expect_error("DGEMM ", 10);
    dgemm_("N", "N", &m, &n, &k, &one, A, &three, B, &two, &one, c, &two, 1, 1);
    expect_error("DGEMM ", 13);
    float f = 1;
    sgemm_("N", "N", &m, &n, &k, &f, NULL, &three, NULL, &two, &f, NULL, &two, 1, 1);
    expect_error("SGEMM ", 13);
    for (int i = 0; i < 12; i++) assert_true(c[i] == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cblas_both_layouts),
        cmocka_unit_test(test_fortran),
        cmocka_unit_test(test_cblas_errors),
        cmocka_unit_test(test_fortran_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
