/* kernel.c: instruction selection. Builds one k iteration of the MR x NR
 * micro-kernel as IR for a strategy the target offers (POCA §3.1):
 * vector loads of A, B by broadcast / shuffle / lane / outer product, FMA or
 * mul+add, prefetch of the next A panel and of B ahead, and one pointer
 * bump per stream (loads use immediate offsets, §3.1.3). */
#include "ir.h"
#include "util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const op_names[OP_COUNT] = {
    "load_a", "load_b", "bcast_b", "shuf_b", "fma", "mul", "add", "ger", "cmla", "ptr_add", "prefetch",
};

int kernel_vl(const struct machine *m, enum elem e) { return m->vector_bits / (8 * elem_bytes(e)); }

bool kernel_b_cols(const struct kernel *k)
{
    for (int i = 0; i < k->ninst; i++)
        if (k->inst[i].op == OP_LOAD_B) return false;
    return true;
}

const char *kernel_type_name(const struct kernel *k)
{
    static const char *const cname[ELEM_COUNT] = { "c32", "c64" };
    return k->cplx ? cname[k->elem] : elem_names[k->elem];
}

const char *kernel_ctype(const struct kernel *k)
{
    static const char *const cname[ELEM_COUNT] = { "float _Complex", "double _Complex" };
    return k->cplx ? cname[k->elem] : elem_ctype[k->elem];
}

bool kernel_packed_only(const struct kernel *k) { return k->cplx || elem_group(k->elem) > 1; }

/* The timing class of the type's multiply-add (FMA or ger): rank-G types
 * have their own instructions (the plan refused the machines without them),
 * the segmented outer products (MMLA) theirs. */
static enum iclass madd_class(const struct kernel *k, enum iclass plain)
{
    static const enum iclass dot[ELEM_COUNT] = { [ELEM_BF16] = IC_VDOT_BF16, [ELEM_U8S8] = IC_VDOT_I8,
                                                 [ELEM_S8U8] = IC_VDOT_I8 };
    static const enum iclass mmla[ELEM_COUNT] = { [ELEM_BF16] = IC_VMMLA_BF16,
                                                  [ELEM_U8S8] = IC_VMMLA_I8, [ELEM_S8U8] = IC_VMMLA_I8 };
    if (elem_group(k->elem) == 1) return plain;
    static const enum iclass tdp[ELEM_COUNT] = { [ELEM_BF16] = IC_TDP_BF16, [ELEM_U8S8] = IC_TDP_I8,
                                                 [ELEM_S8U8] = IC_TDP_I8 };
    if (k->bs == BS_OUTER_PRODUCT && target_spell(k->t, k->elem, k->bs)->tiles) return tdp[k->elem];
    return k->bs == BS_OUTER_PRODUCT && k->t->outer_segments ? mmla[k->elem] : dot[k->elem];
}

int kernel_outer_rows(const struct machine *m, const struct target *t, enum elem e)
{
    return t->outer_rows[e] * (t->outer_segments ? m->vector_bits / 128 : 1);
}

/* An outer product's accumulators are registers of their own class where
 * the spelling names a type for them (MMA), else vector registers (MMLA). */
static bool outer_acc_class(const struct target *t, enum elem e)
{
    return target_spell(t, e, BS_OUTER_PRODUCT)->acctype != NULL;
}

/* G of a kernel: a segment row of an MMLA holds 64 bits of k, two lanes'
 * worth; an AMX tile row 64 bytes. */
static int kernel_group(const struct target *t, enum elem e, enum bstrat bs)
{
    if (bs == BS_OUTER_PRODUCT && t->outer_group[e]) return t->outer_group[e];
    return elem_group(e) * (bs == BS_OUTER_PRODUCT && t->outer_segments ? 2 : 1);
}

/* rank-G types have no mul + add form: always their multiply-add */
static bool has_fma(const struct kernel *k)
{
    return elem_group(k->elem) > 1 || (k->t->sp[k->elem].fma && k->m->ic[IC_VFMA].present);
}

