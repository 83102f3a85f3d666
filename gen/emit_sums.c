/* emit_sums.c: C's columns from vectors of row sums, for the row-tail
 * kernels (emit_dot.c, emit_kgroup.c): column j + c's sums of rows 0..m-1
 * in lanes 0..m-1 of h<c>, C := alpha * h + beta * C.
 *
 * Names the kernels define: m, c, rs_c, cs_c, j, va, vb (scalars) and,
 * where the target masks lanes, km_ (rows 0..m-1), va_, vb_ (vectors). */
#include "emit_int.h"
#include <stdio.h>
#include <string.h>

/* The target masks lanes (AVX-512, SVE): vector k tail and C update. */
bool em_masked(const struct spell *sp)
{
    return sp->mask_decl && sp->mloadc && sp->mstore;
}

/* The sums h<q> stored to t[q][0..VL) for element-wise use. */
void em_sums_to_t(struct buf *b, const struct plan *pl, int q, const char *ind)
{
    const struct spell *sp = &pl->t->sp[pl->k.elem];
    buf_printf(b, "%s%s t[%d][%d];\n", ind, elem_ctype[pl->k.elem], q, pl->k.vl);
    for (int c = 0; c < q; c++) {
        char mem[16], h[8];
        strfmt(mem, sizeof mem, "t[%d]", c);
        strfmt(h, sizeof h, "h%d", c);
        const char *so[3] = { h, "", "" };
        em_line(b, ind, sp->store, "", so, mem, sp->vtype);
    }
}

/* C := alpha * t + beta * C element by element (t[q][i]: row i of column
 * j + q), beta == 0 not reading C. */
void em_sums_scalar(struct buf *b, const struct plan *pl, int q, const char *ind)
{
    const char *lines[] = {
        "if (vb == 0)",
        "    for (int q = 0; q < %d; q++)",
        "        for (int64_t i = 0; i < m; i++) c[i * rs_c + (j + q) * cs_c] = va * t[q][i];",
        "else",
        "    for (int q = 0; q < %d; q++)",
        "        for (int64_t i = 0; i < m; i++) {",
        "            %s *cij = c + i * rs_c + (j + q) * cs_c;",
        "            *cij = va * t[q][i] + vb * *cij;",
        "        }",
    };
    for (size_t l = 0; l < sizeof lines / sizeof *lines; l++) {
        buf_puts(b, ind);
        if (strstr(lines[l], "%d")) buf_printf(b, lines[l], q);
        else if (strstr(lines[l], "%s")) buf_printf(b, lines[l], elem_ctype[pl->k.elem]);
        else buf_puts(b, lines[l]);
        buf_puts(b, "\n");
    }
}

/* C's q columns from j on := alpha * h + beta * C (h<q>: the sums of
 * column j + q in lanes 0..3). Column-stored C on targets with masks: one
 * masked vector per column, straight from the register (stored and
 * reloaded under a mask, the sums stalled the load: docs/decisions.md);
 * else element by element through t. C is loaded for every
 * column before any is stored: with ldc below a vector (SGEMM 4x64), a
 * load overlapping an earlier masked store waits for it to retire. */
void em_sums_update(struct buf *b, const struct plan *pl, int q)
{
    const struct spell *sp = &pl->t->sp[pl->k.elem];
    if (!em_masked(sp)) {
        em_sums_scalar(b, pl, q, "        ");
        return;
    }
    for (int pass = 0; pass < 2; pass++) {
        buf_puts(b, pass ? "            } else {\n" : "        if (rs_c == 1) {\n            if (vb == 0) {\n");
        for (int c = 0; pass && c < q; c++) {   /* C's loads before any store */
            char cq[48], lhs[64];
            const char *lo[3] = { "", "km_", "" };
            strfmt(cq, sizeof cq, "c + (j + %d) * cs_c", c);
            strfmt(lhs, sizeof lhs, "const %s c%d_", sp->vtype, c);
            em_assign(b, "                ", lhs, sp->mloadc, lo, cq, sp->vtype);
        }
        for (int c = 0; c < q; c++) {
            char h[8], cq[48], cv[8];
            struct buf val = { 0 };
            strfmt(h, sizeof h, "h%d", c);
            strfmt(cq, sizeof cq, "c + (j + %d) * cs_c", c);
            strfmt(cv, sizeof cv, "c%d_", c);
            em_new_c(&val, sp, pass ? CP_AX_BC : CP_AX, h, cv);   /* vb == 0 / any */
            const char *so[3] = { val.s, "km_", "" };
            em_line(b, "                ", sp->mstore, "", so, cq, sp->vtype);
            buf_free(&val);
        }
    }
    buf_puts(b, "            }\n        } else {\n");
    em_sums_to_t(b, pl, q, "            ");
    em_sums_scalar(b, pl, q, "            ");
    buf_puts(b, "        }\n");
}

/* The vectors em_sums_update reads where the target masks (km_: lanes of
 * rows 0..m-1; va_, vb_: alpha and beta), nothing elsewhere. */
void em_sums_vectors(struct buf *b, const struct spell *sp)
{
    if (!em_masked(sp)) return;
    const char *mo[3] = { "0", "m", "" }, *o1[3] = { "va", "", "" }, *o2[3] = { "vb", "", "" };
    struct buf s1 = { 0 }, s2 = { 0 };
    buf_puts(b, "    ");
    em_expand(b, sp->mask_decl, "km_", mo, "", 0, sp->vtype);
    em_expand(&s1, sp->set1, "", o1, "", 0, sp->vtype);
    em_expand(&s2, sp->set1, "", o2, "", 0, sp->vtype);
    buf_printf(b, "\n    const %s va_ = %s, vb_ = %s;\n", sp->vtype, s1.s, s2.s);
    buf_free(&s1); buf_free(&s2);
}
