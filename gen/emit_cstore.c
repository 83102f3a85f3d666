/* emit_cstore.c: C = alpha*A*B + beta*C after the k loop of a complex
 * kernel. In the split forms each C vector's two accumulators (the
 * products with B's real and with its imaginary parts) become one by the
 * target's pair swap and add-subtract (struct cstrat); BS_CMLA's one
 * accumulator is already C's vector. Complex alpha and
 * beta then multiply the same way. The full tile with unit row stride is
 * stored with vectors, so are edge tiles on targets with masked loads and
 * stores (AVX-512), anything else through a small buffer and a scalar
 * loop; nothing outside m x n is touched and beta == 0 reads nothing. */
#include "emit_int.h"
#include <stdio.h>

/* EXPR * (vr + i vi) for interleaved pairs: fmaddsub(x, vr, swap(x) * vi). */
static void cmul(struct buf *out, const struct em *e, const struct cstrat *cs, const char *x,
                 const char *vr, const char *vi)
{
    struct buf sw = { 0 }, mul = { 0 };
    const char *so[3] = { x, "", "" };
    em_expand(&sw, cs->swap, "", so, "", 0, e->sp->vtype);
    const char *mo[3] = { sw.s, vi, "" };
    em_expand(&mul, e->sp->vmul, "", mo, "", 0, e->sp->vtype);
    const char *fo[3] = { x, vr, mul.s };
    em_expand(out, cs->fmaddsub, "", fo, "", 0, e->sp->vtype);
    buf_free(&sw); buf_free(&mul);
}

int acc_per_vector(const struct kernel *k) { return k->bs == BS_CMLA ? 1 : 2; }

static void acc_name(const struct em *e, int v, int part, char *out, size_t size)
{
    em_reg_name(e, e->k->acc[acc_per_vector(e->k) * v + part], 0, out, size);
}

/* Output vector v := re + swap(im), in the real part's register. */
static void combine(struct buf *b, const struct em *e, const struct cstrat *cs, int nv)
{
    buf_puts(b, "    /* each C vector: re + i*im of its two sums (pairs swapped, add-subtract) */\n");
    for (int v = 0; v < nv; v++) {
        char re[32], im[32];
        struct buf sw = { 0 };
        acc_name(e, v, 0, re, sizeof re);
        acc_name(e, v, 1, im, sizeof im);
        const char *so[3] = { im, "", "" };
        em_expand(&sw, cs->swap, "", so, "", 0, e->sp->vtype);
        const char *ao[3] = { re, sw.s, "" };
        em_assign(b, "    ", re, cs->addsub, ao, "", e->sp->vtype);
        buf_free(&sw);
    }
}

/* The first complex row and the column of output vector v (a column's
 * VL/2 complex rows). */
static void first_of(const struct kernel *k, int v, int *i0, int *j0)
{
    int mv = 2 * k->mr / k->vl;
    *i0 = v % mv * (k->vl / 2);
    *j0 = v / mv;
}

static void c_addr(const struct kernel *k, int v, char *out, size_t size)
{
    int i0, j0;
    first_of(k, v, &i0, &j0);
    strfmt(out, size, "(%s *)(c + %d + %d * cs_c)", elem_ctype[k->elem], i0, j0);
}

/* Masked (edge tiles): opens the guard of vector v, which skips vectors
 * wholly outside m x n, and declares k_, its lanes (two per complex row)
 * below row m. */
static void mask_open(struct buf *b, const struct em *e, int v)
{
    int i0, j0;
    char lo[16];
    first_of(e->k, v, &i0, &j0);
    strfmt(lo, sizeof lo, "%d", 2 * i0);
    const char *mo[3] = { lo, "2 * m", "" };
    buf_printf(b, "            if (%d < m && %d < n) {\n                ", i0, j0);
    em_expand(b, e->sp->mask_decl, "k_", mo, "", 0, e->sp->vtype);
    buf_puts(b, "\n");
}

enum cpass { CX, CX_C, CAX, CAX_BC };

/* The vector update of one pass: new values into the accumulators first
 * when C is read (all of C read before any store), then the stores. */
static void cvector_stmts(struct buf *b, const struct em *e, const struct cstrat *cs, int nv,
                          enum cpass pass, bool masked)
{
    const struct spell *sp = e->sp;
    const char *ldt = masked ? sp->mloadc : sp->loadc, *stt = masked ? sp->mstore : sp->store;
    const char *close = masked ? "            }\n" : "";
    const char *ind = masked ? "                " : "            ";
    const char *ind2 = masked ? "                  " : "              ";
    char x[32], addr[96];
    if (pass == CX_C || pass == CAX_BC)
        for (int v = 0; v < nv; v++) {
            struct buf val = { 0 }, ld = { 0 }, ax = { 0 }, bc = { 0 };
            acc_name(e, v, 0, x, sizeof x);
            c_addr(e->k, v, addr, sizeof addr);
            const char *lo[3] = { "", "k_", "" };
            em_expand(&ld, ldt, "", lo, addr, 0, sp->vtype);
            if (masked) mask_open(b, e, v);
            buf_printf(b, "%s{ const %s c_ = %s;\n", ind, sp->vtype, ld.s);
            if (pass == CX_C) {
                const char *ao[3] = { x, "c_", "" };
                em_assign(b, ind2, x, sp->vadd, ao, "", sp->vtype);
            } else {
                cmul(&ax, e, cs, x, "var_", "vai_");
                cmul(&bc, e, cs, "c_", "vbr_", "vbi_");
                const char *ao[3] = { ax.s, bc.s, "" };
                em_assign(b, ind2, x, sp->vadd, ao, "", sp->vtype);
            }
            buf_printf(b, "%s}\n%s", ind, close);
            buf_free(&val); buf_free(&ld); buf_free(&ax); buf_free(&bc);
        }
    for (int v = 0; v < nv; v++) {
        struct buf val = { 0 };
        acc_name(e, v, 0, x, sizeof x);
        c_addr(e->k, v, addr, sizeof addr);
        if (pass == CAX) cmul(&val, e, cs, x, "var_", "vai_");
        else buf_puts(&val, x);
        const char *so[3] = { val.s, "k_", "" };
        if (masked) mask_open(b, e, v);
        em_line(b, ind, stt, "", so, addr, sp->vtype);
        buf_puts(b, close);
        buf_free(&val);
    }
}

