/* emit.c: the plan as C with intrinsics. Statements follow the pipelined
 * schedule; every value is a variable named after its rotating register;
 * pointers move once per unrolled body and loads use immediate offsets. */
#include "emit_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *stmt_for(const struct em *e, const struct inst *in)
{
    const struct spell *sp = e->sp;
    switch (in->op) {
    case OP_LOAD_A: return in->ic == IC_VLOAD_PAIR ? sp->load_pair : sp->load;
    case OP_LOAD_B: return sp->load_b ? sp->load_b : sp->load;
    case OP_BCAST_B: return sp->bcast;
    case OP_SHUF_B: return sp->shuf[in->lane];
    case OP_FMA: return in->lane >= 0 ? sp->fma_lane : sp->fma;
    case OP_MUL: return sp->mul;
    case OP_ADD: return sp->add;
    case OP_GER: return sp->ger;
    case OP_CMLA: {
        const struct cstrat *cs = target_cstrat(e->k->t, e->k->elem);
        return in->lane >= 0 ? cs->cmla_lane[in->rot] : cs->cmla[in->rot];
    }
    case OP_PREFETCH: return sp->prefetch;
    default: return NULL;
    }
}

/* A tile's row stride in bytes: a packed group of its stream (B, the
 * tile's rows) or one k group of every row of the panel (A, VNNI quads). */
static int tile_stride(const struct em *e, const struct inst *in)
{
    const struct kernel *k = e->k;
    int bytes = elem_operand_bytes(k->elem);
    return in->stream == ST_A ? k->mr * k->group_a * bytes : k->group * bytes;
}

/* The packed kernel's pointer of each stream: the next B panel's is bp's. */
static const char *const stream_ptr[ST_COUNT] = { "ap", "bp", "an", "bp" };
static enum stream ptr_stream(enum stream s) { return s == ST_BNEXT ? ST_B : s; }

/* `bumped`: the pointers (bits of ptr_stream) already bumped in this body. */
static void address(const struct em *e, const struct inst *in, int iter, unsigned bumped,
                    char *out, size_t size)
{
    enum stream ps = ptr_stream(in->stream);
    int el = iter * e->k->step[in->stream], g = e->k->group;
    if (bumped & 1u << ps) el -= e->pl->r.uf * e->k->step[ps];
    if (e->direct) {
        direct_address(e, in, iter, out, size);
        return;
    }
    /* the IR counts lanes; the pointers walk A's and B's elements, G a lane */
    if (in->op == OP_PREFETCH) {
        strfmt(out, size, "(const char *)(%s + %d) + %s%d", stream_ptr[in->stream], el * g,
               in->stream == ST_BNEXT ? "bn_off + " : "", in->offset);
        return;
    }
    strfmt(out, size, "%s + %d", stream_ptr[in->stream], (el + in->offset) * g);
}

/* A pointer bump where the schedule puts it (the body's last copy of an
 * in-order kernel): the whole body's step, so later copies need none. */
static void emit_bump(struct buf *b, const struct em *e, const struct inst *in, unsigned *bumped,
                      int indent)
{
    buf_printf(b, "%*s%s += %d;\n", indent, "", stream_ptr[in->stream],
               e->pl->r.uf * e->k->step[in->stream] * e->k->group);
    *bumped |= 1u << in->stream;
}

/* One instruction of Pµ (or the prologue) in kernel copy `copy`; `bumped`
 * non-null: the copy that bumps the pointers in place. */
static void emit_inst(struct buf *b, const struct em *e, int i, int delta, int copy, int indent,
                      unsigned *bumped)
{
    const struct inst *in = &e->k->inst[i];
    if (in->op == OP_PTR_ADD && bumped) emit_bump(b, e, in, bumped, indent);
    const char *fmt = stmt_for(e, in);
    if (!fmt) return;                    /* pointer bumps: above, or once per body */
    /* in place, only _stream prefetches: the next A tile, under the flag
     * `stream` of the body it shares with _direct */
    bool anext = e->stream && in->op == OP_PREFETCH && in->stream == ST_ANEXT;
    if (e->direct && in->op == OP_PREFETCH && !anext) return;
    char d[32] = "", opn[3][32] = { "", "", "" }, mem[96] = "";
    const char *ops[3] = { opn[0], opn[1], opn[2] };
    if (in->def >= 0) em_reg_name(e, in->def, copy, d, sizeof d);
    for (int s = 0; s < NSRC; s++) {
        int v = in->src[s];
        if (v < 0) continue;
        int dist = e->def_iter[v] + in->carried[s] - delta;
        em_reg_name(e, v, copy - dist, opn[s], sizeof opn[s]);
    }
    if (in->op == OP_LOAD_A || in->op == OP_LOAD_B || in->op == OP_BCAST_B || in->op == OP_PREFETCH)
        address(e, in, copy + delta, bumped ? *bumped : 0, mem, sizeof mem);
    buf_printf(b, "%*s%s", indent, "", anext ? "if (stream) " : "");
    em_expand(b, fmt, d, ops, mem, in->op == OP_PREFETCH ? in->hint : e->sp->tiles && *mem ? tile_stride(e, in) : in->lane, e->sp->vtype);
    buf_printf(b, "\n");
}

static void emit_copy(struct buf *b, const struct em *e, int copy, int indent, bool s_part_only,
                      unsigned *bumped)
{
    const struct seq *q = &e->pl->p.q;
    for (int x = 0; x < q->n; x++)
        if (!s_part_only || q->iter[x] == 0)
            emit_inst(b, e, q->inst[x], q->iter[x], copy, indent, bumped);
}

