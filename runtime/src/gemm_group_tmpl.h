/* gemm_group_tmpl.h: one instance of the kernels' loops for a rank-G type
 * (k packed in groups of KG steps). The including file defines T, TA, TB,
 * KG, FN(x), GG_TYPE, EDGE_T and PEDGE_T, KG_A where A packs smaller
 * groups than KG (AMX), and GG_OTHER_GEMMS ({kg, kg_a, function}, ...)
 * where kernel sets of other groups exist (gemm_tmpl.h, FN(gg_gemm)).
 * Packed kernels only: no loops of the runtime's own, no unpacked path
 * (the type's limits turn them off). */
#define GG_UNPACKED 0
#define GG_OWN_LOOPS 0
#define GT TA
#ifdef KG_A
#define GKG KG_A   /* A's own group (AMX's VNNI side) */
#endif
#define GP(x) FN(a_##x)
#define GPANELS FN(panels_a)
#include "pack_group_tmpl.h"
#define GT TB
#define GP(x) FN(b_##x)
#define GPANELS FN(panels_b)
#include "pack_group_tmpl.h"
#include "op_tmpl.h"
#include "panels_tmpl.h"
#include "gemm_tmpl.h"
