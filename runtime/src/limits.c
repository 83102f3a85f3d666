/* limits.c: the bounds that choose a call's path (struct gg_limits), per
 * kernel set and element type. The defaults are the runtime's, measured
 * where docs/decisions.md says; a set overrides what its machine file
 * states (the small tile's k bound); GEMMGEN_* variables, read once at
 * start-up, force a path for comparisons. */
#include <stdlib.h>
#include "plan.h"

enum { SMALL_TILE_K = 256 };   /* the small tile's k bound where the machine gives none */

int64_t gg_type_size(enum gg_type t)
{
    static const int64_t size[GG_NTYPES] = { 8, 4, 16, 8, 4, 4 };
    return size[t];
}

int64_t gg_operand_size(enum gg_type t)
{
    static const int64_t size[GG_NTYPES] = { 8, 4, 16, 8, 2, 1 };
    return size[t];
}

/* a thread's least work, in multiply-adds of the type (a complex one is
 * four real), where the machine file gives none: f64 and f32 measured on
 * Zen 5 (docs/decisions.md), the reduced-precision ones as f32's */
static const int thread_edge_of[GG_NTYPES] = { 48, 56, 30, 35, 56, 56 };
/* the runtime's own loops (tiny, matrix-vector, small tiles) exist for */
static const char own_loops_of[GG_NTYPES] = { 1, 1, 0, 0, 0, 0 };
/* C^T = B^T A^T computes the same: not where A's and B's types differ */
static const char may_swap_of[GG_NTYPES] = { 1, 1, 1, 1, 1, 0 };

/* The types without loops of the runtime's own run the generated kernels only. */
static void no_own_loops(struct gg_limits *l)
{
    l->own_loops = 0;
    l->tiny_mnk = l->small_mnk = l->small_k = l->small_copy_mnk = 0;
    l->small_transposed_mnk = l->ct_mnk = l->ct_shared_mnk = 0;
    l->small_ct = 0;
    l->few_k = 0;
    l->gv_stream_bytes = l->gv_per_thread = 0;
}

struct gg_limits gg_limits_default(const struct gg_kernel_set *set, enum gg_type t)
{
    const int64_t esize = gg_type_size(t), edge = thread_edge_of[t];
    struct gg_limits l = {
        .own_loops = 1,
        .tiny_mnk = 150,
        .small_mnk = 32 * 32 * 32, .small_k = 64,
        .small_copy_mnk = 2000, .small_transposed_mnk = 16384,
        .ct_mnk = t == GG_F64 ? 300 * 300 * 300 : 48 * 48 * 48,
        .ct_shared_mnk = 2 * 48 * 48 * 48,
        .small_ct = 0,
        .lanes = (int)(64 / esize),
        .few_k = 4, .rank_k_c_bytes = 512 << 10, .rank_k_a_bytes = 16 << 10,
        .gv_stream_bytes = GG_GV_STREAM_BYTES, .gv_per_thread = 1 << 16,
        .gemv_cols = 4, .dots_lo = 16, .dots_hi = 64, .dots_crowded_lo = 48, .below_vector_n = 64,
        .small_tile_k = set->small_max_k ? set->small_max_k : SMALL_TILE_K,
        .small_tile_whole = set->small_max_k != 0,
        .tailless_max_m = 128, .few_rows = 32,
        .thread_edge = (int)edge,
        .direct_mode = -1, .row_tails = 1, .small_tile = 1, .narrow_k = -1,
        .may_swap = may_swap_of[t],
    };
#if GG_X86_LEVELS
    l.small_ct = gg_x86_level() >= 4;
#endif
    if (!own_loops_of[t]) no_own_loops(&l);
    return l;
}

/* An integer variable: dflt when unset or empty. */
static long env_int(const char *name, long dflt)
{
    const char *s = getenv(name);
    return s && *s ? strtol(s, NULL, 10) : dflt;
}

void gg_limits_from_env(struct gg_limits *l)
{
    long d = env_int("GEMMGEN_DIRECT", -1);
    l->direct_mode = d < 0 ? -1 : d > 2 ? 1 : (int)d;
    if (env_int("GEMMGEN_DOT", 1) == 0) l->row_tails = 0;
    if (env_int("GEMMGEN_SMALL_TILE", 1) == 0) l->small_tile = 0;
    long k = env_int("GEMMGEN_NARROW_K", -1);
    l->narrow_k = k < 0 ? -1 : k > (1 << 30) ? 1 << 30 : (int)k;
}
