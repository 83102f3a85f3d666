/* gemm_c.c: the single-complex instance of the kernels' loops. Complex
 * types have no loops of the runtime's own (tiny, matrix-vector, small
 * tiles: their limits turn them off), so only the packing and the loops
 * around the generated kernels are instantiated. */
#include <complex.h>
#include <stdint.h>
#include "gg_internal.h"
#include "plan.h"
#define T float _Complex
#define ESIZE 8
#define FN(x) c_##x
#define GG_TYPE GG_C32
#define GG_COMPLEX 1
#define EDGE_T struct gg_cedge
#define PEDGE_T struct gg_cpedge
#include "pack_cplx_tmpl.h"
#include "op_tmpl.h"
#include "edge_tmpl.h"
#include "direct_tmpl.h"
#include "gemm_tmpl.h"
