/* yaml_caches.h: the two things ggkernel needs from a machine YAML: its
 * name and its caches (machines/README.md), read with libyaml. */
#ifndef GG_YAML_CACHES_H
#define GG_YAML_CACHES_H

struct yaml_cache { long size; int line, ways, shared; };   /* shared: cores sharing it (0: 1) */
struct yaml_caches {
    int known;                  /* 1 when l1d and l2 were found */
    char name[64];
    struct yaml_cache c[3];     /* l1d, l2, l3 (size 0: absent) */
};

/* Fills yc from the file; exits with a message if it cannot be parsed. */
void yaml_caches_read(const char *path, struct yaml_caches *yc);

#endif
