/* yaml_caches.c: see yaml_caches.h. The document is walked once; every
 * scalar is matched against its key path ("caches/l1d/size"), so the rest
 * of the machine file (validated by gemmgen itself) is simply skipped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "yaml_caches.h"

static const char *const levels[3] = {"l1d", "l2", "l3"};

static long size_value(const char *s)      /* "32K", "2M", "49152" */
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*end == 'K' || *end == 'k') v <<= 10;
    else if (*end == 'M' || *end == 'm') v <<= 20;
    return v;
}

static void store(struct yaml_caches *yc, const char *path, const char *val)
{
    if (!strcmp(path, "/name")) {
        snprintf(yc->name, sizeof yc->name, "%s", val);
        return;
    }
    for (int l = 0; l < 3; l++) {
        char pre[32];
        int n = snprintf(pre, sizeof pre, "/caches/%s/", levels[l]);
        if (strncmp(path, pre, (size_t)n)) continue;
        const char *key = path + n;
        if (!strcmp(key, "size")) yc->c[l].size = size_value(val);
        else if (!strcmp(key, "line")) yc->c[l].line = atoi(val);
        else if (!strcmp(key, "ways")) yc->c[l].ways = atoi(val);
        else if (!strcmp(key, "shared_by")) yc->c[l].shared = atoi(val);
    }
}

static void fail(const char *path, yaml_parser_t *p)
{
    fprintf(stderr, "ggkernel: %s:%zu: %s\n", path, p->problem_mark.line + 1,
            p->problem ? p->problem : "cannot parse");
    exit(1);
}

static void next(yaml_parser_t *p, yaml_event_t *e, const char *file)
{
    if (!yaml_parser_parse(p, e)) fail(file, p);
}

/* Walks one node whose key path is `path`. */
static void node(yaml_parser_t *p, yaml_event_t *e, const char *file, char *path,
                 struct yaml_caches *yc)
{
    if (e->type == YAML_SCALAR_EVENT) {
        store(yc, path, (const char *)e->data.scalar.value);
    } else if (e->type == YAML_MAPPING_START_EVENT) {
        size_t len = strlen(path);
        for (;;) {
            yaml_event_t k, v;
            next(p, &k, file);
            if (k.type == YAML_MAPPING_END_EVENT) { yaml_event_delete(&k); break; }
            snprintf(path + len, 256 - len, "/%s",
                     k.type == YAML_SCALAR_EVENT ? (const char *)k.data.scalar.value : "?");
            yaml_event_delete(&k);
            next(p, &v, file);
            node(p, &v, file, path, yc);
            yaml_event_delete(&v);
            path[len] = 0;
        }
    } else if (e->type == YAML_SEQUENCE_START_EVENT) {
        for (;;) {
            yaml_event_t v;
            next(p, &v, file);
            int end = v.type == YAML_SEQUENCE_END_EVENT;
            if (!end) node(p, &v, file, path, yc);
            yaml_event_delete(&v);
            if (end) break;
        }
    }
}

void yaml_caches_read(const char *file, struct yaml_caches *yc)
{
    FILE *f = fopen(file, "rb");
    if (!f) { perror(file); exit(1); }
    yaml_parser_t p;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_file(&p, f);
    yaml_event_t e;
    char path[256] = "";
    do {
        next(&p, &e, file);
        int done = e.type == YAML_STREAM_END_EVENT;
        node(&p, &e, file, path, yc);
        yaml_event_delete(&e);
        if (done) break;
    } while (1);
    yaml_parser_delete(&p);
    fclose(f);
    for (int l = 0; l < 3; l++)
        if (yc->c[l].line <= 0) yc->c[l].line = 64;
    yc->known = yc->c[0].size > 0 && yc->c[0].ways > 0 && yc->c[1].size > 0 && yc->c[1].ways > 0;
}