static int add_value(struct kernel *k, enum rclass rc, bool carried, const char *fmt, int idx)
{
    k->val = xrealloc(k->val, sizeof *k->val * (size_t)(k->nval + 1));
    struct value *v = &k->val[k->nval];
    *v = (struct value){ .rc = rc, .carried = carried, .def = -1, .tie = -1 };
    snprintf(v->name, sizeof v->name, fmt, idx);
    return k->nval++;
}

static struct inst *add_inst(struct kernel *k, enum op op, enum iclass ic, int def)
{
    k->inst = xrealloc(k->inst, sizeof *k->inst * (size_t)(k->ninst + 1));
    struct inst *in = &k->inst[k->ninst];
    *in = (struct inst){ .op = op, .ic = ic, .def = def, .src = { -1, -1, -1 }, .lane = -1 };
    if (def >= 0) {
        k->val[def].def = k->ninst;
        snprintf(in->label, sizeof in->label, "%s", k->val[def].name);
    }
    in->fp = op == OP_FMA || op == OP_MUL || op == OP_ADD || op == OP_GER || op == OP_CMLA;
    k->ninst++;
    return in;
}

static struct inst *add_mem(struct kernel *k, enum op op, enum iclass ic, int def,
                            enum stream s, int offset)
{
    struct inst *in = add_inst(k, op, ic, def);
    in->stream = s;
    in->offset = offset;
    return in;
}

/* acc (value) += a * b[lane], as FMA or as mul + add (Sandy Bridge). */
static void accumulate(struct kernel *k, int acc, int a, int b, int lane, int *ntemp)
{
    if (has_fma(k)) {
        struct inst *in = add_inst(k, OP_FMA, madd_class(k, lane >= 0 ? IC_VFMA_LANE : IC_VFMA), acc);
        in->src[0] = acc; in->carried[0] = true; in->src[1] = a; in->src[2] = b; in->lane = lane;
        return;
    }
    int t = add_value(k, RC_VEC, false, "M%d", (*ntemp)++);
    struct inst *mul = add_inst(k, OP_MUL, IC_VFMUL, t);
    mul->src[1] = a; mul->src[2] = b;
    struct inst *add = add_inst(k, OP_ADD, IC_VFADD, acc);
    add->src[0] = acc; add->carried[0] = true; add->src[1] = t;
}

static void new_accs(struct kernel *k, int n, enum rclass rc, int nout, int lanes)
{
    k->nacc = n;
    k->acc = xmalloc(sizeof *k->acc * (size_t)n);
    k->acc_nout = nout;
    k->out_lanes = lanes;
    k->tile = xmalloc(sizeof *k->tile * (size_t)(n * nout * lanes));
    for (int i = 0; i < n; i++) k->acc[i] = add_value(k, rc, true, "C%d", i);
}

static int *tile_at(struct kernel *k, int acc, int out, int lanes)
{
    return &k->tile[(acc * k->acc_nout + out) * lanes];
}

static void load_a(struct kernel *k, int *a, int n, int elems_per_load, enum rclass rc, enum iclass ic)
{
    for (int p = 0; p < n; p++) {
        a[p] = add_value(k, rc, false, "A%d", p);
        add_mem(k, OP_LOAD_A, ic, a[p], ST_A, p * elems_per_load);
    }
}

/* ScalarLoad-Broadcast: C(p, j) lanes hold rows p*VL.. of column j. */
static void build_scalar_broadcast(struct kernel *k)
{
    int mv = k->mr / k->vl, a[64], ntemp = 0;
    new_accs(k, mv * k->nr, RC_VEC, 1, k->vl);
    load_a(k, a, mv, k->vl, RC_VEC, IC_VLOAD);
    for (int j = 0; j < k->nr; j++) {
        int b = add_value(k, RC_VEC, false, "B%d", j);
        add_mem(k, OP_BCAST_B, IC_VBROADCAST, b, ST_B, j);
        for (int p = 0; p < mv; p++) {
            int c = j * mv + p;
            accumulate(k, k->acc[c], a[p], b, -1, &ntemp);
            for (int l = 0; l < k->vl; l++) tile_at(k, c, 0, k->vl)[l] = p * k->vl + l + j * k->mr;
        }
    }
}

