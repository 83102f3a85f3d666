#ifndef GEMMGEN_HOST_H
#define GEMMGEN_HOST_H
#include <stdbool.h>
#include <stddef.h>
#include "machine.h"

/* What identifies the CPU: x86 its cpuid vendor, family and model;
 * AArch64 vendor "arm", family the MIDR implementer and model the MIDR
 * part (as /proc/cpuinfo gives them). ext: the extensions it has;
 * sve_bits: its SVE vector length (0: none). */
struct host { char vendor[16]; int family, model; unsigned ext; enum isa_family isa; int sve_bits; };

/* Path of the shipped YAML for this host, or NULL. */
const char *host_machine(char *out, size_t size);
/* The same for a given host: an exact cpuid match first, else the widest
 * file whose extensions (and SVE length) the host has. */
const char *host_pick(const struct host *h, char *out, size_t size);
/* The implementer and part of /proc/cpuinfo's text into h (AArch64);
 * false where it names none. */
bool host_parse_cpuinfo(const char *text, struct host *h);
#endif
