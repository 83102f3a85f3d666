/* emit_text.c: statement templates expanded into C text, and register
 * names; the bottom of the emitter, called by its other files and calling
 * none of them. */
#include "emit_int.h"
#include <stdio.h>
#include <string.h>

void em_reg_name(const struct em *e, int v, int copy, char *out, size_t size)
{
    int rc = e->k->val[v].rc;
    const char *prefix = e->sp->regprefix ? e->sp->regprefix : e->k->t->regprefix[rc];
    strfmt(out, size, "%s%d", prefix, rot_reg(&e->pl->r, v, copy));
}

/* One statement on a line of its own: IND, the expanded template, newline. */
void em_line(struct buf *b, const char *ind, const char *fmt, const char *d,
             const char *const ops[3], const char *mem, const char *vtype)
{
    buf_puts(b, ind);
    em_expand(b, fmt, d, ops, mem, 0, vtype);
    buf_puts(b, "\n");
}

/* IND LHS = the expanded expression template, a statement of its own. */
void em_assign(struct buf *b, const char *ind, const char *lhs, const char *fmt,
               const char *const ops[3], const char *mem, const char *vtype)
{
    buf_printf(b, "%s%s = ", ind, lhs);
    em_expand(b, fmt, "", ops, mem, 0, vtype);
    buf_puts(b, ";\n");
}

/* The register number that ends NAME (%#d, %#0: AMX's tiles). */
static const char *reg_number(const char *name)
{
    const char *p = name + strlen(name);
    while (p > name && p[-1] >= '0' && p[-1] <= '9') p--;
    return p;
}

/* Expands a statement template; %0..%2 operands, %d dest, %m address,
 * %l lane, %t vector type; %#d, %#0.. the register numbers of %d, %0... */
void em_expand(struct buf *b, const char *fmt, const char *d, const char *const ops[3],
                   const char *mem, int lane, const char *vtype)
{
    for (const char *p = fmt; *p; p++) {
        if (*p != '%') { buf_printf(b, "%c", *p); continue; }
        char c = *++p;
        if (c == '#' && (p[1] == 'd' || (p[1] >= '0' && p[1] <= '2'))) {
            c = *++p;
            buf_puts(b, reg_number(c == 'd' ? d : ops[c - '0']));
        } else if (c == 'd') buf_puts(b, d);
        else if (c >= '0' && c <= '2') buf_puts(b, ops[c - '0']);
        else if (c == 'm') buf_puts(b, mem);
        else if (c == 'l') buf_printf(b, "%d", lane);
        else if (c == 't') buf_puts(b, vtype);
        else buf_printf(b, "%%%c", c);
    }
}
