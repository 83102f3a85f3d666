/* test_lowp: the reduced-precision GEMMs on every kernel set the CPU runs.
 * gemmgen_gemm_u8s8s32 exactly against an integer reference (odd sizes
 * around the tiles, k not a multiple of 4, every transpose, offsets ao and
 * bo, co as F, C and R, alpha and beta through the double formula,
 * saturation, C's padding, bad arguments); gemmgen_sbgemm and cblas_sbgemm
 * against a double loop on the same bf16 inputs within f32 summation
 * error (both layouts, every transpose, beta = 0 with NaN in C, alpha = 0
 * and k = 0); which set runs each type; with libdnnl (HAVE_DNNL),
 * gemmgen_gemm_u8s8s32 against dnnl_gemm_u8s8s32 bit for bit. Meson runs
 * it with 1 and 2 threads and with small cache blocks (GEMMGEN_KC 37). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "gemmgen.h"
#include "gg_internal.h"
#define LOWP_REPORT print_error
#include "lowp_case.h"
#ifdef HAVE_DNNL
#include <oneapi/dnnl/dnnl.h>
#endif

/* Selects the next kernel set after *i (start at -1) that this CPU
 * supports; 0 when none is left. */
static int next_set(int *i)
{
    while (++*i < gemmgen_kernel_count())
        if (gemmgen_kernel_supported(*i)) {
            assert_int_equal(gemmgen_kernel_select(gemmgen_kernel_name(*i)), 0);
            return 1;
        }
    return 0;
}
#define FOR_EACH_SET for (int set_ = -1; next_set(&set_);)

static const int64_t sizes[][3] = {
    {1, 1, 1}, {1, 1, 3}, {5, 7, 3}, {6, 8, 4}, {7, 9, 13}, {13, 17, 5}, {16, 16, 64},
    {31, 33, 67}, {33, 1, 9}, {1, 47, 10}, {48, 48, 48}, {100, 37, 257}, {129, 130, 131},
};
#define NSIZES (int)(sizeof sizes / sizeof sizes[0])

static void test_u8s8_sizes(void **state)
{
    (void)state;
    static const char tr[] = "NT";
    FOR_EACH_SET {
        for (int s = 0; s < NSIZES; s++)
            for (int ta = 0; ta < 2; ta++)
                for (int tb = 0; tb < 2; tb++) {
                    struct icase t = { tr[ta], tr[tb], "FCR"[(s + ta) % 3], sizes[s][0],
                                       sizes[s][1], sizes[s][2], 1, (float)((s + tb) % 2),
                                       0, 0, 0 };
                    assert_int_equal(run_i(&t), 0);
                }
    }
}

/* Offsets and scalars on a few sizes: the exact path (alpha 1, beta 0/1)
 * and the double one. */
static void test_u8s8_offsets(void **state)
{
    (void)state;
    static const float ab[][2] = { {1, 0}, {1, 1}, {0.5f, -1}, {2.5f, 0.3f}, {-1.5f, 0},
                                   {0, 0.5f}, {0.25f, 1} };
    static const struct { uint8_t ao; int8_t bo; } off[] = { {0, 0}, {3, 0}, {0, -7}, {200, 100},
                                                              {255, -128} };
    FOR_EACH_SET {
        for (int s = 0; s < NSIZES; s += 2)
            for (int x = 0; x < 7; x++)
                for (int o = 0; o < 5; o++) {
                    struct icase t = { "NT"[x % 2], "NT"[o % 2], "FCR"[(x + o) % 3],
                                       sizes[s][0], sizes[s][1], sizes[s][2], ab[x][0],
                                       ab[x][1], off[o].ao, off[o].bo, 0 };
                    assert_int_equal(run_i(&t), 0);
                }
    }
}

