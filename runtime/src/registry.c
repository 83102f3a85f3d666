/* registry.c: the kernel sets built into this library and which one runs.
 * Like a BLIS configuration registry: adding a machine adds a set (a
 * generated gg_<machine>_set.c), never code here. The choice is made once:
 * GEMMGEN_KERNEL=name if the CPU supports it, else the supported set of
 * highest rank (the portable set always qualifies). */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gg_internal.h"
#include "gg_sets.h"
#include "plan.h"

#define DECLARE(sym) extern const struct gg_kernel_set sym;
GG_GENERATED_SETS(DECLARE)

static const struct gg_dedge portable_edges_d[] = {
    { GG_PORTABLE_F64_MR, GG_PORTABLE_F64_NH, gg_portable_f64_en },
    { GG_PORTABLE_F64_MH, GG_PORTABLE_F64_NR, gg_portable_f64_em },
    { GG_PORTABLE_F64_MH, GG_PORTABLE_F64_NH, gg_portable_f64_emn },
};
static const struct gg_sedge portable_edges_s[] = {
    { GG_PORTABLE_F32_MR, GG_PORTABLE_F32_NH, gg_portable_f32_en },
    { GG_PORTABLE_F32_MH, GG_PORTABLE_F32_NR, gg_portable_f32_em },
    { GG_PORTABLE_F32_MH, GG_PORTABLE_F32_NH, gg_portable_f32_emn },
};
#define COUNT(x) (int)(sizeof x / sizeof *x)
/* B read as rows by its direct kernels (direct_b_cols 0), unlike the x86
 * generated sets: so the runtime's row-layout paths run on this host too */
#define PORTABLE_PACKED(NAME, MR, NR) { .mr = MR, .nr = NR, .fn = (void *)NAME }
static const struct gg_kernel_set portable_set = {
    .name = "portable", .features = 0, .rank = 0, .caches_known = 0,
    .d = { .mr = GG_PORTABLE_F64_MR, .nr = GG_PORTABLE_F64_NR, .fn = (void *)gg_portable_f64,
           .direct = (void *)gg_portable_f64_direct, .edges = portable_edges_d,
           .nedges = COUNT(portable_edges_d) },
    .s = { .mr = GG_PORTABLE_F32_MR, .nr = GG_PORTABLE_F32_NR, .fn = (void *)gg_portable_f32,
           .direct = (void *)gg_portable_f32_direct, .edges = portable_edges_s,
           .nedges = COUNT(portable_edges_s) },
    .z = PORTABLE_PACKED(gg_portable_c64, GG_PORTABLE_C64_MR, GG_PORTABLE_C64_NR),
    .c = PORTABLE_PACKED(gg_portable_c32, GG_PORTABLE_C32_MR, GG_PORTABLE_C32_NR),
    .bf16 = PORTABLE_PACKED(gg_portable_bf16, GG_PORTABLE_BF16_MR, GG_PORTABLE_BF16_NR),
    .u8s8 = PORTABLE_PACKED(gg_portable_u8s8, GG_PORTABLE_U8S8_MR, GG_PORTABLE_U8S8_NR),
};
static const struct gg_ukernel no_kernel;    /* an empty slot: no small tile */

#define ADDRESS(sym) &sym,
static const struct gg_kernel_set *const sets[] = {
    GG_GENERATED_SETS(ADDRESS)
    &portable_set,
};
enum { NSETS = sizeof sets / sizeof sets[0] };

static struct gg_blocking blk[NSETS][GG_NTYPES], blk_small[NSETS][GG_NTYPES];
static struct gg_ctx ctx[NSETS][GG_NTYPES];   /* what the plans of each set read */
static int current;                 /* index into sets[] */
static const struct gg_ctx *ctx_published;     /* ctx[current], after init */
static pthread_once_t once = PTHREAD_ONCE_INIT;

int gg_set_count(void) { return NSETS; }

const struct gg_kernel_set *gg_set_get(int i)
{
    return i >= 0 && i < NSETS ? sets[i] : NULL;
}

static int supported(const struct gg_kernel_set *s)
{
    return (s->features & ~gg_cpu_features()) == 0;
}

/* Where each type's kernels sit in a set: the main kernel, the small tile
 * and the CPU features the type needs beyond the set's (-1: none). */
struct slot { ptrdiff_t main, small, features; };
#define AT(field) offsetof(struct gg_kernel_set, field)
static const struct slot slot_of[GG_NTYPES] = {
    [GG_F64] = { AT(d), AT(d_small), -1 },
    [GG_F32] = { AT(s), AT(s_small), -1 },
    [GG_C64] = { AT(z), -1, -1 },
    [GG_C32] = { AT(c), -1, -1 },
    [GG_BF16] = { AT(bf16), -1, AT(bf16_features) },
    [GG_U8S8] = { AT(u8s8), -1, AT(u8s8_features) },
};
#undef AT

static const struct gg_ukernel *kernel_at(const struct gg_kernel_set *s, ptrdiff_t at)
{
    return (const struct gg_ukernel *)(const void *)((const char *)s + at);
}

/* Type t's kernel in set s, or the portable one where s has none or the
 * CPU lacks the instructions it needs beyond the set's. */
static const struct gg_ukernel *main_kernel(const struct gg_kernel_set *s, enum gg_type t)
{
    const struct slot *sl = &slot_of[t];
    const struct gg_ukernel *k = kernel_at(s, sl->main);
    unsigned need = sl->features < 0 ? 0
                  : *(const unsigned *)(const void *)((const char *)s + sl->features);
    return k->fn && (need & ~gg_cpu_features()) == 0 ? k : kernel_at(&portable_set, sl->main);
}