static void emit_decls(struct buf *b, const struct em *e)
{
    if (e->sp->tiles) return;   /* tiles are named by number, not C variables */
    const char *types[RC_COUNT] = { e->sp->vtype, e->sp->pairtype,
                                    e->sp->acctype ? e->sp->acctype : e->sp->vtype };
    for (int rc = 0; rc < RC_COUNT; rc++) {
        int n = e->pl->r.nregs[rc];
        for (int x = 0; x < n; x++) {
            if (x % 8 == 0) buf_printf(b, "%s    %s ", x ? ";\n" : "", types[rc]);
            else buf_puts(b, ", ");
            buf_printf(b, "%s%d", e->k->t->regprefix[rc], x);
        }
        if (n) buf_puts(b, ";\n");
    }
}

static void emit_zero_accs(struct buf *b, const struct em *e, const char *ind)
{
    for (int a = 0; a < e->k->nacc; a++) {
        char d[32];
        const char *ops[3] = { "", "", "" };
        em_reg_name(e, e->k->acc[a], 0, d, sizeof d);
        em_line(b, ind, e->sp->zero, d, ops, "", e->sp->vtype);
    }
}

static void emit_zero(struct buf *b, const struct em *e)
{
    if (e->sp->prologue) buf_printf(b, "    %s\n", e->sp->prologue);
    if (!e->sp->load_acc) {
        emit_zero_accs(b, e, "    ");
        return;
    }
    /* C through the accumulators themselves where their rows are C's
     * columns whole and unscaled (emit_store.c, em_acc_c) */
    buf_printf(b, "    const int c_tiles_ = m == %d && n == %d && rs_c == 1 && *alpha == 1 && "
                  "(*beta == 0 || *beta == 1);\n    if (c_tiles_ && *beta == 1) {\n",
               e->k->mr, e->k->nr);
    em_acc_c(b, e, e->sp->load_acc, "        ");
    buf_puts(b, "    } else {\n");
    emit_zero_accs(b, e, "        ");
    buf_puts(b, "    }\n");
}

static void fill_def_iter(struct em *e)
{
    const struct seq *q = &e->pl->p.q;
    e->def_iter = xcalloc((size_t)e->k->nval, sizeof *e->def_iter);
    for (int x = 0; x < q->n; x++) {
        int d = e->k->inst[q->inst[x]].def;
        if (d >= 0) e->def_iter[d] = q->iter[x];
    }
}

/* In order, nothing hides a bump's latency from the loads after it: the
 * packed kernel bumps each pointer where the schedule puts it (after its
 * stream's last access) instead of at the end of the body, where the next
 * pass's first loads would wait on it. */
static bool bumps_in_place(const struct em *e)
{
    return !e->direct && !e->k->paper && e->pl->m.order == DISPATCH_IN_ORDER;
}

/* Bits of ptr_stream: the pointers the IR bumps itself. */
static unsigned ir_bumps(const struct kernel *k)
{
    unsigned m = 0;
    for (int i = 0; i < k->ninst; i++)
        if (k->inst[i].op == OP_PTR_ADD) m |= 1u << k->inst[i].stream;
    return m;
}

static void body_sections(const struct em *e, struct buf *pro, struct buf *loop,
                          struct buf *rem, struct buf *epi)
{
    const struct plan *pl = e->pl;
    for (int x = 0; x < pl->p.pro.n; x++) emit_inst(pro, e, pl->p.pro.inst[x], 1, -1, 8, NULL);
    unsigned bumped = 0;
    for (int u = 0; u < pl->r.uf; u++) {
        buf_printf(loop, "            /* copy %d */\n", u);
        emit_copy(loop, e, u, 12, false, bumps_in_place(e) && u == pl->r.uf - 1 ? &bumped : NULL);
    }
    for (int u = 0; u + 1 < pl->r.uf; u++) {
        buf_printf(rem, "        if (rem > %d) {\n", u);
        emit_copy(rem, e, u, 12, false, NULL);
        buf_puts(rem, "        }\n");
    }
    for (int u = 0; u < pl->r.uf; u++) {
        buf_printf(epi, "        case %d:\n", u);
        emit_copy(epi, e, u, 12, true, NULL);
        if (e->sp->fence_cases)    /* an operand of its own: no two cases merge */
            buf_printf(epi, "            __asm__ volatile(\"\" :: \"i\"(%d));\n", u);
        buf_puts(epi, "            break;\n");
    }
}

/* The machine file by its name only: the output must not depend on where
 * the checkout lives. */
const char *em_machine_file(const struct plan *pl)
{
    const char *slash = strrchr(pl->m.path, '/');
    return slash ? slash + 1 : pl->m.path;
}

void em_how_made(struct buf *b, const struct plan *pl)
{
    const struct kernel *k = &pl->k;
    buf_printf(b, " *   machine %s (%s), %s, %d-bit vectors, MaxReg %d\n", pl->m.name,
               em_machine_file(pl), pl->t->name, pl->m.vector_bits, k->max_regs);
    buf_printf(b, " *   B strategy %s; %d instructions per k iteration, %d accumulators\n",
               bstrat_names[k->bs], k->ninst, k->nacc);
    buf_printf(b, " *   single-iteration schedule %d cycles; pipelined: %d instructions of\n"
                  " *   the next iteration moved up, %.2f cycles per iteration (resource\n"
                  " *   bound %.2f), predicted FP-unit utilization %.1f%%\n",
               pl->single_cycles, pl->p.j, pl->cycles_per_iter, pl->resource_bound,
               100.0 * pl->fp_utilization);
    buf_printf(b, " *   LiveReg at most %d; unroll factor %d, %s\n", pl->p.max_live, pl->r.uf,
               pl->r.rotating ? "rotating register allocation" : "no cycle partition found: one name per value");
    if (pl->r.uf != pl->rtg_uf)
        buf_printf(b, " *   (the RTG gives %d; the machine file asks for at least %d)\n", pl->rtg_uf,
                   pl->m.unroll);
}

