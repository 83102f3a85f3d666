/* gemm_u8s8.c: the u8 x s8 -> s32 instance of the kernels' loops: A
 * unsigned and B signed bytes packed in groups of four k steps, C, alpha
 * and beta int32 (wrapping). A stays the u8 operand: the limits never swap
 * A and B. Packed kernels only, as gemm_bf16.c. */
#include <stdint.h>
#include "gg_internal.h"
#include "plan.h"
#define T int32_t
#define TA uint8_t
#define TB int8_t
#define KG 4
#define FN(x) i_##x
#define GG_TYPE GG_U8S8
#define GG_UNPACKED 0
#define GG_OWN_LOOPS 0
#define EDGE_T struct gg_iedge
#define PEDGE_T struct gg_ipedge
#define GT uint8_t
#define GP(x) i_a_##x
#define GPANELS i_panels_a
#include "pack_group_tmpl.h"
#define GT int8_t
#define GP(x) i_b_##x
#define GPANELS i_panels_b
#include "pack_group_tmpl.h"
#include "op_tmpl.h"
#include "panels_tmpl.h"
#include "gemm_tmpl.h"
