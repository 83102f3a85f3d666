/* isa_stubs.c: POWER and AArch64 tables arrive with their issues (5, 6);
 * until then these entries match no machine (requires an impossible mask). */
#include "target.h"

#define STUB(N, F) const struct target N = { .name = #N, .family = F, .requires = ~0u }
