/* plan_fixture.h: what the pass tests share: the shipped machines and a
 * plan built for one of them (MACHINES_DIR comes from tests/meson.build). */
#ifndef GEMMGEN_TESTS_PLAN_FIXTURE_H
#define GEMMGEN_TESTS_PLAN_FIXTURE_H
#include <stdio.h>
#include "plan.h"

static const char *const machines[] = {
    "sandybridge", "haswell", "skylake-avx512", "zen3", "zen4", "zen5", "sapphirerapids",
    "power9", "power10", "cortex-a57", "neoverse-n1", "neoverse-v1", "a64fx",
};

/* Options for machine `mach`; path (1024 bytes) holds its file name and
 * must outlive them. mr, nr, maxr 0: gemmgen's own choice. */
static inline struct options fixture_options(char *path, const char *mach, enum elem e, int mr,
                                             int nr, int maxr)
{
    snprintf(path, 1024, "%s/%s.yaml", MACHINES_DIR, mach);
    return (struct options){ .machine_path = path, .elem = e, .mr = mr, .nr = nr,
                             .max_regs = maxr, .force_bs = -1 };
}

static inline void build(struct plan *pl, const char *mach, enum elem e, int mr, int nr, int maxr)
{
    char path[1024];
    struct options o = fixture_options(path, mach, e, mr, nr, maxr);
    plan_build(pl, &o);
}
#endif
