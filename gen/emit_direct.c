/* emit_direct.c: addresses of the _direct variant, which reads A and B in
 * place (A(i,p) at a[i + p*lda]; B(p,j) at b[p + j*ldb] when B is loaded
 * element by element, else b[p*ldb + j]).
 *
 * A runtime stride times a small constant is one x86 addressing mode only
 * for the factors 1, 2, 4 and 8, and GCC does not find that on its own:
 * written as `bp + 5 * ldb` every column costs a register and the
 * accumulators spill.
 * So each index x along a strided direction (the k iterations of one
 * unrolled body, or B's columns) is reached as base + s * stride with s in
 * {0, 1, 2, 4, 8}, from a few base pointers that move together; then the
 * in-place kernel runs as fast as the packed one (docs/decisions.md).
 *
 * NAME_stream (the runtime's path for tall, narrow C) is NAME_direct
 * that also emits the plan's prefetches of the next A micro-panel, as
 * prefetches of a_next read like A: a third set of base pointers. Both
 * call one body, NAME_in_place (emit.c), whose flag `stream` guards them. */
#include "emit_int.h"
#include <stdio.h>
#include <string.h>

static const int scales[] = { 0, 1, 2, 4, 8 };

/* Greedy: the lowest index not reached yet becomes the next base. */
static void cover(struct dcover *c, const char *name, const char *stride, int n)
{
    memset(c, 0, sizeof *c);
    strfmt(c->name, sizeof c->name, "%s", name);
    strfmt(c->stride, sizeof c->stride, "%s", stride);
    c->n = n < DIR_MAXIDX ? n : DIR_MAXIDX;
    for (int x = 0; x < c->n; x++) c->base[x] = -1;
    for (int x = 0; x < c->n; x++) {
        if (c->base[x] >= 0) continue;
        c->bases[c->nb++] = x;
        for (size_t s = 0; s < sizeof scales / sizeof *scales; s++)
            if (x + scales[s] < c->n && c->base[x + scales[s]] < 0) {
                c->base[x + scales[s]] = x;
                c->scale[x + scales[s]] = scales[s];
            }
    }
}

/* This variant reads B down its columns: broadcast B, unless it is the
 * rows variant (the machine's direct_b_rows). */
static bool reads_cols(const struct em *e)
{
    return kernel_b_cols(e->k) && !e->b_rows;
}

/* The plan prefetches the next A micro-panel (the machine's a_next): its
 * _stream variant then prefetches the next A tile read in place. */
bool direct_streams(const struct kernel *k)
{
    for (int i = 0; i < k->ninst; i++)
        if (k->inst[i].op == OP_PREFETCH && k->inst[i].stream == ST_ANEXT) return true;
    return false;
}

void direct_setup(struct em *e)
{
    int iters = e->pl->r.uf + 1;   /* copies 0..uf-1 reach one iteration ahead */
    cover(&e->dir[0], "pa", "lda_b", iters);
    if (reads_cols(e)) cover(&e->dir[1], "pb", "ldb_b", e->k->nr);
    else cover(&e->dir[1], "pb", "ldb_b", iters);
    if (e->stream) cover(&e->dir[2], "pn", "lda_b", iters);
}

/* (const T *)(base + s * stride) + disp */
static void strided(char *out, size_t size, const struct dcover *c, int x, int disp, const char *ct)
{
    int b = c->base[x], s = c->scale[x];
    int l = strfmt(out, size, "(const %s *)", ct);
    if (s == 0) l += strfmt(out + l, size - (size_t)l, "%s%d", c->name, b);
    else if (s == 1) l += strfmt(out + l, size - (size_t)l, "(%s%d + %s)", c->name, b, c->stride);
    else l += strfmt(out + l, size - (size_t)l, "(%s%d + %d * %s)", c->name, b, s, c->stride);
    if (disp) strfmt(out + l, size - (size_t)l, " + %d", disp);
}

void direct_address(const struct em *e, const struct inst *in, int iter, char *out, size_t size)
{
    const char *ct = elem_ctype[e->k->elem];
    if (in->op == OP_PREFETCH) {   /* the next A tile's lines, offsets in bytes */
        strided(out, size, &e->dir[2], iter, in->offset, "char");
        return;
    }
    if (in->stream == ST_A) strided(out, size, &e->dir[0], iter, in->offset, ct);
    else if (reads_cols(e)) strided(out, size, &e->dir[1], in->offset, iter, ct);
    else strided(out, size, &e->dir[1], iter, in->offset, ct);
}

static void bases(struct buf *b, const struct dcover *c, const char *from)
{
    buf_printf(b, "    const char *%s0 = (const char *)%s", c->name, from);
    for (int i = 1; i < c->nb; i++)
        buf_printf(b, ",\n               *%s%d = %s0 + %d * %s", c->name, c->bases[i], c->name,
                   c->bases[i], c->stride);
    buf_puts(b, ";");
}

void direct_pointers(const struct em *e, struct buf *b)
{
    const char *ct = elem_ctype[e->k->elem];
    buf_printf(b, "    const int64_t lda_b = lda * (int64_t)sizeof(%s), "
                  "ldb_b = ldb * (int64_t)sizeof(%s);\n", ct, ct);
    bases(b, &e->dir[0], "a");
    buf_puts(b, "\n");
    bases(b, &e->dir[1], "b");
    if (e->stream) {
        buf_puts(b, "\n");
        bases(b, &e->dir[2], "a_next");
    }
}

void direct_bumps(const struct em *e, struct buf *b)
{
    int uf = e->pl->r.uf, esz = elem_bytes(e->k->elem);
    bool cols = reads_cols(e);
    const char *sep = "";
    for (int s = 0; s < (e->stream ? 3 : 2); s++) {
        const struct dcover *c = &e->dir[s];
        for (int i = 0; i < c->nb; i++, sep = "\n") {
            buf_printf(b, "%s            %s%d += ", sep, c->name, c->bases[i]);
            if (s == 1 && cols) buf_printf(b, "%d;", uf * esz);   /* k runs down B's columns */
            else buf_printf(b, "%d * %s;", uf, c->stride);
        }
    }
}
