/* emit_cplx.c: the file of a complex kernel (--type c64, c32): the packed
 * kernel and its packed edges, its header saying which companions are
 * absent. The k loop and its schedule come from emit.c as for real
 * kernels; C's update from emit_cstore.c. */
#include "emit_int.h"
#include <stdio.h>

/* The combine step's cost per tile from the machine file: one swap and
 * one add-subtract per C vector, spread over their units. */
static double combine_cycles(const struct plan *pl, const struct cstrat *cs)
{
    double c = 0;
    int nv = pl->k.nacc / acc_per_vector(&pl->k);
    if (acc_per_vector(&pl->k) == 1) return 0;   /* nothing to combine */
    for (int x = 0; x < 2; x++) {
        const struct timing *t = &pl->m.ic[cs->combine[x]];
        int units = machine_units_of(&pl->m, cs->combine[x]);
        if (t->present && units) c += (double)nv * t->occupancy / units;
    }
    return c;
}

void cstrat_text(struct buf *b, const struct plan *pl, const char *sep)
{
    const struct cstrat *cs = target_cstrat(pl->t, pl->k.elem);
    int nv = pl->k.nacc / acc_per_vector(&pl->k);
    if (pl->k.bs == BS_CMLA) {
        buf_printf(b, "%s (%s):%s%d C vectors, 1 accumulator each, 2 %s (one per rotation)%s"
                      "per A vector and B element, no combine after the k loop", cs->cmla_name, bstrat_names[pl->k.bs], sep,
                   nv, iclass_names[IC_VCMLA], sep);
        return;
    }
    buf_printf(b, "%s (%s):%s%d C vectors, 2 accumulators each, combined after the k loop by%s"
                  "%d %s + %d %s, about %.1f cycles per tile", cs->name, bstrat_names[pl->k.bs],
               sep, nv, sep, nv,
               iclass_names[cs->combine[0]], nv, iclass_names[cs->combine[1]], combine_cycles(pl, cs));
}

void emit_kernel_cplx(const struct plan *pl, const struct plan *edges, int nedges,
                      const struct options *o, const char *name, struct buf *cf,
                      struct buf *hf, struct buf *df)
{
    struct packed_edges pe = { 0 };
    struct buf fns = { 0 }, how = { 0 }, blis = { 0 }, cflags = { 0 }, compile = { 0 },
               incl = { 0 }, cst = { 0 };
    const char *ctype = kernel_ctype(&pl->k);
    char mr[16], nr[16], guard[160], rp[4], args[96], blis_decl[512], b_l1[8];
    int row_pref = emit_packed_fn(&fns, pl, name);
    em_packed_edges(&pe, &fns, pl, edges, nedges, name, ctype, ctype, ctype);
    em_how_made(&how, pl);
    cstrat_text(&cst, pl, "\n *     ");
    em_cflags(&cflags, &compile, pl, o);
    target_text(&incl, pl->t->includes, &pl->m);
    strfmt(mr, sizeof mr, "%d", pl->k.mr);
    strfmt(nr, sizeof nr, "%d", pl->k.nr);
    strfmt(rp, sizeof rp, "%d", row_pref);
    strfmt(b_l1, sizeof b_l1, "%d", pl->m.a_next_prefetch ? 50 : 75);
    strfmt(guard, sizeof guard, "GEMMGEN_%s_H", name);
    for (char *p = guard; *p; p++) if (*p >= 'a' && *p <= 'z') *p -= 32;
    em_args_text(args, sizeof args, o);
    if (o->blis) em_blis_section(&blis, pl, o, name, ctype, mr, nr, rp);
    em_blis_decl_text(blis_decl, sizeof blis_decl, o, name, ctype);
    const char *preamble = o->blis ? "#ifndef _POSIX_C_SOURCE\n#define _POSIX_C_SOURCE 200809L /* blis.h needs POSIX threads */\n#endif\n" : "";
    const char *keys[] = { "NAME", "MR", "NR", "TYPE", "MACHINE", "TARGET", "VERSION",
                           "MACHINE_FILE", "ARGS", "HOWMADE", "CSTRAT", "CFLAGS", "COMPILE", "INCLUDES",
                           "CTYPE", "INDENT", "FUNCTIONS", "GUARD", "ROW_PREF", "BLIS_DECL",
                           "PREAMBLE", "B_L1_PERCENT", "NEDGES", "EDGE_LIST", "NPEDGES",
                           "PEDGE_LIST", "EDGE_DECL", "EDGE_DOC" };
    const char *vals[] = { name, mr, nr, kernel_type_name(&pl->k), pl->m.name, pl->t->name,
                           GEMMGEN_VERSION, em_machine_file(pl), args, how.s, cst.s,
                           cflags.s ? cflags.s : "", compile.s, incl.s ? incl.s : "", ctype,
                           em_indent_for(name), fns.s, guard, rp, blis_decl, preamble, b_l1,
                           pe.ne_text, pe.elist.s ? pe.elist.s : "", pe.np_text,
                           pe.plist.s ? pe.plist.s : "", pe.decl.s ? pe.decl.s : "",
                           pe.doc.s ? pe.doc.s : "" };
    _Static_assert(sizeof keys == sizeof vals, "a value for each key");
    tmpl_fill(cf, tmpl_kernel_cplx_c, keys, vals, (int)(sizeof keys / sizeof *keys));
    if (blis.s) buf_puts(cf, blis.s);
    tmpl_fill(hf, tmpl_kernel_cplx_h, keys, vals, (int)(sizeof keys / sizeof *keys));
    emit_desc_packed(df, pl, name, cflags.s ? cflags.s : "", rp, b_l1, pe.ne_text, pe.np_text);
    em_packed_edges_free(&pe);
    buf_free(&fns); buf_free(&how); buf_free(&blis); buf_free(&cflags); buf_free(&compile);
    buf_free(&incl); buf_free(&cst);
}
