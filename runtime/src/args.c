/* args.c: see args.h. */
#include "args.h"

static int64_t max1(int64_t x) { return x > 1 ? x : 1; }

int gg_trans_enum(int t)
{
    return t == 111 ? 0 : (t == 112 || t == 113) ? 1 : -1;
}

int gg_trans_char(char t)
{
    switch (t) {
    case 'N': case 'n': return 0;
    case 'T': case 't': case 'C': case 'c': return 1;
    default: return -1;
    }
}

int gg_conj_enum(int t) { return t == 113; }

int gg_conj_char(char t) { return t == 'C' || t == 'c'; }

int gg_check(int layout, int ta, int tb, int64_t m, int64_t n, int64_t k,
             int64_t lda, int64_t ldb, int64_t ldc)
{
    if (layout != GG_COL && layout != GG_ROW) return 1;
    if (ta != 0 && ta != 1) return 2;
    if (tb != 0 && tb != 1) return 3;
    if (m < 0) return 4;
    if (n < 0) return 5;
    if (k < 0) return 6;
    /* Rows of the stored arrays: column major stores op(A) = A as m x k;
     * row major stores the transpose of what column major would. */
    int col = layout == GG_COL;
    int64_t lead_a = (ta == !col) ? m : k;   /* col&&!ta: m; row&&ta: m */
    int64_t lead_b = (tb == !col) ? k : n;   /* col&&!tb: k; row&&tb: k */
    if (lda < max1(lead_a)) return 9;
    if (ldb < max1(lead_b)) return 11;
    if (ldc < max1(col ? m : n)) return 14;
    return 0;
}

struct gg_strides gg_strides_of(int layout, int ta, int tb, int64_t lda,
                                int64_t ldb, int64_t ldc)
{
    struct gg_strides s;
    /* column major, no transpose: X(i,j) = x[i + j*ld]; each transpose and
     * row major swap the two strides, and both together cancel */
    int flip_a = (layout == GG_ROW) ^ ta, flip_b = (layout == GG_ROW) ^ tb;
    s.rs_a = flip_a ? lda : 1; s.cs_a = flip_a ? 1 : lda;
    s.rs_b = flip_b ? ldb : 1; s.cs_b = flip_b ? 1 : ldb;
    s.rs_c = layout == GG_ROW ? ldc : 1; s.cs_c = layout == GG_ROW ? 1 : ldc;
    return s;
}

int gg_prepare(int layout, int ta, int tb, int64_t m, int64_t n, int64_t k, int64_t lda,
               int64_t ldb, int64_t ldc, struct gg_strides *s)
{
    int bad = gg_check(layout, ta, tb, m, n, k, lda, ldb, ldc);
    if (!bad) *s = gg_strides_of(layout, ta, tb, lda, ldb, ldc);
    return bad;
}
