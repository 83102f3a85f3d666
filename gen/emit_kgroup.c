/* emit_kgroup.c: the last rows of a row panel with G k steps in every
 * vector: NAME_pair (G = 2) and NAME_quad (G = 4); tails.c decides where
 * they are emitted and from which k.
 *
 * A short last row panel of m <= VL/G rows fills at most 1/G of a row
 * vector. Here lane G*i + s holds row i at k step G*q + s: A's rows are
 * packed in groups of G k steps (a[q*lda + G*i + s]); B's G elements of a
 * group, adjacent in a column, come in one broadcast of a G-element block
 * (bcastG_: on Intel cores a load only, where broadcasting fewer elements
 * would take a shuffle port), so each FMA does G k steps of the partly
 * filled row vector, and sumG_ adds each group's lanes at the end. A last
 * k block of r < G steps uses tailG_, which zeroes the lanes past r. Not
 * list-scheduled: one load of A and independent FMAs per group, which the
 * compiler and the core order well enough.
 *
 * G = 1, NAME_half, is the row vector at half the width: where the FP
 * pipes are half a vector wide (datapath_bits), a half-width FMA holds a
 * pipe half as long, so VL/2 rows run at full speed with A read as the
 * direct kernels read it (column panels) and no sums. */
#include "emit_int.h"
#include <stdio.h>
#include <string.h>

enum { KG_MAX_COLS = 14 };   /* a column panel of the common NR in one block */

static int gi(int g) { return g == 4; }   /* index of G in the tables (2, 4) */

static const char *kg_helpers(const struct plan *pl, int g)
{
    return pl->t->sp[pl->k.elem].groups[gi(g)];
}

/* Columns per block: one accumulator each, A's vector and a broadcast or
 * two in flight. G = 1 names only half_regs registers, which GCC also
 * gives alpha and beta: more columns put A's vector on the stack
 * (docs/decisions.md). */
static int kg_cols(const struct plan *pl, int g)
{
    const struct spell *sp = &pl->t->sp[pl->k.elem];
    int q = g == 1 ? sp->half_regs - 6 : pl->m.max_regs - 4;
    return q < 1 ? 1 : q > KG_MAX_COLS ? KG_MAX_COLS : q;
}

/* s<c> += x * helper(B's column c at the pointers' k, extra), for q
 * columns: column c at base pb<3*(c/3)> plus (c%3) column strides. */
static void fma_columns(struct buf *b, const struct spell *sp, int q, const char *helper,
                        const char *extra, const char *ct, const char *ind)
{
    for (int c = 0; c < q; c++) {
        char bx[96], acc[8], bv[128];
        int base = c - c % 3, off = c % 3;
        if (!off) strfmt(bx, sizeof bx, "(const %s *)pb%d", ct, base);
        else strfmt(bx, sizeof bx, "(const %s *)(pb%d + %sldb_b)", ct, base, off == 2 ? "2 * " : "");
        strfmt(acc, sizeof acc, "s%d", c);
        strfmt(bv, sizeof bv, "%s(%s%s)", helper, bx, extra);
        const char *fo[3] = { "x", bv, acc };
        em_assign(b, ind, acc, sp->vfma, fo, "", sp->vtype);
    }
}

/* The k loop's spelling: half-width vectors for G = 1. */
static const struct spell *kg_spell(const struct plan *pl, int g)
{
    const struct spell *sp = &pl->t->sp[pl->k.elem];
    return g == 1 ? sp->half : sp;
}

/* The helpers' definitions: the target's for G = 2, 4; for G = 1 made
 * from the half spelling's broadcast (bcast1_) and the widening (sum1_). */
static void kg_helper_text(struct buf *b, const struct plan *pl, int g)
{
    if (g != 1) {
        buf_puts(b, kg_helpers(pl, g));
        return;
    }
    const struct spell *sp = &pl->t->sp[pl->k.elem], *hs = sp->half;
    const char *no[3] = { "", "", "" }, *so[3] = { "s", "", "" };
    buf_printf(b, "static inline %s bcast1_(const %s *p)\n{\n    %s d;\n", hs->vtype,
               elem_ctype[pl->k.elem], hs->vtype);
    em_line(b, "    ", hs->bcast, "d", no, "p", hs->vtype);
    buf_printf(b, "    return d;\n}\nstatic inline %s sum1_(%s s)\n{\n    return ", sp->vtype,
               hs->vtype);
    em_expand(b, sp->widen, "", so, "", 0, sp->vtype);
    buf_puts(b, ";\n}\n");
}

