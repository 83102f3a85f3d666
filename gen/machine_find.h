#ifndef GEMMGEN_MACHINE_FIND_H
#define GEMMGEN_MACHINE_FIND_H
#include <stddef.h>
/* The machines directory: $GEMMGEN_MACHINES; else the installed one beside
 * the executable (<prefix>/share/gemmgen/machines); else the source tree's. */
const char *machines_dir(void);
/* The *.yaml file names in machines_dir(), sorted; returns how many (at
 * most max), each malloc'd. */
int machine_names(char **names, int max);
/* --machine's argument as a path: a name (no '/', no .yaml) is the file of
 * that name in machines_dir(); one not there is bad input. */
const char *machine_find(const char *arg, char *out, size_t size);
#endif
