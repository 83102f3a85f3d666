/* emit_dot.c: NAME_dot, the few rows of a short last row panel by dot
 * products along k (tails.c decides where it is emitted and from which k).
 *
 * A row kernel computes whole vectors of rows, so a few rows left over
 * below MR cost as many FMAs as a whole vector of rows. Dot products cost
 * DOT_ROWS * k / VL per column instead, plus a reduction; so for m <=
 * DOT_ROWS rows the runtime reads A's rows along k (copied rows, or in
 * place) and B's columns in place, DOT_ROWS x COLS accumulators at a time,
 * and adds each accumulator's lanes at the end (the target's hsum4; its
 * hsum16 for a block of 4 columns where it spells one: one vector of 16
 * sums and one C update for the block). Not list-scheduled: the loop is
 * loads and independent FMAs, which the compiler and the core order well
 * enough. The k tail is a masked load where the target has masks, else a
 * scalar loop; rows past m repeat row 0 (read, never stored). */
#include "emit_int.h"
#include <stdio.h>
#include <string.h>

enum { DOT_MAX_COLS = 4 };

/* Columns per block: DOT_ROWS x COLS accumulators, DOT_ROWS rows of A and
 * one column of B in registers. */
static int dot_cols(const struct plan *pl)
{
    int q = (pl->m.max_regs - DOT_ROWS - 1) / DOT_ROWS;
    return q < 1 ? 1 : q > DOT_MAX_COLS ? DOT_MAX_COLS : q;
}

/* dst := the vector at mem, under the k tail's mask k_ when mask. */
static void load_vec(struct buf *b, const struct spell *sp, const char *dst, const char *mem,
                     bool mask, const char *ind)
{
    const char *no[3] = { "", "", "" }, *mo[3] = { "", "k_", "" };
    if (!mask) {
        em_line(b, ind, sp->load, dst, no, mem, sp->vtype);
        return;
    }
    em_assign(b, ind, dst, sp->mloadc, mo, mem, sp->vtype);
}

/* acc s<i><q> += x<i> * y for every row i, y = column q of B at (p + off)
 * (masked under k_ when mask). */
static void fma_column(struct buf *b, const struct spell *sp, int q, const char *off, bool mask,
                       const char *ind)
{
    char mem[48], acc[16], x[8];
    strfmt(mem, sizeof mem, "b%d + %s", q, off);
    load_vec(b, sp, "y", mem, mask, ind);
    for (int i = 0; i < DOT_ROWS; i++) {
        strfmt(acc, sizeof acc, "s%d%d", i, q);
        strfmt(x, sizeof x, "x%d", i);
        const char *fo[3] = { x, "y", acc };
        em_assign(b, ind, acc, sp->vfma, fo, "", sp->vtype);
    }
}

/* A's rows at (p + off), masked or not. */
static void load_rows(struct buf *b, const struct spell *sp, const char *off, bool mask,
                      const char *ind)
{
    for (int i = 0; i < DOT_ROWS; i++) {
        char mem[48], x[8];
        strfmt(mem, sizeof mem, "a%d + %s", i, off);
        strfmt(x, sizeof x, "x%d", i);
        load_vec(b, sp, x, mem, mask, ind);
    }
}

/* The machine's FP pipes are narrower than a vector (datapath_bits):
 * full-width shuffles take two passes there. */
static bool half_pipes(const struct plan *pl)
{
    return pl->m.datapath_bits < pl->m.vector_bits;
}

/* Does a block of 4 columns take the target's hsum16 (one vector of 16
 * sums and one C update for the block)? Where it spells it, on full-width
 * pipes (as hsum4_half: half-width ones take its shuffles twice). */
static bool dot_use16(const struct plan *pl, int q)
{
    const struct spell *sp = &pl->t->sp[pl->k.elem];
    return q == 4 && sp->hsum16 && em_masked(sp) && pl->k.vl == 16 && !half_pipes(pl);
}

/* The 4 x 4 block's sums and C update by hsum16_ and cupd16_; general
 * C strides element by element (lane 4q + i is t[q][i]). */
static void sums16(struct buf *b, const struct plan *pl)
{
    const struct spell *sp = &pl->t->sp[pl->k.elem];
    const char *so[3] = { "h", "", "" };
    buf_printf(b, "        const %s h = hsum16_(s00, s01, s02, s03, s10, s11, s12, s13,\n"
                  "                             s20, s21, s22, s23, s30, s31, s32, s33);\n",
               sp->vtype);
    buf_printf(b, "        if (rs_c == 1) {\n"
                  "            cupd16_(c + j * cs_c, cs_c, h, va_, vb_, vb, km4_);\n"
                  "        } else {\n"
                  "            %s t[4][4];\n", elem_ctype[pl->k.elem]);
    em_line(b, "            ", sp->store, "", so, "t", sp->vtype);
    em_sums_scalar(b, pl, 4, "            ");
    buf_puts(b, "        }\n");
}

