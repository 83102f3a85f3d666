/* gemm_d.c: the double-precision instance of the five loops. */
#include <stdint.h>
#include "gg_internal.h"
#include "plan.h"
#define T double
#define ESIZE 8
#define IT int64_t
#define FN(x) d_##x
#define GG_TYPE GG_F64
#define EDGE_T struct gg_dedge
#define PEDGE_T struct gg_dpedge
#include "pack_tmpl.h"
#include "op_tmpl.h"
#include "edge_tmpl.h"
#include "direct_tmpl.h"
#include "tiny_tmpl.h"
#include "gemv_tmpl.h"
#include "dots_tmpl.h"
#include "small_tmpl.h"
#include "gemm_tmpl.h"
void gg_dgemm(int64_t m, int64_t n, int64_t k, double alpha,
              const double *a, int64_t rs_a, int64_t cs_a,
              const double *b, int64_t rs_b, int64_t cs_b,
              double beta, double *c, int64_t rs_c, int64_t cs_c)
{
    d_gg_gemm(m, n, k, alpha, a, rs_a, cs_a, b, rs_b, cs_b, beta, c, rs_c, cs_c);
}
