/* split_cplx.c: see split_cplx.h. The four real GEMMs read the parts in
 * place through strides (a part is every other real of the interleaved
 * operand), so each packs its parts apart as seed 001 does, and nothing
 * else is copied; each part is packed by two of the calls where seed 001
 * packs it once, so its method is timed a little slow:
 *   C_re += A_re B_re - A_im B_im,   C_im += A_re B_im + A_im B_re. */
#include <stdio.h>
#include "gemmgen.h"
#include "measure.h"
#include "split_cplx.h"

struct op { char type; int split; struct gb_mats x; };

#define FOUR_REAL(GEMM, T, x)                                                            \
    do {                                                                                 \
        const T *a = (x)->a, *b = (x)->b;                                                \
        T *c = (x)->c;                                                                   \
        int64_t m = (x)->m, n = (x)->n, k = (x)->k;                                      \
        /* X(i,j) part p at x[2*(i + j*ld) + p]: rows 2 apart, columns 2*ld */           \
        GEMM(m, n, k, 1, a, 2, 2 * m, b, 2, 2 * k, 1, c, 2, 2 * m);                      \
        GEMM(m, n, k, -1, a + 1, 2, 2 * m, b + 1, 2, 2 * k, 1, c, 2, 2 * m);             \
        GEMM(m, n, k, 1, a, 2, 2 * m, b + 1, 2, 2 * k, 1, c + 1, 2, 2 * m);              \
        GEMM(m, n, k, 1, a + 1, 2, 2 * m, b, 2, 2 * k, 1, c + 1, 2, 2 * m);              \
    } while (0)

static void call(void *p)
{
    struct op *o = p;
    static const double one_z[2] = { 1, 0 };
    static const float one_c[2] = { 1, 0 };
    int64_t m = o->x.m, n = o->x.n, k = o->x.k;
    if (o->split && o->type == 'z') FOUR_REAL(gemmgen_dgemm_strided, double, &o->x);
    else if (o->split) FOUR_REAL(gemmgen_sgemm_strided, float, &o->x);
    else if (o->type == 'z')
        gemmgen_zgemm(GEMMGEN_COL_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS, m, n, k, one_z,
                      o->x.a, m, o->x.b, k, one_z, o->x.c, m);
    else
        gemmgen_cgemm(GEMMGEN_COL_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS, m, n, k, one_c,
                      o->x.a, m, o->x.b, k, one_c, o->x.c, m);
}

static double time_one(char type, int split, int64_t s)
{
    struct op o = { type, split, { 0 } };
    if (gb_mats_alloc_type(&o.x, type, s, s, s)) return 0;
    double g = gb_measure(call, &o, gb_flops(type, s, s, s), 1.0);
    gb_mats_free(&o.x);
    return g;
}

void gb_ablation_complex(void)
{
    static const int64_t sizes[] = { 256, 1000, 2000 };
    printf("\n### complex: gemmgen's kernels against seed 001's method (four real GEMMs"
           " on the parts, packed apart by each call), 1 thread\n\n"
           "| type | m = n = k | complex kernels GFLOPS | four real GEMMs GFLOPS | ratio |\n"
           "|---|---|---|---|---|\n");
    for (const char *t = "zc"; *t; t++)
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
            double own = time_one(*t, 0, sizes[i]), split = time_one(*t, 1, sizes[i]);
            printf("| %s | %lld | %.1f | %.1f | %.2f |\n", *t == 'z' ? "ZGEMM" : "CGEMM",
                   (long long)sizes[i], own, split, split > 0 ? own / split : 0);
            fflush(stdout);
        }
}