/* VectorLoad-Shuffle: B chunk c permuted in Gray-code order, so each
 * permutation is one shuffle of the previous; accumulator (p, c, q) lane l
 * holds C(p*VL + l, c*VL + (l ^ g_q)). */
static void build_vector_shuffle(struct kernel *k)
{
    int mv = k->mr / k->vl, nv = k->nr / k->vl, a[64], ntemp = 0, nb = 0;
    new_accs(k, mv * k->nr, RC_VEC, 1, k->vl);
    load_a(k, a, mv, k->vl, RC_VEC, IC_VLOAD);
    for (int c = 0; c < nv; c++) {
        int prev = -1;
        for (int q = 0; q < k->vl; q++) {
            int g = q ^ (q >> 1), b = add_value(k, RC_VEC, false, "B%d", nb++);
            if (q == 0) add_mem(k, OP_LOAD_B, IC_VLOAD, b, ST_B, c * k->vl);
            else {
                struct inst *sh = add_inst(k, OP_SHUF_B, IC_VSHUFFLE, b);
                sh->src[0] = prev;
                sh->lane = __builtin_ctz((unsigned)(g ^ ((q - 1) ^ ((q - 1) >> 1))));
            }
            for (int p = 0; p < mv; p++) {
                int acc = (c * k->vl + q) * mv + p;
                accumulate(k, k->acc[acc], a[p], b, -1, &ntemp);
                for (int l = 0; l < k->vl; l++)
                    tile_at(k, acc, 0, k->vl)[l] = p * k->vl + l + (c * k->vl + (l ^ g)) * k->mr;
            }
            prev = b;
        }
    }
}

/* VectorLoad-Broadcast: B in 128-bit groups, FMA by lane (NEON fmla by
 * element, SVE fmla indexed after ld1rq). */
static void build_vector_broadcast(struct kernel *k)
{
    int mv = k->mr / k->vl, a[64], ntemp = 0;
    int ge = k->t->lane_group_bits / (8 * elem_bytes(k->elem)), b = -1;
    new_accs(k, mv * k->nr, RC_VEC, 1, k->vl);
    load_a(k, a, mv, k->vl, RC_VEC, IC_VLOAD);
    for (int j = 0; j < k->nr; j++) {
        if (j % ge == 0) {
            b = add_value(k, RC_VEC, false, "B%d", j / ge);
            add_mem(k, OP_LOAD_B, IC_VLOAD, b, ST_B, j);
        }
        for (int p = 0; p < mv; p++) {
            int c = j * mv + p;
            accumulate(k, k->acc[c], a[p], b, j % ge, &ntemp);
            for (int l = 0; l < k->vl; l++) tile_at(k, c, 0, k->vl)[l] = p * k->vl + l + j * k->mr;
        }
    }
}

/* Reals per B vector whose lanes the FMAs take (0: B broadcast). */
static int cplx_lane_group(const struct target *t, enum bstrat bs, enum elem e)
{
    return bs == BS_SPLIT_COMPLEX_LANE ? t->lane_group_bits / (8 * elem_bytes(e)) : 0;
}

/* Split complex: A's vector holds VL/2 complex rows (re, im interleaved);
 * B(p,j)'s real part broadcast into one accumulator and its imaginary
 * part into the next, so the loop is plain FMAs; emit_cstore.c combines
 * each pair after the loop. Accumulator 2c (2c+1) lane l holds the
 * product with B's real (imaginary) part for real position
 * p*VL + l + j*2*MR. */
