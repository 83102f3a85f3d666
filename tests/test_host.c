/* test_host.c: which shipped machine file a host gets (gen/host.c): an
 * exact cpuid / MIDR match, else the widest file the host can run (on
 * SVE, of its vector length); and the MIDR fields of /proc/cpuinfo. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "host.h"

/* /proc/cpuinfo of a Neoverse N2 (Yitian 710), first processor */
static const char n2_cpuinfo[] =
    "processor\t: 0\n"
    "BogoMIPS\t: 100.00\n"
    "Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid "
    "asimdrdm jscvt fcma lrcpc dcpop sha3 sm3 sm4 asimddp sha512 sve asimdfhm dit uscat "
    "ilrcpc flagm ssbs sb paca pacg dcpodp sve2 sveaes svepmull svebitperm svesha3 svesm4 "
    "flagm2 frint svei8mm svebf16 i8mm bf16 dgh\n"
    "CPU implementer\t: 0x41\n"
    "CPU architecture: 8\n"
    "CPU variant\t: 0x0\n"
    "CPU part\t: 0xd49\n"
    "CPU revision\t: 0\n";

static const char *file_of(const char *path)
{
    const char *s = path ? strrchr(path, '/') : NULL;
    return s ? s + 1 : path;
}

static const char *pick(const struct host *h)
{
    static char out[4096];
    return file_of(host_pick(h, out, sizeof out));
}

static struct host arm(int impl, int part, unsigned ext, int sve_bits)
{
    struct host h = { "arm", impl, part, ext, FAM_AARCH64, sve_bits };
    return h;
}

static void parse_cpuinfo(void **state)
{
    (void)state;
    struct host h = { 0 };
    assert_true(host_parse_cpuinfo(n2_cpuinfo, &h));
    assert_string_equal(h.vendor, "arm");
    assert_int_equal(h.family, 0x41);
    assert_int_equal(h.model, 0xd49);
    assert_int_equal(h.isa, FAM_AARCH64);
    struct host none = { 0 };
    assert_false(host_parse_cpuinfo("processor\t: 0\nmodel name\t: AMD EPYC\n", &none));
    assert_false(host_parse_cpuinfo("CPU implementer\t: 0x41\nCPU part\t:\n", &none));
}

/* Exact MIDR matches, whatever the features say. */
static void exact_arm(void **state)
{
    (void)state;
    const unsigned sve = EXT_NEON | EXT_SVE | EXT_BF16 | EXT_I8MM | EXT_FCMA;
    struct host n2 = arm(0x41, 0xd49, sve, 128), v1 = arm(0x41, 0xd40, sve, 256);
    struct host n1 = arm(0x41, 0xd0c, EXT_NEON, 0), a55 = arm(0x41, 0xd05, EXT_NEON, 0);
    struct host a64fx = arm(0x46, 0x001, EXT_NEON | EXT_SVE | EXT_FCMA, 512);
    assert_string_equal(pick(&n2), "neoverse-n2.yaml");
    assert_string_equal(pick(&v1), "neoverse-v1.yaml");
    assert_string_equal(pick(&n1), "neoverse-n1.yaml");
    assert_string_equal(pick(&a55), "cortex-a55.yaml");
    assert_string_equal(pick(&a64fx), "a64fx.yaml");
}

/* An unknown part: the widest runnable file, of the host's SVE length
 * (never a64fx's 512 bits on a 128-bit SVE core), out of order on ties. */
static void fallback_arm(void **state)
{
    (void)state;
    const unsigned sve = EXT_NEON | EXT_SVE | EXT_BF16 | EXT_I8MM | EXT_FCMA;
    struct host sve128 = arm(0x41, 0xd4f, sve, 128), sve256 = arm(0x41, 0xd4f, sve, 256);
    struct host neon = arm(0x41, 0xfff, EXT_NEON, 0), none = arm(0x41, 0xfff, 0, 0);
    assert_string_equal(pick(&sve128), "neoverse-n2.yaml");
    assert_string_equal(pick(&sve256), "neoverse-v1.yaml");
    const char *n = pick(&neon);
    assert_true(!strcmp(n, "neoverse-n1.yaml") || !strcmp(n, "cortex-a57.yaml"));
    char out[64];
    assert_null(host_pick(&none, out, sizeof out));
}

/* POWER: by extensions alone (no file names a part). */
static void power(void **state)
{
    (void)state;
    struct host p10 = { "", -1, -1, EXT_VSX | EXT_MMA, FAM_POWER, 0 };
    struct host p9 = { "", -1, -1, EXT_VSX, FAM_POWER, 0 };
    assert_string_equal(pick(&p10), "power10.yaml");
    assert_string_equal(pick(&p9), "power9.yaml");
}

/* x86: cpuid's exact match (Zen 4's family 0x19, model 0x11). */
static void exact_x86(void **state)
{
    (void)state;
    struct host zen4 = { "AuthenticAMD", 0x19, 0x11, EXT_SSE2 | EXT_AVX | EXT_AVX2 | EXT_FMA |
                         EXT_AVX512F, FAM_X86, 0 };
    assert_string_equal(pick(&zen4), "zen4.yaml");
    /* Zen 3 (Milan, model 0x01) has the same family and no AVX-512 */
    struct host zen3 = { "AuthenticAMD", 0x19, 0x01, EXT_SSE2 | EXT_AVX | EXT_AVX2 | EXT_FMA,
                         FAM_X86, 0 };
    assert_string_equal(pick(&zen3), "zen3.yaml");
}

int main(void)
{
    setenv("GEMMGEN_MACHINES", MACHINES_DIR, 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parse_cpuinfo), cmocka_unit_test(exact_arm),
        cmocka_unit_test(fallback_arm), cmocka_unit_test(power), cmocka_unit_test(exact_x86),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
