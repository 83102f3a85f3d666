/* targets.c: the registry of instruction-set tables, best first within a
 * family, and the choice of one for a machine. */
#include "target.h"
#include "util.h"
#include <string.h>

extern const struct target target_avx512, target_avx2, target_avx;
extern const struct target target_mma, target_vsx, target_sve, target_neon;

static const struct target *const registry[] = {
    &target_avx512, &target_avx2, &target_avx,
    &target_mma, &target_vsx,
    &target_sve, &target_neon,
};
#define NREG ((int)(sizeof registry / sizeof *registry))

const char *const bstrat_names[BS_COUNT] = {
    "vector-broadcast", "vector-shuffle", "scalar-broadcast", "outer-product", "split-complex",
    "split-complex-lane", "complex-fma",
};
const char *const compiler_names[COMPILER_COUNT] = { "gcc", "clang" };
const char *const elem_names[ELEM_COUNT] = { "f32", "f64", "bf16", "u8s8s32", "s8u8s32" };
const char *const elem_ctype[ELEM_COUNT] = { "float", "double", "float", "int32_t", "int32_t" };

/* A's and B's elements: bfloat16 travels as its bits */
static const char *const atype[ELEM_COUNT] = { "float", "double", "uint16_t", "uint8_t", "int8_t" };
static const char *const btype[ELEM_COUNT] = { "float", "double", "uint16_t", "int8_t", "uint8_t" };
static const char *const routine[ELEM_COUNT] = { "sgemm", "dgemm", "sbgemm", "gemm_u8s8s32",
                                                 "gemm_s8u8s32" };
static const int group[ELEM_COUNT] = { 1, 1, 2, 4, 4 };
/* integer C wraps: its scalar arithmetic is spelled in the unsigned twin */
static const char *const wrap_type[ELEM_COUNT] = { [ELEM_U8S8] = "uint32_t", [ELEM_S8U8] = "uint32_t" };

int elem_bytes(enum elem e) { return e == ELEM_F64 ? 8 : 4; }
int elem_group(enum elem e) { return group[e]; }
int elem_operand_bytes(enum elem e) { return elem_bytes(e) / group[e]; }
const char *elem_atype(enum elem e) { return atype[e]; }
const char *elem_btype(enum elem e) { return btype[e]; }
const char *elem_routine(enum elem e) { return routine[e]; }
const char *elem_wrap_type(enum elem e) { return wrap_type[e]; }

static bool fits(const struct target *t, const struct machine *m)
{
    return t->family == m->family && (m->ext & t->requires) == t->requires &&
           m->vector_bits >= t->min_bits && m->vector_bits <= t->max_bits;
}

const struct target *target_for(const struct machine *m)
{
    for (int i = 0; i < NREG; i++)
        if (fits(registry[i], m)) return registry[i];
    die_input("%s:%d: extensions: no instruction set of gemmgen matches isa %s with these "
              "extensions and vector_bits %d", m->path, m->ext_line, family_names[m->family], m->vector_bits);
}

const struct target *target_by_name(const char *name)
{
    for (int i = 0; i < NREG; i++)
        if (!strcmp(registry[i]->name, name)) return registry[i];
    return NULL;
}

int target_rank(const struct target *t)
{
    int rank = 1;
    for (int i = NREG - 1; i >= 0 && registry[i] != t; i--)
        if (registry[i]->family == t->family) rank++;
    return rank;
}

void target_text(struct buf *out, const char *text, const struct machine *m)
{
    for (const char *p = text; *p; p++)
        if (p[0] == '%' && p[1] == 'b') { buf_printf(out, "%d", m->vector_bits); p++; }
        else buf_printf(out, "%c", *p);
}

/* The complex multiply-add's own flags and features, where it has them. */
static const struct cstrat *cmla_of(const struct target *t, enum elem e, enum bstrat bs)
{
    return bs == BS_CMLA ? target_cstrat(t, e) : NULL;
}

/* The outer product's own spelling where it has flags of its own (AMX). */
static const struct spell *outer_of(const struct target *t, enum elem e, enum bstrat bs)
{
    return bs == BS_OUTER_PRODUCT ? t->sp[e].outer : NULL;
}

void target_cflags(struct buf *out, const struct target *t, enum elem e, enum bstrat bs,
                   enum compiler cc, const struct machine *m)
{
    const struct cstrat *cs = cmla_of(t, e, bs);
    const char *order = m->order == DISPATCH_IN_ORDER ? t->inorder_cflags[cc] : t->ooo_cflags[cc];
    target_text(out, t->cflags, m);
    if (order) buf_printf(out, " %s", order);
    if (t->sp[e].cflags) buf_printf(out, " %s", t->sp[e].cflags);
    if (cs && cs->cmla_cflags) buf_printf(out, " %s", cs->cmla_cflags);
    const struct spell *os = outer_of(t, e, bs);
    if (os && os->cflags) buf_printf(out, " %s", os->cflags);
}

void target_cpu_features(struct buf *out, const struct target *t, enum elem e, enum bstrat bs,
                         const struct machine *m)
{
    const struct cstrat *cs = cmla_of(t, e, bs);
    target_text(out, t->cpu_features, m);
    if (t->sp[e].cpu_features) buf_printf(out, " | %s", t->sp[e].cpu_features);
    if (cs && cs->cmla_cpu_features) buf_printf(out, " | %s", cs->cmla_cpu_features);
    const struct spell *os = outer_of(t, e, bs);
    if (os && os->cpu_features) buf_printf(out, " | %s", os->cpu_features);
}

const struct cstrat *target_cstrat(const struct target *t, enum elem e)
{
    return t->cx[e].name ? &t->cx[e] : NULL;
}

const struct spell *target_spell(const struct target *t, enum elem e, enum bstrat bs)
{
    const struct cstrat *cs = bstrat_complex(bs) ? target_cstrat(t, e) : NULL;
    if (cs && cs->spell) return cs->spell;
    if (bs == BS_OUTER_PRODUCT && t->sp[e].outer) return t->sp[e].outer;
    return &t->sp[e];
}

bool target_offers(const struct target *t, enum bstrat bs, enum elem e, bool cplx)
{
    if (!cplx) {
        unsigned s = t->sp[e].strategies ? t->sp[e].strategies : t->strategies;
        return (s & (1u << bs)) != 0;
    }
    const struct cstrat *cs = target_cstrat(t, e);
    return cs && (cs->strategies & (1u << bs));
}