static void build_split_complex(struct kernel *k)
{
    int mv = 2 * k->mr / k->vl, a[64], ntemp = 0, b = -1;
    int ge = cplx_lane_group(k->t, k->bs, k->elem);
    new_accs(k, 2 * mv * k->nr, RC_VEC, 1, k->vl);
    load_a(k, a, mv, k->vl, RC_VEC, IC_VLOAD);
    for (int j = 0; j < k->nr; j++)
        for (int part = 0; part < 2; part++) {
            int r = 2 * j + part;   /* B's real offset */
            if (!ge) {
                b = add_value(k, RC_VEC, false, "B%d", r);
                add_mem(k, OP_BCAST_B, IC_VBROADCAST, b, ST_B, r);
            } else if (r % ge == 0) {
                b = add_value(k, RC_VEC, false, "B%d", r / ge);
                add_mem(k, OP_LOAD_B, IC_VLOAD, b, ST_B, r);
            }
            for (int p = 0; p < mv; p++) {
                int c = 2 * (j * mv + p) + part;
                accumulate(k, k->acc[c], a[p], b, ge ? r % ge : -1, &ntemp);
                for (int l = 0; l < k->vl; l++)
                    tile_at(k, c, 0, k->vl)[l] = p * k->vl + l + j * 2 * k->mr;
            }
        }
}

/* Complex elements of B per 128-bit group: what one replicated load of B
 * holds for the complex multiply-add by lane (c64: 1, c32: 2). */
static int cmla_group(const struct target *t, enum elem e)
{
    int g = t->lane_group_bits / (16 * elem_bytes(e));
    return g > 1 ? g : 1;
}

/* Complex multiply-add in place (FCMLA): one accumulator per C vector
 * (VL/2 complex rows, re and im interleaved as in C); B(p,j)'s complex
 * element replicated to every pair by one load (c32: two columns' in each
 * 128-bit group, taken by lane). Rotation 0 adds A's real parts times B,
 * rotation 90 A's imaginary parts times i*B; the first's sum is a value
 * of its own in the accumulator's register, the second's the accumulator. Lane l of accumulator c holds
 * C's real position p*VL + l + j*2*MR, as the split form's pairs. */
static void build_cmla(struct kernel *k)
{
    int mv = 2 * k->mr / k->vl, a[64], b = -1, ge = cmla_group(k->t, k->elem);
    new_accs(k, mv * k->nr, RC_VEC, 1, k->vl);
    load_a(k, a, mv, k->vl, RC_VEC, IC_VLOAD);
    for (int j = 0; j < k->nr; j++) {
        if (j % ge == 0) {
            b = add_value(k, RC_VEC, false, "B%d", j / ge);
            add_mem(k, OP_LOAD_B, IC_VLOAD, b, ST_B, 2 * j);
        }
        for (int p = 0; p < mv; p++) {
            int c = j * mv + p, half = add_value(k, RC_VEC, false, "H%d", c);
            k->val[half].tie = k->acc[c];      /* FCMLA updates in place */
            for (int rot = 0; rot < 2; rot++) {
                struct inst *in = add_inst(k, OP_CMLA, IC_VCMLA, rot ? k->acc[c] : half);
                in->src[0] = rot ? half : k->acc[c];
                in->carried[0] = !rot;
                in->src[1] = a[p]; in->src[2] = b;
                in->lane = ge > 1 ? j % ge : -1;
                in->rot = rot;
            }
            for (int l = 0; l < k->vl; l++)
                tile_at(k, c, 0, k->vl)[l] = p * k->vl + l + j * 2 * k->mr;
        }
    }
}

/* Outer product (POWER10 MMA, Arm MMLA): accumulator (r, c) is an R x Cc
 * tile; after extraction its output vector i holds row r*R + i, columns
 * c*Cc.., or where the ger takes B first column c*Cc + i, rows r*R.. (MMLA:
 * each segment's 2x2 tile, one 64-bit column of it per output vector, the
 * segments' columns gathered into one). */
