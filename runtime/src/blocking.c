/* blocking.c: the cache blocks MC, KC, NC from the cache geometry and the
 * kernel's MR x NR, by the rule of seed 000 §3.1: each level holds one
 * operand and keeps room for the data that streams through it (A and C
 * past B's micro-panel in L1, B micro-panels past A's block in L2, A past
 * B's block in L3), element size S:
 *
 *   KC: the kc x NR micro-panel of B fills P% of L1:    kc = L1 * P/100 / (NR*S)
 *   MC: the mc x kc block of A fills half of L2:        mc = L2 / 2 / (kc*S)
 *   NC: the kc x nc block of B fills half of one core's share of L3
 *       (L3 / shared_by, the machine's cores on it):   nc = L3 / shared_by / 2 / (kc*S)
 *
 * P is the kernel's NAME_B_L1_PERCENT: 50 when it prefetches the whole
 * next A micro-panel into L1 (seed 000's case), 75 when A streams from L2
 * a few lines ahead of its loads. kc is rounded down to a multiple of 8
 * (whole cache lines of packed panels), mc to a multiple of MR and nc of
 * NR; nc is capped at NC_MAX (a larger B block buys nothing once its
 * traffic is amortized). A larger kc amortizes the C update, and a
 * half-full L2 keeps the B micro-panels and C from evicting A: this rule
 * ran faster than the associativity model of Low et al. (TOMS 2016); the
 * share of L3 is one core's because other cores (and, on a cloud VM,
 * other tenants) use the rest (measurements: docs/decisions.md, KC, MC, NC).
 *
 * GEMMGEN_MC, GEMMGEN_KC, GEMMGEN_NC override the result (for tuning). */
#include <stdlib.h>
#include <unistd.h>
#include "gg_internal.h"

enum { NC_MAX = 4096, KC_MIN = 16 };

static long round_down(long x, long m, long lo)
{
    x = x / m * m;
    return x < lo ? lo : x;
}

static long env_long(const char *name, long dflt)
{
    const char *s = getenv(name);
    long v = s ? strtol(s, NULL, 10) : 0;
    return v > 0 ? v : dflt;
}

static long kc_for(const struct gg_cache *l1, int nr, int s, int percent)
{
    if (percent <= 0 || percent > 100) percent = 50;
    return round_down(l1->size * percent / 100 / ((long)nr * s), 8, KC_MIN);
}

static long block_for(const struct gg_cache *c, long kc, int s, long mult)
{
    long share = c->size / (c->shared > 1 ? c->shared : 1);
    return round_down(share / 2 / (kc * s), mult, mult);
}

struct gg_blocking gg_blocking_for(const struct gg_caches *c, int mr, int nr,
                                   int s, int b_l1_percent)
{
    struct gg_blocking b = { mr, nr, 0, 0, 0, 0, 0, 0 };
    if (c->l1d.line > 0 && c->l1d.ways > 0) {
        b.l1_line = c->l1d.line;
        b.l1_ways = c->l1d.ways;
        b.l1_sets = (int)(c->l1d.size / c->l1d.line / c->l1d.ways);
    }
    long kc = kc_for(&c->l1d, nr, s, b_l1_percent);
    long mc = block_for(&c->l2, kc, s, mr);
    const struct gg_cache *l3 = c->l3.size > 0 ? &c->l3 : &c->l2;
    long nc = block_for(l3, kc, s, nr);
    if (nc > NC_MAX) nc = round_down(NC_MAX, nr, nr);
    b.kc = (int)env_long("GEMMGEN_KC", kc);
    b.mc = (int)round_down(env_long("GEMMGEN_MC", mc), mr, mr);
    b.nc = (int)round_down(env_long("GEMMGEN_NC", nc), nr, nr);
    return b;
}

static void detect_one(struct gg_cache *c, int size_key, int ways_key,
                       int line_key, long dsize, int dways)
{
    long size = sysconf(size_key), ways = sysconf(ways_key), line = sysconf(line_key);
    c->size = size > 0 ? size : dsize;
    c->ways = ways > 0 ? (int)ways : dways;
    c->line = line > 0 ? (int)line : 64;
}

/* For the portable kernel, whose machine is unknown: glibc's view of this
 * CPU's caches, or a typical x86 core when it has none. */
void gg_caches_detect(struct gg_caches *c)
{
    detect_one(&c->l1d, _SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL1_DCACHE_ASSOC,
               _SC_LEVEL1_DCACHE_LINESIZE, 32 << 10, 8);
    detect_one(&c->l2, _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL2_CACHE_ASSOC,
               _SC_LEVEL2_CACHE_LINESIZE, 256 << 10, 8);
    detect_one(&c->l3, _SC_LEVEL3_CACHE_SIZE, _SC_LEVEL3_CACHE_ASSOC,
               _SC_LEVEL3_CACHE_LINESIZE, 8 << 20, 16);
}

/* GEMMGEN_X86_LEVEL=1/3: the runtime's own vector code stays at x86-64
 * baseline / v3 even on a CPU with more: the small-operand loops
 * (small_tmpl.h) take that level's tile shape and leave A^T B^T to the
 * other paths (small_ct: v4 only), and the packing keeps its 16-byte
 * transposes (pack_x86.c: AVX-512), so tests on one machine cover all
 * three; unset (or not above 0): 4, the CPU decides. */
int gg_x86_cap(void)
{
    static _Atomic int level = -1;
    int l = level;
    if (l < 0) level = l = (int)env_long("GEMMGEN_X86_LEVEL", 4);
    return l;
}