/* The flags of the compiler the kernel is built with (--compiler: the .h
 * and the runtime's descriptor) into flags, and the header's command line
 * for each compiler into compile. */
void em_cflags(struct buf *flags, struct buf *compile, const struct plan *pl,
               const struct options *o)
{
    static const char *const lead[COMPILER_COUNT] = { " * Compile with: ", " *           or: " };
    for (int c = 0; c < COMPILER_COUNT; c++) {
        struct buf f = { 0 };
        target_cflags(&f, pl->t, pl->k.elem, pl->k.bs, (enum compiler)c, &pl->m);
        buf_printf(compile, "%s%s -O2 %s\n", lead[c], compiler_names[c], f.s);
        if (c == (int)o->compiler) buf_puts(flags, f.s);
        buf_free(&f);
    }
}

const char *em_indent_for(const char *name)
{
    static char sp[80];
    size_t n = strlen("void ") + strlen(name) + 1;
    if (n >= sizeof sp) n = sizeof sp - 1;
    memset(sp, ' ', n);
    sp[n] = '\0';
    return sp;
}

void em_blis_section(struct buf *b, const struct plan *pl, const struct options *o,
                     const char *name, const char *ctype, const char *mr, const char *nr,
                     const char *rowpref)
{
    const char *keys[] = { "NAME", "CTYPE", "CH", "MR", "NR", "ROW_PREF" };
    static const char *const ch[2][ELEM_COUNT] = { { "s", "d" }, { "c", "z" } };
    const char *vals[] = { name, ctype, ch[pl->k.cplx][pl->k.elem], mr, nr, rowpref };
    buf_puts(b, "\n");
    tmpl_fill(b, o->blis_api ? tmpl_blis1_wrapper : tmpl_blis_wrapper, keys, vals, 6);
}

static bool uses_stream(const struct kernel *k, enum stream s)
{
    for (int i = 0; i < k->ninst; i++)
        if (k->inst[i].op == OP_PREFETCH && k->inst[i].stream == s) return true;
    return false;
}

/* The packed kernel's stream pointers and their bumps once per unrolled
 * body. The next B micro-panel is addressed from bp, NR*k elements on
 * (packed panels are contiguous): a pointer of its own, one more bump in
 * the schedule, changed the unroll factor and GCC spilled accumulators
 * (docs/decisions.md). */
static void packed_pointers(const struct em *e, struct buf *ptrs, struct buf *bumps)
{
    const struct kernel *k = e->k;
    int uf = e->pl->r.uf;
    const char *rt = elem_ctype[k->elem];
    int g = k->group;
    if (k->cplx)   /* complex operands walked as their reals */
        buf_printf(ptrs, "    const %s *ap = (const %s *)a, *bp = (const %s *)b, *an = (const %s *)a_next;\n",
                   rt, rt, rt, rt);
    else if (g > 1)   /* rank-G: the loop runs over k groups (k padded with zeros) */
        buf_printf(ptrs, "    const %s *ap = a, *an = a_next;\n    const %s *bp = b;\n"
                         "    k = (k + %d) / %d;   /* k groups of %d */\n",
                   elem_atype(k->elem), elem_btype(k->elem), g - 1, g, g);
    else buf_printf(ptrs, "    const %s *ap = a, *bp = b, *an = a_next;\n", rt);
    if (uses_stream(k, ST_BNEXT))
        buf_printf(ptrs, "    const int64_t bn_off = %d * k * (int64_t)sizeof(%s);   /* to the next B micro-panel */\n",
                   k->nr * g, g > 1 ? elem_btype(k->elem) : kernel_ctype(k));
    buf_puts(ptrs, "    (void)b_next;");
    unsigned inside = bumps_in_place(e) ? ir_bumps(k) : 0;
    const enum stream s[3] = { ST_A, ST_B, ST_ANEXT };
    for (int x = 0; x < 3; x++)
        if (!(inside & 1u << s[x]))
            buf_printf(bumps, "%s            %s += %d;", bumps->s ? "\n" : "", stream_ptr[s[x]],
                       uf * k->step[s[x]] * g);
    if (!bumps->s) buf_puts(bumps, "            /* every pointer is bumped in the body */");
}

/* The parameters of NAME (packed operands), NAME_direct or NAME_stream
 * (NAME_direct's, then a_next), continuation lines indented under the
 * opening parenthesis of "void FNAME(". */
/* The packed kernel's parameters with A's, B's and C's types (a rank-G
 * kernel's operands are not C's type). */
void em_packed_params(struct buf *b, const char *ta, const char *tb, const char *ct,
                      const char *fname)
{
    const char *in = em_indent_for(fname);
    buf_printf(b, "int64_t m, int64_t n, int64_t k, const %s *alpha, const %s *a,\n"
                  "%sconst %s *b, const %s *beta, %s *c, int64_t rs_c, int64_t cs_c,\n"
                  "%sconst %s *a_next, const %s *b_next", ct, ta, in, tb, ct, ct, in, ta, tb);
}

static void fn_params(struct buf *b, const char *ct, const char *fname, bool direct, bool stream)
{
    const char *in = em_indent_for(fname);
    if (direct) {
        buf_printf(b, "int64_t m, int64_t n, int64_t k, const %s *alpha, const %s *a, int64_t lda,\n"
                      "%sconst %s *b, int64_t ldb, const %s *beta, %s *c, int64_t rs_c, int64_t cs_c",
                   ct, ct, in, ct, ct, ct);
        if (stream) buf_printf(b, ",\n%sconst %s *a_next", in, ct);
    } else {
        em_packed_params(b, ct, ct, ct, fname);
    }
}

static void params(struct buf *b, const char *ct, const char *fname, bool direct)
{
    fn_params(b, ct, fname, direct, false);
}