/* One block of q columns starting at column j. */
static void block(struct buf *b, const struct plan *pl, int q, bool use16)
{
    const struct spell *sp = &pl->t->sp[pl->k.elem];
    const char *ct = elem_ctype[pl->k.elem], *in = "        ";
    bool vmask = em_masked(sp);
    buf_printf(b, "        const %s *b0 = b + j * ldb", ct);
    for (int c = 1; c < q; c++) buf_printf(b, ", *b%d = b%d + ldb", c, c - 1);
    buf_printf(b, ";\n        %s x0, x1, x2, x3, y;\n", sp->vtype);
    for (int i = 0; i < DOT_ROWS; i++)
        for (int c = 0; c < q; c++) {
            char acc[16];
            strfmt(acc, sizeof acc, "s%d%d", i, c);
            char decl[48];
            const char *no[3] = { "", "", "" };
            strfmt(decl, sizeof decl, "%s %s", sp->vtype, acc);
            em_line(b, in, sp->zero, decl, no, "", sp->vtype);
        }
    buf_printf(b, "        for (int64_t p = 0; p < kv; p += %d) {\n", pl->k.vl);
    load_rows(b, sp, "p", false, "            ");
    for (int c = 0; c < q; c++) fma_column(b, sp, c, "p", false, "            ");
    buf_puts(b, "        }\n");
    if (vmask) {
        buf_puts(b, "        if (kv < k) {\n");
        load_rows(b, sp, "kv", true, "            ");
        for (int c = 0; c < q; c++) fma_column(b, sp, c, "kv", true, "            ");
        buf_puts(b, "        }\n");
    }
    if (use16) {
        sums16(b, pl);
        return;
    }
    for (int c = 0; c < q; c++)
        buf_printf(b, "        const %s h%d = hsum4_(s0%d, s1%d, s2%d, s3%d);\n", sp->vtype, c, c, c, c, c);
    if (!vmask) {
        em_sums_to_t(b, pl, q, "        ");
        buf_printf(b, "        for (int64_t p = kv; p < k; p++)\n"
                      "            for (int i = 0; i < 4; i++)\n"
                      "                for (int q = 0; q < %d; q++) t[q][i] += ar[i][p] * b0[p + q * ldb];\n", q);
    }
    em_sums_update(b, pl, q);
}

void emit_dot(struct buf *fns, const struct plan *pl, int rows, const char *fname,
              const char *params)
{
    const struct spell *sp = &pl->t->sp[pl->k.elem];
    const char *ct = elem_ctype[pl->k.elem];
    const char *hsum = half_pipes(pl) && sp->hsum4_half ? sp->hsum4_half : sp->hsum4;
    int q = dot_cols(pl);
    const bool use16 = dot_use16(pl, q);
    buf_printf(fns, "\n%s\n/* %s: m <= %d rows by dot products along k (see the contract above).\n"
                    " * beta == 0 never reads C. */\n", hsum, fname, rows);
    if (use16) buf_printf(fns, "\n%s", sp->hsum16);
    buf_printf(fns, "void %s(%s)\n{\n", fname, params);
    buf_printf(fns, "    if (m <= 0 || n <= 0) return;\n"
                    "    /* rows past m repeat row 0: read, never stored */\n"
                    "    const %s *a0 = a, *a1 = a + (m > 1) * lda, *a2 = a + (m > 2) * 2 * lda,\n"
                    "          *a3 = a + (m > 3) * 3 * lda;\n", ct);
    buf_printf(fns, "    const %s va = *alpha, vb = *beta;\n", ct);
    buf_printf(fns, "    const int64_t kv = k - k %% %d;   /* whole vectors */\n", pl->k.vl);
    if (em_masked(sp)) {   /* k_: the k tail's lanes */
        const char *ko[3] = { "kv", "k", "" };
        buf_puts(fns, "    ");
        em_expand(fns, sp->mask_decl, "k_", ko, "", 0, sp->vtype);
        buf_puts(fns, "\n");
        em_sums_vectors(fns, sp);
        if (use16) buf_puts(fns, "    const unsigned km4_ = m >= 4 ? 0xFu : (1u << m) - 1;   /* rows of a 4 x 4 block */\n");
    } else {
        buf_printf(fns, "    const %s *const ar[4] = { a0, a1, a2, a3 };   /* the scalar k tail */\n", ct);
    }
    buf_puts(fns, "    int64_t j = 0;\n");
    buf_printf(fns, "    for (; j + %d <= n; j += %d) {\n", q, q);
    block(fns, pl, q, use16);
    buf_puts(fns, "    }\n");
    if (q > 1) {
        buf_puts(fns, "    for (; j < n; j++) {\n");
        block(fns, pl, 1, false);
        buf_puts(fns, "    }\n");
    }
    buf_puts(fns, "}\n");
}
