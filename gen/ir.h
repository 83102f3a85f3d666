/* ir.h: one k iteration of the micro-kernel as a list of instructions over
 * values (POCA §3.1). The same IR serves every target: instruction
 * selection picks ops and register classes from the target tables, and the
 * later passes see only ops, values, timing classes and register classes. */
#ifndef GEMMGEN_IR_H
#define GEMMGEN_IR_H
#include <stdbool.h>
#include "machine.h"
#include "target.h"

enum op {
    OP_LOAD_A,    /* vector (or pair) load of A at offset        */
    OP_LOAD_B,    /* vector load of B at offset                  */
    OP_BCAST_B,   /* load one B element into all lanes           */
    OP_SHUF_B,    /* src[0] with lanes permuted by xor (1<<lane) */
    OP_FMA,       /* def = src0 + src1 * src2 [lane]             */
    OP_MUL,       /* def = src1 * src2                           */
    OP_ADD,       /* def = src0 + src1                           */
    OP_GER,       /* def(acc) += outer(src1, src2), in place     */
    OP_CMLA,      /* def = src0 + src1 * src2 [lane], one rotation */
    OP_PTR_ADD,   /* stream pointer += one iteration's step      */
    OP_PREFETCH,  /* prefetch stream at offset (bytes)           */
    OP_COUNT
};
extern const char *const op_names[OP_COUNT];

/* ST_ANEXT: the next A micro-panel (a_next); ST_BNEXT: the B micro-panel
 * after this one, b + NR*k (packed B panels are contiguous) */
enum stream { ST_A, ST_B, ST_ANEXT, ST_BNEXT, ST_COUNT };

#define NSRC 3
struct inst {
    enum op op;
    enum iclass ic;       /* timing class in the machine model */
    int def;              /* value defined, -1 for none */
    int src[NSRC];        /* values used, -1 for none */
    bool carried[NSRC];   /* operand is the previous iteration's instance */
    int lane;             /* OP_FMA, OP_CMLA by lane / OP_SHUF_B xor bit, else -1 */
    int rot;              /* OP_CMLA: 0 (rotation 0) or 1 (rotation 90) */
    enum stream stream;   /* memory ops */
    int offset;           /* elements (loads) or bytes (prefetch) */
    int hint;             /* OP_PREFETCH: locality, 3 = into L1, 2 = into L2 */
    bool fp;              /* floating-point arithmetic (FPFirst) */
    char label[16];       /* "A0", "B3", "M1", "C0", "PrfA", "AP" */
};

struct value {
    enum rclass rc;
    bool carried;         /* accumulator: live across iterations */
    int def;              /* defining instruction */
    int tie;              /* the value whose register this one takes (a complex
                           * multiply-add's first rotation: its accumulator,
                           * which the second then updates), else -1 */
    char name[16];
};

/* Where accumulator lanes land in the MR x NR tile: accumulator a, output
 * vector v (after extraction), lane l -> tile[a][v][l] = i + j*MR, l below
 * out_lanes. */
struct kernel {
    const struct machine *m;
    const struct target *t;
    enum elem elem;
    enum bstrat bs;
    bool cplx;            /* complex (bstrat_complex): mr, nr count complex
                           * elements, offsets and steps count reals */
    int vl;               /* elements per vector register */
    int group;            /* G: k steps per lane (elem_group, or an MMLA's) */
    int group_a;          /* k steps per lane in A's packing: G, or the type's
                           * (AMX: A is the tile side of VNNI quads or pairs) */
    int mr, nr;
    int ninst, nval;
    struct inst *inst;
    struct value *val;
    int nacc;
    int *acc;             /* value ids of the accumulators */
    int acc_nout;         /* output vectors per accumulator */
    int out_lanes;        /* lanes of an output vector (vl, or fewer: MMLA's) */
    int *tile;            /* [nacc][acc_nout][out_lanes] */
    int max_regs;         /* MaxReg in vector-register units */
    bool paper;           /* POCA as printed, none of gemmgen's extensions (kernel_paper) */
    int rc_units[RC_COUNT];
    int step[ST_COUNT];   /* elements per iteration for pointer adds */
};

/* Instruction selection (kernel.c). */
void kernel_build(struct kernel *k, const struct machine *m, const struct target *t,
                  enum elem e, enum bstrat bs, int mr, int nr, int max_regs);
void kernel_free(struct kernel *k);
/* --paper: shuffles count as FP work (FPFirst), and the A and B pointer bumps
 * come before the prefetches, which address the bumped B (Figure 4(a)). */
void kernel_paper(struct kernel *k);
int kernel_vl(const struct machine *m, enum elem e);
/* Packed kernels only: no companion reads A in place (complex and rank-G
 * types; their edges are packed kernels too). */
bool kernel_packed_only(const struct kernel *k);
/* B loaded element by element (no vector load of B): read down its columns. */
bool kernel_b_cols(const struct kernel *k);
/* The type's name ("f64", "c64") and the C type of its elements. */
const char *kernel_type_name(const struct kernel *k);
const char *kernel_ctype(const struct kernel *k);
/* Rows of an outer product's accumulator tile (A's rows per vector). */
int kernel_outer_rows(const struct machine *m, const struct target *t, enum elem e);
/* The registers a kernel may name: its spelling's own file (AMX tiles) or MAX_REGS. */
int kernel_reg_budget(const struct target *t, enum elem e, enum bstrat bs, int max_regs);
/* Registers the shape needs at the least (accumulators, A, one B). */
int kernel_min_regs(const struct machine *m, const struct target *t, enum bstrat bs,
                    enum elem e, int mr, int nr);
bool kernel_plain_loop(const struct kernel *k);   /* see kernel.c */
/* Why MR x NR is impossible for this strategy, or NULL. */
const char *kernel_shape_error(const struct machine *m, const struct target *t, enum bstrat bs,
                               enum elem e, int mr, int nr);

/* Shape and strategy choice (shape.c): resource bound of one iteration. */
double kernel_resource_bound(const struct kernel *k);  /* cycles per iteration */
double kernel_fp_bound(const struct kernel *k);        /* cycles the FP work needs (plain FMAs) */
struct shape { enum bstrat bs; int mr, nr; };
struct shape shape_choose(const struct machine *m, const struct target *t, enum elem e,
                          int want_mr, int want_nr, int max_regs, int force_bs, bool blis_sizes);
/* The same among the target's complex strategies (its cstrat). */
struct shape shape_choose_complex(const struct machine *m, const struct target *t, enum elem e,
                                  int want_mr, int want_nr, int max_regs, int force_bs,
                                  bool blis_sizes);
#endif
