/* small_d.c: the double-precision tiles of the small path (small_tmpl.h
 * calls them), compiled apart from the LTO of the rest of the runtime. */
#include <stdint.h>
#include <string.h>
#include "gg_internal.h"
#define T double
#define ESIZE 8
#define IT int64_t
#define FN(x) d_##x
#include "small_defs_tmpl.h"
#include "small_levels_tmpl.h"