/* Wrapping on the exact path, saturation on the double one. */
static void test_u8s8_limits(void **state)
{
    (void)state;
    static const float ab[][2] = { {1, 1}, {1, 0}, {3e5f, 0}, {-3e5f, 1.5f}, {1.5f, 1} };
    FOR_EACH_SET {
        for (int x = 0; x < 5; x++) {
            struct icase t = { 'N', 'N', "FCR"[x % 3], 9, 11, 40, ab[x][0], ab[x][1], 0, 0, 1 };
            assert_int_equal(run_i(&t), 0);
        }
    }
}

static void test_u8s8_bad_args(void **state)
{
    (void)state;
    uint8_t a[16] = {1}; int8_t b[16] = {1}; int32_t c[16] = {7}, co[4] = {0};
    assert_int_equal(gemmgen_gemm_u8s8s32('X', 'N', 'F', 1, 1, 1, 1, a, 1, 0, b, 1, 0, 0, c, 1, co), 2);
    assert_int_equal(gemmgen_gemm_u8s8s32('N', 'C', 'F', 1, 1, 1, 1, a, 1, 0, b, 1, 0, 0, c, 1, co), 2);
    assert_int_equal(gemmgen_gemm_u8s8s32('N', 'N', 'X', 1, 1, 1, 1, a, 1, 0, b, 1, 0, 0, c, 1, co), 2);
    assert_int_equal(gemmgen_gemm_u8s8s32('N', 'N', 'F', -1, 1, 1, 1, a, 1, 0, b, 1, 0, 0, c, 1, co), 2);
    assert_int_equal(gemmgen_gemm_u8s8s32('N', 'N', 'F', 2, 1, 2, 1, a, 1, 0, b, 1, 0, 0, c, 1, co), 2);
    assert_int_equal(gemmgen_gemm_u8s8s32('T', 'N', 'F', 2, 1, 1, 1, a, 1, 0, b, 1, 0, 0, c, 1, co), 2);
    assert_int_equal(gemmgen_gemm_u8s8s32('N', 'N', 'F', 1, 2, 1, 1, a, 1, 0, b, 1, 0, 0, c, 2, co), 2);
    assert_int_equal(gemmgen_gemm_u8s8s32('N', 'T', 'F', 1, 1, 2, 1, a, 2, 0, b, 1, 0, 0, c, 1, co), 2);
    assert_int_equal(gemmgen_gemm_u8s8s32('N', 'N', 'F', 1, 2, 1, 1, a, 1, 0, b, 2, 0, 0, c, 1, co), 2);
    assert_int_equal(gemmgen_gemm_u8s8s32('N', 'N', 'F', 0, 1, 1, 1, a, 0, 0, b, 1, 0, 0, c, 1, co), 2);
    assert_int_equal(gemmgen_gemm_u8s8s32('N', 'N', 'F', 1, 1, 1, 1, NULL, 1, 0, b, 1, 0, 0, c, 1, co), 2);
    assert_int_equal(gemmgen_gemm_u8s8s32('N', 'N', 'F', 1, 1, 1, 1, a, 1, 0, b, 1, 0, 0, c, 1, NULL), 2);
    assert_int_equal(c[0], 7);
    /* M, N or K zero: nothing done, beta and co included */
    assert_int_equal(gemmgen_gemm_u8s8s32('n', 't', 'r', 1, 1, 0, 1, a, 1, 0, b, 1, 0, 0, c, 1, co), 0);
    assert_int_equal(c[0], 7);
    assert_int_equal(gemmgen_gemm_u8s8s32('N', 'N', 'F', 0, 1, 1, 1, a, 1, 0, b, 1, 0, 0, c, 1, co), 0);
}

static void test_bf16_sizes(void **state)
{
    (void)state;
    static const float ab[][2] = { {1, 0}, {-1.5f, 0.5f}, {0.75f, 1} };
    FOR_EACH_SET {
        for (int s = 0; s < NSIZES; s++)
            for (int x = 0; x < 8; x++) {
                struct bcase t = { x & 1, (x >> 1) & 1, (x >> 2) & 1, s % 2, sizes[s][0],
                                   sizes[s][1], sizes[s][2], ab[(s + x) % 3][0],
                                   ab[(s + x) % 3][1] };
                assert_int_equal(run_b(&t), 0);
            }
    }
}

