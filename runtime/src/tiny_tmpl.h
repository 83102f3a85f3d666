/* tiny_tmpl.h: GEMM of a few multiply-adds in plain loops, without the
 * kernel set, blocking or buffers (T and FN(x) from the including file).
 * Each C(i,j) is one dot product along k, then alpha*sum + beta*C as the
 * kernels do; beta = 0 does not read C. */

/* One element of C from its sum s: beta = 0 does not read it. */
static inline void FN(put)(T *c, T alpha, T s, T beta)
{
    *c = beta == 0 ? alpha * s : alpha * s + beta * *c;
}

/* Rows i..i+R-1 of column j: R independent sums (one dot product after
 * another waits on the add latency). R is a constant where inlined. */
static inline __attribute__((always_inline)) void FN(tiny_rows)(
        const int R, int64_t k, T alpha, const T *a, int64_t rs_a, int64_t cs_a,
        const T *bj, int64_t rs_b, T beta, T *c, int64_t rs_c)
{
    T s[4] = { 0, 0, 0, 0 };
    for (int64_t p = 0; p < k; p++) {
        T bp = bj[p * rs_b];
        for (int r = 0; r < R; r++) s[r] += a[r * rs_a + p * cs_a] * bp;
    }
    for (int r = 0; r < R; r++) FN(put)(c + r * rs_c, alpha, s[r], beta);
}

static void FN(tiny)(int64_t m, int64_t n, int64_t k, T alpha,
                     const T *a, int64_t rs_a, int64_t cs_a,
                     const T *b, int64_t rs_b, int64_t cs_b,
                     T beta, T *c, int64_t rs_c, int64_t cs_c)
{
    if (m < 4 && n > m) {       /* C^T = B^T A^T: blocks of four along n */
        FN(tiny)(n, m, k, alpha, b, cs_b, rs_b, a, cs_a, rs_a, beta, c, cs_c, rs_c);
        return;
    }
    for (int64_t j = 0; j < n; j++) {
        const T *bj = b + j * cs_b;
        T *cj = c + j * cs_c;
        int64_t i = 0;
        for (; i + 4 <= m; i += 4)
            FN(tiny_rows)(4, k, alpha, a + i * rs_a, rs_a, cs_a, bj, rs_b, beta, cj + i * rs_c, rs_c);
        if (i + 2 <= m) {
            FN(tiny_rows)(2, k, alpha, a + i * rs_a, rs_a, cs_a, bj, rs_b, beta, cj + i * rs_c, rs_c);
            i += 2;
        }
        if (i < m)
            FN(tiny_rows)(1, k, alpha, a + i * rs_a, rs_a, cs_a, bj, rs_b, beta, cj + i * rs_c, rs_c);
    }
}
