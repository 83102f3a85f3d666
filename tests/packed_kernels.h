/* packed_kernels.h: the kernels of a file with packed kernels only
 * (complex, rank-G): the main one and each packed edge, MR' x NR' on
 * operands packed as high and wide as it is, for e2e_cplx.c and
 * e2e_group.c. The includer defines KNAME, MR, NR, CAT and the type
 * kernel_fn (the main kernel's signature) first. */
struct kern { int mr, nr; kernel_fn *fn; };

static const struct { int mr, nr; void *fn; } col_edges[] = {
#if CAT(KNAME, _NEDGES)
    CAT(KNAME, _EDGE_LIST)
#else
    { 0, 0, NULL }
#endif
};
static const struct { int mr; kernel_fn *fn; } row_edges[] = {
#if CAT(KNAME, _NPEDGES)
    CAT(KNAME, _PEDGE_LIST)
#else
    { 0, NULL }
#endif
};
enum { MAX_KERNS = 1 + sizeof col_edges / sizeof *col_edges + sizeof row_edges / sizeof *row_edges };

/* The file's kernels into all (MAX_KERNS of room); returns how many. */
static int packed_kernels(struct kern *all)
{
    int n = 0;
    all[n++] = (struct kern){ MR, NR, KNAME };
    for (size_t e = 0; e < sizeof col_edges / sizeof *col_edges; e++)
        if (col_edges[e].fn)
            all[n++] = (struct kern){ col_edges[e].mr, col_edges[e].nr, (kernel_fn *)col_edges[e].fn };
    for (size_t e = 0; e < sizeof row_edges / sizeof *row_edges; e++)
        if (row_edges[e].fn) all[n++] = (struct kern){ row_edges[e].mr, NR, row_edges[e].fn };
    return n;
}