/* The fetch of one column (row) of C at pf_c, at indent ind. */
static void c_prefetch_one(struct buf *b, const char *ind)
{
    buf_printf(b, "%s__builtin_prefetch(pf_c, 1, 3);\n"
                  "%s__builtin_prefetch(pf_c + pf_span / 2, 1, 3);\n"
                  "%s__builtin_prefetch(pf_c + pf_span, 1, 3);\n"
                  "%spf_c += pf_step;\n", ind, ind, ind, ind);
}

/* C's prefetch in the packed kernel and in _stream, which run inside big
 * problems where C comes from far away (the other direct ones run on small
 * problems, whose C is in cache: there prefetches only cost). All of C's
 * lines fetched at once before the k loop stall on their misses
 * (docs/decisions.md), so each pass of the k loop fetches
 * one column (one row when C is row-stored): its first, middle and last
 * element, which covers any alignment of up to 128 bytes. The columns the
 * passes cannot reach go before the loop. `flagged`: only when the flag
 * `stream` is set (the body of _direct and _stream). A machine whose file
 * says `c_in_loop: false` (an in-order core, where the block's branch and
 * pointer bump stall the pipe) fetches all of C before the loop. */
static void c_prefetch(struct buf *setup, struct buf *in_loop, const char *ct, int uf,
                       bool flagged, bool spread)
{
    const char *ncols = flagged ? "stream ? (rs_c == 1 ? n : m) : 0" : "rs_c == 1 ? n : m";
    buf_puts(setup, spread
        ? "    /* C is read (or overwritten) after the k loop: the passes of the k loop\n"
          "     * fetch it a column (row) each; those they cannot reach go now */\n"
        : "    /* C is read (or overwritten) after the k loop: its lines go now */\n");
    buf_puts(setup, "    const int64_t pf_step = rs_c == 1 ? cs_c : rs_c;\n"
                    "    const int64_t pf_span = rs_c == 1 ? m - 1 : (n - 1) * cs_c;\n");
    if (spread)
        buf_printf(setup, "    int64_t pf_left = %s;\n"
                          "    %s *pf_c = c;\n"
                          "    for (int64_t passes = k > 0 ? (k - 1) / %d : 0; pf_left > passes; "
                          "pf_left--) {\n", ncols, ct, uf);
    else
        buf_printf(setup, "    %s *pf_c = c;\n"
                          "    for (int64_t pf_left = %s; pf_left > 0; pf_left--) {\n", ct, ncols);
    c_prefetch_one(setup, "        ");
    buf_puts(setup, "    }\n");
    if (!spread) return;
    /* expected false: the block goes out of line, and the loop past the
     * first passes runs its compare and branch only */
    buf_printf(in_loop, "            if (__builtin_expect(%spf_left > 0, 0)) {\n",
               flagged ? "stream && " : "");
    c_prefetch_one(in_loop, "                ");
    buf_puts(in_loop, "                pf_left--;\n            }\n");
}

/* One function of the file: the packed kernel or its _direct variant,
 * the same plan with other addresses. Returns 1 when row-stored C is the
 * fast case. */
static int emit_function(struct buf *cf, struct em *e, const char *fname)
{
    const struct plan *pl = e->pl;
    const char *ct = kernel_ctype(&pl->k);
    struct buf decls = { 0 }, zero = { 0 }, pro = { 0 }, loop = { 0 }, rem = { 0 }, epi = { 0 },
               store = { 0 }, par = { 0 }, ptrs = { 0 }, bumps = { 0 };
    emit_decls(&decls, e);
    emit_zero(&zero, e);
    body_sections(e, &pro, &loop, &rem, &epi);
    int row_pref = emit_store(&store, e);
    if (elem_group(pl->k.elem) > 1)
        em_packed_params(&par, elem_atype(pl->k.elem), elem_btype(pl->k.elem), ct, fname);
    else fn_params(&par, ct, fname, e->direct, e->stream);
    if (e->stream) buf_puts(&par, ", const int stream");
    int uf = pl->r.uf;
    if (e->direct) {
        direct_pointers(e, &ptrs);
        direct_bumps(e, &bumps);
    } else {
        packed_pointers(e, &ptrs, &bumps);
    }
    struct buf pfc = { 0 }, pfc_loop = { 0 };
    if (!e->direct || e->stream) c_prefetch(&pfc, &pfc_loop, ct, uf, e->stream,
                                              pl->m.c_prefetch_in_loop);
    char ufs[16], j[16];
    strfmt(ufs, sizeof ufs, "%d", uf);
    strfmt(j, sizeof j, "%d", pl->p.j);
    const char *keys[] = { "LINKAGE", "FNAME", "PARAMS", "POINTERS", "DECLS", "ZERO", "J",
                           "PROLOGUE", "UF", "LOOP", "BUMPS", "REMAINDER", "EPILOGUE", "STORE",
                           "PREFETCH_C", "PREFETCH_C_LOOP", "IT_STEP", "IT_FIRST" };
    /* in order, the count goes down first, so the branch back waits on nothing */
    bool inorder = pl->m.order == DISPATCH_IN_ORDER;
    /* the shared body is inlined into its two wrappers, where the flag folds */
    const char *link = e->stream ? "static inline __attribute__((always_inline))\n" : "";
    const char *vals[] = { link, fname, par.s, ptrs.s, decls.s ? decls.s : "",
                           zero.s ? zero.s : "", j, pro.s ? pro.s : "", ufs,
                           loop.s ? loop.s : "", bumps.s, rem.s ? rem.s : "", epi.s ? epi.s : "",
                           store.s, pfc.s ? pfc.s : "", pfc_loop.s ? pfc_loop.s : "",
                           inorder ? "" : "it--", inorder ? "            it--;\n" : "" };
    tmpl_fill(cf, tmpl_kernel_fn, keys, vals, (int)(sizeof keys / sizeof *keys));
    buf_free(&decls); buf_free(&zero); buf_free(&pro); buf_free(&loop); buf_free(&rem);
    buf_free(&epi); buf_free(&store); buf_free(&par); buf_free(&ptrs); buf_free(&bumps);
    buf_free(&pfc); buf_free(&pfc_loop);
    return row_pref;
}