static void build_outer_product(struct kernel *k)
{
    int R = kernel_outer_rows(k->m, k->t, k->elem), Cc = k->t->outer_cols[k->elem];
    bool bfirst = k->t->outer_b_first[k->elem];
    int apl = k->t->a_regs_per_load[k->elem], mrow = k->mr / R, ncol = k->nr / Cc, a[64], b[64];
    int nout = bfirst ? Cc : R, nl = bfirst ? R : Cc;   /* output vectors, their lanes */
    enum rclass acc_rc = outer_acc_class(k->t, k->elem) ? RC_ACC : RC_VEC;
    bool tiles = target_spell(k->t, k->elem, k->bs)->tiles;
    enum iclass lic = tiles ? IC_TILE_LOAD : apl == 2 ? IC_VLOAD_PAIR : IC_VLOAD;
    new_accs(k, mrow * ncol, acc_rc, nout, nl);
    /* A's tile r starts R rows of group_a k steps in: R * group_a / G lanes */
    load_a(k, a, mrow, R * k->group_a / k->group, apl == 2 ? RC_PAIR : RC_VEC, lic);
    for (int c = 0; c < ncol; c++) {
        b[c] = add_value(k, RC_VEC, false, "B%d", c);
        add_mem(k, OP_LOAD_B, tiles ? IC_TILE_LOAD : IC_VLOAD, b[c], ST_B, c * Cc);
        for (int r = 0; r < mrow; r++) {
            int acc = c * mrow + r;
            struct inst *in = add_inst(k, OP_GER, madd_class(k, IC_GER), k->acc[acc]);
            in->src[0] = k->acc[acc]; in->carried[0] = true; in->src[1] = a[r]; in->src[2] = b[c];
            for (int i = 0; i < nout; i++)
                for (int l = 0; l < nl; l++) {
                    int row = bfirst ? l : i, col = bfirst ? i : l;
                    tile_at(k, acc, i, nl)[l] = r * R + row + (c * Cc + col) * k->mr;
                }
        }
    }
}

static void add_prefetches(struct kernel *k, enum stream s, int lines, int first, int hint,
                           const char *label)
{
    int line = k->m->l1d.line;
    for (int q = 0; q < lines; q++) {
        struct inst *in = add_mem(k, OP_PREFETCH, IC_PREFETCH, -1, s, first + q * line);
        in->hint = hint;
        snprintf(in->label, sizeof in->label, q ? "%s%d" : "%s", label, q);
    }
}

/* Prefetches (ceil(MR*St/Sc) and ceil(NR*St/Sc) lines per iteration,
 * §3.1.2): B ahead and, as the machine file asks, the next A panel or A
 * ahead into L1 and the next B panel into L2; then the pointer bumps. */
static void add_overhead(struct kernel *k)
{
    static const char *const ptr_label[ST_COUNT] = { "AP", "BP", "AN", "-" };   /* BN: none */
    const struct machine *m = k->m;
    int reals = k->cplx ? 2 : 1, st = elem_bytes(k->elem) * reals, line = m->l1d.line;
    k->step[ST_A] = reals * k->mr; k->step[ST_B] = reals * k->nr;
    k->step[ST_ANEXT] = reals * k->mr; k->step[ST_BNEXT] = reals * k->nr;
    int nb = (k->nr * st + line - 1) / line, na = (k->mr * st + line - 1) / line;
    bool pf = m->ic[IC_PREFETCH].present;
    /* the next B panel is addressed from bp (a fixed NR*k on): no pointer of its own */
    bool bumped[ST_COUNT] = { true, true, pf && m->a_next_prefetch, false };
    if (pf && m->b_prefetch_distance) add_prefetches(k, ST_B, nb, m->b_prefetch_distance, 3, "PrfB");
    if (pf && m->a_prefetch_distance) add_prefetches(k, ST_A, na, m->a_prefetch_distance, 3, "PrfAd");
    if (bumped[ST_ANEXT]) add_prefetches(k, ST_ANEXT, na, 0, 3, "PrfA");
    if (pf && m->b_next_prefetch) add_prefetches(k, ST_BNEXT, nb, 0, 2, "PrfBn");
    for (int s = 0; s < ST_COUNT; s++) {
        if (!bumped[s]) continue;
        struct inst *p = add_inst(k, OP_PTR_ADD, IC_IADD, -1);
        p->stream = (enum stream)s;
        snprintf(p->label, sizeof p->label, "%s", ptr_label[s]);
    }
}

