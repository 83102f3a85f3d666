/* gemm_z.c: the double-complex instance of the kernels' loops. Complex
 * types have no loops of the runtime's own (tiny, matrix-vector, small
 * tiles: their limits turn them off), so only the packing and the loops
 * around the generated kernels are instantiated. */
#include <complex.h>
#include <stdint.h>
#include "gg_internal.h"
#include "plan.h"
#define T double _Complex
#define ESIZE 16
#define FN(x) z_##x
#define GG_TYPE GG_C64
#define GG_COMPLEX 1
#define EDGE_T struct gg_zedge
#define PEDGE_T struct gg_zpedge
#include "pack_cplx_tmpl.h"
#include "op_tmpl.h"
#include "edge_tmpl.h"
#include "direct_tmpl.h"
#include "gemm_tmpl.h"