/* One block of q columns from column j on. */
static void block(struct buf *b, const struct plan *pl, int g, int q)
{
    const struct spell *sp = kg_spell(pl, g);
    const char *ct = elem_ctype[pl->k.elem], *in = "        ";
    const char *no[3] = { "", "", "" }, *lo[3] = { "", "", "" };
    char bc[16], tl[16];
    strfmt(bc, sizeof bc, "bcast%d_", g);
    strfmt(tl, sizeof tl, "tail%d_", g);
    buf_puts(b, "        const char *pb0 = (const char *)(b + j * ldb)");
    for (int c = 3; c < q; c += 3) buf_printf(b, ", *pb%d = pb%d + 3 * ldb_b", c, c - 3);
    buf_printf(b, ";\n        const %s *ap = a;\n        %s x", ct, sp->vtype);
    for (int c = 0; c < q; c++) buf_printf(b, ", s%d", c);
    buf_puts(b, ";\n");
    for (int c = 0; c < q; c++) {
        char acc[8];
        strfmt(acc, sizeof acc, "s%d", c);
        em_line(b, in, sp->zero, acc, no, "", sp->vtype);
    }
    buf_printf(b, "        for (int64_t p = 0; p < kg; p += %d, ap += lda) {\n", g);
    em_line(b, "            ", sp->load, "x", lo, "ap", sp->vtype);
    fma_columns(b, sp, q, bc, "", ct, "            ");
    buf_printf(b, "            pb0 += %d * sizeof(*ap)", g);
    for (int c = 3; c < q; c += 3) buf_printf(b, ", pb%d += %d * sizeof(*ap)", c, g);
    buf_puts(b, ";\n        }\n");
    if (g > 1) {
        buf_puts(b, "        if (kg < k) {   /* the last k - kg < G steps */\n");
        em_line(b, "            ", sp->load, "x", lo, "ap", sp->vtype);
        fma_columns(b, sp, q, tl, ", k - kg", ct, "            ");
        buf_puts(b, "        }\n");
    }
    sp = &pl->t->sp[pl->k.elem];              /* the sums: full-width vectors */
    for (int c = 0; c < q; c++)
        buf_printf(b, "        const %s h%d = sum%d_(s%d);\n", sp->vtype, c, g, c);
    if (!em_masked(sp)) em_sums_to_t(b, pl, q, "        ");   /* the element-wise update reads t */
    em_sums_update(b, pl, q);
}

void emit_kgroup(struct buf *fns, const struct plan *pl, int g, int rows, const char *fname,
                 const char *params)
{
    const struct spell *sp = &pl->t->sp[pl->k.elem];
    const char *ct = elem_ctype[pl->k.elem];
    int q = kg_cols(pl, g);
    buf_puts(fns, "\n");
    kg_helper_text(fns, pl, g);
    char how[32] = "half-width vectors";
    if (g > 1) strfmt(how, sizeof how, "%d k steps per vector", g);
    buf_printf(fns, "\n/* %s: m <= %d rows, %s (see the contract above).\n"
                    " * beta == 0 never reads C. */\n", fname, rows, how);
    buf_printf(fns, "void %s(%s)\n{\n", fname, params);
    buf_puts(fns, "    if (m <= 0 || n <= 0) return;\n");
    buf_printf(fns, "    const %s va = *alpha, vb = *beta;\n", ct);
    if (g == 1) buf_puts(fns, "    const int64_t kg = k");
    else buf_printf(fns, "    const int64_t kg = k - k %% %d", g);
    buf_printf(fns, ", ldb_b = ldb * (int64_t)sizeof(%s);\n", ct);
    em_sums_vectors(fns, sp);
    buf_puts(fns, "    int64_t j = 0;\n");
    buf_printf(fns, "    for (; j + %d <= n; j += %d) {\n", q, q);
    block(fns, pl, g, q);
    buf_puts(fns, "    }\n");
    for (int w = 8; w >= 1; w /= 2) {   /* what is left, fewer than q: at most once each */
        if (w >= q) continue;
        buf_printf(fns, "    if (j + %d <= n) {\n", w);
        block(fns, pl, g, w);
        buf_printf(fns, "        j += %d;\n    }\n", w);
    }
    buf_puts(fns, "}\n");
}