typedef void (*builder)(struct kernel *);
static const builder builders[BS_COUNT] = {
    [BS_VECTOR_BROADCAST] = build_vector_broadcast,
    [BS_VECTOR_SHUFFLE] = build_vector_shuffle,
    [BS_SCALAR_BROADCAST] = build_scalar_broadcast,
    [BS_OUTER_PRODUCT] = build_outer_product,
    [BS_SPLIT_COMPLEX] = build_split_complex,
    [BS_SPLIT_COMPLEX_LANE] = build_split_complex,
    [BS_CMLA] = build_cmla,
};

static int a_granule(const struct machine *m, const struct target *t, enum bstrat bs,
                     enum elem e, int vl)
{
    if (bs == BS_OUTER_PRODUCT) return kernel_outer_rows(m, t, e);
    if (bstrat_complex(bs)) return vl / 2 > 0 ? vl / 2 : 1;
    return vl;
}

static int b_granule(const struct target *t, enum bstrat bs, enum elem e, int vl)
{
    switch (bs) {
    case BS_VECTOR_SHUFFLE: return vl;
    case BS_VECTOR_BROADCAST: return t->lane_group_bits / (8 * elem_bytes(e));
    case BS_OUTER_PRODUCT: return t->outer_cols[e];
    case BS_SPLIT_COMPLEX_LANE: {
        int ge = cplx_lane_group(t, bs, e);
        return ge > 2 ? ge / 2 : 1;
    }
    case BS_CMLA: return cmla_group(t, e);
    default: return 1;
    }
}

int kernel_reg_budget(const struct target *t, enum elem e, enum bstrat bs, int max_regs)
{
    int own = bstrat_complex(bs) ? 0 : target_spell(t, e, bs)->regs;
    return own && own < max_regs ? own : max_regs;
}

int kernel_min_regs(const struct machine *m, const struct target *t, enum bstrat bs,
                    enum elem e, int mr, int nr)
{
    int vl = kernel_vl(m, e);
    if (bs == BS_OUTER_PRODUCT) {
        int R = kernel_outer_rows(m, t, e), nacc = (mr / R) * (nr / t->outer_cols[e]);
        int acc_units = outer_acc_class(t, e) ? m->acc_blocks : 1;
        return nacc * acc_units + (mr / R) * t->a_regs_per_load[e] + 1;
    }
    int temp = t->sp[e].fma || elem_group(e) > 1 ? 0 : 1;   /* mul + add: a product register */
    if (bs == BS_CMLA) {        /* one accumulator per C vector */
        int mv = 2 * mr / vl;
        return mv * nr + mv + 1;
    }
    if (bstrat_complex(bs)) {   /* two accumulators per C vector */
        int mv = 2 * mr / vl;
        return 2 * mv * nr + mv + 1 + temp;
    }
    int mv = mr / vl;
    return mv * nr + mv + (bs == BS_VECTOR_SHUFFLE ? 2 : 1) + temp;
}

/* Where the compiler's allocation of a pipelined k loop costs more than
 * pipelining can save: in order, each accumulator copy GCC adds stalls the
 * pipe; a schedule filling a 16-register file (AVX2 and older) had GCC
 * spill accumulators into their own recurrence. There nothing moves up that
 * buys no cycle (pipeline.c). */
bool kernel_plain_loop(const struct kernel *k)
{
    const struct machine *m = k->m;
    return m->order == DISPATCH_IN_ORDER ||
           (m->vector_registers <= 16 && k->max_regs >= m->vector_registers - 1);
}

