/* Cache block sizes MC/KC/NC for a registered kernel.
 *
 * The model is that of Low et al., "Analytical modeling is enough for
 * high-performance BLIS" (ACM TOMS 43(2), 2016), which BLIS's hand-set
 * block sizes follow: each operand gets whole cache ways, one way is kept
 * for the streaming operand, so LRU never evicts what is reused.
 *   KC: B's kc x nr micro-panel stays in L1 while A's mr x kc panels stream.
 *   MC: A's mc x kc block stays in L2 next to one B micro-panel (in at
 *       most half of L2, see mc_for).
 *   NC: B's kc x nc block stays in L3 next to A's block. */
#include "gemmgen_blis.h"

#include <unistd.h>

/* NC beyond this buys nothing (the jc loop already runs once for the sizes
 * we care about) and costs pack-buffer memory; BLIS's configs use ~4080. */
enum { NC_CAP = 4096 };

gemmgen_blis_caches gemmgen_blis_host_caches(void)
{
    gemmgen_blis_caches c = {
        .l1d_size = sysconf(_SC_LEVEL1_DCACHE_SIZE),
        .l1d_ways = sysconf(_SC_LEVEL1_DCACHE_ASSOC),
        .l2_size = sysconf(_SC_LEVEL2_CACHE_SIZE),
        .l2_ways = sysconf(_SC_LEVEL2_CACHE_ASSOC),
        .l3_size = sysconf(_SC_LEVEL3_CACHE_SIZE),
        .l3_ways = sysconf(_SC_LEVEL3_CACHE_ASSOC),
        .line = sysconf(_SC_LEVEL1_DCACHE_LINESIZE),
    };
    long *f[] = { &c.l1d_size, &c.l1d_ways, &c.l2_size, &c.l2_ways,
                  &c.l3_size, &c.l3_ways, &c.line };
    for (unsigned i = 0; i < sizeof f / sizeof f[0]; i++)
        if (*f[i] < 0) *f[i] = 0;   /* sysconf: -1 = unknown */
    return c;
}

static long ceil_div(long a, long b) { return (a + b - 1) / b; }

/* Ways a cache level can give the reused block: all but one for the
 * streaming operand and the `other` bytes that must also stay resident. */
static long free_ways(long size, long ways, long other)
{
    long way = size / ways;
    return ways - 1 - ceil_div(other, way);
}

static dim_t kc_for(const gemmgen_blis_caches *c, int elem, int mr, int nr)
{
    if (c->l1d_size <= 0 || c->l1d_ways < 2) return 0;
    /* ways for A's micro-panel; B's (nr/mr times larger) gets the rest */
    long ca = (long)((c->l1d_ways - 1) / (1.0 + (double)nr / mr));
    if (ca < 1) ca = 1;
    return ca * (c->l1d_size / c->l1d_ways) / ((long)mr * elem);
}

static dim_t mc_for(const gemmgen_blis_caches *c, int elem, int mr, int nr, dim_t kc)
{
    if (c->l2_size <= 0 || c->l2_ways < 2 || kc <= 0) return 0;
    long ca = free_ways(c->l2_size, c->l2_ways, (long)kc * nr * elem);
    /* At most half the ways: L2 is not LRU on current cores and also holds
     * the prefetched stream of B and C; measured on Emerald Rapids (2M,
     * 16-way, 24x8 f64), 14 ways ran 10% slower than 8. */
    if (ca > c->l2_ways / 2) ca = c->l2_ways / 2;
    if (ca < 1) ca = 1;
    long mc = ca * (c->l2_size / c->l2_ways) / ((long)kc * elem);
    return mc < mr ? mr : mc / mr * mr;
}

static dim_t nc_for(const gemmgen_blis_caches *c, int elem, int nr, dim_t kc, dim_t mc)
{
    if (c->l3_size <= 0 || c->l3_ways < 2 || kc <= 0 || mc <= 0) return 0;
    long cb = free_ways(c->l3_size, c->l3_ways, (long)mc * kc * elem);
    if (cb < 1) cb = 1;
    long nc = cb * (c->l3_size / c->l3_ways) / ((long)kc * elem);
    if (nc > NC_CAP) nc = NC_CAP;
    return nc < nr ? nr : nc / nr * nr;
}

gemmgen_blis_blocks gemmgen_blis_blocksizes(const gemmgen_blis_caches *caches,
                                            int elem, int mr, int nr)
{
    gemmgen_blis_blocks b = { 0, 0, 0 };
    b.kc = kc_for(caches, elem, mr, nr);
    b.mc = mc_for(caches, elem, mr, nr, b.kc);
    b.nc = nc_for(caches, elem, nr, b.kc, b.mc);
    return b;
}