static void edge_name(char *out, size_t size, const char *name, const struct plan *edge)
{
    strfmt(out, size, "%s_e%dx%d", name, edge->k.mr, edge->k.nr);
}

static void stream_name(char *out, size_t size, const char *name)
{
    strfmt(out, size, "%s_stream", name);
}

/* A row edge (MR' x NR) also gets a packed variant, NAME_p<MR'>x<NR>: the
 * packed path's short last row panel, packed MR' high, with B's packed
 * NR-wide panel as it is (the direct variants read B in place). */
static bool packed_edge(const struct plan *pl, const struct plan *edge)
{
    return edge->k.nr == pl->k.nr && edge->k.mr < pl->k.mr;
}

static void packed_edge_name(char *out, size_t size, const char *name, const struct plan *edge)
{
    strfmt(out, size, "%s_p%dx%d", name, edge->k.mr, edge->k.nr);
}

/* The packed function of plan pl: NAME, or a packed row edge NAME_p<MR'>x<NR>.
 * Returns 1 when row-stored C is the fast case. */
int emit_packed_fn(struct buf *fns, const struct plan *pl, const char *fname)
{
    struct em e = { .pl = pl, .k = &pl->k, .sp = target_spell(pl->t, pl->k.elem, pl->k.bs) };
    fill_def_iter(&e);
    int row_pref = emit_function(fns, &e, fname);
    free(e.def_iter);
    return row_pref;
}

/* A direct function of plan pl: NAME_direct, an edge kernel
 * NAME_e<MR'>x<NR'> (the direct variant of its own plan), or with stream
 * NAME_in_place, the body of NAME_direct and NAME_stream (below). */
static void emit_direct_fn(struct buf *fns, const struct plan *pl, const char *fname, bool stream,
                           bool b_rows)
{
    struct em e = { .pl = pl, .k = &pl->k, .sp = &pl->t->sp[pl->k.elem], .direct = true,
                    .stream = stream, .b_rows = b_rows };
    fill_def_iter(&e);
    direct_setup(&e);
    emit_function(fns, &e, fname);
    free(e.def_iter);
}

/* The machine's runtime.direct_b_rows, where B is broadcast element by element and
 * the _direct kernels read it down its columns: NAME_direct_rows and each
 * edge's NAME_e<MR'>x<NR'>_rows, the same schedules reading B(p,j) at
 * b[p*ldb + j], so the runtime reads B^T in place instead of copying each
 * panel into columns. */
static bool rows_variants(const struct plan *pl)
{
    return pl->m.runtime.direct_b_rows && kernel_b_cols(&pl->k);
}

static void rows_name(char *out, size_t size, const char *fname)
{
    strfmt(out, size, "%s_rows", fname);
}

static void emit_rows_fns(struct buf *fns, const struct plan *pl, const struct plan *edges,
                          int nedges, const char *name, const char *dname)
{
    char rname[176], ename[160];
    rows_name(rname, sizeof rname, dname);
    emit_direct_fn(fns, pl, rname, false, true);
    for (int i = 0; i < nedges; i++) {
        edge_name(ename, sizeof ename, name, &edges[i]);
        rows_name(rname, sizeof rname, ename);
        emit_direct_fn(fns, &edges[i], rname, false, true);
    }
}

/* NAME_direct and NAME_stream as two calls of one body, NAME_in_place,
 * which takes a_next and the flag `stream`: the flag's constant folds the
 * prefetches of a_next and C out of _direct, and the file holds the
 * schedule and the C update once instead of twice. */
static void emit_in_place_pair(struct buf *fns, const struct plan *pl, const char *name,
                               const char *dname)
{
    const char *ct = elem_ctype[pl->k.elem];
    char body[160], sname[160];
    strfmt(body, sizeof body, "%s_in_place", name);
    stream_name(sname, sizeof sname, name);
    emit_direct_fn(fns, pl, body, true, false);
    const char *fnames[2] = { dname, sname };
    for (int s = 0; s < 2; s++) {
        struct buf par = { 0 };
        fn_params(&par, ct, fnames[s], true, s == 1);
        buf_printf(fns, "\nvoid %s(%s)\n{\n"
                        "    %s(m, n, k, alpha, a, lda, b, ldb, beta, c, rs_c, cs_c, %s, %d);\n}\n",
                   fnames[s], par.s, body, s ? "a_next" : "a", s);
        buf_free(&par);
    }
}

/* The row-tail kernels, for a short last row panel of few rows, each
 * with the signature of _direct, in the order the runtime tries them
 * (tails.h): name suffix, header key, A's layout (also the k-group emitter's
 * G; 0: the dot kernel), contract lines (name, rows). */