const char *kernel_shape_error(const struct machine *m, const struct target *t, enum bstrat bs,
                               enum elem e, int mr, int nr)
{
    static char msg[200];
    int vl = kernel_vl(m, e), ag = a_granule(m, t, bs, e, vl), bg = b_granule(t, bs, e, vl);
    if (!target_offers(t, bs, e, bstrat_complex(bs)))
        return snprintf(msg, sizeof msg, "the %s instruction set has no %s strategy", t->name,
                        bstrat_names[bs]), msg;
    unsigned need = bs == BS_CMLA ? target_cstrat(t, e)->cmla_requires & ~m->ext
                  : bs == BS_OUTER_PRODUCT ? target_spell(t, e, bs)->requires & ~m->ext : 0;
    if (need)
        return snprintf(msg, sizeof msg, "%s needs extension %s, which the machine file does "
                        "not list", bstrat_names[bs], ext_name(need)), msg;
    if (mr < ag || mr % ag || mr > 64)
        return snprintf(msg, sizeof msg, "MR=%d must be a multiple of %d, at most 64", mr, ag), msg;
    if (nr < bg || nr % bg || nr > 64)
        return snprintf(msg, sizeof msg, "NR=%d must be a multiple of %d, at most 64, for %s",
                        nr, bg, bstrat_names[bs]), msg;
    if (bs == BS_OUTER_PRODUCT && outer_acc_class(t, e)
        && (mr / ag) * (nr / bg) > m->acc_count)
        return snprintf(msg, sizeof msg, "%dx%d needs %d accumulators, the machine has %d", mr,
                        nr, (mr / ag) * (nr / bg), m->acc_count), msg;
    return NULL;
}

void kernel_build(struct kernel *k, const struct machine *m, const struct target *t,
                  enum elem e, enum bstrat bs, int mr, int nr, int max_regs)
{
    memset(k, 0, sizeof *k);
    k->m = m; k->t = t; k->elem = e; k->bs = bs; k->mr = mr; k->nr = nr;
    k->cplx = bstrat_complex(bs);
    k->vl = kernel_vl(m, e);
    k->group = kernel_group(t, e, bs);
    k->group_a = t->outer_group[e] && bs == BS_OUTER_PRODUCT ? elem_group(e) : k->group;
    k->max_regs = kernel_reg_budget(t, e, bs, max_regs);
    k->rc_units[RC_VEC] = 1;
    k->rc_units[RC_PAIR] = 2;
    k->rc_units[RC_ACC] = m->acc_blocks ? m->acc_blocks : 1;
    builders[bs](k);
    add_overhead(k);
}

void kernel_free(struct kernel *k)
{
    free(k->inst); free(k->val); free(k->acc); free(k->tile);
    memset(k, 0, sizeof *k);
}

void kernel_paper(struct kernel *k)
{
    k->paper = true;
    int first_pf = -1, n = k->ninst;
    for (int i = 0; i < n; i++) {
        if (k->inst[i].op == OP_SHUF_B) k->inst[i].fp = true;
        if (k->inst[i].op == OP_PREFETCH && first_pf < 0) first_pf = i;
    }
    if (first_pf < 0) return;
    /* overhead instructions define no values: reordering them moves no def */
    struct inst *tail = xmalloc(sizeof *tail * (size_t)(n - first_pf));
    int t = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = first_pf; i < n; i++) {
            const struct inst *in = &k->inst[i];
            bool early = in->op == OP_PTR_ADD && (in->stream == ST_A || in->stream == ST_B);
            if (early == (pass == 0)) tail[t++] = *in;
        }
    for (int i = 0; i < t; i++) {
        struct inst *in = &tail[i];
        if (in->op == OP_PREFETCH && (in->stream == ST_A || in->stream == ST_B))
            in->offset += k->step[in->stream] * elem_bytes(k->elem);   /* from the bumped pointer */
    }
    memcpy(k->inst + first_pf, tail, sizeof *tail * (size_t)t);
    free(tail);
}
