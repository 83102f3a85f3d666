/* target.h: what an ISA family offers, as tables. One `struct target` per
 * instruction set level (avx, avx2, avx512, vsx, mma, neon, sve); passes ask
 * these tables and never test which target they run for. */
#ifndef GEMMGEN_TARGET_H
#define GEMMGEN_TARGET_H
#include "machine.h"
struct buf;

/* Element types. f32 and f64 come first: the per-type tables of the
 * machine file's runtime: section hold those two (ELEM_FLOAT_COUNT). bf16
 * and u8s8 are rank-G types: each lane of a vector holds G consecutive k
 * steps of A's or B's small elements and accumulates their dot product
 * into one 32-bit lane of C's type (elem_group). s8u8 is u8s8 with A and B
 * the other way round: a row-major C (oneDNN's API) is C^T = B^T A^T with
 * the int8 operand on A's side. */
enum elem { ELEM_F32, ELEM_F64, ELEM_BF16, ELEM_U8S8, ELEM_S8U8, ELEM_COUNT };
#define ELEM_FLOAT_COUNT 2

/* The compilers a target names flags for apart (--compiler): the switches
 * that keep the emitted order are each compiler's own. */
enum compiler { COMPILER_GCC, COMPILER_CLANG, COMPILER_COUNT };
extern const char *const compiler_names[COMPILER_COUNT];     /* "gcc", "clang" */

/* How B reaches the FMAs (POCA §3.1.1), plus MMA's outer product. */
enum bstrat {
    BS_VECTOR_BROADCAST,  /* vector load of B, FMA by lane (zero-cost splat) */
    BS_VECTOR_SHUFFLE,    /* vector load of B, lane permutations, diagonal C */
    BS_SCALAR_BROADCAST,  /* one broadcast load per element of B */
    BS_OUTER_PRODUCT,     /* MMA: rank-1 update of an accumulator tile */
    BS_SPLIT_COMPLEX,     /* complex: B's real and imaginary parts broadcast apart */
    BS_SPLIT_COMPLEX_LANE,  /* complex: B loaded as vectors, its parts taken by lane */
    BS_CMLA,              /* complex: B's complex element times A's, in place (FCMLA) */
    BS_COUNT
};
extern const char *const bstrat_names[BS_COUNT];
/* Strategies of complex kernels (taken only for --type c64, c32). */
static inline bool bstrat_complex(enum bstrat bs)
{
    return bs == BS_SPLIT_COMPLEX || bs == BS_SPLIT_COMPLEX_LANE || bs == BS_CMLA;
}

/* Register classes. Sizes are counted in vector registers ("units"). */
enum rclass { RC_VEC, RC_PAIR, RC_ACC, RC_COUNT };

/* Intrinsic spellings for one element type. Statement templates use
 * %d (destination), %0 %1 %2 (operands), %m (address expression),
 * %l (lane) and %t (type); expression templates use %0 %1 %2.
 * NULL means the target lacks the operation. */
