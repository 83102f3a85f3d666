/* blocking.c: the cache blocks MC, KC, NC from the cache geometry and the
 * kernel's MR x NR, by the analytical model of Low, Igual, Smith and
 * Quintana-Orti ("Analytical modeling is enough for high-performance
 * BLIS", ACM TOMS 43(2), 2016). For a cache of W ways, N sets and lines
 * of L bytes (one way holds N*L bytes), element size S:
 *
 *   KC: the kc x NR micro-panel of B stays in L1 while MR x kc panels of A
 *       stream through it; A may take C_A = floor((W1 - 1) / (1 + NR/MR))
 *       ways (one way is left for C and the next A panel), so
 *           kc = C_A * N1 * L1 / (MR * S)
 *   MC: the mc x kc block of A stays in L2 next to one kc x NR panel of B
 *       (C_B = ceil(kc * NR * S / (N2 * L2)) ways) and one way for C:
 *           mc = (W2 - 1 - C_B) * N2 * L2 / (kc * S)
 *   NC: the kc x nc block of B stays in L3 next to the block of A
 *       (C_A3 = ceil(mc * kc * S / (N3 * L3)) ways):
 *           nc = (W3 - 1 - C_A3) * N3 * L3 / (kc * S)
 *
 * kc is rounded down to a multiple of 8 (whole cache lines of packed
 * panels), mc to a multiple of MR and nc of NR, so only the last block
 * has edges. Without an L3, nc comes from L2 the same way. nc is capped
 * at NC_MAX because a larger B block buys nothing once the kernel's B
 * traffic is amortized, while it costs memory. Seed 000 §3.1 gives a
 * simpler rule of the same shape (KC from half of L1 / VL, MC from L2 - L1,
 * NC from L3 - L2); the model above is used because it accounts for the
 * associativity and for the B micro-panel that our kernel ABI keeps in L1.
 *
 * GEMMGEN_MC, GEMMGEN_KC, GEMMGEN_NC override the result (for tuning). */
#include <stdlib.h>
#include <unistd.h>
#include "gg_internal.h"

enum { NC_MAX = 4096, KC_MIN = 16 };

static long way_bytes(const struct gg_cache *c)
{
    return c->size / c->ways;            /* = sets * line */
}

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

static long kc_for(const struct gg_cache *l1, int mr, int nr, int s)
{
    long ca = (long)((l1->ways - 1) / (1.0 + (double)nr / mr));
    if (ca < 1) ca = 1;
    return round_down(ca * way_bytes(l1) / ((long)mr * s), 8, KC_MIN);
}

static long block_for(const struct gg_cache *c, long other_bytes, long kc, int s,
                      long mult)
{
    long wb = way_bytes(c);
    long other_ways = (other_bytes + wb - 1) / wb;
    long ways = c->ways - 1 - other_ways;
    if (ways < 1) ways = 1;
    return round_down(ways * wb / (kc * s), mult, mult);
}

struct gg_blocking gg_blocking_for(const struct gg_caches *c, int mr, int nr,
                                   int s)
{
    struct gg_blocking b = { mr, nr, 0, 0, 0 };
    long kc = kc_for(&c->l1d, mr, nr, s);
    long mc = block_for(&c->l2, kc * nr * s, kc, s, mr);
    const struct gg_cache *l3 = c->l3.size > 0 ? &c->l3 : &c->l2;
    long nc = block_for(l3, mc * kc * s, kc, s, nr);
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
