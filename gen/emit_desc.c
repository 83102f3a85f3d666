/* emit_desc.c: NAME_desc.h, the set descriptor libgemmgen compiles in: the
 * kernel file's functions and lists as a struct gg_ukernel initializer,
 * and the machine's side (CPU features from the ISA table, caches, the
 * runtime: section). It reads the values the header was filled with, so
 * the two cannot disagree. A new part of the set (a table of thresholds)
 * is one more NAME_DESC_* initializer in templates/kernel_desc.h.in, its
 * value from here, and one line in ggkernel's write_machine. */
#include "emit_int.h"
#include "target.h"
#include <stdlib.h>
#include <string.h>

/* The runtime's edge structs per element type (gg_internal.h): real,
 * then complex. */
static const char *const edge_struct[2][ELEM_COUNT] = {
    { "gg_sedge", "gg_dedge", "gg_bedge", "gg_uedge", "gg_iedge" },
    { "gg_cedge", "gg_zedge" } };
static const char *const pedge_struct[2][ELEM_COUNT] = {
    { "gg_spedge", "gg_dpedge", "gg_bpedge", "gg_upedge", "gg_ipedge" },
    { "gg_cpedge", "gg_zpedge" } };

struct kv { const char *const *keys, *const *vals; int n; };

static const char *val(const struct kv *kv, const char *key)
{
    for (int i = 0; i < kv->n; i++)
        if (!strcmp(kv->keys[i], key)) return kv->vals[i];
    die("emit_desc: no header value %s", key);
}

static int num(const struct kv *kv, const char *key) { return atoi(val(kv, key)); }

/* A key only some kernels' headers have (DIRECT: 0 for the complex and
 * rank-G ones, which have packed kernels only). */
static int num_or(const struct kv *kv, const char *key, int dflt)
{
    for (int i = 0; i < kv->n; i++)
        if (!strcmp(kv->keys[i], key)) return atoi(kv->vals[i]);
    return dflt;
}

static void cache_text(struct buf *b, const struct cache *c, const char *sep)
{
    if (c->present) buf_printf(b, "{%ld, %d, %d, %d}%s", c->size, c->line, c->ways, c->shared_by, sep);
    else buf_printf(b, "{0, 0, 0, 0}%s", sep);
}

/* The fields both slots share: sizes, the packed kernel, the B panel's
 * share of L1 and the narrow panels' k. */
static void common_fields(struct buf *b, const struct kv *kv, const char *name, const char *nl)
{
    buf_printf(b, "    .mr = %s, .nr = %s, .row_pref = %s, .fn = (void *)%s,%s", val(kv, "MR"),
               val(kv, "NR"), val(kv, "ROW_PREF"), name, nl);
    buf_printf(b, "    .b_l1_percent = %s, .narrow_k = %s,%s", val(kv, "B_L1_PERCENT"),
               val(kv, "NARROW_K"), nl);
}

/* The edge lists, the row tails' count check and, with the _rows kernels,
 * their slot (B read by rows: no stream, no row tails). */
static void tables(struct buf *b, const struct kv *kv, const char *name, const struct kernel *k)
{
    const char *es = edge_struct[k->cplx][k->elem], *ps = pedge_struct[k->cplx][k->elem];
    buf_printf(b, "_Static_assert(%s_NTAILS <= GG_TAILS, \"row tails: raise GG_TAILS\");\n", name);
    if (num(kv, "NEDGES"))
        buf_printf(b, "static const struct %s %s_desc_edges[] = { %s_EDGE_LIST };\n",
                   es, name, name);
    if (num(kv, "NPEDGES"))
        buf_printf(b, "static const struct %s %s_desc_pedges[] = { %s_PEDGE_LIST };\n",
                   ps, name, name);
    if (!num(kv, "DIRECT_ROWS")) return;
    if (num(kv, "NEDGES"))
        buf_printf(b, "static const struct %s %s_desc_row_edges[] = { %s_ROW_EDGE_LIST };\n",
                   es, name, name);
    buf_printf(b, "/* the same kernels reading B by rows (B^T in place) */\n");
    buf_printf(b, "static const struct gg_ukernel %s_desc_b_rows = {\n", name);
    common_fields(b, kv, name, "\n");
    buf_printf(b, "    .direct = (void *)%s_direct_rows, .direct_b_cols = 0,\n", name);
    if (num(kv, "NEDGES"))
        buf_printf(b, "    .edges = %s_desc_row_edges, .nedges = %s,\n", name, val(kv, "NEDGES"));
    if (num(kv, "NPEDGES"))
        buf_printf(b, "    .pedges = %s_desc_pedges, .npedges = %s,\n", name, val(kv, "NPEDGES"));
    buf_puts(b, "};\n");
}

/* The machine file's runtime.thread_edge for the kernel's type (0: none),
 * indexed as runtime_type_names (the runtime's enum gg_type). */
static int thread_edge_of(const struct plan *pl)
{
    const enum elem e = pl->k.elem;
    const int t = pl->k.cplx ? (e == ELEM_F64 ? 2 : 3)
                : e == ELEM_F64 ? 0 : e == ELEM_F32 ? 1 : e == ELEM_BF16 ? 4 : 5;
    return pl->m.runtime.thread_edge[t];
}

/* The kernel's k group where unlike its type's (MMLA's, AMX's), else 0;
 * A's packing group where unlike it (AMX's), kg_a. */
static int kgroup_of(const struct kernel *k)
{
    return k->group != elem_group(k->elem) ? k->group : 0;
}