/* alpha = 0 and k = 0 scale C by beta; beta = 0 writes zeros over NaN. */
static void test_bf16_scale(void **state)
{
    (void)state;
    uint16_t a[4] = {0x3f80, 0x3f80, 0x3f80, 0x3f80}, b[4] = {0x4000, 0x4000, 0x4000, 0x4000};
    float c[4] = {1, 2, 3, 4};
    assert_int_equal(gemmgen_sbgemm(GEMMGEN_COL_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS,
                                    2, 2, 0, 1, a, 2, b, 1, 0.5f, c, 2), 0);
    assert_true(c[0] == 0.5f && c[3] == 2);
    assert_int_equal(gemmgen_sbgemm(GEMMGEN_COL_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS,
                                    2, 2, 2, 0, a, 2, b, 2, 2, c, 2), 0);
    assert_true(c[0] == 1 && c[3] == 4);
    c[0] = c[1] = c[2] = c[3] = NAN;
    assert_int_equal(gemmgen_sbgemm(GEMMGEN_ROW_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS,
                                    2, 2, 2, 1, a, 2, b, 2, 0, c, 2), 0);
    assert_true(c[0] == 4 && c[1] == 4 && c[2] == 4 && c[3] == 4);
    /* bad arguments: minus their position, nothing done */
    assert_int_equal(gemmgen_sbgemm(GEMMGEN_ROW_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS,
                                    2, 2, 2, 1, a, 1, b, 2, 0, c, 2), -9);
}

/* ---- which kernels run ---- */

/* Each type runs the current set's generated kernel where it has one the
 * CPU runs, else the portable one. */
static void test_kernel_choice(void **state)
{
    (void)state;
    FOR_EACH_SET {
        const struct gg_kernel_set *s = gg_set_current();
        int bf16 = s->bf16.fn && !(s->bf16_features & ~gg_cpu_features());
        int u8s8 = s->u8s8.fn && !(s->u8s8_features & ~gg_cpu_features());
        print_message("set %s: bf16 runs %s, u8s8s32 runs %s\n", s->name,
                      gemmgen_kernel_current_for('b'), gemmgen_kernel_current_for('i'));
        assert_string_equal(gemmgen_kernel_current_for('b'), bf16 ? s->name : "portable");
        assert_string_equal(gemmgen_kernel_current_for('i'), u8s8 ? s->name : "portable");
        int mr, nr;
        gemmgen_blocking('i', &mr, &nr, NULL, NULL, NULL);
        assert_int_equal(mr, u8s8 ? s->u8s8.mr : GG_PORTABLE_U8S8_MR);
        assert_int_equal(nr, u8s8 ? s->u8s8.nr : GG_PORTABLE_U8S8_NR);
    }
}

/* ---- against oneDNN ---- */

#ifdef HAVE_DNNL
/* oneDNN 2.6's JIT kernels on this CPU (OMP_NUM_THREADS=1) agree with
 * gemmgen.h's formula bit for bit where alpha is 1 and beta 0 or 1, and
 * otherwise up to K = 64; past it they round once per block of k they
 * compute (64 or 128 steps), so each result may be off by up to 1 per
 * extra block, or clamp a block's partial result that the next block
 * would bring back in range. Those cases are held to that bound on C away
 * from the limits, the others to equality. */
static int64_t dnnl_slack(float alpha, float beta, int64_t k)
{
    if (alpha == 1 && (beta == 0 || beta == 1)) return 0;
    return (k + 63) / 64 - 1;
}

/* Without VNNI oneDNN sums pairs of byte products in 16 bits with
 * saturation (vpmaddubsw; its "Nuances of int8 computations"): A's bytes
 * kept below 128 there, where two products fit. */
