/* test_blocking.c: MC/KC/NC from the cache geometry (runtime/src/blocking.c)
 * for the Emerald Rapids host's caches, both L1 shares a kernel can ask for,
 * and the GEMMGEN_KC override. */
#define _POSIX_C_SOURCE 200112L   /* setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include "gg_internal.h"

static const struct gg_caches emr = { { 48 << 10, 64, 12, 0 }, { 2 << 20, 64, 16, 0 },
                                      { 107520L << 10, 64, 15, 0 } };
/* zen5.yaml's: L3 shared by 8 cores */
static const struct gg_caches zen5 = { { 48 << 10, 64, 12, 0 }, { 1 << 20, 64, 16, 0 },
                                       { 32L << 20, 64, 16, 8 } };

static void expect_blocks(int mr, int nr, int s, int percent, int kc, int mc, int nc)
{
    struct gg_blocking b = gg_blocking_for(&emr, mr, nr, s, percent);
    assert_int_equal(b.mr, mr);
    assert_int_equal(b.nr, nr);
    assert_int_equal(b.kc, kc);
    assert_int_equal(b.mc, mc);
    assert_int_equal(b.nc, nc);
    assert_int_equal(b.l1_sets, 64);               /* 48K / 64 / 12 */
}

/* kc = L1 * P% / (NR*S) to a multiple of 8; mc = L2 / 2 / (kc*S) to MR;
 * nc = L3 / 2 / (kc*S) (L3 / shared_by), capped at 4096, to NR. */
static void shares(void **state)
{
    (void)state;
    expect_blocks(16, 14, 8, 50, 216, 592, 4088);  /* 24576/112 = 219 */
    expect_blocks(16, 14, 8, 0, 216, 592, 4088);   /* 0: seed 000's half */
    expect_blocks(16, 14, 8, 75, 328, 384, 4088);  /* 36864/112 = 329; 1M/2624 = 399 */
    expect_blocks(32, 14, 4, 75, 656, 384, 4088);  /* 36864/56 = 658; 1M/2624 = 399 */
    expect_blocks(8, 6, 8, 50, 512, 256, 4092);    /* 24576/48 = 512 */
}

/* nc from one core's share of L3, zen5's kernels (B_L1_PERCENT 50): 32M / 8
 * / 2 / (216*8) = 1213 -> 1204 (f64 16x14), 2M / (432*4) = 1213 -> 1204
 * (f32 32x14); mc from L2 as before. */
static void l3_share(void **state)
{
    (void)state;
    struct gg_blocking d = gg_blocking_for(&zen5, 16, 14, 8, 50), s = gg_blocking_for(&zen5, 32, 14, 4, 50);
    assert_int_equal(d.kc, 216);
    assert_int_equal(d.mc, 288);                   /* 512K / 1728 = 303 */
    assert_int_equal(d.nc, 1204);
    assert_int_equal(s.kc, 432);
    assert_int_equal(s.nc, 1204);
}

static void override(void **state)
{
    (void)state;
    setenv("GEMMGEN_KC", "100", 1);
    setenv("GEMMGEN_MC", "100", 1);                /* rounded down to MR */
    struct gg_blocking b = gg_blocking_for(&emr, 16, 14, 8, 75);
    unsetenv("GEMMGEN_KC");
    unsetenv("GEMMGEN_MC");
    assert_int_equal(b.kc, 100);
    assert_int_equal(b.mc, 96);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shares),
        cmocka_unit_test(l3_share),
        cmocka_unit_test(override),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