static const struct row_tail {
    const char *suffix;
    const char *key;           /* NAME_<key>_ROWS, NAME_<key>_MIN_K */
    int group;                 /* A's layout: 0 rows along k, G groups of G k steps (1: columns) */
    const char *doc;
} row_tails[] = {
    { "dot", "DOT", 0,
      " *   %s: m <= %d rows, any n, by dot products along k: A(i,p) at\n"
      " *     a[i*lda + p] (rows along k), B(p,j) at b[p + j*ldb]; reads only\n"
      " *     rows i < m, p < k and j < n (for the last rows of a row panel).\n" },
    { "quad", "QUAD", 4,
      " *   %s: m <= %d rows, any n, four k steps per vector: A(i,p) at\n"
      " *     a[(p/4)*lda + 4*i + p%%4] (rows packed in groups of 4 k steps, zero\n"
      " *     past k), B(p,j) at b[p + j*ldb]; reads B only for p < k and j < n,\n"
      " *     stores only rows i < m.\n" },
    { "half", "HALF", 1,
      " *   %s: m <= %d rows, any n, half-width row vectors: A(i,p) at\n"
      " *     a[p*lda + i] (a column panel, m <= rows <= lda; rows past m read),\n"
      " *     B(p,j) at b[p + j*ldb]; reads B only for p < k and j < n, stores\n"
      " *     only rows i < m.\n" },
    { "pair", "PAIR", 2,
      " *   %s: m <= %d rows, any n, two k steps per vector: A(i,p) at\n"
      " *     a[(p/2)*lda + 2*i + p%%2] (rows packed in k pairs, the partner of\n"
      " *     an odd last p zero), B(p,j) at b[p + j*ldb]; reads B only for p < k\n"
      " *     and j < n, stores only rows i < m.\n" },
};
enum { NTAILS = sizeof row_tails / sizeof *row_tails };
_Static_assert((int)NTAILS == (int)TAIL_COUNT, "a row_tails entry for each enum tail, in its order");

/* The functions of the file: packed, direct, edges; returns the kernel's
 * C preference. */
static int emit_functions(struct buf *fns, const struct plan *pl, const struct plan *edges,
                          int nedges, const char *name, const char *dname)
{
    int row_pref = emit_packed_fn(fns, pl, name);
    const struct plan *dp = pl->direct ? pl->direct : pl;
    /* the packed kernel alone compiles in a fraction of the time: what
     * gemmbench's ablation sets need (ggkernel --packed-only) */
    buf_puts(fns, "\n#ifndef GEMMGEN_PACKED_ONLY\n");
    if (direct_streams(&dp->k)) emit_in_place_pair(fns, dp, name, dname);
    else emit_direct_fn(fns, dp, dname, false, false);
    for (int i = 0; i < nedges; i++) {
        char ename[160];
        edge_name(ename, sizeof ename, name, &edges[i]);
        emit_direct_fn(fns, &edges[i], ename, false, false);
        if (!packed_edge(pl, &edges[i])) continue;
        packed_edge_name(ename, sizeof ename, name, &edges[i]);
        emit_packed_fn(fns, &edges[i], ename);
    }
    if (rows_variants(pl)) emit_rows_fns(fns, dp, edges, nedges, name, dname);
    for (size_t t = 0; t < NTAILS; t++) {
        int rows = pl->tails[t].rows;
        if (!rows) continue;
        char tname[160];
        struct buf par = { 0 };
        strfmt(tname, sizeof tname, "%s_%s", name, row_tails[t].suffix);
        params(&par, elem_ctype[pl->k.elem], tname, true);
        if (row_tails[t].group) emit_kgroup(fns, pl, row_tails[t].group, rows, tname, par.s);
        else emit_dot(fns, pl, rows, tname, par.s);
        buf_free(&par);
    }
    buf_puts(fns, "#endif /* GEMMGEN_PACKED_ONLY */\n");
    return row_pref;
}

/* The edge kernels' declarations and list (header) and contract lines (.c). */
static void edge_texts(struct buf *decl, struct buf *list, struct buf *doc, const struct plan *pl,
                       const struct plan *edges, int nedges, const char *name)
{
    if (nedges)
        buf_printf(doc, " *   Edge kernels, each with the signature of %s_direct, for the\n"
                        " *   last row and column panels when they are short:\n", name);
    for (int i = 0; i < nedges; i++) {
        const struct plan *e = &edges[i];
        char ename[160];
        edge_name(ename, sizeof ename, name, e);
        buf_printf(decl, "void %s(", ename);
        params(decl, elem_ctype[pl->k.elem], ename, true);
        buf_puts(decl, ");\n");
        buf_printf(list, "%s{%d, %d, %s}", i ? ", " : "", e->k.mr, e->k.nr, ename);
        buf_printf(doc, " *     %s: %dx%d, %.2f cycles per iteration, unroll %d\n", ename,
                   e->k.mr, e->k.nr, e->cycles_per_iter, e->r.uf);
    }
}

/* The rows variants' declarations, list and contract line (none without
 * them). */
static void rows_texts(struct buf *decl, struct buf *list, struct buf *doc, const struct plan *pl,
                       const struct plan *edges, int nedges, const char *name, const char *dname)
{
    if (!rows_variants(pl)) return;
    const char *ct = elem_ctype[pl->k.elem];
    char rname[176], ename[160];
    rows_name(rname, sizeof rname, dname);
    buf_printf(decl, "void %s(", rname);
    params(decl, ct, rname, true);
    buf_puts(decl, ");\n");
    buf_printf(doc, " *   %s and the edge kernels' _rows: the same, B(p,j) at\n"
                    " *     b[p*ldb + j] (B^T in place).\n", rname);
    for (int i = 0; i < nedges; i++) {
        edge_name(ename, sizeof ename, name, &edges[i]);
        rows_name(rname, sizeof rname, ename);
        buf_printf(decl, "void %s(", rname);
        params(decl, ct, rname, true);
        buf_puts(decl, ");\n");
        buf_printf(list, "%s{%d, %d, %s}", i ? ", " : "", edges[i].k.mr, edges[i].k.nr, rname);
    }
}

