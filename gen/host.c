/* host.c: pick the shipped machine file for the CPU we run on: an exact
 * cpuid (vendor, family, model) match first, else the widest file whose
 * extensions the host supports. */
#include "host.h"
#include "machine.h"
#include "machine_find.h"
#include "util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

struct host { char vendor[16]; int family, model; unsigned ext; enum isa_family isa; };

static bool read_host(struct host *h)
{
    memset(h, 0, sizeof *h);
#if defined(__x86_64__) || defined(__i386__)
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
    return true;
#else
    return false;
#endif
}

static int popcount(unsigned x) { return __builtin_popcount(x); }

const char *host_machine(char *out, size_t size)
{
    struct host h;
    if (!read_host(&h)) return NULL;
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
            if (!strcmp(m.cpuid_vendor, h.vendor) && m.cpuid_family == h.family &&
                m.cpuid_models[x] == h.model) { best = i; exact = true; }
        int score = m.vector_bits * 16 + popcount(m.ext);
        if (!exact && m.family == h.isa && (m.ext & h.ext) == m.ext && score > best_score)
            best = i, best_score = score;
    }
    if (best >= 0) snprintf(out, size, "%s/%s", machines_dir(), names[best]);
    for (int i = 0; i < n; i++) free(names[i]);
    return best >= 0 ? out : NULL;
}
