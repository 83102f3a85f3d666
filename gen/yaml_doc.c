#include "yaml_doc.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Nesting deeper than any machine file needs is refused from the event
 * stream, before the loader builds a tree: libyaml's cost grows with the
 * square of the depth. */
static void check_depth(const char *path, const char *text, size_t len)
{
    yaml_parser_t p;
    yaml_event_t ev;
    int depth = 0;
    if (!yaml_parser_initialize(&p)) { fprintf(stderr, "gemmgen: libyaml init failed\n"); exit(1); }
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    for (;;) {
        if (!yaml_parser_parse(&p, &ev)) break;          /* the loader reports it */
        yaml_event_type_t t = ev.type;
        int line = (int)ev.start_mark.line + 1;
        yaml_event_delete(&ev);
        if (t == YAML_SEQUENCE_START_EVENT || t == YAML_MAPPING_START_EVENT) depth++;
        if (t == YAML_SEQUENCE_END_EVENT || t == YAML_MAPPING_END_EVENT) depth--;
        if (depth > YDOC_MAX_DEPTH) {
            fprintf(stderr, "%s:%d: yaml: nested more than %d levels deep\n", path, line, YDOC_MAX_DEPTH);
            yaml_parser_delete(&p);
            exit(2);
        }
        if (t == YAML_STREAM_END_EVENT) break;
    }
    yaml_parser_delete(&p);
}

void ydoc_parse(struct ydoc *d, const char *path, const char *text, size_t len)
{
    yaml_parser_t p;
    if (len > YDOC_MAX_BYTES) {
        fprintf(stderr, "%s:1: machine: the file is larger than %d bytes\n", path, YDOC_MAX_BYTES);
        exit(2);
    }
    check_depth(path, text, len);
    d->path = path;
    if (!yaml_parser_initialize(&p)) { fprintf(stderr, "gemmgen: libyaml init failed\n"); exit(1); }
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    if (!yaml_parser_load(&p, &d->doc)) {
        const char *what = p.problem ? p.problem : "malformed YAML";
        int line = (int)p.problem_mark.line + 1;
        fprintf(stderr, "%s:%d: yaml: %s%s%s\n", path, line, what,
                p.context ? " " : "", p.context ? p.context : "");
        yaml_parser_delete(&p);
        exit(2);
    }
    yaml_parser_delete(&p);
    if (!yaml_document_get_root_node(&d->doc)) {
        fprintf(stderr, "%s:1: machine: the file is empty\n", path);
        exit(2);
    }
}

void ydoc_free(struct ydoc *d) { yaml_document_delete(&d->doc); }

ynode *ydoc_root(struct ydoc *d) { return yaml_document_get_root_node(&d->doc); }

int ynode_line(const ynode *n) { return n ? (int)n->start_mark.line + 1 : 1; }

void yfail(const struct ydoc *d, const ynode *n, const char *field, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s:%d: %s: ", d->path, ynode_line(n), field);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(2);
}

void ymap_each(struct ydoc *d, ynode *map, const char *field, ymap_fn fn, void *ctx)
{
    if (map->type != YAML_MAPPING_NODE) yfail(d, map, field, "expected a mapping (key: value)");
    for (yaml_node_pair_t *pr = map->data.mapping.pairs.start; pr < map->data.mapping.pairs.top; pr++) {
        ynode *k = yaml_document_get_node(&d->doc, pr->key);
        ynode *v = yaml_document_get_node(&d->doc, pr->value);
        const char *key = yscalar(d, k, field);
        char sub[160];
        snprintf(sub, sizeof sub, "%s%s%s", field[0] ? field : "", field[0] ? "." : "", key);
        /* YAML forbids duplicate keys; libyaml keeps both, so refuse here */
        for (yaml_node_pair_t *q = map->data.mapping.pairs.start; q < pr; q++)
            if (!strcmp(yscalar(d, yaml_document_get_node(&d->doc, q->key), field), key))
                yfail(d, k, sub, "given twice");
        fn(d, key, k, v, sub, ctx);
    }
}

ynode *yseq_item(struct ydoc *d, ynode *seq, int i)
{
    if (seq->type != YAML_SEQUENCE_NODE) return NULL;
    yaml_node_item_t *it = seq->data.sequence.items.start + i;
    if (it >= seq->data.sequence.items.top) return NULL;
    return yaml_document_get_node(&d->doc, *it);
}

const char *yscalar(struct ydoc *d, ynode *n, const char *field)
{
    if (n->type != YAML_SCALAR_NODE) yfail(d, n, field, "expected a single value");
    return (const char *)n->data.scalar.value;
}

static long parse_long(struct ydoc *d, ynode *n, const char *field, const char *s, char **end)
{
    errno = 0;
    long v = strtol(s, end, 0);
    if (errno || *end == s) yfail(d, n, field, "'%s' is not a whole number", s);
    return v;
}

static long check_range(struct ydoc *d, ynode *n, const char *field, long v, long lo, long hi)
{
    if (v < lo || v > hi) yfail(d, n, field, "%ld is out of range [%ld, %ld]", v, lo, hi);
    return v;
}

long yint(struct ydoc *d, ynode *n, const char *field, long lo, long hi)
{
    const char *s = yscalar(d, n, field);
    char *end;
    long v = parse_long(d, n, field, s, &end);
    if (*end) yfail(d, n, field, "'%s' is not a whole number", s);
    return check_range(d, n, field, v, lo, hi);
}

long ysize(struct ydoc *d, ynode *n, const char *field, long lo, long hi)
{
    const char *s = yscalar(d, n, field);
    char *end;
    long v = parse_long(d, n, field, s, &end);
    int shift = *end == 'K' || *end == 'k' ? 10 : *end == 'M' || *end == 'm' ? 20 : 0;
    if (shift) {
        if (v > (hi >> shift) || v < 0) yfail(d, n, field, "'%s' is out of range [%ld, %ld]", s, lo, hi);
        v <<= shift;
        end++;
    }
    if (*end == 'B' || *end == 'b') end++;
    if (*end) yfail(d, n, field, "'%s' is not a size (bytes, or with a K/M suffix)", s);
    return check_range(d, n, field, v, lo, hi);
}

double ynum(struct ydoc *d, ynode *n, const char *field, double lo, double hi)
{
    const char *s = yscalar(d, n, field);
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end) yfail(d, n, field, "'%s' is not a number", s);
    if (!(v >= lo && v <= hi)) yfail(d, n, field, "%g is out of range [%g, %g]", v, lo, hi);
    return v;
}

bool ybool(struct ydoc *d, ynode *n, const char *field)
{
    const char *s = yscalar(d, n, field);
    if (!strcmp(s, "true") || !strcmp(s, "yes")) return true;
    if (!strcmp(s, "false") || !strcmp(s, "no")) return false;
    yfail(d, n, field, "'%s' is not true or false", s);
}

int yenum(struct ydoc *d, ynode *n, const char *field, const char *const *names, int count)
{
    const char *s = yscalar(d, n, field);
    for (int i = 0; i < count; i++)
        if (names[i] && !strcmp(s, names[i])) return i;
    char list[256] = "";
    for (int i = 0; i < count; i++)
        if (names[i]) {
            strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
            strncat(list, names[i], sizeof list - strlen(list) - 1);
        }
    yfail(d, n, field, "unknown value '%s' (expected one of: %s)", s, list);
}