/* The same for the packed row edges; returns how many there are. */
static int packed_edge_texts(struct buf *decl, struct buf *plist, struct buf *doc,
                             const struct plan *pl, const struct plan *edges, int nedges,
                             const char *name)
{
    int np = 0;
    for (int i = 0; i < nedges; i++) {
        if (!packed_edge(pl, &edges[i])) continue;
        char pname[160];
        packed_edge_name(pname, sizeof pname, name, &edges[i]);
        buf_printf(decl, "void %s(", pname);
        params(decl, elem_ctype[pl->k.elem], pname, false);
        buf_puts(decl, ");\n");
        buf_printf(plist, "%s{%d, %s}", np++ ? ", " : "", edges[i].k.mr, pname);
        buf_printf(doc, " *     %s: the %dx%d plan, packed operands (A %d rows high)\n",
                   pname, edges[i].k.mr, edges[i].k.nr, edges[i].k.mr);
    }
    return np;
}

/* NAME_stream's declaration (header) and contract lines (.c). */
static void stream_texts(struct buf *decl, struct buf *doc, const char *ctype, const char *name)
{
    char sname[160];
    stream_name(sname, sizeof sname, name);
    buf_printf(decl, "void %s(", sname);
    fn_params(decl, ctype, sname, true, true);
    buf_puts(decl, ");\n");
    buf_printf(doc, " *   %s: %s_direct that, as it reads A(i,p),\n"
                    " *     also prefetches a_next[i + p*lda] (the next A tile in place).\n",
               sname, name);
}

/* What the templates say of the row tails: declarations (header), contract
 * lines (.c), the list the runtime reads ({function, rows, min k, group,
 * k step, all k})
 * and its length, and each tail's KEY_ROWS / KEY_MIN_K (0 when absent). */
struct tail_texts {
    struct buf decl, doc, list;
    char n[8], key[NTAILS][2][24], val[NTAILS][2][16];
};

static void tail_texts(struct tail_texts *tt, const struct plan *pl, const char *name)
{
    int n = 0;
    for (size_t t = 0; t < NTAILS; t++) {
        const struct row_tail *rt = &row_tails[t];
        const struct tail_choice *tc = &pl->tails[t];
        int rows = tc->rows, min_k = rows ? tc->min_k : 0;
        strfmt(tt->key[t][0], sizeof tt->key[t][0], "%s_ROWS", rt->key);
        strfmt(tt->key[t][1], sizeof tt->key[t][1], "%s_MIN_K", rt->key);
        strfmt(tt->val[t][0], sizeof tt->val[t][0], "%d", rows);
        strfmt(tt->val[t][1], sizeof tt->val[t][1], "%d", min_k);
        if (!rows) continue;
        char tname[160];
        strfmt(tname, sizeof tname, "%s_%s", name, rt->suffix);
        buf_printf(&tt->decl, "void %s(", tname);
        params(&tt->decl, elem_ctype[pl->k.elem], tname, true);
        buf_puts(&tt->decl, ");\n");
        buf_printf(&tt->doc, rt->doc, tname, rows);
        buf_printf(&tt->list, "%s{(void *)%s, %d, %d, %d, %d, %d}", n++ ? ", " : "", tname, rows,
                   min_k, rt->group, tc->kstep, tc->all_k);
    }
    strfmt(tt->n, sizeof tt->n, "%d", n);
}

/* The gemmgen options that changed the kernel, for the regenerate line. */
void em_args_text(char *args, size_t size, const struct options *o)
{
    args[0] = '\0';
    if (o->max_regs) strfmt(args + strlen(args), size - strlen(args), " --max-regs %d", o->max_regs);
    if (o->no_sched) strcat(args, " --no-sched");
    if (o->no_pipeline) strcat(args, " --no-pipeline");
    if (o->unroll) strfmt(args + strlen(args), size - strlen(args), " --unroll %d", o->unroll);
    if (o->blis) strcat(args, o->blis_api ? " --blis --blis-api 1" : " --blis");
    if (o->compiler != COMPILER_GCC)
        strfmt(args + strlen(args), size - strlen(args), " --compiler %s", compiler_names[o->compiler]);
}

/* The header's prototype of the BLIS wrapper, declared only where blis.h
 * (its types) was included first. */
void em_blis_decl_text(char *out, size_t size, const struct options *o, const char *name,
                       const char *ctype)
{
    out[0] = '\0';
    if (!o->blis) return;
    strfmt(out, size,
           "#ifdef BLIS_H\n/* the BLIS micro-kernel wrapper (gemmgen --blis) */\nvoid %s_blis(%s);\n#endif\n",
           name, o->blis_api ? "dim_t, dim_t, dim_t, const void *, const void *, const void *, "
           "const void *, void *, inc_t, inc_t, auxinfo_t *, const cntx_t *"
           : "dim_t, dim_t, dim_t, CTYPE_ *, CTYPE_ *, CTYPE_ *, CTYPE_ *, CTYPE_ *, inc_t, inc_t, "
           "auxinfo_t *, cntx_t *");
    for (char *p; (p = strstr(out, "CTYPE_"));) {   /* element type, padded */
        size_t n = strlen(ctype);
        memmove(p + n, p + 6, strlen(p + 6) + 1);
        memcpy(p, ctype, n);
    }
}

