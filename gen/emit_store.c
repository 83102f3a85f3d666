/* emit_store.c: C = alpha*acc + beta*C after the k loop. The full tile
 * with unit stride along the accumulators' lanes is stored with vectors;
 * so are edge tiles on targets with masked loads and stores (AVX-512,
 * SVE), each vector under the mask of its lanes inside m x n; other edge
 * tiles and other strides go through a small buffer and a scalar loop.
 * Nothing outside m x n is touched and beta == 0 reads nothing. beta == 1
 * gets its own vector branch (one FMA per vector instead of a multiply and
 * an FMA), and so do alpha == 1 with beta 0 or 1 (a store, an add). */
#include "emit_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int nvec(const struct kernel *k) { return k->nacc * k->acc_nout; }
static const int *lanes_of(const struct kernel *k, int v) { return &k->tile[v * k->out_lanes]; }

/* 1: every output vector runs down a column; 2: along a row; 0: neither. */
static int layout(const struct kernel *k)
{
    bool col = true, row = true;
    for (int v = 0; v < nvec(k); v++) {
        const int *t = lanes_of(k, v);
        for (int l = 0; l < k->out_lanes; l++) {
            col &= t[l] == t[0] + l && t[0] % k->mr + k->out_lanes <= k->mr;
            row &= t[l] == t[0] + l * k->mr;
        }
    }
    return col ? 1 : row ? 2 : 0;
}

/* The C expression of output vector v, after any extraction. */
static void out_expr(const struct em *e, int v, char *out, size_t size)
{
    char reg[32];
    em_reg_name(e, e->k->acc[v / e->k->acc_nout], 0, reg, sizeof reg);
    if (e->sp->extract)
        strfmt(out, size, e->sp->extract_vars ? "%s_v%d" : "%s_v[%d]", reg, v % e->k->acc_nout);
    else strfmt(out, size, "%s", reg);
}


/* Each accumulator's C block in one statement FMT (AMX: a tile load or
 * store, %#d the tile, %m its first element of C, %l C's element size for
 * the row stride cs_c): the accumulator's output vectors are C's columns
 * from its first element on. */
void em_acc_c(struct buf *b, const struct em *e, const char *fmt, const char *ind)
{
    const struct kernel *k = e->k;
    for (int a = 0; a < k->nacc; a++) {
        char reg[32], addr[64];
        const char *ops[3] = { reg, "", "" };
        int t = k->tile[a * k->acc_nout * k->out_lanes];
        em_reg_name(e, k->acc[a], 0, reg, sizeof reg);
        strfmt(addr, sizeof addr, "c + %d + %d * cs_c", t % k->mr, t / k->mr);
        buf_puts(b, ind);
        em_expand(b, fmt, reg, ops, addr, elem_bytes(k->elem), e->sp->vtype);
        buf_puts(b, "\n");
    }
}

/* The accumulators stored straight into C where emit_zero chose so. */
static void acc_store(struct buf *b, const struct em *e)
{
    if (!e->sp->store_acc) return;
    buf_puts(b, "    if (c_tiles_) {\n");
    em_acc_c(b, e, e->sp->store_acc, "        ");
    buf_puts(b, "        return;\n    }\n");
}

static void extract_all(struct buf *b, const struct em *e)
{
    if (!e->sp->extract) return;
    for (int a = 0; a < e->k->nacc; a++) {
        char reg[32], arr[40];
        const char *ops[3] = { reg, "", "" };
        em_reg_name(e, e->k->acc[a], 0, reg, sizeof reg);
        strfmt(arr, sizeof arr, "%s_v", reg);
        em_line(b, "    ", e->sp->extract, arr, ops, "", e->sp->vtype);
    }
}

/* Opens the guard of one output vector on an edge tile and declares its
 * mask k_ (lanes run down rows for lay 1, along columns for lay 2). */
static void mask_open(struct buf *b, const struct em *e, int lay, int i0, int j0)
{
    char lo[16], hi[4];
    strfmt(lo, sizeof lo, "%d", lay == 1 ? i0 : j0);
    strfmt(hi, sizeof hi, "%s", lay == 1 ? "m" : "n");
    const char *mo[3] = { lo, hi, "" };
    buf_printf(b, "            if (%d < m && %d < n) {\n                ", i0, j0);
    em_expand(b, e->sp->mask_decl, "k_", mo, "", 0, e->sp->vtype);
    buf_puts(b, "\n    ");
}

