/* micro.c: see micro.h. Uses the runtime's internal kernel table, which
 * is why gemmbench links the static libgemmgen. */
#include <stdlib.h>
#include "gg_internal.h"
#include "measure.h"
#include "micro.h"

struct mk { const struct gg_ukernel *uk; char type; int kc; void *a, *b, *c; };

static void call(void *p)
{
    const struct mk *k = p;
    int mr = k->uk->mr, nr = k->uk->nr;
    /* C in the kernel's preferred order, as the five loops would pass it */
    int64_t rs = k->uk->row_pref ? nr : 1, cs = k->uk->row_pref ? 1 : mr;
    if (k->type == 'd') {
        static const double one = 1;
        ((gg_dkernel *)k->uk->fn)(mr, nr, k->kc, &one, k->a, k->b, &one, k->c, rs, cs, k->a, k->b);
    } else {
        static const float one = 1;
        ((gg_skernel *)k->uk->fn)(mr, nr, k->kc, &one, k->a, k->b, &one, k->c, rs, cs, k->a, k->b);
    }
}

static void *zeros(size_t bytes)
{
    void *p = aligned_alloc(64, (bytes + 63) / 64 * 64);
    for (size_t i = 0; p && i < bytes; i++) ((char *)p)[i] = 0;
    return p;
}

static long depth(const struct gg_ukernel *uk, size_t s, enum gb_kc_rule rule)
{
    struct gg_caches c;
    gg_caches_detect(&c);
    long panels = (long)((uk->mr + uk->nr) * s), l1 = c.l1d.size;
    if (rule == GB_KC_HALF_L1)
        return l1 / 2 / panels / 8 * 8;
    return (l1 - (long)(uk->mr * uk->nr * s)) / panels / 8 * 8;
}

double gb_micro_kernel(const struct gg_ukernel *uk, char type, enum gb_kc_rule rule, int *kc_out)
{
    struct mk k = { uk, type, 0, NULL, NULL, NULL };
    size_t s = type == 'd' ? 8 : 4;
    long kc = depth(uk, s, rule);
    k.kc = (int)(kc < 16 ? 16 : kc);
    k.a = zeros(s * k.uk->mr * k.kc);
    k.b = zeros(s * k.uk->nr * k.kc);
    k.c = zeros(s * k.uk->mr * k.uk->nr);
    double g = gb_measure(call, &k, 2.0 * k.uk->mr * k.uk->nr * k.kc, 0.5);
    free(k.a); free(k.b); free(k.c);
    if (kc_out) *kc_out = k.kc;
    return g;
}

double gb_micro(char type, enum gb_kc_rule rule, int *kc_out)
{
    const struct gg_kernel_set *set = gg_set_current();
    return gb_micro_kernel(type == 'd' ? &set->d : &set->s, type, rule, kc_out);
}
