/* machine_load.c: machines/NAME.yaml -> struct machine, validated.
 * Top-level keys are collected first and parsed in dependency order
 * (units before the instructions that name them). */
#include "machine.h"
#include "target.h"
#include "util.h"
#include "yaml_doc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const iclass_names[IC_COUNT] = {
    "vload", "vload_pair", "vbroadcast", "vshuffle", "vfma", "vfma_lane",
    "vfmul", "vfadd", "ger", "iadd", "prefetch", "vbroadcast_block", "vdot_bf16", "vdot_i8", "vcmla",
    "vmmla_bf16", "vmmla_i8", "tile_load", "tdp_bf16", "tdp_i8",
};
const char *const family_names[FAM_COUNT] = { "x86", "power", "aarch64" };

static const char *const ext_names[] = {
    "sse2", "avx", "avx2", "fma", "avx512f", "vsx", "mma", "neon", "sve", "avx512_bf16",
    "avx512_vnni", "bf16", "i8mm", "fcma", "amx_bf16", "amx_int8",
};
static const enum isa_family ext_family[] = {
    FAM_X86, FAM_X86, FAM_X86, FAM_X86, FAM_X86, FAM_POWER, FAM_POWER, FAM_AARCH64, FAM_AARCH64,
    FAM_X86, FAM_X86, FAM_AARCH64, FAM_AARCH64, FAM_AARCH64, FAM_X86, FAM_X86,
};
#define NEXT ((int)(sizeof ext_names / sizeof *ext_names))

const char *ext_name(unsigned bits)
{
    for (int e = 0; e < NEXT; e++)
        if (bits & (1u << e)) return ext_names[e];
    return "?";
}

enum key {
    K_NAME, K_ISA, K_EXT, K_VBITS, K_VREGS, K_MAXREGS, K_ACC, K_DISPATCH, K_FREQ,
    K_UNITS, K_INSTR, K_CACHES, K_PREFETCH, K_BSTRAT, K_UNROLL, K_CPUID, K_DATAPATH,
    K_RUNTIME, K_COUNT
};
static const char *const key_names[K_COUNT] = {
    "name", "isa", "extensions", "vector_bits", "vector_registers", "max_regs",
    "accumulators", "dispatch", "frequency_ghz", "units", "instructions", "caches",
    "prefetch", "b_strategy", "unroll", "cpuid", "datapath_bits", "runtime",
};
static const bool key_required[K_COUNT] = {
    [K_NAME] = true, [K_ISA] = true, [K_EXT] = true, [K_VBITS] = true, [K_VREGS] = true,
    [K_DISPATCH] = true, [K_UNITS] = true, [K_INSTR] = true, [K_CACHES] = true,
};

struct ctx {
    struct machine *m;
    ynode *top[K_COUNT];
    struct timing *tcur;   /* the instruction timing being read */
    struct cache *ccur;    /* the cache being read */
    int top_line[K_COUNT]; /* line of each top-level key */
};

/* Keys of the runtime: section that older files give at the top level. */
static const char *const moved_to_runtime[] = { "small_tile", "narrow_panels", "direct_b_rows" };

static void collect_top(struct ydoc *d, const char *key, ynode *kn, ynode *v,
                        const char *field, void *vc)
{
    struct ctx *c = vc;
    for (size_t i = 0; i < sizeof moved_to_runtime / sizeof *moved_to_runtime; i++)
        if (!strcmp(key, moved_to_runtime[i]))
            yfail(d, kn, field, "belongs under runtime: (see machines/README.md)");
    for (int i = 0; i < K_COUNT; i++)
        if (!strcmp(key, key_names[i])) {
            if (c->top[i]) yfail(d, kn, field, "given twice");
            c->top[i] = v;
            c->top_line[i] = ynode_line(kn);
            return;
        }
    yfail(d, kn, field, "unknown key (see machines/README.md)");
}

