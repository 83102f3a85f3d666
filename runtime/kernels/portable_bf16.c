/* portable_bf16.c: the portable bf16 x bf16 -> f32 kernel (sbgemm). */
#include <string.h>
#include "../src/gg_internal.h"

/* bfloat16 is the high half of a float */
static inline float bf16_value(uint16_t x)
{
    uint32_t u = (uint32_t)x << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

#define PK_NAME gg_portable_bf16
#define PK_TA uint16_t
#define PK_TB uint16_t
#define PK_TC float
#define PK_ACC float
#define PK_G 2
#define PK_MR GG_PORTABLE_BF16_MR
#define PK_NR GG_PORTABLE_BF16_NR
#define PK_MUL(x, y) (bf16_value(x) * bf16_value(y))
#define PK_OUT(s, cij) (*beta == 0 ? *alpha * (s) : *alpha * (s) + *beta * *(cij))
#include "portable_group_tmpl.h"
