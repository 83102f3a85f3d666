/* gemm_u8s8_mmla.c: gemm_u8s8.c's loops for kernel sets packing eights of
 * k steps (USMMLA: each 128 bits of A two rows of 8 k steps), which
 * i_gg_gemm hands their calls. */
#include <stdint.h>
#include "gg_internal.h"
#include "plan.h"
#define T int32_t
#define TA int8_t
#define TB uint8_t
#define KG 8
#define FN(x) im_##x
#define GG_TYPE GG_U8S8
#define EDGE_T struct gg_iedge
#define PEDGE_T struct gg_ipedge
#include "gemm_group_tmpl.h"
