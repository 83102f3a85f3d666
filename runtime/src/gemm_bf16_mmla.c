/* gemm_bf16_mmla.c: gemm_bf16.c's loops for kernel sets packing quads of
 * k steps (BFMMLA: each 128 bits of A two rows of 4 k steps), which
 * b_gg_gemm hands their calls. */
#include <stdint.h>
#include "gg_internal.h"
#include "plan.h"
#define T float
#define TA uint16_t
#define TB uint16_t
#define KG 4
#define FN(x) bm_##x
#define GG_TYPE GG_BF16
#define EDGE_T struct gg_bedge
#define PEDGE_T struct gg_bpedge
#include "gemm_group_tmpl.h"
