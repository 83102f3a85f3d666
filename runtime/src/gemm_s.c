/* gemm_s.c: the single-precision instance of the five loops. */
#include <stdint.h>
#include "gg_internal.h"
#include "plan.h"
#define T float
#define ESIZE 4
#define IT int32_t
#define FN(x) s_##x
#define GG_TYPE GG_F32
#define EDGE_T struct gg_sedge
#define PEDGE_T struct gg_spedge
#include "pack_tmpl.h"
#include "op_tmpl.h"
#include "edge_tmpl.h"
#include "direct_tmpl.h"
#include "tiny_tmpl.h"
#include "gemv_tmpl.h"
#include "dots_tmpl.h"
#include "small_tmpl.h"
#include "gemm_tmpl.h"
void gg_sgemm(int64_t m, int64_t n, int64_t k, float alpha,
              const float *a, int64_t rs_a, int64_t cs_a,
              const float *b, int64_t rs_b, int64_t cs_b,
              float beta, float *c, int64_t rs_c, int64_t cs_c)
{
    s_gg_gemm(m, n, k, alpha, a, rs_a, cs_a, b, rs_b, cs_b, beta, c, rs_c, cs_c);
}
