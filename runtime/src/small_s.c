/* small_s.c: the single-precision tiles of the small path (small_tmpl.h
 * calls them), compiled apart from the LTO of the rest of the runtime. */
#include <stdint.h>
#include <string.h>
#include "gg_internal.h"
#define T float
#define ESIZE 4
#define IT int32_t
#define FN(x) s_##x
#include "small_defs_tmpl.h"
#include "small_levels_tmpl.h"
