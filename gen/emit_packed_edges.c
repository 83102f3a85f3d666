/* emit_packed_edges.c: the edge kernels of the packed-only types (complex,
 * rank-G). Their packed A has no column-major form for a direct kernel to
 * read, so every edge is a packed kernel, NAME_p<MR'>x<NR'>, on panels
 * packed as wide and as high as it is: the row edge (MR' x NR) for the
 * short last row panel, the column edge (MR x NR') and the corner
 * (MR' x NR') for the narrow column panels. */
#include "emit_int.h"

void em_packed_edges(struct packed_edges *pe, struct buf *fns, const struct plan *pl,
                     const struct plan *edges, int nedges, const char *name, const char *ta,
                     const char *tb, const char *ct)
{
    if (nedges)
        buf_printf(&pe->doc, " *\n * Packed edge kernels, the same contract for their own MR' x NR' and\n"
                             " * panels packed MR' high and NR' wide:\n");
    for (int i = 0; i < nedges; i++) {
        const struct kernel *k = &edges[i].k;
        char pname[160];
        strfmt(pname, sizeof pname, "%s_p%dx%d", name, k->mr, k->nr);
        emit_packed_fn(fns, &edges[i], pname);
        buf_printf(&pe->decl, "void %s(", pname);
        em_packed_params(&pe->decl, ta, tb, ct, pname);
        buf_puts(&pe->decl, ");\n");
        if (k->nr == pl->k.nr)
            buf_printf(&pe->plist, "%s{%d, %s}", pe->np++ ? ", " : "", k->mr, pname);
        else
            buf_printf(&pe->elist, "%s{%d, %d, (void *)%s}", pe->ne++ ? ", " : "", k->mr, k->nr,
                       pname);
        buf_printf(&pe->doc, " *   %s: %dx%d, %.2f cycles per iteration, unroll %d\n", pname,
                   k->mr, k->nr, edges[i].cycles_per_iter, edges[i].r.uf);
    }
    strfmt(pe->ne_text, sizeof pe->ne_text, "%d", pe->ne);
    strfmt(pe->np_text, sizeof pe->np_text, "%d", pe->np);
}

void em_packed_edges_free(struct packed_edges *pe)
{
    buf_free(&pe->decl); buf_free(&pe->elist); buf_free(&pe->plist);
    buf_free(&pe->doc);
}
