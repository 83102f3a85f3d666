#ifndef GEMMGEN_HOST_H
#define GEMMGEN_HOST_H
#include <stddef.h>
/* The machines directory: $GEMMGEN_MACHINES, else the one built in. */
const char *machines_dir(void);
/* Path of the shipped YAML for this host (cpuid), or NULL. */
const char *host_machine(char *out, size_t size);
#endif
