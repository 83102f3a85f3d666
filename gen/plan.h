/* plan.h: the whole pipeline for one kernel, stage by stage:
 * machine -> kernel IR -> DAG -> schedule -> pipelined schedule ->
 * registers -> row tails. Emission and --explain read the finished plan. */
#ifndef GEMMGEN_PLAN_H
#define GEMMGEN_PLAN_H
#include "regalloc.h"
#include "tails.h"
#include "util.h"
#include <stddef.h>

struct options {
    const char *machine_path;
    enum elem elem;
    bool cplx;                  /* --type c64, c32: complex elements of type elem */
    int mr, nr, max_regs;       /* 0: derive */
    bool small_tile;            /* mr, nr from the machine's small_tile */
    bool no_sched, no_pipeline;
    bool paper;                 /* POCA exactly as printed (method.c) */
    int unroll;                 /* 0: from the RTG */
    int force_bs;               /* -1: from the machine / cost model */
    const char *name, *outdir;
    int explain;                /* 0 no, 1 text, 2 json, 3 svg */
    bool blis;
    int blis_api;               /* 0 (BLIS 0.9 typed) or 1 (BLIS 1.x/2.x) */
    bool print_cflags;
    int print;                  /* 2: --print-cc, 3: --print-runner */
    bool cflags_file;           /* also write NAME.cflags */
    enum compiler compiler;     /* whose flags those and the .h name */
};

struct plan {
    struct machine m;
    const struct target *t;
    struct kernel k;
    struct dag g;
    struct seq s;
    struct pipe p;
    struct rot r;
    int single_cycles;
    double resource_bound, fp_bound;
    double cycles_per_iter;     /* pipelined, floored by the resource bound */
    double fp_utilization;
    int rtg_uf;                 /* the RTG's unroll factor, before the machine's minimum */
    struct tail_choice tails[TAIL_COUNT];   /* the row tails (tails.c) */
    /* the in-place (_direct, _stream, _rows) kernels' plan where it is not
     * this one (plan_build_direct), else NULL */
    const struct plan *direct;
};

void plan_build(struct plan *pl, const struct options *o);
/* The plan of pl's in-place kernels into dp, and pl->direct set, where
 * pl's schedule was left a register short (returns 0: pl serves them). */
int plan_build_direct(struct plan *dp, struct plan *pl, const struct options *o);
void plan_free(struct plan *pl);
enum { MAX_EDGES = 7 };
struct edge_spec { int mr, nr, max_regs; };
int plan_edges(const struct plan *pl, struct edge_spec out[MAX_EDGES]);
void plan_build_edge(struct plan *ep, const struct plan *pl, const struct options *o,
                     const struct edge_spec *es);
const char *plan_default_name(const struct plan *pl, char *buf, size_t size);

/* edges: the plans of the nedges edge kernels (plan_edges); desc_file:
 * NAME_desc.h, the set descriptor for libgemmgen (emit_desc.c) */
void emit_kernel(const struct plan *pl, const struct plan *edges, int nedges,
                 const struct options *o, const char *name, struct buf *c_file,
                 struct buf *h_file, struct buf *desc_file);
void explain_text(const struct plan *pl, struct buf *out);
void explain_json(const struct plan *pl, struct buf *out);
void explain_svg(const struct plan *pl, struct buf *out);      /* explain_svg.c */
/* rtg_svg.c: the RTG of register class rc from y down (returns the y
 * below it), and the arrowheads it uses */
int rtg_svg_panel(struct buf *b, const struct plan *pl, int rc, int y, int width);
void rtg_svg_defs(struct buf *b);
/* --explain's account of gemmgen's extensions to POCA in use, each with
 * its reason, or of --paper (method.c). */
void method_text(const struct plan *pl, struct buf *out);
/* A complex kernel's strategy and its combine cost, its three parts
 * joined by sep (emit_cplx.c) */
void cstrat_text(struct buf *out, const struct plan *pl, const char *sep);
/* The rank-G multiply-add in a line (the header, --explain; emit_group.c). */
void rankg_text(struct buf *b, const struct plan *pl);

/* Template text embedded at build time (templates/). */
extern const char tmpl_kernel_c[], tmpl_kernel_h[], tmpl_kernel_fn[], tmpl_blis_wrapper[],
    tmpl_blis1_wrapper[], tmpl_kernel_desc[], tmpl_kernel_cplx_c[], tmpl_kernel_cplx_h[],
    tmpl_kernel_group_c[], tmpl_kernel_group_h[];
void tmpl_fill(struct buf *out, const char *tmpl, const char *const *keys,
               const char *const *vals, int n);
#endif