static const struct gg_ukernel *small_kernel(const struct gg_kernel_set *s, enum gg_type t)
{
    return slot_of[t].small < 0 ? &no_kernel : kernel_at(s, slot_of[t].small);
}

/* The blocking of one kernel slot; an empty slot (MR 0: no small tile, or
 * a kernel gemmgen refused) gets that of a 1 x 1 tile, never used. */
static struct gg_blocking slot_blocking(const struct gg_caches *c, const struct gg_ukernel *k,
                                        int elem_size)
{
    return gg_blocking_for(c, k->mr ? k->mr : 1, k->nr ? k->nr : 1, elem_size, k->b_l1_percent);
}

static void compute_blocking(int i)
{
    struct gg_caches c = sets[i]->caches;
    if (!sets[i]->caches_known || c.l1d.ways < 1 || c.l2.ways < 1)
        gg_caches_detect(&c);
    for (int t = 0; t < GG_NTYPES; t++) {
        int s = (int)gg_operand_size(t);
        blk[i][t] = slot_blocking(&c, main_kernel(sets[i], t), s);
        blk_small[i][t] = slot_of[t].small < 0 ? blk[i][t]
                        : slot_blocking(&c, small_kernel(sets[i], t), s);
    }
}

static struct gg_ctx ctx_for(const struct gg_kernel_set *s, enum gg_type t,
                             const struct gg_blocking *bk, const struct gg_blocking *bks)
{
    struct gg_ctx x = { main_kernel(s, t), small_kernel(s, t), *bk, *bks, gg_limits_default(s, t),
                        (int)gg_type_size(t) };
    if (x.uk->thread_edge > 0) x.lim.thread_edge = x.uk->thread_edge;
    gg_limits_from_env(&x.lim);
    return x;
}

static void publish(int i)
{
    current = i;
    __atomic_store_n(&ctx_published, ctx[i], __ATOMIC_RELEASE);
}

static int find(const char *name)
{
    for (int i = 0; i < NSETS; i++)
        if (strcmp(sets[i]->name, name) == 0)
            return i;
    return -1;
}

static void init(void)
{
    int best = NSETS - 1;
    for (int i = 0; i < NSETS; i++) {
        compute_blocking(i);
        for (int t = 0; t < GG_NTYPES; t++)
            ctx[i][t] = ctx_for(sets[i], t, &blk[i][t], &blk_small[i][t]);
        if (supported(sets[i]) && sets[i]->rank > sets[best]->rank)
            best = i;
    }
    const char *want = getenv("GEMMGEN_KERNEL");
    if (want && *want) {
        int i = find(want);
        if (i >= 0 && supported(sets[i]))
            best = i;
        else
            fprintf(stderr, "gemmgen: GEMMGEN_KERNEL=%s is %s; using %s\n", want,
                    i < 0 ? "unknown" : "not supported by this CPU", sets[best]->name);
    }
    publish(best);
}

const struct gg_ctx *gg_ctx_current(enum gg_type t)
{
    const struct gg_ctx *x = __atomic_load_n(&ctx_published, __ATOMIC_ACQUIRE);
    if (!x) {
        pthread_once(&once, init);
        x = ctx[current];
    }
    return &x[t];
}

void gg_ctx_set_limits(enum gg_type t, const struct gg_limits *lim)
{
    pthread_once(&once, init);
    for (int i = 0; i < NSETS; i++)
        ctx[i][t].lim = *lim;
}

const struct gg_kernel_set *gg_set_current(void)
{
    pthread_once(&once, init);
    return sets[current];
}

/* The API's letter of each type (gemmgen.h): d, s, z, c, b (bf16), i (u8s8s32). */
static enum gg_type type_of(char letter)
{
    static const char letters[GG_NTYPES] = { 'd', 's', 'z', 'c', 'b', 'i' };
    for (int t = 0; t < GG_NTYPES; t++)
        if (letters[t] == letter) return t;
    return GG_F32;
}

const struct gg_blocking *gg_blocking_current(char type)
{
    pthread_once(&once, init);
    return &blk[current][type_of(type)];
}

int gemmgen_kernel_count(void) { return NSETS; }

const char *gemmgen_kernel_name(int i)
{
    return i >= 0 && i < NSETS ? sets[i]->name : NULL;
}

int gemmgen_kernel_supported(int i)
{
    return i >= 0 && i < NSETS && supported(sets[i]);
}

const char *gemmgen_kernel_current(void) { return gg_set_current()->name; }

const char *gemmgen_kernel_current_for(char type)
{
    const struct gg_kernel_set *s = gg_set_current();
    enum gg_type t = type_of(type);
    return main_kernel(s, t) == kernel_at(&portable_set, slot_of[t].main) ? portable_set.name
                                                                         : s->name;
}

int gemmgen_kernel_select(const char *name)
{
    pthread_once(&once, init);
    int i = find(name);
    if (i < 0 || !supported(sets[i]))
        return -1;
    publish(i);
    return 0;
}

void gemmgen_blocking(char type, int *mr, int *nr, int *mc, int *kc, int *nc)
{
    const struct gg_blocking *b = gg_blocking_current(type);
    if (mr) *mr = b->mr;
    if (nr) *nr = b->nr;
    if (mc) *mc = b->mc;
    if (kc) *kc = b->kc;
    if (nc) *nc = b->nc;
}

int gemmgen_small_tile(char type, int *mr, int *nr)
{
    const struct gg_kernel_set *s = gg_set_current();
    const struct gg_ukernel *k = type == 'd' ? &s->d_small : &s->s_small;
    if (mr) *mr = k->mr;
    if (nr) *nr = k->nr;
    return k->fn != NULL;
}
