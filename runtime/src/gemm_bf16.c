/* gemm_bf16.c: the bf16 x bf16 -> f32 instance of the kernels' loops
 * (sbgemm): A and B bfloat16 bits packed in pairs of k steps, C, alpha and
 * beta float. Kernel sets packing quads (MMLA) run gemm_bf16_mmla.c's, AMX
 * tiles gemm_bf16_amx.c's. */
#include <stdint.h>
#include "gg_internal.h"
#include "plan.h"
#define T float
#define TA uint16_t
#define TB uint16_t
#define KG 2
#define FN(x) b_##x
#define GG_TYPE GG_BF16
#define EDGE_T struct gg_bedge
#define PEDGE_T struct gg_bpedge
#define GG_OTHER_GEMMS { 4, 0, bm_gg_gemm }, { 32, 2, ba_gg_gemm }
#include "gemm_group_tmpl.h"