static void parse_name(struct ydoc *d, ynode *n, struct machine *m)
{
    const char *s = yscalar(d, n, "name");
    size_t len = strlen(s);
    if (len == 0 || len >= sizeof m->name) yfail(d, n, "name", "must be 1 to 63 characters");
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
            yfail(d, n, "name", "'%s' may hold only a-z, 0-9, '_' and '-'", s);
    strcpy(m->name, s);
}

static void parse_extensions(struct ydoc *d, ynode *n, struct machine *m)
{
    if (n->type != YAML_SEQUENCE_NODE) yfail(d, n, "extensions", "expected a list, e.g. [avx, fma]");
    ynode *it;
    for (int i = 0; (it = yseq_item(d, n, i)); i++) {
        int e = yenum(d, it, "extensions", ext_names, NEXT);
        if (ext_family[e] != m->family)
            yfail(d, it, "extensions", "'%s' is not an extension of isa %s", ext_names[e],
                  family_names[m->family]);
        m->ext |= 1u << e;
    }
    if (!m->ext) yfail(d, n, "extensions", "the list is empty");
}

static void parse_acc(struct ydoc *d, const char *key, ynode *kn, ynode *v,
                      const char *field, void *vc)
{
    struct machine *m = ((struct ctx *)vc)->m;
    if (!strcmp(key, "count")) m->acc_count = (int)yint(d, v, field, 1, 64);
    else if (!strcmp(key, "bits")) m->acc_bits = (int)yint(d, v, field, 128, 4096);
    else if (!strcmp(key, "blocks")) m->acc_blocks = (int)yint(d, v, field, 1, 16);
    else yfail(d, kn, field, "unknown key (expected count, bits, blocks)");
}

static void parse_dispatch(struct ydoc *d, const char *key, ynode *kn, ynode *v,
                           const char *field, void *vc)
{
    static const char *const orders[] = { "in-order", "out-of-order" };
    struct machine *m = ((struct ctx *)vc)->m;
    if (!strcmp(key, "width")) m->dispatch_width = (int)yint(d, v, field, 1, 16);
    else if (!strcmp(key, "order")) m->order = yenum(d, v, field, orders, 2);
    else yfail(d, kn, field, "unknown key (expected width, order)");
}

static void parse_unit(struct ydoc *d, const char *key, ynode *kn, ynode *v,
                       const char *field, void *vc)
{
    struct machine *m = ((struct ctx *)vc)->m;
    if (m->nunits == MAX_UNITS) yfail(d, kn, field, "more than %d units", MAX_UNITS);
    if (strlen(key) >= sizeof m->units[0].name) yfail(d, kn, field, "name too long");
    for (int i = 0; i < m->nunits; i++)
        if (!strcmp(m->units[i].name, key)) yfail(d, kn, field, "given twice");
    strcpy(m->units[m->nunits].name, key);
    m->units[m->nunits++].count = (int)yint(d, v, field, 1, 16);
}

static int unit_index(struct ydoc *d, ynode *n, const char *field, const struct machine *m)
{
    const char *s = yscalar(d, n, field);
    for (int i = 0; i < m->nunits; i++)
        if (!strcmp(m->units[i].name, s)) return i;
    yfail(d, n, field, "unknown unit '%s' (not in units:)", s);
}

static void parse_timing_key(struct ydoc *d, const char *key, ynode *kn, ynode *v,
                             const char *field, void *vc)
{
    struct ctx *c = vc;
    struct timing *t = c->tcur;
    if (!strcmp(key, "latency")) t->latency = (int)yint(d, v, field, 0, 1000);
    else if (!strcmp(key, "uops"))   /* more than one cycle's dispatch could never issue */
        t->uops = (int)yint(d, v, field, 1, c->m->dispatch_width ? c->m->dispatch_width : 16);
    else if (!strcmp(key, "throughput")) {
        double tp = ynum(d, v, field, 0.01, 1.0);
        t->occupancy = (int)(1.0 / tp + 0.5);
    } else if (!strcmp(key, "unit")) {
        if (v->type == YAML_SEQUENCE_NODE) {
            ynode *it;
            for (int i = 0; (it = yseq_item(d, v, i)); i++) {
                if (t->nalt == MAX_UNIT_ALTS) yfail(d, it, field, "more than %d units", MAX_UNIT_ALTS);
                t->alt[t->nalt++] = unit_index(d, it, field, c->m);
            }
            if (!t->nalt) yfail(d, v, field, "the list is empty");
        } else {
            t->alt[t->nalt++] = unit_index(d, v, field, c->m);
        }
    } else yfail(d, kn, field, "unknown key (expected latency, unit, throughput, uops)");
}