static void ukernel(struct buf *b, const struct kv *kv, const char *name, int thread_edge,
                    const struct kernel *k)
{
    const char *nl = " \\\n";
    buf_printf(b, "#define %s_DESC_UKERNEL {%s", name, nl);
    common_fields(b, kv, name, nl);
    if (num_or(kv, "DIRECT", 1))
        buf_printf(b, "    .direct = (void *)%s_direct, .direct_b_cols = %s,%s", name,
                   val(kv, "DIRECT_B_COLS"), nl);
    if (num(kv, "STREAM")) buf_printf(b, "    .stream = (void *)%s_stream,%s", name, nl);
    if (num(kv, "NEDGES"))
        buf_printf(b, "    .edges = %s_desc_edges, .nedges = %s,%s", name, val(kv, "NEDGES"), nl);
    if (num(kv, "NPEDGES"))
        buf_printf(b, "    .pedges = %s_desc_pedges, .npedges = %s,%s", name, val(kv, "NPEDGES"), nl);
    if (num(kv, "NTAILS")) buf_printf(b, "    .tails = { %s_TAIL_LIST },%s", name, nl);
    if (num(kv, "DIRECT_ROWS")) buf_printf(b, "    .b_rows = &%s_desc_b_rows,%s", name, nl);
    if (thread_edge) buf_printf(b, "    .thread_edge = %d,%s", thread_edge, nl);
    if (kgroup_of(k)) buf_printf(b, "    .kg = %d,%s", kgroup_of(k), nl);
    if (k->group_a != k->group) buf_printf(b, "    .kg_a = %d,%s", k->group_a, nl);
    buf_puts(b, "}\n");
}

/* Compiled with -DGEMMGEN_PACKED_ONLY the kernel file holds the packed
 * kernel alone, so the slot names nothing else. */
static void ukernel_text(struct buf *b, const struct kv *kv, const char *name,
                         const struct plan *pl)
{
    const struct kernel *k = &pl->k;
    buf_printf(b, "#ifdef GEMMGEN_PACKED_ONLY\n#define %s_DESC_UKERNEL { \\\n", name);
    buf_printf(b, "    .mr = %s, .nr = %s, .row_pref = %s, .fn = (void *)%s", val(kv, "MR"),
               val(kv, "NR"), val(kv, "ROW_PREF"), name);
    if (kgroup_of(k)) buf_printf(b, ", .kg = %d", kgroup_of(k));
    if (k->group_a != k->group) buf_printf(b, ", .kg_a = %d", k->group_a);
    buf_puts(b, " }\n#else\n");
    tables(b, kv, name, k);
    ukernel(b, kv, name, thread_edge_of(pl), k);
    buf_puts(b, "#endif\n");
}

void emit_desc_packed(struct buf *out, const struct plan *pl, const char *name,
                      const char *cflags, const char *row_pref, const char *b_l1,
                      const char *nedges, const char *npedges)
{
    char mr[16], nr[16];
    strfmt(mr, sizeof mr, "%d", pl->k.mr);
    strfmt(nr, sizeof nr, "%d", pl->k.nr);
    const char *keys[] = { "NAME", "VERSION", "MACHINE_FILE", "MACHINE", "CFLAGS", "MR", "NR",
                           "ROW_PREF", "B_L1_PERCENT", "NARROW_K", "DIRECT", "DIRECT_B_COLS",
                           "STREAM", "NEDGES", "NPEDGES", "NTAILS", "DIRECT_ROWS" };
    const char *vals[] = { name, GEMMGEN_VERSION, em_machine_file(pl), pl->m.name, cflags, mr,
                           nr, row_pref, b_l1, "0", "0", "0", "0", nedges, npedges, "0", "0" };
    _Static_assert(sizeof keys == sizeof vals, "a value for each key");
    emit_desc(out, pl, keys, vals, (int)(sizeof keys / sizeof *keys));
}

void emit_desc(struct buf *out, const struct plan *pl, const char *const *keys,
               const char *const *vals, int n)
{
    const struct kv kv = { keys, vals, n };
    const char *name = val(&kv, "NAME");
    const struct machine *m = &pl->m;
    struct buf feats = { 0 }, caches = { 0 }, uk = { 0 };
    char guard[192], rank[16], max_k[16];
    strfmt(guard, sizeof guard, "GEMMGEN_%s_DESC_H", name);
    for (char *p = guard; *p; p++) if (*p >= 'a' && *p <= 'z') *p -= 32;
    target_cpu_features(&feats, pl->t, pl->k.elem, pl->k.bs, m);   /* %b: SVE's vector length */
    cache_text(&caches, &m->l1d, ", ");
    cache_text(&caches, &m->l2, ", ");
    cache_text(&caches, &m->l3, "");
    strfmt(rank, sizeof rank, "%d", target_rank(pl->t));
    strfmt(max_k, sizeof max_k, "%d", m->runtime.small_max_k);
    ukernel_text(&uk, &kv, name, pl);
    const char *dkeys[] = { "NAME", "VERSION", "MACHINE_FILE", "MACHINE", "CFLAGS", "DESC_GUARD",
                            "FEATURES", "RANK", "CACHES", "SMALL_MAX_K", "UKERNEL" };
    const char *dvals[] = { name, val(&kv, "VERSION"), val(&kv, "MACHINE_FILE"),
                            val(&kv, "MACHINE"), val(&kv, "CFLAGS"), guard,
                            feats.s ? feats.s : "0", rank, caches.s, max_k, uk.s };
    _Static_assert(sizeof dkeys == sizeof dvals, "a value for each key");
    tmpl_fill(out, tmpl_kernel_desc, dkeys, dvals, (int)(sizeof dkeys / sizeof *dkeys));
    buf_free(&feats); buf_free(&caches); buf_free(&uk);
}