void em_new_c(struct buf *out, const struct spell *sp, enum c_pass pass, const char *x,
              const char *c_old)
{
    struct buf m2 = { 0 };
    const char *mo[3] = { "va_", x, "" }, *m2o[3] = { "vb_", c_old, "" };
    const char *ao[3] = { x, c_old, "" };
    switch (pass) {
    case CP_AX: em_expand(out, sp->vmul, "", mo, "", 0, sp->vtype); return;
    case CP_X: buf_puts(out, x); return;
    case CP_X_C: em_expand(out, sp->vadd, "", ao, "", 0, sp->vtype); return;
    default: break;
    }
    em_expand(&m2, sp->vmul, "", m2o, "", 0, sp->vtype);
    const char *fo[3] = { "va_", x, pass == CP_AX_C ? c_old : m2.s };
    em_expand(out, sp->vfma, "", fo, "", 0, sp->vtype);
    buf_free(&m2);
}

/* The value stored to C for output vector v (accumulator expression ex,
 * address addr, C loaded by the template ldt). */
static void new_value(const struct em *e, enum c_pass pass, const char *ldt, const char *ex,
                      const char *addr, char *val, size_t size)
{
    struct buf l = { 0 }, f = { 0 };
    const char *lo[3] = { "", "k_", "" };
    em_expand(&l, ldt, "", lo, addr, 0, e->sp->vtype);
    em_new_c(&f, e->sp, pass, ex, l.s);
    strfmt(val, size, "%s", f.s);
    buf_free(&l); buf_free(&f);
}

/* C's address of output vector v; walking direct kernels step cw_ along
 * the columns (*jw: the column it points at). */
static void c_addr(struct buf *b, const struct em *e, int lay, bool walk, int v, int *jw,
                   char *addr, size_t size)
{
    int t0 = lanes_of(e->k, v)[0], i0 = t0 % e->k->mr, j0 = t0 / e->k->mr;
    if (walk) {
        for (; *jw < j0; (*jw)++) buf_puts(b, "            cw_ += cs_c;\n");
        strfmt(addr, size, "cw_ + %d", i0);
    } else if (lay == 1) strfmt(addr, size, "c + %d + %d * cs_c", i0, j0);
    else strfmt(addr, size, "c + %d * rs_c + %d", i0, j0);
}

/* One statement per output vector: store the new value (mode 0), or only
 * compute it into the accumulator (mode 1), or store the accumulator
 * (mode 2). Updates that read C read all of it before storing any (modes
 * 1 then 2): a load that seems to overlap an earlier store waits for that
 * store to retire. Masked: with ldc < the tile's vector extent every
 * column's load overlaps the previous column's store (SGEMM 24^3). Full
 * tiles: the load/store unit compares addresses in their low 12 bits, so
 * with C's columns a multiple of 4 KB apart each column's loads wait for
 * the previous column's stores (docs/decisions.md: reading first pays
 * in the packed kernel). Not in the direct kernels' full tiles: they walk
 * one pointer along C, and walking it twice cost more than it saved. */
static void vector_stmts(struct buf *b, const struct em *e, int lay, bool masked,
                         enum c_pass pass, int mode)
{
    const struct kernel *k = e->k;
    const struct spell *sp = e->sp;
    const char *ldt = masked ? sp->mloadc : sp->loadc, *stt = masked ? sp->mstore : sp->store;
    char ex[64], addr[96], val[320];
    /* Direct kernels walk one pointer along C's columns: written as
     * c + j * cs_c, GCC computed all 14 column addresses at once, beside
     * the in-place B pointers, and spilled them to the stack. The packed
     * kernel keeps c + j * cs_c: walking there cost more (docs/decisions.md). */
    int jw = 0;
    bool walk = lay == 1 && !masked && e->direct;
    if (walk) buf_printf(b, "            %s *cw_ = c;\n", elem_ctype[k->elem]);
    for (int v = 0; v < nvec(k); v++) {
        int t0 = lanes_of(k, v)[0];
        out_expr(e, v, ex, sizeof ex);
        c_addr(b, e, lay, walk, v, &jw, addr, sizeof addr);
        if (mode != 2) new_value(e, pass, ldt, ex, addr, val, sizeof val);
        else strfmt(val, sizeof val, "%s", ex);
        if (masked) mask_open(b, e, lay, t0 % k->mr, t0 / k->mr);
        buf_puts(b, "            ");
        if (mode == 1) {
            buf_printf(b, "%s = %s;", ex, val);
        } else {
            const char *so[3] = { val, "k_", "" };
            em_expand(b, stt, "", so, addr, 0, sp->vtype);
        }
        buf_puts(b, masked ? "\n            }\n" : "\n");
    }
}

/* The branches of the vector update, in test order, and what each
 * stores. alpha == 1 takes C + sums on the adders (a plain store for
 * beta == 0): BLIS and the five loops call with alpha 1 and beta 0 or 1,
 * and the adds leave the FMA pipes to the next tile's k loop
 * (docs/decisions.md). */
static const struct { const char *cond; enum c_pass pass; } branch[] = {
    { "alpha_ == 1 && beta_ == 0", CP_X }, { "alpha_ == 1 && beta_ == 1", CP_X_C },
    { "beta_ == 0", CP_AX }, { "beta_ == 1", CP_AX_C }, { NULL, CP_AX_BC },
};