static void set1(struct buf *b, const struct spell *sp, const char *name, const char *scalar)
{
    struct buf s = { 0 };
    const char *o[3] = { scalar, "", "" };
    em_expand(&s, sp->set1, "", o, "", 0, sp->vtype);
    buf_printf(b, "            const %s %s = %s;\n", sp->vtype, name, s.s);
    buf_free(&s);
}

/* C's columns contiguous: the full tile, or (masked, targets with
 * predicated loads and stores) any edge tile, each vector under the mask
 * of its rows inside m, vectors wholly outside skipped. alpha == 1 with
 * beta 0 or 1 (a store, an add: the five loops' and BLIS's calls), then
 * any alpha and beta == 0, then the general update. */
static void cvector_path(struct buf *b, const struct em *e, const struct cstrat *cs, int nv,
                         bool masked)
{
    const struct kernel *k = e->k;
    const struct spell *sp = e->sp;
    if (masked) buf_puts(b, "    if (rs_c == 1) {   /* edge tile: predicated */\n");
    else buf_printf(b, "    if (m == %d && n == %d && rs_c == 1) {\n", k->mr, k->nr);
    buf_puts(b, "        if (ar_ == 1 && ai_ == 0 && br_ == 0 && bi_ == 0) {\n");
    cvector_stmts(b, e, cs, nv, CX, masked);
    buf_puts(b, "        } else if (ar_ == 1 && ai_ == 0 && br_ == 1 && bi_ == 0) {\n");
    cvector_stmts(b, e, cs, nv, CX_C, masked);
    buf_puts(b, "        } else if (br_ == 0 && bi_ == 0) {\n");
    set1(b, sp, "var_", "ar_");
    set1(b, sp, "vai_", "ai_");
    cvector_stmts(b, e, cs, nv, CAX, masked);
    buf_puts(b, "        } else {\n");
    set1(b, sp, "var_", "ar_");
    set1(b, sp, "vai_", "ai_");
    set1(b, sp, "vbr_", "br_");
    set1(b, sp, "vbi_", "bi_");
    cvector_stmts(b, e, cs, nv, CAX_BC, masked);
    buf_puts(b, "        }\n        return;\n    }\n");
}

/* Edge tiles and other strides: the sums through t_, C(i,j)'s real part
 * at t_[2*(i + j*MR)], then element by element. */
static void cscalar_path(struct buf *b, const struct em *e, int nv)
{
    const struct kernel *k = e->k;
    const char *rt = elem_ctype[k->elem];
    char x[32], addr[32];
    buf_printf(b, "    %s t_[%d];\n", rt, 2 * k->mr * k->nr);
    for (int v = 0; v < nv; v++) {
        acc_name(e, v, 0, x, sizeof x);
        strfmt(addr, sizeof addr, "t_ + %d", v * k->vl);
        const char *so[3] = { x, "", "" };
        em_line(b, "    ", e->sp->store, "", so, addr, e->sp->vtype);
    }
    buf_printf(b,
        "    for (int64_t j = 0; j < n; j++)\n"
        "        for (int64_t i = 0; i < m; i++) {\n"
        "            const %s xr = t_[2 * (i + j * %d)], xi = t_[2 * (i + j * %d) + 1];\n"
        "            %s *cij = (%s *)(c + i * rs_c + j * cs_c);\n"
        "            %s vr = ar_ * xr - ai_ * xi, vi = ar_ * xi + ai_ * xr;\n"
        "            if (br_ != 0 || bi_ != 0) {\n"
        "                const %s cr = cij[0], ci = cij[1];\n"
        "                vr += br_ * cr - bi_ * ci;\n"
        "                vi += br_ * ci + bi_ * cr;\n"
        "            }\n"
        "            cij[0] = vr;\n"
        "            cij[1] = vi;\n"
        "        }\n", rt, k->mr, k->mr, rt, rt, rt, rt);
}

int emit_cstore(struct buf *b, const struct em *e)
{
    const struct kernel *k = e->k;
    const struct cstrat *cs = target_cstrat(k->t, k->elem);
    const char *rt = elem_ctype[k->elem];
    int nv = k->nacc / acc_per_vector(k);
    buf_printf(b, "    const %s *al_ = (const %s *)alpha, *be_ = (const %s *)beta;\n", rt, rt, rt);
    buf_printf(b, "    const %s ar_ = al_[0], ai_ = al_[1], br_ = be_[0], bi_ = be_[1];\n", rt);
    if (acc_per_vector(k) == 2) combine(b, e, cs, nv);
    cvector_path(b, e, cs, nv, false);
    if (e->sp->mask_decl) cvector_path(b, e, cs, nv, true);
    cscalar_path(b, e, nv);
    return 0;
}
