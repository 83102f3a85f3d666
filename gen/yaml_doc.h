/* yaml_doc.h: thin checked access to a libyaml document. Every failure
 * reports "FILE:LINE: FIELD: what is wrong" and exits with status 2. */
#ifndef GEMMGEN_YAML_DOC_H
#define GEMMGEN_YAML_DOC_H
#include <stdbool.h>
#include <yaml.h>

struct ydoc {
    yaml_document_t doc;
    const char *path;
};

typedef yaml_node_t ynode;

/* Limits on what ydoc_parse accepts: machine files are a few KB, a few levels deep. */
enum { YDOC_MAX_BYTES = 256 * 1024, YDOC_MAX_DEPTH = 32 };

void ydoc_parse(struct ydoc *d, const char *path, const char *text, size_t len);
void ydoc_free(struct ydoc *d);
ynode *ydoc_root(struct ydoc *d);

int ynode_line(const ynode *n);                       /* 1-based */
_Noreturn void yfail(const struct ydoc *d, const ynode *n, const char *field,
                     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Calls fn(d, key, value, ctx) for each pair; the map must be a mapping. */
typedef void (*ymap_fn)(struct ydoc *d, const char *key, ynode *knode, ynode *val,
                        const char *field, void *ctx);
void ymap_each(struct ydoc *d, ynode *map, const char *field, ymap_fn fn, void *ctx);
ynode *yseq_item(struct ydoc *d, ynode *seq, int i);   /* NULL past the end */

const char *yscalar(struct ydoc *d, ynode *n, const char *field);
long yint(struct ydoc *d, ynode *n, const char *field, long lo, long hi);
long ysize(struct ydoc *d, ynode *n, const char *field, long lo, long hi); /* 32K, 2M */
double ynum(struct ydoc *d, ynode *n, const char *field, double lo, double hi);
bool ybool(struct ydoc *d, ynode *n, const char *field);
int yenum(struct ydoc *d, ynode *n, const char *field, const char *const *names, int count);
#endif
