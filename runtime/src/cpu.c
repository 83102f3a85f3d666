/* cpu.c: which instruction sets this CPU and OS can run. On x86 a feature
 * counts only if cpuid reports it AND the OS saves its registers (xgetbv),
 * since a kernel using zmm registers on an OS that does not save them
 * would corrupt other processes' state or fault. On AArch64 and POWER the
 * kernel's hardware capabilities (getauxval) already say what the OS
 * supports. */
#include "gg_internal.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static unsigned long long xgetbv0(void)
{
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
}

/* AMX's tile state: the OS saves it (XCR0 bits 17, 18) and Linux lets this
 * process use it (arch_prctl ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA; asked
 * once for the process, a repeat is harmless). */
static int amx_ok(unsigned long long xcr0)
{
    if ((xcr0 & 0x60000) != 0x60000) return 0;
#ifdef __linux__
    long r;
    __asm__ volatile("syscall" : "=a"(r) : "0"(158L), "D"(0x1023L), "S"(18L) : "rcx", "r11", "memory");
    return r == 0;
#else
    return 0;
#endif
}

static unsigned detect(void)
{
    unsigned a, b, c, d, f = GG_CPU_SSE2;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return f;
    int osxsave = (c >> 27) & 1;
    unsigned long long xcr0 = osxsave ? xgetbv0() : 0;
    int ymm_ok = (xcr0 & 0x6) == 0x6;            /* SSE + AVX state */
    int zmm_ok = ymm_ok && (xcr0 & 0xe0) == 0xe0; /* opmask, ZMM_Hi256, Hi16_ZMM */
    if (ymm_ok && ((c >> 28) & 1)) f |= GG_CPU_AVX;
    if (ymm_ok && ((c >> 12) & 1)) f |= GG_CPU_FMA;
    if (__get_cpuid_max(0, 0) < 7)
        return f;
    __cpuid_count(7, 0, a, b, c, d);
    if (ymm_ok && ((b >> 5) & 1)) f |= GG_CPU_AVX2;
    if (zmm_ok && ((b >> 16) & 1)) f |= GG_CPU_AVX512F;
    if (zmm_ok && ((b >> 17) & 1)) f |= GG_CPU_AVX512DQ;
    if (zmm_ok && ((b >> 30) & 1)) f |= GG_CPU_AVX512BW;
    if (zmm_ok && ((b >> 31) & 1)) f |= GG_CPU_AVX512VL;
    if (zmm_ok && ((c >> 11) & 1)) f |= GG_CPU_AVX512VNNI;
    if (zmm_ok && ((d >> 24) & 1) && amx_ok(xcr0)) {   /* AMX-TILE */
        if ((d >> 22) & 1) f |= GG_CPU_AMX_BF16;
        if ((d >> 25) & 1) f |= GG_CPU_AMX_INT8;
    }
    __cpuid_count(7, 1, a, b, c, d);          /* subleaf 1: zeros where the CPU has none */
    if (zmm_ok && ((a >> 5) & 1)) f |= GG_CPU_AVX512BF16;
    return f;
}
#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#include <sys/prctl.h>
#ifndef HWCAP_SVE
#define HWCAP_SVE (1UL << 22)
#endif
#ifndef HWCAP_FCMA
#define HWCAP_FCMA (1UL << 14)
#endif
#ifndef HWCAP2_SVEI8MM
#define HWCAP2_SVEI8MM (1UL << 9)
#define HWCAP2_SVEBF16 (1UL << 12)
#define HWCAP2_I8MM (1UL << 13)
#define HWCAP2_BF16 (1UL << 14)
#endif
#ifndef PR_SVE_GET_VL
#define PR_SVE_GET_VL 51
#define PR_SVE_VL_LEN_MASK 0xffff
#endif

/* BF16 and I8MM as the kernels use them (in SVE's form too on SVE CPUs),
 * and NEON's FCMLA. */
static unsigned dot_features(int sve)
{
    unsigned long h2 = getauxval(AT_HWCAP2);
    unsigned f = 0;
    if ((h2 & HWCAP2_BF16) && (!sve || (h2 & HWCAP2_SVEBF16))) f |= GG_CPU_BF16;
    if ((h2 & HWCAP2_I8MM) && (!sve || (h2 & HWCAP2_SVEI8MM))) f |= GG_CPU_I8MM;
    if (getauxval(AT_HWCAP) & HWCAP_FCMA) f |= GG_CPU_FCMA;
    return f;
}

/* NEON is the baseline; SVE and its vector length (bytes from prctl). */
static unsigned detect(void)
{
    if (!(getauxval(AT_HWCAP) & HWCAP_SVE))
        return dot_features(0);
    unsigned f = GG_CPU_SVE | dot_features(1);
    int vl = prctl(PR_SVE_GET_VL);
    int bits = vl < 0 ? 0 : (vl & PR_SVE_VL_LEN_MASK) * 8;
    if (bits == 128) f |= GG_CPU_SVE128;
    if (bits == 256) f |= GG_CPU_SVE256;
    if (bits == 512) f |= GG_CPU_SVE512;
    return f;
}
#elif defined(__powerpc64__) && defined(__linux__)
#include <sys/auxv.h>
#ifndef PPC_FEATURE2_ARCH_3_00
#define PPC_FEATURE2_ARCH_3_00 0x00800000
#endif
#ifndef PPC_FEATURE2_ARCH_3_1
#define PPC_FEATURE2_ARCH_3_1 0x00040000
#endif
#ifndef PPC_FEATURE2_MMA
#define PPC_FEATURE2_MMA 0x00020000
#endif

static unsigned detect(void)
{
    unsigned long h2 = getauxval(AT_HWCAP2);
    unsigned f = 0;
    if (h2 & PPC_FEATURE2_ARCH_3_00) f |= GG_CPU_PWR9;
    if ((h2 & PPC_FEATURE2_ARCH_3_1) && (h2 & PPC_FEATURE2_MMA)) f |= GG_CPU_PWR10;
    return f;
}
#else
static unsigned detect(void) { return 0; }   /* only the portable kernel */
#endif

unsigned gg_cpu_features(void)
{
    static unsigned cached;
    static int done;
    if (!done) {            /* racing first calls compute the same value */
        cached = detect();
        done = 1;
    }
    return cached;
}

/* The highest x86-64 level (4, 3 or 1) the runtime's own vector code may
 * use (the small-operand tiles, A^T B^T's C^T tiles, pack_x86.c's
 * transposes): what the CPU runs, capped by GEMMGEN_X86_LEVEL; 0 where
 * that code is not built (GG_X86_LEVELS: x86-64, GCC or clang 16+). */
int gg_x86_level(void)
{
#if GG_X86_LEVELS
    static _Atomic int level = -1;
    int l = level;
    if (l < 0) {
        int cap = gg_x86_cap();
        __builtin_cpu_init();
        level = l = cap >= 4 && __builtin_cpu_supports("x86-64-v4") ? 4
                  : cap >= 3 && __builtin_cpu_supports("x86-64-v3") ? 3 : 1;
    }
    return l;
#else
    return 0;
#endif
}
