/* Registration of a gemmgen micro-kernel in a BLIS 0.9 context.
 * What BLIS needs to run a foreign gemm micro-kernel, and why each step:
 *  - the kernel in the native and virtual gemm slots (the macro-kernel calls
 *    the virtual one) with its C storage preference;
 *  - MR/NR as default AND maximum block sizes: the maximum is PACKMR/PACKNR,
 *    the leading dimension of the packed micro-panels the kernel reads;
 *  - MC a multiple of MR, NC a multiple of NR (BLIS partitions by them);
 *  - gemmtrsm/trsm kernels that agree with the new MR/NR: an optimized
 *    native one (haswell's 6x8 on this host) would read the wrong panels,
 *    so take the reference ones, which call the gemm kernel from the context;
 *  - sup thresholds of zero, else sizes below ~200 run BLIS's own sup
 *    kernels and never reach ours. */
#include "gemmgen_blis.h"

static bool dt_ok(num_t dt)
{
    return dt == BLIS_DOUBLE || dt == BLIS_FLOAT || dt == BLIS_DCOMPLEX || dt == BLIS_SCOMPLEX;
}

static void set_blksz(cntx_t *cntx, num_t dt, bszid_t id, dim_t v)
{
    bli_cntx_set_blksz_def_dt(dt, id, v, cntx);
    bli_cntx_set_blksz_max_dt(dt, id, v, cntx);
}

static dim_t round_to(dim_t v, dim_t mult)
{
    return v < mult ? mult : v / mult * mult;
}

/* Block sizes to use: the caller's, else the cache model's, else BLIS's
 * current ones, each rounded to the multiple BLIS partitions by. */
static gemmgen_blis_blocks pick_blocks(cntx_t *cntx, num_t dt, int mr, int nr,
                                       const gemmgen_blis_blocks *blk)
{
    gemmgen_blis_caches caches = gemmgen_blis_host_caches();
    int elem = (int)bli_dt_size(dt);
    gemmgen_blis_blocks b = gemmgen_blis_blocksizes(&caches, elem, mr, nr);
    if (blk && blk->mc > 0) b.mc = blk->mc;
    if (blk && blk->kc > 0) b.kc = blk->kc;
    if (blk && blk->nc > 0) b.nc = blk->nc;
    if (b.mc <= 0) b.mc = bli_cntx_get_blksz_def_dt(dt, BLIS_MC, cntx);
    if (b.kc <= 0) b.kc = bli_cntx_get_blksz_def_dt(dt, BLIS_KC, cntx);
    if (b.nc <= 0) b.nc = bli_cntx_get_blksz_def_dt(dt, BLIS_NC, cntx);
    b.mc = round_to(b.mc, mr);
    b.nc = round_to(b.nc, nr);
    return b;
}

/* Point dt's gemmtrsm and trsm slots at BLIS's reference kernels. */
static void use_ref_trsm(cntx_t *cntx, num_t dt)
{
    static const l3ukr_t ids[] = { BLIS_GEMMTRSM_L_UKR, BLIS_GEMMTRSM_U_UKR,
                                   BLIS_TRSM_L_UKR, BLIS_TRSM_U_UKR };
    cntx_t ref;
    bli_gks_init_ref_cntx(&ref);
    for (unsigned i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        void_fp f = bli_cntx_get_l3_nat_ukr_dt(dt, ids[i], &ref);
        bli_func_set_dt(f, dt, &bli_cntx_l3_nat_ukrs_buf(cntx)[ids[i]]);
        bli_func_set_dt(f, dt, &bli_cntx_l3_vir_ukrs_buf(cntx)[ids[i]]);
    }
}

static void zero_sup_thresholds(cntx_t *cntx, num_t dt)
{
    blksz_t *t = bli_cntx_l3_sup_thresh_buf(cntx);
    for (int i = 0; i < BLIS_NUM_THRESH; i++) {
        bli_blksz_set_def(0, dt, &t[i]);
        bli_blksz_set_max(0, dt, &t[i]);
    }
}

int gemmgen_blis_set(cntx_t *cntx, num_t dt, void_fp ukr, int mr, int nr,
                     int row_pref, const gemmgen_blis_blocks *blk)
{
    if (!cntx || !ukr || !dt_ok(dt) || mr < 1 || nr < 1 || mr > 32 || nr > 32)
        return -1;
    bli_init(); /* the reference context below needs the kernel registry */
    gemmgen_blis_blocks b = pick_blocks(cntx, dt, mr, nr, blk);
    /* sets the native and the virtual slot, and the preference */
    bli_cntx_set_l3_nat_ukrs(1, BLIS_GEMM_UKR, dt, ukr, (bool)row_pref, cntx);
    set_blksz(cntx, dt, BLIS_MR, mr);
    set_blksz(cntx, dt, BLIS_NR, nr);
    set_blksz(cntx, dt, BLIS_MC, b.mc);
    set_blksz(cntx, dt, BLIS_KC, b.kc);
    set_blksz(cntx, dt, BLIS_NC, b.nc);
    use_ref_trsm(cntx, dt);
    zero_sup_thresholds(cntx, dt);
    return 0;
}

int gemmgen_blis_register(num_t dt, void_fp ukr, int mr, int nr, int row_pref,
                          const gemmgen_blis_blocks *blk)
{
    return gemmgen_blis_set(bli_gks_query_cntx(), dt, ukr, mr, nr, row_pref, blk);
}

void gemmgen_blis_copy_cntx(cntx_t *dst)
{
    *dst = *bli_gks_query_cntx();
}

void gemmgen_blis_gemm(obj_t *alpha, obj_t *a, obj_t *b, obj_t *beta, obj_t *c,
                       cntx_t *cntx, int nthreads)
{
    rntm_t rntm;
    bli_rntm_init_from_global(&rntm);
    if (nthreads > 0) bli_rntm_set_num_threads(nthreads, &rntm);
    bli_rntm_disable_l3_sup(&rntm);
    bli_gemm_ex(alpha, a, b, beta, c, cntx, &rntm);
}
