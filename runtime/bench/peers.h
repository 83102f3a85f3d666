/* peers.h: the libraries gemmgen is measured against, each run in a child
 * process so that each can get its own environment (BLIS_ARCH_TYPE,
 * OPENBLAS_CORETYPE, thread counts are read once, when the library loads)
 * and so that their dgemm_ never meets libgemmgen's. */
#ifndef GB_PEERS_H
#define GB_PEERS_H
#include <stddef.h>
#include <stdint.h>

struct gb_shape { int64_t m, n, k; };

struct gb_peer {
    const char *label;          /* column heading */
    const char *lib;            /* dlopen name: a path or a soname; "a|b": the first that loads */
    const char *env[3];         /* "NAME=VALUE" sets, "NAME" unsets; NULL ends */
};

/* Runs the peer's dgemm_ ('d'), sgemm_ ('s'), zgemm_, cgemm_,
 * dnnl_gemm_u8s8s32 ('i': row major, alpha 1, beta 0, no offsets) or
 * dnnl_gemm_bf16bf16f32 ('b': row major) with `threads` threads on
 * each shape (BLAS: column major, alpha = beta = 1), `budget` seconds per shape
 * (see gb_measure). gflops[i] is -1 where it failed; info receives what
 * the library says about itself (its chosen kernel architecture).
 * Returns 0, or -1 if the library could not be loaded. */
int gb_peer_run(const struct gb_peer *p, char type, int threads,
                const struct gb_shape *shapes, int nshapes, double budget,
                double *gflops, char *info, size_t infocap);

#endif
