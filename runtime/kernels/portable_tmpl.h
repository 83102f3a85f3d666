/* portable_tmpl.h: the body of the portable micro-kernel, in plain C, for
 * one element type. portable_f64.c / portable_f32.c define PK_T, PK_NAME,
 * PK_MR, PK_NR and include it. It follows the gemmgen kernel ABI exactly
 * (runtime/README.md), so the runtime cannot tell it from a generated one;
 * it is the fallback on CPUs none of the generated kernels support. */
#include <stdint.h>

void PK_NAME(int64_t m, int64_t n, int64_t k, const PK_T *alpha,
             const PK_T *a, const PK_T *b, const PK_T *beta, PK_T *c,
             int64_t rs_c, int64_t cs_c, const PK_T *a_next, const PK_T *b_next)
{
    (void)a_next; (void)b_next;
    /* The full MR x NR tile is computed (the packed panels are zero padded)
     * so the inner loops have constant trip counts and vectorize. */
    PK_T acc[PK_NR][PK_MR] = {{0}};
    for (int64_t p = 0; p < k; p++) {
        const PK_T *ap = a + p * PK_MR, *bp = b + p * PK_NR;
        for (int j = 0; j < PK_NR; j++)
            for (int i = 0; i < PK_MR; i++)
                acc[j][i] += ap[i] * bp[j];
    }
    /* Only the m x n corner is stored; beta == 0 must not read C. */
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            PK_T *cij = c + i * rs_c + j * cs_c;
            PK_T v = *alpha * acc[j][i];
            *cij = (*beta == 0) ? v : v + *beta * *cij;
        }
}
