/* runtime_load.c: the `runtime:` section of a machine file -> struct
 * runtime_knobs, validated like the rest (file:line: runtime.FIELD: what). */
#include "runtime_knobs.h"
#include "yaml_doc.h"
#include <string.h>

static const char *const types[] = { "f32", "f64" };   /* enum elem order */
const char *const runtime_type_names[RUNTIME_NTYPES] = { "f64", "f32", "c64", "c32", "bf16",
                                                         "u8s8s32" };

/* small_tile: {f64: [MR, NR], f32: [MR, NR], max_k: K}, each optional. The
 * sizes are checked like --mr/--nr; whether registers hold the tile is
 * the planner's check when the tile is generated (it names this line). */
static void parse_small_tile(struct ydoc *d, const char *key, ynode *kn, ynode *v,
                             const char *field, void *vc)
{
    static const char *const keys[] = { "f32", "f64", "max_k" };
    struct runtime_knobs *rk = vc;
    int t = yenum(d, kn, field, keys, 3);
    (void)key;
    if (t == 2) {
        rk->small_max_k = (int)yint(d, v, field, 1, 1 << 20);
        return;
    }
    if (v->type != YAML_SEQUENCE_NODE || !yseq_item(d, v, 1) || yseq_item(d, v, 2))
        yfail(d, v, field, "expected [MR, NR], e.g. [32, 4]");
    rk->small_tile[t].mr = (int)yint(d, yseq_item(d, v, 0), field, 1, 64);
    rk->small_tile[t].nr = (int)yint(d, yseq_item(d, v, 1), field, 1, 64);
    rk->small_tile[t].line = ynode_line(v);
}

/* narrow_panels: {f64: K, f32: K}, each optional. */
static void parse_narrow(struct ydoc *d, const char *key, ynode *kn, ynode *v,
                         const char *field, void *vc)
{
    struct runtime_knobs *rk = vc;
    (void)key;
    rk->narrow_k[yenum(d, kn, field, types, 2)] = (int)yint(d, v, field, 1, 1 << 20);
}

/* thread_edge: {f64: E, f32: E, c64: E, c32: E, bf16: E, u8s8s32: E},
 * each optional. */
static void parse_thread_edge(struct ydoc *d, const char *key, ynode *kn, ynode *v,
                              const char *field, void *vc)
{
    struct runtime_knobs *rk = vc;
    (void)key;
    rk->thread_edge[yenum(d, kn, field, runtime_type_names, RUNTIME_NTYPES)] =
        (int)yint(d, v, field, 8, 4096);
}

static void parse_key(struct ydoc *d, const char *key, ynode *kn, ynode *v,
                      const char *field, void *vc)
{
    struct runtime_knobs *rk = vc;
    if (!strcmp(key, "small_tile")) ymap_each(d, v, field, parse_small_tile, rk);
    else if (!strcmp(key, "narrow_panels")) ymap_each(d, v, field, parse_narrow, rk);
    else if (!strcmp(key, "direct_b_rows")) rk->direct_b_rows = ybool(d, v, field);
    else if (!strcmp(key, "thread_edge")) ymap_each(d, v, field, parse_thread_edge, rk);
    else yfail(d, kn, field,
               "unknown key (expected small_tile, narrow_panels, direct_b_rows, thread_edge)");
}

void runtime_knobs_parse(struct ydoc *d, ynode *n, struct runtime_knobs *rk)
{
    ymap_each(d, n, "runtime", parse_key, rk);
}
