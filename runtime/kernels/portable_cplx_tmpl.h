/* portable_cplx_tmpl.h: the plain-C complex micro-kernel (PK_T the complex
 * type, PK_R its real type, PK_NAME, PK_MR, PK_NR from the including file),
 * the fallback where a kernel set has no generated complex kernel. Sums in
 * real and imaginary parts apart: C's complex multiply would call the
 * library for the NaN cases of Annex G. */
#include "../src/gg_cmplx.h"

void PK_NAME(int64_t m, int64_t n, int64_t k, const PK_T *alpha, const PK_T *a, const PK_T *b,
             const PK_T *beta, PK_T *c, int64_t rs_c, int64_t cs_c, const PK_T *a_next,
             const PK_T *b_next)
{
    (void)a_next; (void)b_next;
    PK_R re[PK_NR][PK_MR] = {{0}}, im[PK_NR][PK_MR] = {{0}};
    for (int64_t p = 0; p < k; p++, a += PK_MR, b += PK_NR)
        for (int j = 0; j < PK_NR; j++) {
            const PK_R br = creal(b[j]), bi = cimag(b[j]);
            for (int i = 0; i < PK_MR; i++) {
                const PK_R ar = creal(a[i]), ai = cimag(a[i]);
                re[j][i] += ar * br - ai * bi;
                im[j][i] += ar * bi + ai * br;
            }
        }
    const PK_R alr = creal(*alpha), ali = cimag(*alpha);
    const PK_R ber = creal(*beta), bei = cimag(*beta);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            PK_T *cij = c + i * rs_c + j * cs_c;
            PK_R r = alr * re[j][i] - ali * im[j][i], s = alr * im[j][i] + ali * re[j][i];
            if (ber != 0 || bei != 0) {
                const PK_R cr = creal(*cij), ci = cimag(*cij);
                r += ber * cr - bei * ci;
                s += ber * ci + bei * cr;
            }
            *cij = PK_CMPLX(r, s);
        }
}
