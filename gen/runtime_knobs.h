/* runtime_knobs.h: the machine file's `runtime:` section. No POCA pass reads
 * it: these are libgemmgen's choices for the machine, handed over in the
 * set descriptor (emit_desc.c); gemmgen follows two of them, generating the
 * small tile on --small-tile and the _rows kernels for direct_b_rows. */
#ifndef GEMMGEN_RUNTIME_KNOBS_H
#define GEMMGEN_RUNTIME_KNOBS_H
#include <stdbool.h>

/* Each per-type array is indexed by enum elem (f32 0, f64 1), but
 * thread_edge's, by the runtime's types (its enum gg_type order). */
enum { RUNTIME_NTYPES = 6 };
extern const char *const runtime_type_names[RUNTIME_NTYPES];
struct runtime_knobs {
    /* small_tile: a second tile for the runtime's unpacked path at small
     * k, per type (mr 0: none); line: where the file gives it */
    struct { int mr, nr, line; } small_tile[2];
    int small_max_k;           /* small_tile.max_k: the deepest k it takes (0: the runtime's default) */
    /* narrow_panels: up to this k the unpacked path takes column panels of
     * the narrowest edge kernel's width (0: never) */
    int narrow_k[2];
    /* direct_b_rows: also emit _direct kernels reading B(p,j) at
     * b[p*ldb + j] where B is broadcast element by element (the runtime
     * reads B^T in place with them) */
    bool direct_b_rows;
    /* thread_edge: a thread's least work, edge^3 multiply-adds, per
     * runtime type in runtime_type_names' order (0: the runtime's table) */
    int thread_edge[RUNTIME_NTYPES];
};

/* Reads the `runtime:` mapping n into rk; errors name runtime.FIELD
 * (runtime_load.c). */
struct ydoc;
struct yaml_node_s;
void runtime_knobs_parse(struct ydoc *d, struct yaml_node_s *n, struct runtime_knobs *rk);
#endif
