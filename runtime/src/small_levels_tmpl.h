/* small_levels_tmpl.h: the small path's tiles once per vector width
 * (small_tiles_tmpl.h), the entry points small_defs_tmpl.h declares: on
 * x86-64 (GCC) AVX-512, AVX2 and SSE2 functions of 64, 32 and 16-byte
 * vectors, picked at run time (small_tmpl.h, sm_go); elsewhere one of
 * 16-byte vectors (NEON, VSX). Each at its own width: GCC lowers wider
 * generic vectors through the stack in the AVX2 and SSE2 functions
 * (docs/decisions.md, SM_VB).
 * A tile's columns, two vectors' rows each: 8 with 32 vector registers;
 * with 16, 6 for AVX2 (12 sums cover the 5-cycle FMA latency of two
 * pipes on Haswell and Zen 2-3) and 4 for SSE2, whose multiply and add
 * need a register between them (docs/decisions.md, SM_NC). */
#if SM_X86
#define SM_VB 64
#define SMF(x) FN(v4_##x)
#define SM_NC 8
#define SM_TARGET "arch=x86-64-v4"
#define SM_ENTRY FN(gg_sm_v4)
#define SM_ENTRY_T FN(gg_sm_v4t)
#include "small_tiles_tmpl.h"

#define SM_VB 32
#define SMF(x) FN(v3_##x)
#define SM_NC 6
#define SM_TARGET "arch=x86-64-v3"
#define SM_ENTRY FN(gg_sm_v3)
#include "small_tiles_tmpl.h"

#define SM_VB 16
#define SMF(x) FN(v1_##x)
#define SM_NC 4
#define SM_ENTRY FN(gg_sm_v1)
#include "small_tiles_tmpl.h"
#else
#define SM_VB 16
#define SMF(x) FN(any_##x)
#define SM_NC 8
#define SM_ENTRY FN(gg_sm_any)
#include "small_tiles_tmpl.h"
#endif