struct spell {
    const char *vtype, *pairtype, *acctype;  /* C types per register class */
    /* k-loop body (statements) */
    const char *load, *load_pair, *bcast, *shuf[4];
    const char *load_b;    /* B vector load when unlike A's (SVE ld1rq for FMA by
                            * lane); NULL: `load` */
    const char *fma, *fma_lane, *mul, *add, *ger;
    const char *zero;                         /* accumulator := 0 */
    /* epilogue */
    const char *extract;   /* MMA: "%t %d[4]; disassemble(%d, &%0);" else NULL */
    bool extract_vars;     /* extract declares %d0, %d1.. (SVE types form no arrays) */
    const char *store;     /* store vector %0 to %m */
    const char *loadc;     /* expression: vector from %m */
    const char *set1;      /* expression: all lanes = %0 */
    const char *vmul;      /* expression: %0 * %1 */
    const char *vadd;      /* expression: %0 + %1 */
    const char *vfma;      /* expression: %0 * %1 + %2 */
    const char *prefetch;  /* prefetch %m, locality %l (3 = L1, 2 = L2) */
    /* the epilogue's cases each end in an empty asm of their own: clang 19
     * merges the cases' last multiplies into a select of scalable bf16
     * vectors, which its instruction selection cannot compile */
    bool fence_cases;
    /* predicated edges (optional): mask %d of lanes %0.. below the bound %1,
     * and masked load (expression) / store of %0 under mask %1 at %m */
    const char *mask_decl, *mloadc, *mstore;
    /* dot-product row tail (optional, emit_dot.c): the definition of
     * `static inline V hsum4_(V a, V b, V c, V d)`, which returns the
     * horizontal sums of a, b, c and d in lanes 0..3; NULL: no such kernel;
     * hsum4_half (optional): the same for FP pipes half a vector wide
     * (machine datapath_bits), where full-width shuffles take two passes */
    const char *hsum4, *hsum4_half;
    /* a 4 x 4 block of dot products at once (optional, full-width pipes,
     * 16 lanes): `static inline V hsum16_(V s00, .., V s33)` returns the
     * sum of s<i><q> in lane 4q + i, and `static inline void cupd16_(T *c,
     * int64_t cs_c, V h, V va_, V vb_, T vb, unsigned rows)` stores C's
     * columns q = 0..3 (at c + q * cs_c, rows 0..3 contiguous) := va_ * h +
     * vb_ * C from lanes 4q.., the first `rows` rows (a 4-bit mask), beta
     * == 0 not reading C */
    const char *hsum16;
    /* k-group row tails (optional, emit_kgroup.c), [0] for G = 2 and [1]
     * for G = 4: the definitions of `static inline V bcastG_(const T *p)`
     * (p[0..G) in every group of G lanes: one load of a G-element block),
     * `V tailG_(const T *p, int64_t r)` (the same for p[0..r), zero in the
     * lanes past r) and `V sumG_(V s)` (lane i < VL/G: the sum of group
     * i); NULL: no such kernel */
    const char *groups[2];
    /* half-width row tail (optional, emit_kgroup.c, G = 1): the spelling of
     * vectors half as wide for its k loop (vtype, zero, load, bcast, vfma),
     * how many of them the code can name, and the expression (%0) widening
     * one to this spelling's vector, zero above; NULL: no such kernel */
    const struct spell *half;
    int half_regs;
    const char *widen;
    /* rank-G types (optional): what the type needs beyond the target (enum
     * ext bits), the flags and GG_CPU_* features it adds, and the B
     * strategies it may take (0: the target's) */
    unsigned requires;
    const char *cflags, *cpu_features;
    unsigned strategies;
    /* the whole spelling of the type's outer-product kernels where it is
     * unlike this one (SVE MMLA: narrower output vectors); NULL: this one */
    const struct spell *outer;
    /* AMX: the registers are tiles, named by number (%#d, %#0.. in the
     * templates) and declared nowhere, `regs` of them (0: the machine's
     * vector registers), prefixed `regprefix` in the accumulators' extracted
     * names; a tile load's %l is its row stride in bytes; `prologue` runs once
     * before the accumulators are zeroed (the tile configuration) */
    bool tiles;
    int regs;
    const char *regprefix, *prologue;
    /* AMX: an accumulator loaded from and stored to C (%#d, %m, %l C's
     * element size), for whole tiles of C by columns, alpha 1, beta 0 or 1 */
    const char *load_acc, *store_acc;
};

/* How a complex kernel (--type c64, c32: interleaved re/im) spells its
 * multiply-add. The k loop is real FMAs in the IR: A's vector (VL/2
 * complex rows) times a broadcast of B(p,j)'s real part into one
 * accumulator and of its imaginary part into another; after the loop each
 * pair becomes C's vector by one pair swap and one add-subtract. Or
 * (BS_CMLA, where the ISA has a complex multiply-add) one accumulator per
 * C vector, updated in place by two instructions, rotations 0 and 90, of
 * B's complex element replicated to every pair (or taken by lane), and no
 * combine. NULL name: the target has no complex strategy yet. */
struct cstrat {
    const char *name;          /* shown by --explain */
    unsigned strategies;       /* bits of the complex enum bstrat the k loop may take
                                * (kernel.c; the shape choice picks one by cost) */
    enum iclass combine[2];    /* timing classes of the combine, per C vector */
    const char *swap;          /* expression: %0 with re and im swapped in each pair */
    const char *addsub;        /* expression: even lanes %0 - %1, odd lanes %0 + %1 */
    const char *fmaddsub;      /* expression: even lanes %0*%1 - %2, odd %0*%1 + %2 */
    /* BS_CMLA statements, [0] rotation 0, [1] rotation 90: %d = %0 + the
     * rotation's half of %1 * %2 (cmla_lane: %2's complex element %l of
     * each 128-bit group); NULL: no such instruction */
    const char *cmla[2], *cmla_lane[2];
    const char *cmla_name;     /* shown by --explain for BS_CMLA */
    /* BS_CMLA beyond the target: enum ext bits the machine must list, the
     * flags and the GG_CPU_* features it adds (NEON's armv8.3-a) */
    unsigned cmla_requires;
    const char *cmla_cflags, *cmla_cpu_features;
    const struct spell *spell; /* the loop's spelling when not the target's own */
};