static uint8_t dnnl_a_mask(void)
{
    return gg_cpu_features() & GG_CPU_AVX512VNNI ? 0xff : 0x7f;
}

static void test_u8s8_dnnl(void **state)
{
    (void)state;
    const uint8_t amask = dnnl_a_mask();
    static const float alphas[] = { 1, 1, 0.5f, -2, 1.7f }, betas[] = { 0, 1, 0, 0.5f, -1.25f };
    FOR_EACH_SET {
        for (int it = 0; it < 120; it++) {
            const char ta = "NT"[rnd32() % 2], tb = "NT"[rnd32() % 2], oc = "FCR"[rnd32() % 3];
            const int64_t m = 1 + rnd32() % 70, n = 1 + rnd32() % 70,
                          k = 1 + rnd32() % (it % 2 ? 64 : 300);
            const int64_t lda = (ta == 'N' ? k : m) + rnd32() % 3, ldb = (tb == 'N' ? n : k) + rnd32() % 3,
                          ldc = n + rnd32() % 3;
            const float alpha = alphas[it % 5], beta = betas[(it / 5) % 5];
            const uint8_t ao = rnd32() % 2 ? 0 : (uint8_t)rnd32();
            const int8_t bo = rnd32() % 2 ? 0 : (int8_t)rnd32();
            /* C near the int32 limits: where oneDNN rounds once (past 64 k steps it
             * also saturates each block's partial result) */
            const int big = it % 7 == 6 && dnnl_slack(alpha, beta, k) == 0;
            const int64_t na = (ta == 'N' ? m : k) * lda, nb = (tb == 'N' ? k : n) * ldb, nc = m * ldc;
            uint8_t *a = malloc((size_t)na); int8_t *b = malloc((size_t)nb);
            int32_t *c = malloc((size_t)nc * 4), *d = malloc((size_t)nc * 4), *co = malloc((size_t)(m + n) * 4);
            for (int64_t x = 0; x < na; x++) a[x] = (uint8_t)rnd32() & amask;
            for (int64_t x = 0; x < nb; x++) b[x] = (int8_t)rnd32();
            for (int64_t x = 0; x < nc; x++) c[x] = d[x] = big ? (int32_t)rnd32() : (int32_t)(rnd32() % 100001) - 50000;
            for (int64_t x = 0; x < m + n; x++) co[x] = (int32_t)(rnd32() % 2001) - 1000;
            int s1 = gemmgen_gemm_u8s8s32(ta, tb, oc, m, n, k, alpha, a, lda, ao, b, ldb, bo, beta, c, ldc, co);
            int s2 = dnnl_gemm_u8s8s32(ta, tb, oc, m, n, k, alpha, a, lda, ao, b, ldb, bo, beta, d, ldc, co);
            assert_int_equal(s1, s2);
            int bad = 0;
            const int64_t slack = dnnl_slack(alpha, beta, k);
            for (int64_t x = 0; x < nc; x++)
                if (llabs((long long)c[x] - d[x]) > slack && bad++ < 3)
                    print_error("vs oneDNN %c%c %c m %ld n %ld k %ld alpha %g beta %g ao %d bo %d: "
                                "C[%ld] = %d, oneDNN %d\n", ta, tb, oc, (long)m, (long)n, (long)k,
                                alpha, beta, ao, bo, (long)x, c[x], d[x]);
            free(a); free(b); free(c); free(d); free(co);
            assert_int_equal(bad, 0);
        }
    }
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernel_choice),
        cmocka_unit_test(test_u8s8_bad_args),
        cmocka_unit_test(test_u8s8_sizes),
        cmocka_unit_test(test_u8s8_offsets),
        cmocka_unit_test(test_u8s8_limits),
        cmocka_unit_test(test_bf16_scale),
        cmocka_unit_test(test_bf16_sizes),
#ifdef HAVE_DNNL
        cmocka_unit_test(test_u8s8_dnnl),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
