/* micro.c: see micro.h. Uses the runtime's internal kernel table, which
 * is why gemmbench links the static libgemmgen. */
#include <stdlib.h>
#include "gg_internal.h"
#include "plan.h"
#include "measure.h"
#include "micro.h"

struct mk { const struct gg_ukernel *uk; char type; int kc; void *a, *b, *c; };

static void call(void *p)
{
    const struct mk *k = p;
    int mr = k->uk->mr, nr = k->uk->nr;
    /* C in the kernel's preferred order, as the five loops would pass it */
    int64_t rs = k->uk->row_pref ? nr : 1, cs = k->uk->row_pref ? 1 : mr;
    static const double one_d = 1;
    static const float one_s = 1;
    static const int32_t one_i = 1;
    if (k->type == 'd')
        ((gg_dkernel *)k->uk->fn)(mr, nr, k->kc, &one_d, k->a, k->b, &one_d, k->c, rs, cs, k->a, k->b);
    else if (k->type == 'b')
        ((gg_bkernel *)k->uk->fn)(mr, nr, k->kc, &one_s, k->a, k->b, &one_s, k->c, rs, cs, k->a, k->b);
    else if (k->type == 'i')
        ((gg_ikernel *)k->uk->fn)(mr, nr, k->kc, &one_i, k->a, k->b, &one_i, k->c, rs, cs, k->a, k->b);
    else
        ((gg_skernel *)k->uk->fn)(mr, nr, k->kc, &one_s, k->a, k->b, &one_s, k->c, rs, cs, k->a, k->b);
}

/* Bytes of an element of the packed A and B (bf16 2, u8s8s32 1), and of C. */
static size_t ab_bytes(char type) { return type == 'd' ? 8 : type == 'b' ? 2 : type == 'i' ? 1 : 4; }
static size_t c_bytes(char type) { return type == 'd' ? 8 : 4; }

static void *zeros(size_t bytes)
{
    void *p = aligned_alloc(64, (bytes + 63) / 64 * 64);
    for (size_t i = 0; p && i < bytes; i++) ((char *)p)[i] = 0;
    return p;
}

/* A multiple of 8 deep: whole k groups of every type. */
static long depth(const struct gg_ukernel *uk, char type, enum gb_kc_rule rule)
{
    struct gg_caches c;
    gg_caches_detect(&c);
    long panels = (long)((uk->mr + uk->nr) * ab_bytes(type)), l1 = c.l1d.size;
    if (rule == GB_KC_HALF_L1)
        return l1 / 2 / panels / 8 * 8;
    return (l1 - (long)(uk->mr * uk->nr * c_bytes(type))) / panels / 8 * 8;
}

double gb_micro_kernel(const struct gg_ukernel *uk, char type, enum gb_kc_rule rule, int *kc_out)
{
    struct mk k = { uk, type, 0, NULL, NULL, NULL };
    const size_t s = ab_bytes(type);
    long kc = depth(uk, type, rule);
    k.kc = (int)(kc < 16 ? 16 : kc);
    k.a = zeros(s * k.uk->mr * k.kc);
    k.b = zeros(s * k.uk->nr * k.kc);
    k.c = zeros(c_bytes(type) * k.uk->mr * k.uk->nr);
    double g = gb_measure(call, &k, 2.0 * k.uk->mr * k.uk->nr * k.kc, 0.5);
    free(k.a); free(k.b); free(k.c);
    if (kc_out) *kc_out = k.kc;
    return g;
}

double gb_micro(char type, enum gb_kc_rule rule, int *kc_out)
{
    /* the kernel the current set runs for the type (bf16 and u8s8s32: the
     * portable one where it has none the CPU runs) */
    const enum gg_type t = type == 'd' ? GG_F64 : type == 'b' ? GG_BF16 : type == 'i' ? GG_U8S8
                         : GG_F32;
    return gb_micro_kernel(gg_ctx_current(t)->uk, type, rule, kc_out);
}