struct target {
    const char *name;
    enum isa_family family;
    unsigned requires;         /* enum ext bits the machine must have */
    int min_bits, max_bits;    /* vector_bits allowed */
    unsigned strategies;       /* bits of enum bstrat offered, best first below */
    /* register classes: C type comes from spell; here the name prefix of a
     * physical register and its size in vector registers */
    const char *regprefix[RC_COUNT];
    int outer_rows[ELEM_COUNT];   /* MMA: accumulator tile rows (A side) */
    int outer_cols[ELEM_COUNT];   /* MMA: accumulator tile columns (B side) */
    int a_regs_per_load[ELEM_COUNT]; /* MMA f64: A comes as a register pair */
    /* MMA: the spelling hands the ger B before A (xvi8ger4 takes its signed
     * operand first, and B is the signed one): the accumulator holds the
     * tile transposed, output vector i column i with rows in lanes */
    bool outer_b_first[ELEM_COUNT];
    /* MMLA: the outer product works on each 128-bit segment apart (rows
     * outer_rows per segment, B's segment replicated to each), G twice the
     * type's (a segment row holds 64 bits of k), timed as vmmla_* */
    bool outer_segments;
    /* AMX: k steps of one outer product where unlike the type's G (a tile
     * row of 64 bytes); A (the VNNI side) keeps the type's G in its packing,
     * B (rows of the tile) packs outer_group k steps together */
    int outer_group[ELEM_COUNT];
    int lane_group_bits;       /* FMA by lane indexes within groups of this size */
    /* vector registers the packed kernel's schedule leaves free of a
     * derived shape's budget: x86 GCC copied and spilled accumulators
     * with every one live; llvm-mca's Arm models ran the full budget's
     * schedules faster (plan.c, choose_shape) */
    int spare_regs;
    /* the in-place kernels keep the spare registers too below this file
     * size: x86 GCC spilled the 16-register files' accumulators with every
     * one live, not the 32-register ones' (plan.c, plan_build_direct) */
    int direct_spare_below;
    /* includes, cflags, cpu_features and runner may hold %b, the machine's vector_bits
     * (SVE kernels are built for one vector length): see target_text */
    const char *includes;
    const char *cflags;        /* flags the emitted file expects */
    /* added where the machine is out-of-order, per compiler: GCC's
     * scheduling before register allocation undoes the emitted order and
     * lengthens live ranges past the registers the rotation planned
     * (spills, copies), LLVM's machine scheduler likewise where a target's
     * clang flags say so; an out-of-order core reorders anyway */
    const char *ooo_cflags[COMPILER_COUNT];
    /* added where the machine is in order: the emitted order is the
     * schedule for its pipeline, which the compiler's schedulers (tuned for
     * no particular core) reorder, and its load pairing (GCC's peephole,
     * LLVM's load/store optimizer) makes q loads ldp, which holds a narrow
     * load path longer (LLVM's Cortex-A55 model: 6 cycles against 1) */
    const char *inorder_cflags[COMPILER_COUNT];
    /* what a CPU needs to run code built with cflags: libgemmgen's GG_CPU_*
     * names (runtime/src/gg_internal.h), " | "-separated; "": the baseline */
    const char *cpu_features;
    const char *cc;            /* compiler for tests: "cc" or a cross gcc */
    const char *runner;        /* "" native, else qemu command prefix */
    struct spell sp[ELEM_COUNT];
    struct cstrat cx[ELEM_COUNT];  /* complex kernels of each element type */
};

/* The best target the machine's extensions allow, or exit 2 naming PATH. */
const struct target *target_for(const struct machine *m);
const struct target *target_by_name(const char *name);
/* The rank of t's kernels among those one CPU may run: 1 for its family's
 * last (most basic) target, one more for each before it in the registry. */
int target_rank(const struct target *t);
/* The complex strategy of T for element type E, or NULL. */
const struct cstrat *target_cstrat(const struct target *t, enum elem e);
/* The spelling of T's kernels of E with strategy BS: the type's own, a
 * complex strategy's or the outer product's where they have their own. */
const struct spell *target_spell(const struct target *t, enum elem e, enum bstrat bs);
/* T offers strategy BS for real (cplx false) or complex kernels of E. */
bool target_offers(const struct target *t, enum bstrat bs, enum elem e, bool cplx);
extern const char *const elem_names[ELEM_COUNT];     /* "f32", "f64", "bf16", "u8s8s32", "s8u8s32" */
extern const char *const elem_ctype[ELEM_COUNT];     /* C's elements, alpha and beta */
int elem_bytes(enum elem e);                         /* one lane of an accumulator */
int elem_operand_bytes(enum elem e);                 /* one element of A or B */
/* k steps per lane (G: 1 for f32 and f64), and the packed operands' C types */
int elem_group(enum elem e);
const char *elem_atype(enum elem e);
const char *elem_btype(enum elem e);
/* The unsigned type integer C's arithmetic wraps in (NULL: floating point). */
const char *elem_wrap_type(enum elem e);
/* The type's name in default file names ("dgemm", "sbgemm", "gemm_u8s8s32"). */
const char *elem_routine(enum elem e);
/* The compile flags and GG_CPU_* features of a kernel of type E and B
 * strategy BS on T (the target's, the type's own, then a complex
 * multiply-add's), with %b expanded, appended to OUT. */
void target_cflags(struct buf *out, const struct target *t, enum elem e, enum bstrat bs,
                   enum compiler cc, const struct machine *m);
void target_cpu_features(struct buf *out, const struct target *t, enum elem e, enum bstrat bs,
                         const struct machine *m);
/* TEXT with each %b replaced by the machine's vector_bits, appended to OUT. */
void target_text(struct buf *out, const char *text, const struct machine *m);
#endif
