/* gemm_u8s8_amx.c: gemm_u8s8.c's loops for AMX kernel sets (TDPBUSD): k
 * padded to tile rows of 64 steps, B (the uint8 operand, the tiles' rows)
 * packed 64 k steps together, A (int8, VNNI quads) in fours. */
#include <stdint.h>
#include "gg_internal.h"
#include "plan.h"
#define T int32_t
#define TA int8_t
#define TB uint8_t
#define KG 64
#define KG_A 4
#define FN(x) ia_##x
#define GG_TYPE GG_U8S8
#define EDGE_T struct gg_iedge
#define PEDGE_T struct gg_ipedge
#include "gemm_group_tmpl.h"
