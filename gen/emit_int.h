/* emit_int.h: shared by the emitter's files. */
#ifndef GEMMGEN_EMIT_INT_H
#define GEMMGEN_EMIT_INT_H
#include "plan.h"
#include "util.h"

struct em {
    const struct plan *pl;
    const struct kernel *k;
    const struct spell *sp;
    int *def_iter;      /* per value: iteration offset of its definition in Pµ */
};

void em_reg_name(const struct em *e, int v, int copy, char *out, size_t size);
void em_expand(struct buf *b, const char *fmt, const char *d, const char *const ops[3],
               const char *mem, int lane, const char *vtype);
/* The alpha/beta update of C; returns 1 when row-stored C is the fast case. */
int emit_store(struct buf *b, const struct em *e);
#endif
