/* portable_group_tmpl.h: the plain-C kernel on the k-grouped panels of the
 * reduced-precision types (gg_internal.h), the fallback where a set has no
 * generated kernel for the type or the CPU lacks its instructions. The
 * including file defines PK_NAME, PK_TA, PK_TB, PK_TC (C, alpha, beta),
 * PK_ACC (the sums), PK_G, PK_MR, PK_NR, PK_MUL(a, b) (one product as
 * PK_ACC) and PK_OUT(acc, cij) (the new C element: alpha acc + beta C,
 * C not read when beta is 0). */
#include <stdint.h>

void PK_NAME(int64_t m, int64_t n, int64_t k, const PK_TC *alpha, const PK_TA *a,
             const PK_TB *b, const PK_TC *beta, PK_TC *c, int64_t rs_c, int64_t cs_c,
             const PK_TA *a_next, const PK_TB *b_next)
{
    (void)a_next; (void)b_next;
    PK_ACC acc[PK_MR][PK_NR] = {{0}};
    for (int64_t p = 0; p < k; p += PK_G, a += PK_MR * PK_G, b += PK_NR * PK_G)
        for (int i = 0; i < PK_MR; i++)
            for (int j = 0; j < PK_NR; j++)
                for (int q = 0; q < PK_G; q++)
                    acc[i][j] += PK_MUL(a[i * PK_G + q], b[j * PK_G + q]);
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            PK_TC *cij = c + i * rs_c + j * cs_c;
            *cij = PK_OUT(acc[i][j], cij);
        }
}
