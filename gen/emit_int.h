/* emit_int.h: shared by the emitter's files. */
#ifndef GEMMGEN_EMIT_INT_H
#define GEMMGEN_EMIT_INT_H
#include "plan.h"
#include "util.h"

/* _direct addressing along one strided direction (emit_direct.c): index x
 * is base[x] + scale[x] * stride, scale in {0, 1, 2, 4, 8}. */
enum { DIR_MAXIDX = 128 };
struct dcover {
    char name[8], stride[8];        /* base pointers NAME<x>, byte stride */
    int n, nb;
    int base[DIR_MAXIDX], scale[DIR_MAXIDX], bases[DIR_MAXIDX];
};

struct em {
    const struct plan *pl;
    const struct kernel *k;
    const struct spell *sp;
    int *def_iter;      /* per value: iteration offset of its definition in Pµ */
    bool direct;        /* the _direct variant: strided A and B, no prefetch */
    bool stream;        /* NAME_in_place: _direct whose flag `stream` prefetches a_next, C */
    bool b_rows;        /* _direct reading B(p,j) at b[p*ldb + j] though broadcast (NAME_direct_rows) */
    struct dcover dir[3];   /* A, B, the next A tile (direct only) */
};

/* emit_text.c */
void em_reg_name(const struct em *e, int v, int copy, char *out, size_t size);
void em_expand(struct buf *b, const char *fmt, const char *d, const char *const ops[3],
               const char *mem, int lane, const char *vtype);
void em_line(struct buf *b, const char *ind, const char *fmt, const char *d,
             const char *const ops[3], const char *mem, const char *vtype);
void em_assign(struct buf *b, const char *ind, const char *lhs, const char *fmt,
               const char *const ops[3], const char *mem, const char *vtype);
/* emit_store.c: the alpha/beta update of C; returns 1 when row-stored C is
 * the fast case. */
int emit_store(struct buf *b, const struct em *e);
/* emit_store.c: one statement per accumulator on its block of C (AMX's tile
 * loads and stores of C) */
void em_acc_c(struct buf *b, const struct em *e, const char *fmt, const char *ind);
/* emit_cstore.c: accumulators per C vector of a complex kernel (the split
 * forms' two, BS_CMLA's one) */
int acc_per_vector(const struct kernel *k);
/* emit_cstore.c: the same for complex kernels (always 0: C's columns) */
int emit_cstore(struct buf *b, const struct em *e);
/* emit.c, shared with emit_cplx.c: the packed function of a plan, the
 * header comment's lines and compile flags, the BLIS wrapper and its declaration, the
 * regenerate line's options, the indent of a prototype's continuation */
int emit_packed_fn(struct buf *fns, const struct plan *pl, const char *fname);
const char *em_machine_file(const struct plan *pl);
void em_how_made(struct buf *b, const struct plan *pl);
void em_cflags(struct buf *flags, struct buf *compile, const struct plan *pl,
               const struct options *o);
void em_blis_section(struct buf *b, const struct plan *pl, const struct options *o,
                     const char *name, const char *ctype, const char *mr, const char *nr,
                     const char *rowpref);
void em_blis_decl_text(char *out, size_t size, const struct options *o, const char *name,
                       const char *ctype);
void em_args_text(char *args, size_t size, const struct options *o);
const char *em_indent_for(const char *name);
void em_packed_params(struct buf *b, const char *ta, const char *tb, const char *ct,
                      const char *fname);
/* emit_packed_edges.c: a packed-only type's edges as packed kernels: their
 * functions (appended to fns), and into pe their declarations, contract
 * lines and the lists the runtime reads ({MR', NR', fn} narrower than NR;
 * {MR', fn} NR wide), with counts */
struct packed_edges {
    struct buf decl, elist, plist, doc;
    int ne, np;
    char ne_text[8], np_text[8];
};
void em_packed_edges(struct packed_edges *pe, struct buf *fns, const struct plan *pl,
                     const struct plan *edges, int nedges, const char *name, const char *ta,
                     const char *tb, const char *ct);
void em_packed_edges_free(struct packed_edges *pe);
/* emit_cplx.c: the file of a complex kernel (the packed kernels alone) */
void emit_kernel_cplx(const struct plan *pl, const struct plan *edges, int nedges,
                      const struct options *o, const char *name,
                      struct buf *c_file, struct buf *h_file, struct buf *desc_file);
/* emit_group.c: the file of a rank-G kernel (bf16, u8s8s32: the packed
 * kernels alone) */
void emit_kernel_group(const struct plan *pl, const struct plan *edges, int nedges,
                       const struct options *o, const char *name,
                       struct buf *c_file, struct buf *h_file, struct buf *desc_file);
/* What the vector update stores to C, with va_ / vb_ the broadcast alpha
 * and beta and c_old C's old value. */
enum c_pass {
    CP_AX,        /* alpha*x (beta == 0: C not read) */
    CP_AX_C,      /* alpha*x + C (beta == 1, one FMA) */
    CP_AX_BC,     /* alpha*x + beta*C */
    CP_X,         /* x (alpha == 1, beta == 0) */
    CP_X_C,       /* x + C (alpha == beta == 1, an add) */
};
/* The expression of that value for sums x, appended to out. */
void em_new_c(struct buf *out, const struct spell *sp, enum c_pass pass, const char *x,
              const char *c_old);
/* emit_direct.c */
bool direct_streams(const struct kernel *k);   /* has the next A panel's prefetches */
void direct_setup(struct em *e);
void direct_address(const struct em *e, const struct inst *in, int iter, char *out, size_t size);
void direct_pointers(const struct em *e, struct buf *b);
void direct_bumps(const struct em *e, struct buf *b);
/* emit_dot.c, emit_kgroup.c: the row tails that tails.c chose (rows of
 * them), G = 1, 2, 4 k steps per vector for the k groups */
void emit_dot(struct buf *fns, const struct plan *pl, int rows, const char *fname,
              const char *params);
void emit_kgroup(struct buf *fns, const struct plan *pl, int g, int rows, const char *fname,
                 const char *params);
/* emit_sums.c: C := alpha * h<c> + beta * C for the row-tail kernels, h<c>
 * holding column j + c's sums of rows 0..m-1 in its first lanes */
bool em_masked(const struct spell *sp);        /* the target masks lanes */
void em_sums_vectors(struct buf *b, const struct spell *sp);
void em_sums_to_t(struct buf *b, const struct plan *pl, int q, const char *ind);
void em_sums_scalar(struct buf *b, const struct plan *pl, int q, const char *ind);
void em_sums_update(struct buf *b, const struct plan *pl, int q);
/* emit_desc.c: NAME_desc.h from the values the header was filled with;
 * emit_desc_packed: that of a kernel without companions (complex, rank-G) */
void emit_desc_packed(struct buf *out, const struct plan *pl, const char *name,
                      const char *cflags, const char *row_pref, const char *b_l1,
                      const char *nedges, const char *npedges);
void emit_desc(struct buf *out, const struct plan *pl, const char *const *keys,
               const char *const *vals, int n);
#endif
