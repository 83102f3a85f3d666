/* template.c: @KEY@ substitution for templates/ files. */
#include "plan.h"
#include "util.h"
#include <string.h>

void tmpl_fill(struct buf *out, const char *tmpl, const char *const *keys,
               const char *const *vals, int n)
{
    for (const char *p = tmpl; *p;) {
        const char *at = strchr(p, '@');
        if (!at) { buf_puts(out, p); break; }
        buf_printf(out, "%.*s", (int)(at - p), p);
        const char *end = strchr(at + 1, '@');
        int hit = -1;
        for (int i = 0; end && i < n; i++)
            if ((size_t)(end - at - 1) == strlen(keys[i]) && !strncmp(at + 1, keys[i], (size_t)(end - at - 1)))
                hit = i;
        if (hit < 0) { buf_puts(out, "@"); p = at + 1; continue; }
        buf_puts(out, vals[hit]);
        p = end + 1;
    }
}
