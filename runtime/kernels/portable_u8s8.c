/* portable_u8s8.c: the portable 8-bit kernel of u8s8s32 (int8 A, uint8 B,
 * as gemmgen --type s8u8s32; see gemm_u8s8.c): exact products,
 * sums and alpha/beta in wrapping 32-bit arithmetic (unsigned, so that
 * the wrap is defined). */
#include "../src/gg_internal.h"

#define PK_NAME gg_portable_u8s8
#define PK_TA int8_t
#define PK_TB uint8_t
#define PK_TC int32_t
#define PK_ACC uint32_t
#define PK_G 4
#define PK_MR GG_PORTABLE_U8S8_MR
#define PK_NR GG_PORTABLE_U8S8_NR
#define PK_MUL(x, y) ((uint32_t)((int32_t)(x) * (int32_t)(y)))
#define PK_OUT(s, cij) (int32_t)((uint32_t)*alpha * (s)                                    \
                                 + (*beta == 0 ? 0u : (uint32_t)*beta * (uint32_t)*(cij)))
#include "portable_group_tmpl.h"
