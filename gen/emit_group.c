/* emit_group.c: the file of a rank-G kernel (--type bf16, u8s8s32): the
 * packed kernel and its packed edges, its header saying which companions
 * are absent. The k loop is emit.c's over k groups, each lane a dot
 * product of G k steps; C's update is emit_store.c's in C's type (float,
 * int32). */
#include "emit_int.h"
#include <stdio.h>

/* What the accumulation does, per type (the header's contract). */
static const char *const arith[ELEM_COUNT] = {
    [ELEM_BF16] = "Products of bfloat16 elements accumulate in\n * float lanes; C's update is float arithmetic.",
    [ELEM_U8S8] = "Products of uint8 (A) and int8 (B) accumulate\n"
                  " * exactly in int32 lanes (wrapping past 2^31); alpha, beta and C's\n"
                  " * update are int32 arithmetic, wrapping likewise.",
    [ELEM_S8U8] = "Products of int8 (A) and uint8 (B) accumulate\n"
                  " * exactly in int32 lanes (wrapping past 2^31); alpha, beta and C's\n"
                  " * update are int32 arithmetic, wrapping likewise.",
};

void rankg_text(struct buf *b, const struct plan *pl)
{
    enum elem e = pl->k.elem;
    const struct inst *fma = NULL;
    for (int i = 0; i < pl->k.ninst && !fma; i++)
        if (pl->k.inst[i].op == OP_FMA || pl->k.inst[i].op == OP_GER) fma = &pl->k.inst[i];
    if (!fma) return;
    static const char *const ops[ELEM_COUNT] = { [ELEM_BF16] = "bf16 x bf16",
                                                 [ELEM_U8S8] = "u8 x s8", [ELEM_S8U8] = "s8 x u8" };
    const struct timing *t = &pl->m.ic[fma->ic];
    buf_printf(b, "%s, %d k steps of %s per %d-bit lane of %s%s (latency %d, %.2f per cycle)",
               iclass_names[fma->ic], pl->k.group, ops[e], 8 * elem_bytes(e), elem_ctype[e],
               pl->k.bs == BS_OUTER_PRODUCT && pl->t->outer_segments
                   ? ", a 2x2 tile per 128 bits" : "",
               t->latency, (double)machine_units_of(&pl->m, fma->ic) / t->occupancy);
}

void emit_kernel_group(const struct plan *pl, const struct plan *edges, int nedges,
                       const struct options *o, const char *name, struct buf *cf,
                       struct buf *hf, struct buf *df)
{
    struct packed_edges pe = { 0 };
    struct buf fns = { 0 }, how = { 0 }, cflags = { 0 }, compile = { 0 }, incl = { 0 },
               rg = { 0 }, par = { 0 };
    enum elem e = pl->k.elem;
    char mr[16], nr[16], g[8], ga[8], guard[160], rp[4], args[96], b_l1[8];
    int row_pref = emit_packed_fn(&fns, pl, name);
    em_packed_params(&par, elem_atype(e), elem_btype(e), elem_ctype[e], name);
    em_packed_edges(&pe, &fns, pl, edges, nedges, name, elem_atype(e), elem_btype(e),
                    elem_ctype[e]);
    em_how_made(&how, pl);
    rankg_text(&rg, pl);
    em_cflags(&cflags, &compile, pl, o);
    target_text(&incl, pl->t->includes, &pl->m);
    strfmt(mr, sizeof mr, "%d", pl->k.mr);
    strfmt(nr, sizeof nr, "%d", pl->k.nr);
    strfmt(g, sizeof g, "%d", pl->k.group);
    strfmt(ga, sizeof ga, "%d", pl->k.group_a);
    strfmt(rp, sizeof rp, "%d", row_pref);
    strfmt(b_l1, sizeof b_l1, "%d", pl->m.a_next_prefetch ? 50 : 75);
    strfmt(guard, sizeof guard, "GEMMGEN_%s_H", name);
    for (char *p = guard; *p; p++) if (*p >= 'a' && *p <= 'z') *p -= 32;
    em_args_text(args, sizeof args, o);
    const char *keys[] = { "NAME", "MR", "NR", "TYPE", "MACHINE", "TARGET", "VERSION",
                           "MACHINE_FILE", "ARGS", "HOWMADE", "RANKG", "CFLAGS", "COMPILE", "INCLUDES",
                           "CTYPE", "ATYPE", "BTYPE", "G", "ARITH", "FUNCTIONS", "GUARD",
                           "ROW_PREF", "B_L1_PERCENT", "PARAMS", "NEDGES", "EDGE_LIST",
                           "NPEDGES", "PEDGE_LIST", "EDGE_DECL", "EDGE_DOC", "GA" };
    const char *vals[] = { name, mr, nr, elem_names[e], pl->m.name, pl->t->name,
                           GEMMGEN_VERSION, em_machine_file(pl), args, how.s, rg.s ? rg.s : "",
                           cflags.s ? cflags.s : "", compile.s, incl.s ? incl.s : "", elem_ctype[e],
                           elem_atype(e), elem_btype(e), g, arith[e], fns.s, guard, rp, b_l1,
                           par.s, pe.ne_text, pe.elist.s ? pe.elist.s : "", pe.np_text,
                           pe.plist.s ? pe.plist.s : "", pe.decl.s ? pe.decl.s : "",
                           pe.doc.s ? pe.doc.s : "", ga };
    _Static_assert(sizeof keys == sizeof vals, "a value for each key");
    tmpl_fill(cf, tmpl_kernel_group_c, keys, vals, (int)(sizeof keys / sizeof *keys));
    tmpl_fill(hf, tmpl_kernel_group_h, keys, vals, (int)(sizeof keys / sizeof *keys));
    emit_desc_packed(df, pl, name, cflags.s ? cflags.s : "", rp, b_l1, pe.ne_text, pe.np_text);
    em_packed_edges_free(&pe);
    buf_free(&fns); buf_free(&how); buf_free(&cflags); buf_free(&compile); buf_free(&incl);
    buf_free(&rg);
    buf_free(&par);
}