void emit_kernel(const struct plan *pl, const struct plan *edges, int nedges,
                 const struct options *o, const char *name, struct buf *cf, struct buf *hf,
                 struct buf *df)
{
    struct buf fns = { 0 }, how = { 0 }, blis = { 0 }, cflags = { 0 }, compile = { 0 },
               incl = { 0 }, dpar = { 0 }, edecl = { 0 }, elist = { 0 }, edoc = { 0 }, plist = { 0 },
               rlist = { 0 };
    if (pl->k.cplx) {
        emit_kernel_cplx(pl, edges, nedges, o, name, cf, hf, df);
        return;
    }
    if (elem_group(pl->k.elem) > 1) {
        emit_kernel_group(pl, edges, nedges, o, name, cf, hf, df);
        return;
    }
    struct tail_texts tt = { 0 };
    const char *ctype = elem_ctype[pl->k.elem];
    char dname[160], ne[16], np[16], mr[16], nr[16], guard[160], rp[4], args[96], blis_decl[512];
    strfmt(dname, sizeof dname, "%s_direct", name);
    int row_pref = emit_functions(&fns, pl, edges, nedges, name, dname);
    params(&dpar, ctype, dname, true);
    strfmt(ne, sizeof ne, "%d", nedges);
    edge_texts(&edecl, &elist, &edoc, pl, edges, nedges, name);
    strfmt(np, sizeof np, "%d", packed_edge_texts(&edecl, &plist, &edoc, pl, edges, nedges, name));
    rows_texts(&edecl, &rlist, &edoc, pl, edges, nedges, name, dname);
    tail_texts(&tt, pl, name);
    struct buf sdecl = { 0 }, sdoc = { 0 };
    bool streams = direct_streams(&pl->k);
    if (streams) stream_texts(&sdecl, &sdoc, ctype, name);
    bool b_cols = kernel_b_cols(&pl->k);
    em_how_made(&how, pl);
    em_cflags(&cflags, &compile, pl, o);   /* %b: an SVE kernel's vector length */
    target_text(&incl, pl->t->includes, &pl->m);
    strfmt(mr, sizeof mr, "%d", pl->k.mr);
    strfmt(nr, sizeof nr, "%d", pl->k.nr);
    strfmt(rp, sizeof rp, "%d", row_pref);
    /* L1 holds B's micro-panel and what streams past it: the whole next A
     * micro-panel when the kernel prefetches it there, else a few lines of A */
    char b_l1[8], narrow[16];
    strfmt(b_l1, sizeof b_l1, "%d", pl->m.a_next_prefetch ? 50 : 75);
    strfmt(narrow, sizeof narrow, "%d", pl->m.runtime.narrow_k[pl->k.elem]);
    strfmt(guard, sizeof guard, "GEMMGEN_%s_H", name);
    for (char *p = guard; *p; p++) if (*p >= 'a' && *p <= 'z') *p -= 32;
    em_args_text(args, sizeof args, o);
    if (o->blis) em_blis_section(&blis, pl, o, name, ctype, mr, nr, rp);
    em_blis_decl_text(blis_decl, sizeof blis_decl, o, name, ctype);
    const char *preamble = o->blis ? "#ifndef _POSIX_C_SOURCE\n#define _POSIX_C_SOURCE 200809L /* blis.h needs POSIX threads */\n#endif\n" : "";
    const char *keys[] = { "NAME", "MR", "NR", "TYPE", "MACHINE", "TARGET", "VERSION", "MACHINE_FILE",
                           "ARGS", "HOWMADE", "CFLAGS", "COMPILE", "INCLUDES", "CTYPE", "INDENT", "FUNCTIONS",
                           "GUARD", "ROW_PREF", "BLIS_DECL", "PREAMBLE", "DIRECT_PARAMS",
                           "DIRECT_B_COLS", "DIRECT_B", "NEDGES", "EDGE_LIST", "EDGE_DECL",
                           "EDGE_DOC", "B_L1_PERCENT", "NPEDGES", "PEDGE_LIST",
                           "TAIL_DECL", "TAIL_DOC", "NTAILS", "TAIL_LIST", "STREAM",
                           "STREAM_DECL", "STREAM_DOC", "NARROW_K", "DIRECT_ROWS", "ROW_EDGE_LIST" };
    const char *vals[] = { name, mr, nr, elem_names[pl->k.elem], pl->m.name, pl->t->name,
                           GEMMGEN_VERSION, em_machine_file(pl), args, how.s, cflags.s ? cflags.s : "",
                           compile.s, incl.s ? incl.s : "", ctype, em_indent_for(name), fns.s, guard, rp,
                           blis_decl, preamble, dpar.s, b_cols ? "1" : "0",
                           b_cols ? "b[p + j*ldb] (B read element by element)"
                                  : "b[p*ldb + j] (B loaded as vectors)",
                           ne, elist.s ? elist.s : "", edecl.s ? edecl.s : "",
                           edoc.s ? edoc.s : "", b_l1, np, plist.s ? plist.s : "",
                           tt.decl.s ? tt.decl.s : "", tt.doc.s ? tt.doc.s : "", tt.n,
                           tt.list.s ? tt.list.s : "", streams ? "1" : "0",
                           sdecl.s ? sdecl.s : "", sdoc.s ? sdoc.s : "", narrow,
                           rows_variants(pl) ? "1" : "0", rlist.s ? rlist.s : "" };
    _Static_assert(sizeof keys == sizeof vals, "a value for each key");
    enum { NBASE = sizeof keys / sizeof *keys };
    const char *allk[NBASE + 2 * NTAILS], *allv[NBASE + 2 * NTAILS];   /* and each tail's */
    int nkeys = NBASE;
    memcpy(allk, keys, sizeof keys);
    memcpy(allv, vals, sizeof vals);
    for (size_t t = 0; t < NTAILS; t++)
        for (int x = 0; x < 2; x++, nkeys++) {
            allk[nkeys] = tt.key[t][x];
            allv[nkeys] = tt.val[t][x];
        }
    tmpl_fill(cf, tmpl_kernel_c, allk, allv, nkeys);
    if (blis.s) buf_puts(cf, blis.s);
    tmpl_fill(hf, tmpl_kernel_h, allk, allv, nkeys);
    emit_desc(df, pl, allk, allv, nkeys);
    buf_free(&fns); buf_free(&how); buf_free(&blis); buf_free(&cflags); buf_free(&compile);
    buf_free(&incl); buf_free(&dpar); buf_free(&edecl); buf_free(&elist); buf_free(&edoc); buf_free(&plist);
    buf_free(&rlist);
    buf_free(&tt.decl); buf_free(&tt.doc); buf_free(&tt.list);
    buf_free(&sdecl); buf_free(&sdoc);
}
