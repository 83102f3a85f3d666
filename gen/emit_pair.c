/* emit_pair.c: NAME_pair, the last rows of a row panel with two k steps
 * in every vector.
 *
 * A short last row panel of m <= VL/2 rows fills at most half of a row
 * vector: SGEMM 72^3 on AVX-512 ran its last 8 rows (11% of the flops)
 * in 22% of the time, 16 rows high. Here lane 2i + s holds row i at k
 * step 2q + s: A's rows are packed in k pairs (a[q*lda + 2i + s]), B's
 * two elements of a pair, adjacent in a column, come in one broadcast of
 * a double-width element (bcast2_), so each FMA does two k steps of the
 * half-filled row vector, and pairsum_ adds the neighbours at the end.
 * An odd last k step uses bcast1_, which leaves the odd lanes zero.
 * Not list-scheduled: one load of A and independent FMAs per pair, which
 * the compiler and the core order well enough.
 *
 * Emitted where B's columns are what the direct kernels read (scalar-
 * broadcast strategies), the target spells the helpers (`pairs`) and a
 * vector holds at least 8 elements. */
#include "emit_int.h"
#include <stdio.h>
#include <string.h>

enum { PAIR_MAX_COLS = 14,   /* a column panel of the common NR in one block */
       PAIR_SUM_COST = 3 };  /* instructions of one pairsum_, per column */

int pair_rows(const struct plan *pl)
{
    const struct spell *sp = &pl->t->sp[pl->k.elem];
    return direct_b_cols(&pl->k) && sp->pairs && pl->k.vl >= 8 ? pl->k.vl / 2 : 0;
}

/* Columns per block: one accumulator each, A's pair vector and a
 * broadcast or two in flight. */
static int pair_cols(const struct plan *pl)
{
    int q = pl->m.max_regs - 4;
    return q < 1 ? 1 : q > PAIR_MAX_COLS ? PAIR_MAX_COLS : q;
}

/* Instructions per column: k/2 FMAs and a pairsum_. */
double pair_cost(int k)
{
    return k / 2.0 + PAIR_SUM_COST;
}

/* The k from which that costs less than the k FMAs per column of the row
 * vector the rows half fill. */
int pair_min_k(const struct plan *pl)
{
    (void)pl;
    int k = 1;
    while (pair_cost(k) >= k) k++;
    return k;
}

/* s<c> += x * helper(B's column c at the pointers' k), for q columns:
 * column c at base pb<3*(c/3)> plus (c%3) column strides. */
static void fma_columns(struct buf *b, const struct spell *sp, int q, const char *helper,
                        const char *ct, const char *ind)
{
    for (int c = 0; c < q; c++) {
        char bx[96], acc[8], bv[112];
        int base = c - c % 3, off = c % 3;
        if (!off) strfmt(bx, sizeof bx, "(const %s *)pb%d", ct, base);
        else strfmt(bx, sizeof bx, "(const %s *)(pb%d + %sldb_b)", ct, base, off == 2 ? "2 * " : "");
        strfmt(acc, sizeof acc, "s%d", c);
        strfmt(bv, sizeof bv, "%s(%s)", helper, bx);
        struct buf e = { 0 };
        const char *fo[3] = { "x", bv, acc };
        em_expand(&e, sp->vfma, "", fo, "", 0, sp->vtype);
        buf_printf(b, "%s%s = %s;\n", ind, acc, e.s);
        buf_free(&e);
    }
}

/* One block of q columns from column j on. */
static void block(struct buf *b, const struct plan *pl, int q)
{
    const struct spell *sp = &pl->t->sp[pl->k.elem];
    const char *ct = elem_ctype[pl->k.elem], *in = "        ";
    const char *no[3] = { "", "", "" }, *lo[3] = { "", "", "" };
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
    buf_puts(b, "        for (int64_t p = 0; p < kp; p += 2, ap += lda) {\n");
    em_line(b, "            ", sp->load, "x", lo, "ap", sp->vtype);
    fma_columns(b, sp, q, "bcast2_", ct, "            ");
    buf_puts(b, "            pb0 += 2 * sizeof(*ap)");
    for (int c = 3; c < q; c += 3) buf_printf(b, ", pb%d += 2 * sizeof(*ap)", c);
    buf_puts(b, ";\n        }\n        if (kp < k) {   /* the odd last k step */\n");
    em_line(b, "            ", sp->load, "x", lo, "ap", sp->vtype);
    fma_columns(b, sp, q, "bcast1_", ct, "            ");
    buf_puts(b, "        }\n");
    for (int c = 0; c < q; c++)
        buf_printf(b, "        const %s h%d = pairsum_(s%d);\n", sp->vtype, c, c);
    if (!em_masked(sp)) em_sums_to_t(b, pl, q, "        ");   /* the element-wise update reads t */
    em_sums_update(b, pl, q);
}

void emit_pair(struct buf *fns, const struct plan *pl, const char *fname, const char *params)
{
    const struct spell *sp = &pl->t->sp[pl->k.elem];
    const char *ct = elem_ctype[pl->k.elem];
    int q = pair_cols(pl);
    buf_printf(fns, "\n%s\n/* %s: m <= %d rows, two k steps per vector (see the contract above).\n"
                    " * beta == 0 never reads C. */\n", sp->pairs, fname, pair_rows(pl));
    buf_printf(fns, "void %s(%s)\n{\n", fname, params);
    buf_puts(fns, "    if (m <= 0 || n <= 0) return;\n");
    buf_printf(fns, "    const %s va = *alpha, vb = *beta;\n", ct);
    buf_printf(fns, "    const int64_t kp = k - (k & 1), ldb_b = ldb * (int64_t)sizeof(%s);\n", ct);
    em_sums_vectors(fns, sp);
    buf_puts(fns, "    int64_t j = 0;\n");
    buf_printf(fns, "    for (; j + %d <= n; j += %d) {\n", q, q);
    block(fns, pl, q);
    buf_puts(fns, "    }\n");
    for (int w = 8; w >= 1; w /= 2) {   /* what is left, fewer than q: at most once each */
        if (w >= q) continue;
        buf_printf(fns, "    if (j + %d <= n) {\n", w);
        block(fns, pl, w);
        buf_printf(fns, "        j += %d;\n    }\n", w);
    }
    buf_puts(fns, "}\n");
}
