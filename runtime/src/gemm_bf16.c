/* gemm_bf16.c: the bf16 x bf16 -> f32 instance of the kernels' loops
 * (sbgemm): A and B bfloat16 bits packed in pairs of k steps, C, alpha and
 * beta float. Packed kernels only: no loops of the runtime's own, no
 * unpacked path (its limits turn them off). */
#include <stdint.h>
#include "gg_internal.h"
#include "plan.h"
#define T float
#define TA uint16_t
#define TB uint16_t
#define KG 2
#define FN(x) b_##x
#define GG_TYPE GG_BF16
#define GG_UNPACKED 0
#define GG_OWN_LOOPS 0
#define EDGE_T struct gg_bedge
#define PEDGE_T struct gg_bpedge
#define GT uint16_t
#define GP(x) b_a_##x
#define GPANELS b_panels_a
#include "pack_group_tmpl.h"
#define GT uint16_t
#define GP(x) b_b_##x
#define GPANELS b_panels_b
#include "pack_group_tmpl.h"
#include "op_tmpl.h"
#include "panels_tmpl.h"
#include "gemm_tmpl.h"
