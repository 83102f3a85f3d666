#ifndef GEMMGEN_HOST_H
#define GEMMGEN_HOST_H
#include <stddef.h>
/* Path of the shipped YAML for this host (cpuid), or NULL. */
const char *host_machine(char *out, size_t size);
#endif