static void parse_instr(struct ydoc *d, const char *key, ynode *kn, ynode *v,
                        const char *field, void *vc)
{
    struct ctx *c = vc;
    int ic = -1;
    for (int i = 0; i < IC_COUNT; i++)
        if (!strcmp(key, iclass_names[i])) ic = i;
    if (ic < 0) yfail(d, kn, field, "unknown instruction class (see machines/README.md)");
    struct timing *t = &c->m->ic[ic];
    if (t->present) yfail(d, kn, field, "given twice");
    *t = (struct timing){ .present = true, .line = ynode_line(kn), .latency = -1,
                          .occupancy = 1, .uops = 1 };
    c->tcur = t;
    ymap_each(d, v, field, parse_timing_key, c);
    if (t->latency < 0) yfail(d, v, field, "latency: missing");
    if (!t->nalt) yfail(d, v, field, "unit: missing");
}

static void parse_cache_key(struct ydoc *d, const char *key, ynode *kn, ynode *x,
                            const char *sub, void *vc)
{
    struct cache *cc = ((struct ctx *)vc)->ccur;
    if (!strcmp(key, "size")) cc->size = ysize(d, x, sub, 1024, 1L << 40);
    else if (!strcmp(key, "line")) cc->line = (int)yint(d, x, sub, 16, 1024);
    else if (!strcmp(key, "ways")) cc->ways = (int)yint(d, x, sub, 1, 1024);
    else if (!strcmp(key, "shared_by")) cc->shared_by = (int)yint(d, x, sub, 1, 4096);
    else yfail(d, kn, sub, "unknown key (expected size, line, ways, shared_by)");
}

static void parse_cache(struct ydoc *d, const char *key, ynode *kn, ynode *v,
                        const char *field, void *vc)
{
    struct ctx *c = vc;
    struct machine *m = c->m;
    struct cache *cc = !strcmp(key, "l1d") ? &m->l1d : !strcmp(key, "l2") ? &m->l2
                     : !strcmp(key, "l3") ? &m->l3 : NULL;
    if (!cc) yfail(d, kn, field, "unknown cache (expected l1d, l2, l3)");
    if (v->type != YAML_MAPPING_NODE) yfail(d, v, field, "expected {size, line, ways}");
    cc->present = true;
    cc->shared_by = 1;
    c->ccur = cc;
    ymap_each(d, v, field, parse_cache_key, c);
    if (!cc->size) yfail(d, v, field, "size: missing");
    if (!cc->line) yfail(d, v, field, "line: missing");
    if (!cc->ways) yfail(d, v, field, "ways: missing");
}

static void parse_prefetch(struct ydoc *d, const char *key, ynode *kn, ynode *v,
                           const char *field, void *vc)
{
    struct machine *m = ((struct ctx *)vc)->m;
    if (!strcmp(key, "b_distance")) m->b_prefetch_distance = (int)yint(d, v, field, 0, 65536);
    else if (!strcmp(key, "a_distance")) m->a_prefetch_distance = (int)yint(d, v, field, 0, 65536);
    else if (!strcmp(key, "a_next")) m->a_next_prefetch = ybool(d, v, field);
    else if (!strcmp(key, "b_next")) m->b_next_prefetch = ybool(d, v, field);
    else if (!strcmp(key, "c_in_loop")) m->c_prefetch_in_loop = ybool(d, v, field);
    else yfail(d, kn, field, "unknown key (expected b_distance, a_distance, a_next, b_next, c_in_loop)");
}

