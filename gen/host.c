/* host.c: pick the shipped machine file for the CPU we run on: an exact
 * cpuid (vendor, family, model) match first, else the widest file whose
 * extensions the host supports. x86 asks cpuid; AArch64 Linux reads the
 * MIDR fields of /proc/cpuinfo and the hardware capability words, POWER
 * Linux the capability words alone. */
#include "host.h"
#include "machine.h"
#include "machine_find.h"
#include "util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#include <sys/prctl.h>
#elif defined(__powerpc64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

/* The first "KEY : value" line's number (hex with 0x), or -1. */
static int cpuinfo_field(const char *text, const char *key)
{
    size_t n = strlen(key);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p) {
        if (strncmp(p, key, n)) continue;
        const char *c = p + n;
        while (*c == ' ' || *c == '\t') c++;
        if (*c != ':') continue;
        char *end;
        long v = strtol(c + 1, &end, 0);
        return end == c + 1 ? -1 : (int)v;
    }
    return -1;
}

bool host_parse_cpuinfo(const char *text, struct host *h)
{
    int impl = cpuinfo_field(text, "CPU implementer"), part = cpuinfo_field(text, "CPU part");
    if (impl < 0 || part < 0) return false;
    snprintf(h->vendor, sizeof h->vendor, "arm");
    h->family = impl;
    h->model = part;
    h->isa = FAM_AARCH64;
    return true;
}

#if defined(__aarch64__) && defined(__linux__)
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
#endif

/* The extensions from the capability words, the SVE length from prctl.
 * BF16 and I8MM count as libgemmgen's cpu.c counts them: in SVE's form
 * too on an SVE CPU, whose machine files get SVE kernels. */
static void arm_features(struct host *h)
{
    unsigned long cap = getauxval(AT_HWCAP), cap2 = getauxval(AT_HWCAP2);
    bool sve = cap & HWCAP_SVE;
    h->ext = EXT_NEON;
    if (cap & HWCAP_FCMA) h->ext |= EXT_FCMA;
    if ((cap2 & HWCAP2_BF16) && (!sve || (cap2 & HWCAP2_SVEBF16))) h->ext |= EXT_BF16;
    if ((cap2 & HWCAP2_I8MM) && (!sve || (cap2 & HWCAP2_SVEI8MM))) h->ext |= EXT_I8MM;
    if (sve) {
        int vl = prctl(PR_SVE_GET_VL);
        h->ext |= EXT_SVE;
        h->sve_bits = vl < 0 ? 0 : (vl & 0xffff) * 8;
    }
}

static bool read_arm(struct host *h)
{
    static char text[1 << 16];
    FILE *f = fopen("/proc/cpuinfo", "r");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f) fclose(f);
    text[n] = '\0';
    if (!host_parse_cpuinfo(text, h)) {   /* no MIDR fields: features alone */
        h->isa = FAM_AARCH64;
        h->family = h->model = -1;
    }
    arm_features(h);
    return true;
}
#endif

#if defined(__powerpc64__) && defined(__linux__)
#ifndef PPC_FEATURE2_ARCH_3_00
#define PPC_FEATURE2_ARCH_3_00 0x00800000
#endif
#ifndef PPC_FEATURE2_ARCH_3_1
#define PPC_FEATURE2_ARCH_3_1 0x00040000
#endif
#ifndef PPC_FEATURE2_MMA
#define PPC_FEATURE2_MMA 0x00020000
#endif

/* No file names a POWER part: the extensions tell power9 (vsx: ISA 3.0,
 * which its kernels need) from power10 (mma: ISA 3.1 with MMA). */
static bool read_power(struct host *h)
{
    unsigned long cap2 = getauxval(AT_HWCAP2);
    h->isa = FAM_POWER;
    h->family = h->model = -1;
    if (cap2 & PPC_FEATURE2_ARCH_3_00) h->ext |= EXT_VSX;
    if ((cap2 & PPC_FEATURE2_ARCH_3_1) && (cap2 & PPC_FEATURE2_MMA)) h->ext |= EXT_MMA;
    return true;
}
#endif

static bool read_host(struct host *h)
{
    memset(h, 0, sizeof *h);
#if defined(__aarch64__) && defined(__linux__)
    return read_arm(h);
#elif defined(__powerpc64__) && defined(__linux__)
    return read_power(h);
#elif defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d)) return false;
    memcpy(h->vendor, &b, 4); memcpy(h->vendor + 4, &d, 4); memcpy(h->vendor + 8, &c, 4);
    __get_cpuid(1, &a, &b, &c, &d);
    int fam = (a >> 8) & 0xf, model = (a >> 4) & 0xf;
    if (fam == 0xf) fam += (a >> 20) & 0xff;
    if (fam == 6 || fam >= 0xf) model += ((a >> 16) & 0xf) << 4;
    h->family = fam; h->model = model; h->isa = FAM_X86;
    __builtin_cpu_init();
    h->ext = EXT_SSE2;
    if (__builtin_cpu_supports("avx")) h->ext |= EXT_AVX;
    if (__builtin_cpu_supports("avx2")) h->ext |= EXT_AVX2;
    if (__builtin_cpu_supports("fma")) h->ext |= EXT_FMA;
    if (__builtin_cpu_supports("avx512f")) h->ext |= EXT_AVX512F;
    if (__builtin_cpu_supports("avx512bf16")) h->ext |= EXT_AVX512BF16;
    if (__builtin_cpu_supports("avx512vnni")) h->ext |= EXT_AVX512VNNI;
    if (__builtin_cpu_supports("amx-bf16")) h->ext |= EXT_AMX_BF16;
    if (__builtin_cpu_supports("amx-int8")) h->ext |= EXT_AMX_INT8;
    return true;
#else
    return false;
#endif
}

static int popcount(unsigned x) { return __builtin_popcount(x); }

const char *host_machine(char *out, size_t size)
{
    struct host h;
    return read_host(&h) ? host_pick(&h, out, size) : NULL;
}

/* A file the host can run by its extensions: SVE kernels are built for
 * one vector length, which must be the host's. */
static bool runs_on(const struct machine *m, const struct host *h)
{
    if (m->family != h->isa || (m->ext & h->ext) != m->ext) return false;
    return !(m->ext & EXT_SVE) || m->vector_bits == h->sve_bits;
}

const char *host_pick(const struct host *h, char *out, size_t size)
{
    char *names[256];
    int n = machine_names(names, 256);
    int best = -1, best_score = -1;
    bool exact = false;
    for (int i = 0; i < n && !exact; i++) {
        char path[1024];
        struct machine m;
        snprintf(path, sizeof path, "%s/%s", machines_dir(), names[i]);
        machine_load(&m, path);
        for (int x = 0; x < m.ncpuid_models; x++)
            if (!strcmp(m.cpuid_vendor, h->vendor) && m.cpuid_family == h->family &&
                m.cpuid_models[x] == h->model) { best = i; exact = true; }
        /* wider, then more extensions, then out of order (ties of an
         * unknown core: rather an out-of-order file than an in-order one) */
        int score = m.vector_bits * 64 + popcount(m.ext) * 2 + (m.order == DISPATCH_OUT_OF_ORDER);
        if (!exact && runs_on(&m, h) && score > best_score)
            best = i, best_score = score;
    }
    if (best >= 0) snprintf(out, size, "%s/%s", machines_dir(), names[best]);
    for (int i = 0; i < n; i++) free(names[i]);
    return best >= 0 ? out : NULL;
}
