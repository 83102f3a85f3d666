/* micro.c: see micro.h. Uses the runtime's internal kernel table, which
 * is why gemmbench links the static libgemmgen. */
#include <stdlib.h>
#include "gg_internal.h"
#include "plan.h"
#include "measure.h"
#include "micro.h"

struct mk { const struct gg_ukernel *uk; char type; int kc; void *a, *b, *c; };

/* Each type's kernel table slot, bytes of a packed A or B element and of
 * C's, and flops per multiply-add (a complex one is four real FMAs). */
static const struct {
    char type; enum gg_type gt; size_t ab, c; double flops;
} types[] = {
    { 'd', GG_F64, 8, 8, 2 }, { 's', GG_F32, 4, 4, 2 }, { 'z', GG_C64, 16, 16, 8 },
    { 'c', GG_C32, 8, 8, 8 }, { 'b', GG_BF16, 2, 4, 2 }, { 'i', GG_U8S8, 1, 4, 2 },
};

static int type_index(char type)
{
    for (int i = 0; i < (int)(sizeof types / sizeof *types); i++)
        if (types[i].type == type) return i;
    return 0;
}

static void call(void *p)
{
    const struct mk *k = p;
    int mr = k->uk->mr, nr = k->uk->nr;
    /* C in the kernel's preferred order, as the five loops would pass it */
    int64_t rs = k->uk->row_pref ? nr : 1, cs = k->uk->row_pref ? 1 : mr;
    static const double one_d = 1;
    static const float one_s = 1;
    static const double _Complex one_z = 1;
    static const float _Complex one_c = 1;
    static const int32_t one_i = 1;
    switch (k->type) {
    case 'd': ((gg_dkernel *)k->uk->fn)(mr, nr, k->kc, &one_d, k->a, k->b, &one_d, k->c, rs, cs, k->a, k->b); break;
    case 'z': ((gg_zkernel *)k->uk->fn)(mr, nr, k->kc, &one_z, k->a, k->b, &one_z, k->c, rs, cs, k->a, k->b); break;
    case 'c': ((gg_ckernel *)k->uk->fn)(mr, nr, k->kc, &one_c, k->a, k->b, &one_c, k->c, rs, cs, k->a, k->b); break;
    case 'b': ((gg_bkernel *)k->uk->fn)(mr, nr, k->kc, &one_s, k->a, k->b, &one_s, k->c, rs, cs, k->a, k->b); break;
    case 'i': ((gg_ikernel *)k->uk->fn)(mr, nr, k->kc, &one_i, k->a, k->b, &one_i, k->c, rs, cs, k->a, k->b); break;
    default: ((gg_skernel *)k->uk->fn)(mr, nr, k->kc, &one_s, k->a, k->b, &one_s, k->c, rs, cs, k->a, k->b);
    }
}

static size_t ab_bytes(char type) { return types[type_index(type)].ab; }
static size_t c_bytes(char type) { return types[type_index(type)].c; }

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
    double g = gb_measure(call, &k, types[type_index(type)].flops * k.uk->mr * k.uk->nr * k.kc, 0.5);
    free(k.a); free(k.b); free(k.c);
    if (kc_out) *kc_out = k.kc;
    return g;
}

double gb_micro(char type, enum gb_kc_rule rule, int *kc_out)
{
    /* the kernel the current set runs for the type (the portable one where
     * it has none the CPU runs) */
    return gb_micro_kernel(gg_ctx_current(types[type_index(type)].gt)->uk, type, rule, kc_out);
}
