/* gemm_u8s8.c: the instance of the kernels' loops under oneDNN's u8s8s32
 * API (u8s8s32.c), which is row major: C^T = B^T A^T, so the kernels'
 * A is the int8 operand and B the uint8 one (gemmgen --type s8u8s32),
 * packed in groups of four k steps; C, alpha and beta int32 (wrapping).
 * The limits never swap A and B, whose types differ. Kernel sets packing
 * eights (MMLA) run gemm_u8s8_mmla.c's, AMX tiles gemm_u8s8_amx.c's. */
#include <stdint.h>
#include "gg_internal.h"
#include "plan.h"
#define T int32_t
#define TA int8_t
#define TB uint8_t
#define KG 4
#define FN(x) i_##x
#define GG_TYPE GG_U8S8
#define EDGE_T struct gg_iedge
#define PEDGE_T struct gg_ipedge
#define GG_OTHER_GEMMS { 8, 0, im_gg_gemm }, { 64, 4, ia_gg_gemm }
#include "gemm_group_tmpl.h"
