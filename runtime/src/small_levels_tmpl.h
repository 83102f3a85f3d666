/* small_levels_tmpl.h: the small path's tiles once per vector width
 * (small_tiles_tmpl.h), the entry points small_defs_tmpl.h declares: on
 * x86-64 (GCC) AVX-512, AVX2 and SSE2 functions of 64, 32 and 16-byte
 * vectors, picked at run time (small_tmpl.h, sm_go); elsewhere one of
 * 16-byte vectors (NEON, VSX). Until stop 39 all three x86 functions used
 * 64-byte vectors, which GCC lowered through the stack in the AVX2 and
 * SSE2 ones (Zen 5 with GEMMGEN_X86_LEVEL=3: DGEMM 16^3 at 0.05x of
 * OpenBLAS's AVX-512 code); at their own width, 200 windows, DGEMM 16^3
 * and 24^3 9.3-10.5x, SGEMM 16^3 and 32^3 8.0-9.5x faster (level 1:
 * 2.6-2.7x).
 * A tile's columns, two vectors' rows each: 8 with 32 vector registers;
 * with 16, 6 for AVX2 (12 sums cover the 5-cycle FMA latency of two
 * pipes on Haswell and Zen 2-3; against 4 columns on Zen 5, level 3:
 * DGEMM 16^3 1.14x, 24^3 1.08x, SGEMM 16^3 1.05x, 12x30x20 1.12x) and 4
 * for SSE2, whose multiply and add need a register between them (6
 * columns: SGEMM 32^3 0.94x, DGEMM 16^3 1.03x). */
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
