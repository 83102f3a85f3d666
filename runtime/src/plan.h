/* plan.h: how one GEMM call runs. gg_plan_for (plan.c) takes the call and
 * the kernel context of its element type and returns the plan; the paths
 * (run_tmpl.h) only do what it says. Every bound it compares against is a
 * field of struct gg_limits, one table per kernel set and type, filled at
 * start-up (limits.c) from the defaults, the set and GEMMGEN_* overrides;
 * docs/decisions.md says which measurement chose each. */
#ifndef GG_PLAN_H
#define GG_PLAN_H
#include <stdint.h>
#include "gg_internal.h"

/* bf16: bf16 operands, f32 C; u8s8: u8 A, s8 B, s32 C */
enum gg_type { GG_F64, GG_F32, GG_C64, GG_C32, GG_BF16, GG_U8S8, GG_NTYPES };

/* Bounds that both the plan and a path's loops read. */
enum {
    GG_GV_STREAM_BYTES = 1 << 21,  /* matrix-vector: A streamed past this */
    GG_STREAM_PANELS = 48,         /* the streamed path's widest C, in panels */
};

struct gg_limits {
    int own_loops;                 /* 0: no tiny, matrix-vector or small-tile loops for the type */
    int may_swap;                  /* 0: never C^T = B^T A^T (A and B of different types); in
                                    * own_loops' padding: the other fields stay where they were */
    int64_t tiny_mnk;              /* plain loops up to this m*n*k (each of m, n, k too) */
    int64_t small_mnk, small_k;    /* small tiles in place: m*n*k and k bounds */
    int64_t small_copy_mnk;        /* ... with A copied element by element */
    int64_t small_transposed_mnk;  /* ... with A^T copied by transposes */
    int64_t ct_mnk;                /* A^T B^T as C^T = B A in the small tiles */
    int64_t ct_shared_mnk;         /* ... past this only when one thread runs */
    int small_ct;                  /* 1: the C^T tiles exist here (x86-64-v4) */
    int lanes;                     /* elements of one 64-byte vector */
    int few_k;                     /* rank-k updates up to this k ... */
    int64_t rank_k_c_bytes;        /* ... of a C at least this big ... */
    int64_t rank_k_a_bytes;        /* ... and an A at most this big */
    int64_t gv_stream_bytes;       /* matrix-vector: A streamed past this */
    int64_t gv_per_thread;         /* ... and split among threads from this many elements */
    int gemv_cols;                 /* up to this many columns of fewer rows than a vector: gemv each */
    int dots_lo, dots_hi;          /* A^T B as dot products: the fewer of m, n and the more at most */
    int dots_crowded_lo;           /* ... rows at most against B's columns crowding L1 */
    int below_vector_n;            /* rows below a 32-byte vector: A's columns once, up to this n */
    int small_tile_k;              /* the small tile up to this k */
    int small_tile_whole;          /* 1: the machine bounds its k, so whole tiles only */
    int64_t tailless_max_m;        /* B^T's row view without row tails below this m */
    int few_rows;                  /* C of up to this many rows times B^T runs as C^T */
    int thread_edge;               /* a thread's least work: this cubed (twice when asleep) */
    /* overrides (GEMMGEN_DIRECT, _DOT, _SMALL_TILE, _NARROW_K), read once */
    int direct_mode;               /* -1 by size, 0 packed, 1 unpacked, 2 streamed */
    int row_tails;                 /* 0: edge kernels take every row */
    int small_tile;                /* 0: the small tile never runs */
    int narrow_k;                  /* -1: each kernel's own narrow_k */
};

/* One element type of the current kernel set: what a plan is made from. */
struct gg_ctx {
    const struct gg_ukernel *uk, *sk;   /* main kernel; small tile (mr 0: none) */
    struct gg_blocking bk, bks;         /* their blocking */
    struct gg_limits lim;
    int esize;                          /* bytes of one element */
};

/* The call, after argument checks: C(m x n) = alpha A(m x k) B(k x n) + beta C. */
struct gg_call {
    int64_t m, n, k;
    const void *a, *b;
    void *c;
    int64_t rs_a, cs_a, rs_b, cs_b, rs_c, cs_c;
    int alpha_zero;
    int threads;                        /* wanted; 0: ask gg_threads_wanted() */
};

enum gg_path {
    GG_NOTHING,      /* m or n zero */
    GG_SCALE,        /* alpha = 0 or k = 0: C = beta C */
    GG_TINY,         /* a few multiply-adds: plain loops (tiny_tmpl.h) */
    GG_GEMV,         /* one column of C, or a few of rows below a vector, each (gemv_tmpl.h) */
    GG_RANK_K,       /* k of a few, C streamed once */
    GG_GEMV_COLS,    /* two columns of C */
    GG_DOTS,         /* few rows or columns, long k: dot products (dots_tmpl.h) */
    GG_FEW_ROWS,     /* rows below a vector: A's columns once each, several of C's (gemv_vec_tmpl.h) */
    GG_SMALL_CT,     /* A^T B^T as C^T = B A in the small tiles, stored transposed */
    GG_SMALL,        /* the small tiles on A, B and C in place (small_tmpl.h) */
    GG_KERNELS,      /* the generated kernels in the loops of `loops` */
};
enum gg_loops { GG_PACKED, GG_DIRECT, GG_STREAM };
enum gg_small_a { GG_A_IN_PLACE, GG_A_COPIED, GG_A_TRANSPOSED };

struct gg_plan {
    enum gg_path path;
    int swap;                    /* operands swapped: C^T = B^T A^T */
    /* GG_SMALL */
    enum gg_small_a small_a;
    /* GG_DOTS */
    int dots_wide;               /* the 64-byte tiles (A's rows copied, or streamed) */
    /* GG_KERNELS */
    enum gg_loops loops;
    const struct gg_ukernel *uk; /* the kernel: main, small tile, or either's row view */
    const struct gg_ukernel *sk; /* the small tile (its row view with B^T's) */
    const struct gg_ukernel *tk; /* B^T's last rows as C^T on this (NULL: none) */
    int tails;                   /* the row tails run */
    int one_panel;               /* C is one panel of the small tile, uk is it */
    int tiles_first;             /* rows [0, ms) in whole small tiles first */
    int rows_outside;            /* ... row tiles outside their column panels */
    int64_t ms;
    int narrow_k;
    struct gg_blocking bk;
    /* threads: nt in all, as tm x tn slabs of C on GG_KERNELS */
    int nt, tm, tn;
};

void gg_plan_for(const struct gg_call *call, const struct gg_ctx *ctx, struct gg_plan *plan);

/* Would nseg segments of len bytes, stride apart from base, put more lines
 * on the L1 sets they use than slack times what those sets hold? */
int gg_crowds_l1(const struct gg_blocking *bk, const void *base, int64_t nseg, int64_t len,
                 int64_t stride, int slack);

/* limits.c */
int64_t gg_type_size(enum gg_type t);            /* bytes of one element of C */
int64_t gg_operand_size(enum gg_type t);         /* ... of the packed A and B (the blocking's) */
struct gg_limits gg_limits_default(const struct gg_kernel_set *set, enum gg_type t);
void gg_limits_from_env(struct gg_limits *lim);

/* registry.c: the current set's context for type t (one load once set up) */
const struct gg_ctx *gg_ctx_current(enum gg_type t);
/* tests: every later call of type t plans with these limits */
void gg_ctx_set_limits(enum gg_type t, const struct gg_limits *lim);

#endif
