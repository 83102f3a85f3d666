/* cross_check: libgemmgen built for another instruction set, run under
 * qemu-user by tests/runtime_cross.sh (no cmocka there: plain exit status).
 *
 *   cross_check SET [CASES]
 *
 * The runtime must have picked kernel set SET (the machine's, not the
 * portable one: its CPU detection works there), and CASES random cases of
 * each type (gemm_case.h: shapes around the kernel's units, both layouts,
 * all transposes, padded leading dimensions, alpha and beta including 0,
 * NaN in C with beta = 0) must match ref_gemm, C's padding untouched and
 * nothing read past A or B. The unpacked and packed paths are chosen by
 * GEMMGEN_DIRECT, which the script sets. ZGEMM and CGEMM run the set's
 * complex kernels on every pair of N, T and C (cplx_case.h); u8s8s32 and
 * bf16 (lowp_case.h) the set's rank-G kernels where it has them, else the
 * portable ones, with odd sizes, transposes, offsets and scalars. */
#define _DEFAULT_SOURCE             /* MAP_ANONYMOUS */
#include "gemm_case.h"
#include "cplx_case.h"
#include "lowp_case.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: cross_check SET [CASES]\n");
        return 2;
    }
    const char *set = gemmgen_kernel_current();
    printf("kernel set: %s (want %s)\n", set, argv[1]);
    if (strcmp(set, argv[1]) != 0)
        return 1;
    long cases = argc > 2 ? atol(argv[2]) : 20, failed = 0;
    case_rng = 0x9e3779b97f4a7c15ull;
    for (long i = 0; i < 2 * cases; i++) {
        struct gcase g = random_case(i % 2 ? 's' : 'd');
        failed += run_case(&g) != 0;
    }
    /* shapes the size-chosen loops take (tiny_tmpl.h, gemv_tmpl.h,
     * small_tmpl.h) when GEMMGEN_DIRECT is unset; the kernels otherwise;
     * A^T times 3 and 4 columns: C^T = B^T A^T on the row tails (as_rows
     * in gemm_tmpl.h) where the set has them */
    static const int64_t fixed[][3] = { {2, 3, 5}, {3, 7, 7}, {67, 1, 45}, {45, 1, 67}, {1, 67, 45},
                                        {6, 9, 11}, {21, 7, 19}, {13, 23, 5}, {37, 3, 41},
                                        {70, 4, 90} };
    enum { NFIXED = sizeof fixed / sizeof fixed[0] };
    long total = 2 * cases;
    for (int f = 0; f < NFIXED; f++)
        for (int t = 0; t < 8; t++, total++) {
            struct gcase g = { t & 4 ? 's' : 'd', GEMMGEN_COL_MAJOR,
                               t & 1 ? GEMMGEN_TRANS : GEMMGEN_NO_TRANS,
                               t & 2 ? GEMMGEN_TRANS : GEMMGEN_NO_TRANS,
                               fixed[f][0], fixed[f][1], fixed[f][2], t & 1, -1.5,
                               t & 1 ? 0 : 0.5,
                               t & 1 };
            failed += run_case(&g) != 0;
        }
    static const int64_t zshape[][3] = { {1, 1, 1}, {7, 5, 3}, {17, 19, 23}, {33, 9, 41} };
    for (int f = 0; f < 4; f++)
        for (int t = 0; t < 18; t++, total++)
            failed += cplx_case(t >= 9, t % 3, t / 3 % 3, zshape[f][0], zshape[f][1], zshape[f][2],
                                CMPLX(0.75, -1.25), t % 2 ? CMPLX(0.5, 0.25) : 0);
    static const int64_t lshape[][3] = { {1, 1, 1}, {7, 5, 3}, {33, 17, 67}, {70, 45, 129} };
    printf("u8s8s32 on %s, bf16 on %s\n", gemmgen_kernel_current_for('i'),
           gemmgen_kernel_current_for('b'));
    for (int f = 0; f < 4; f++)
        for (int t = 0; t < 4; t++, total += 2) {
            struct icase ic = { "NT"[t & 1], "NT"[t >> 1], "FCR"[(f + t) % 3], lshape[f][0],
                                lshape[f][1], lshape[f][2], t == 3 ? 0.5f : 1, (float)(t % 2),
                                t == 2 ? 3 : 0, t == 2 ? -7 : 0, 0 };
            struct bcase bc = { t & 1, t >> 1 & 1, f % 2, f % 2, lshape[f][0], lshape[f][1],
                                lshape[f][2], -1.5f, t % 2 ? 0.5f : 0 };
            failed += (run_i(&ic) != 0) + (run_b(&bc) != 0);
        }
    printf("%ld of %ld cases failed\n", failed, total);
    return failed != 0;
}