static void parse_cpuid(struct ydoc *d, const char *key, ynode *kn, ynode *v,
                        const char *field, void *vc)
{
    struct machine *m = ((struct ctx *)vc)->m;
    if (!strcmp(key, "vendor")) {
        const char *s = yscalar(d, v, field);
        if (strlen(s) >= sizeof m->cpuid_vendor) yfail(d, v, field, "too long");
        strcpy(m->cpuid_vendor, s);
    } else if (!strcmp(key, "family")) m->cpuid_family = (int)yint(d, v, field, 0, 1 << 12);
    else if (!strcmp(key, "models")) {
        ynode *it;
        if (v->type != YAML_SEQUENCE_NODE) yfail(d, v, field, "expected a list of model numbers");
        for (int i = 0; (it = yseq_item(d, v, i)); i++) {
            if (m->ncpuid_models == 32) yfail(d, it, field, "more than 32 models");
            m->cpuid_models[m->ncpuid_models++] = (int)yint(d, it, field, 0, 1 << 12);
        }
    } else yfail(d, kn, field, "unknown key (expected vendor, family, models)");
}

static void each(struct ydoc *d, struct ctx *c, int key, ymap_fn fn)
{
    if (c->top[key]) ymap_each(d, c->top[key], key_names[key], fn, c);
}

/* datapath_bits: the width the FP pipes execute at once (default: the
 * vector width); a wider vector op holds a pipe vector_bits / datapath_bits
 * cycles, so half-width vectors cost half (Zen 4 runs AVX-512 on 256-bit
 * pipes), which the half-width row tail uses. */
static void parse_datapath(struct ydoc *d, struct ctx *c)
{
    struct machine *m = c->m;
    m->datapath_bits = m->vector_bits;
    if (!c->top[K_DATAPATH]) return;
    m->datapath_bits = (int)yint(d, c->top[K_DATAPATH], "datapath_bits", 64, m->vector_bits);
    if (m->vector_bits % m->datapath_bits)
        yfail(d, c->top[K_DATAPATH], "datapath_bits", "must divide vector_bits (%d)", m->vector_bits);
}

static void parse_scalars(struct ydoc *d, struct ctx *c)
{
    static const char *const bs_names[] = {
        "vector-broadcast", "vector-shuffle", "scalar-broadcast", "outer-product", "auto",
    };
    struct machine *m = c->m;
    parse_name(d, c->top[K_NAME], m);
    m->family = yenum(d, c->top[K_ISA], "isa", family_names, FAM_COUNT);
    parse_extensions(d, c->top[K_EXT], m);
    m->ext_line = c->top_line[K_EXT];
    m->vector_bits = (int)yint(d, c->top[K_VBITS], "vector_bits", 128, 2048);
    if (m->vector_bits % 128) yfail(d, c->top[K_VBITS], "vector_bits", "must be a multiple of 128");
    parse_datapath(d, c);
    m->vector_registers = (int)yint(d, c->top[K_VREGS], "vector_registers", 4, 128);
    m->vreg_line = c->top_line[K_VREGS];
    m->max_regs = m->vector_registers;
    if (c->top[K_MAXREGS])
        m->max_regs = (int)yint(d, c->top[K_MAXREGS], "max_regs", 2, m->vector_registers);
    if (c->top[K_FREQ]) m->freq_ghz = ynum(d, c->top[K_FREQ], "frequency_ghz", 0.1, 10);
    m->b_strategy = -1;
    if (c->top[K_BSTRAT]) {
        int b = yenum(d, c->top[K_BSTRAT], "b_strategy", bs_names, 5);
        m->b_strategy = b == 4 ? -1 : b;
    }
    if (c->top[K_UNROLL]) {
        m->unroll = (int)yint(d, c->top[K_UNROLL], "unroll", 2, 16);
        m->unroll_line = c->top_line[K_UNROLL];
    }
}

