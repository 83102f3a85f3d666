/* Cache block sizes MC/KC/NC for a registered kernel, by the same rule as
 * the runtime (runtime/src/blocking.c, seed 000 §3.1): each level holds
 * one operand in half its capacity.
 *   KC: B's kc x nr micro-panel fills half of L1.
 *   MC: A's mc x kc block fills half of L2.
 *   NC: B's kc x nc block fills half of L3.
 * On the Emerald Rapids host this gave 75-77 GFLOPS DGEMM at 2000^3 where
 * the associativity model of Low et al. (kc 160, A in 7/8 of L2) gave 70.
 * The runtime lets B fill 75% of L1 for kernels that stream A from L2
 * (blocking.c); here kc 328 / mc 384 ran as 216 / 592 (77.3-77.7 against
 * 77.5-78.0 GFLOPS, gemmbench --blis), so BLIS keeps half. */
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

static dim_t kc_for(const gemmgen_blis_caches *c, int elem, int nr)
{
    if (c->l1d_size <= 0) return 0;
    return c->l1d_size / 2 / ((long)nr * elem) / 8 * 8;
}

static dim_t mc_for(const gemmgen_blis_caches *c, int elem, int mr, dim_t kc)
{
    if (c->l2_size <= 0 || kc <= 0) return 0;
    long mc = c->l2_size / 2 / ((long)kc * elem);
    return mc < mr ? mr : mc / mr * mr;
}

static dim_t nc_for(const gemmgen_blis_caches *c, int elem, int nr, dim_t kc)
{
    if (c->l3_size <= 0 || kc <= 0) return 0;
    long nc = c->l3_size / 2 / ((long)kc * elem);
    if (nc > NC_CAP) nc = NC_CAP;
    return nc < nr ? nr : nc / nr * nr;
}

gemmgen_blis_blocks gemmgen_blis_blocksizes(const gemmgen_blis_caches *caches,
                                            int elem, int mr, int nr)
{
    gemmgen_blis_blocks b = { 0, 0, 0 };
    b.kc = kc_for(caches, elem, nr);
    b.mc = mc_for(caches, elem, mr, b.kc);
    b.nc = nc_for(caches, elem, nr, b.kc);
    return b;
}
