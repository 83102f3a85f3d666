/* gemm_bf16_amx.c: gemm_bf16.c's loops for AMX kernel sets (TDPBF16PS): k
 * padded to tile rows of 32 steps, B (the tiles' rows) packed 32 k steps
 * together, A (VNNI pairs) in twos. */
#include <stdint.h>
#include "gg_internal.h"
#include "plan.h"
#define T float
#define TA uint16_t
#define TB uint16_t
#define KG 32
#define KG_A 2
#define FN(x) ba_##x
#define GG_TYPE GG_BF16
#define EDGE_T struct gg_bedge
#define PEDGE_T struct gg_bpedge
#include "gemm_group_tmpl.h"