static void check_complete(struct ydoc *d, struct ctx *c, ynode *root)
{
    struct machine *m = c->m;
    if (!m->dispatch_width) yfail(d, c->top[K_DISPATCH], "dispatch.width", "missing");
    if (!m->nunits) yfail(d, c->top[K_UNITS], "units", "no units given");
    if (!m->l1d.present) yfail(d, c->top[K_CACHES], "caches.l1d", "missing");
    if (!m->l2.present) yfail(d, c->top[K_CACHES], "caches.l2", "missing");
    if (c->top[K_ACC] && (!m->acc_count || !m->acc_bits || !m->acc_blocks))
        yfail(d, c->top[K_ACC], "accumulators", "needs count, bits and blocks");
    if (m->acc_count * m->acc_blocks > m->vector_registers)
        yfail(d, c->top[K_ACC], "accumulators",
              "%d accumulators blocking %d registers each exceed the %d vector registers",
              m->acc_count, m->acc_blocks, m->vector_registers);
    (void)root;
}

static void load_doc(struct machine *m, struct ydoc *d)
{
    struct ctx c = { .m = m };
    ynode *root = ydoc_root(d);
    if (root->type != YAML_MAPPING_NODE) yfail(d, root, "machine", "expected a mapping of keys");
    ymap_each(d, root, "", collect_top, &c);
    for (int i = 0; i < K_COUNT; i++)
        if (key_required[i] && !c.top[i]) yfail(d, root, key_names[i], "missing");
    parse_scalars(d, &c);
    each(d, &c, K_ACC, parse_acc);
    m->order = DISPATCH_OUT_OF_ORDER;
    each(d, &c, K_DISPATCH, parse_dispatch);
    each(d, &c, K_UNITS, parse_unit);
    m->instr_line = c.top_line[K_INSTR];
    each(d, &c, K_INSTR, parse_instr);
    each(d, &c, K_CACHES, parse_cache);
    m->b_prefetch_distance = 512;    /* POCA's default */
    m->a_next_prefetch = true;
    m->c_prefetch_in_loop = true;
    each(d, &c, K_PREFETCH, parse_prefetch);
    each(d, &c, K_CPUID, parse_cpuid);
    if (c.top[K_RUNTIME]) runtime_knobs_parse(d, c.top[K_RUNTIME], &m->runtime);
    check_complete(d, &c, root);
}

void machine_load_string(struct machine *m, const char *path, const char *yaml)
{
    struct ydoc d;
    memset(m, 0, sizeof *m);
    snprintf(m->path, sizeof m->path, "%s", path);
    ydoc_parse(&d, m->path, yaml, strlen(yaml));
    load_doc(m, &d);
    ydoc_free(&d);
}

void machine_load(struct machine *m, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) die_input("%s: cannot open the machine file", path);
    struct buf b = { 0 };
    char chunk[4097];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk - 1, f)) > 0) {
        chunk[n] = '\0';
        if (memchr(chunk, '\0', n)) {
            fclose(f);
            die_input("%s:1: machine: not a text file", path);
        }
        buf_printf(&b, "%.*s", (int)n, chunk);
        if (b.len > YDOC_MAX_BYTES) {
            fclose(f);
            die_input("%s:1: machine: the file is larger than %d bytes", path, YDOC_MAX_BYTES);
        }
    }
    fclose(f);
    machine_load_string(m, path, b.s ? b.s : "");
    buf_free(&b);
}

const struct timing *machine_timing(const struct machine *m, enum iclass ic, const char *why)
{
    if (!m->ic[ic].present)
        die_input("%s:%d: instructions.%s: missing (needed for %s)", m->path, m->instr_line, iclass_names[ic], why);
    return &m->ic[ic];
}

int machine_units_of(const struct machine *m, enum iclass ic)
{
    int n = 0;
    for (int i = 0; i < m->ic[ic].nalt; i++) n += m->units[m->ic[ic].alt[i]].count;
    return n;
}