/* Vector update of C. Unmasked: the full tile only. Masked (targets with
 * predicated loads and stores): any edge tile, each output vector under a
 * mask of the lanes inside m x n, vectors wholly outside skipped. */
static void vector_path(struct buf *b, const struct em *e, int lay, bool masked)
{
    const struct kernel *k = e->k;
    const struct spell *sp = e->sp;
    const char *unit = lay == 1 ? "rs_c" : "cs_c";
    if (masked) buf_printf(b, "    if (%s == 1) {   /* edge tile: predicated */\n", unit);
    else buf_printf(b, "    if (m == %d && n == %d && %s == 1) {\n", k->mr, k->nr, unit);
    struct buf va = { 0 }, vb = { 0 };
    const char *ao[3] = { "alpha_", "", "" }, *bo[3] = { "beta_", "", "" };
    em_expand(&va, sp->set1, "", ao, "", 0, sp->vtype);
    em_expand(&vb, sp->set1, "", bo, "", 0, sp->vtype);
    buf_printf(b, "        const %s va_ = %s;\n", sp->vtype, va.s);
    for (size_t i = 0; i < sizeof branch / sizeof *branch; i++) {
        enum c_pass pass = branch[i].pass;
        if (branch[i].cond)
            buf_printf(b, "        %sif (%s) {\n", i ? "} else " : "", branch[i].cond);
        else
            buf_printf(b, "        } else {\n            const %s vb_ = %s;\n", sp->vtype, vb.s);
        if ((masked || !e->direct) && pass != CP_AX && pass != CP_X) {   /* reads C first */
            vector_stmts(b, e, lay, masked, pass, 1);
            vector_stmts(b, e, lay, masked, pass, 2);
        } else {
            vector_stmts(b, e, lay, masked, pass, 0);
        }
    }
    buf_puts(b, "        }\n        return;\n    }\n");
    buf_free(&va); buf_free(&vb);
}

static void scalar_path(struct buf *b, const struct em *e)
{
    const struct kernel *k = e->k;
    const char *ct = elem_ctype[k->elem];
    char ex[64], addr[64];
    buf_printf(b, "    %s t_[%d];\n", ct, nvec(k) * k->out_lanes);
    for (int v = 0; v < nvec(k); v++) {
        out_expr(e, v, ex, sizeof ex);
        strfmt(addr, sizeof addr, "t_ + %d", v * k->out_lanes);
        const char *so[3] = { ex, "", "" };
        em_line(b, "    ", e->sp->store, "", so, addr, e->sp->vtype);
    }
    int n = k->mr * k->nr, *at = xcalloc((size_t)n, sizeof *at);
    for (int x = 0; x < nvec(k) * k->out_lanes; x++) at[k->tile[x]] = x;
    buf_printf(b, "    /* position in t_ of C(i, j), at_[i + j*%d] */\n", k->mr);
    buf_printf(b, "    static const unsigned short at_[%d] = {", n);
    for (int x = 0; x < n; x++) buf_printf(b, "%s%d,", x % 16 ? " " : "\n        ", at[x]);
    buf_puts(b, "\n    };\n");
    const char *w = elem_wrap_type(k->elem);
    if (w)   /* integer C: the arithmetic wraps, in the unsigned twin */
        buf_printf(b,
            "    for (int64_t j = 0; j < n; j++)\n"
            "        for (int64_t i = 0; i < m; i++) {\n"
            "            %s v = (%s)alpha_ * (%s)t_[at_[i + j * %d]];\n"
            "            %s *cij = c + i * rs_c + j * cs_c;\n"
            "            *cij = (%s)(beta_ == 0 ? v : v + (%s)beta_ * (%s)*cij);\n"
            "        }\n", w, w, w, k->mr, ct, ct, w, w);
    else
        buf_printf(b,
            "    for (int64_t j = 0; j < n; j++)\n"
            "        for (int64_t i = 0; i < m; i++) {\n"
            "            %s v = alpha_ * t_[at_[i + j * %d]];\n"
            "            %s *cij = c + i * rs_c + j * cs_c;\n"
            "            *cij = beta_ == 0 ? v : v + beta_ * *cij;\n"
            "        }\n", ct, k->mr, ct);
    free(at);
}

int emit_store(struct buf *b, const struct em *e)
{
    if (e->k->cplx) return emit_cstore(b, e);
    const char *ct = elem_ctype[e->k->elem];
    acc_store(b, e);
    buf_printf(b, "    const %s alpha_ = *alpha, beta_ = *beta;\n", ct);
    extract_all(b, e);
    int lay = layout(e->k);
    if (lay) vector_path(b, e, lay, false);
    if (lay && e->sp->mask_decl) vector_path(b, e, lay, true);
    scalar_path(b, e);
    return lay == 2;
}
