/* small_defs_tmpl.h: what the small path's two halves share (T, IT and
 * FN(x) from the including file): its limits, its operands and the tile
 * code's entry points. small_tmpl.h is the half that decides and calls
 * (in gemm_d.c and gemm_s.c), small_tiles_tmpl.h the tiles (small_d.c
 * and small_s.c). */

#define SM_LANES (64 / (int)sizeof(T))     /* one 64-byte vector */

/* When the loops run instead of the kernels (each bound chosen against
 * the kernel path: docs/decisions.md): m*n*k at most SMALL_MNK and k at
 * most SMALL_K (past them the kernels' set-up is paid back); A copied
 * (its columns not contiguous, or shorter than a vector: then
 * zero-padded, and C stored element by element) only up to
 * SMALL_COPY_MNK, on the stack; A^T by transposes up to
 * SMALL_TRANSPOSED_MNK (small_transposes, small_tmpl.h). */
enum { SMALL_MNK = 32 * 32 * 32, SMALL_K = 64, SMALL_COPY_MNK = 2000, SMALL_TRANSPOSED_MNK = 16384 };
/* The copy is max(m, SM_LANES) x k: m*k <= m*n*k and SM_LANES*k fit in it. */
_Static_assert(SM_LANES * SMALL_K <= SMALL_COPY_MNK, "small_tmpl.h: the copy of A");

struct FN(sm) {
    int64_t m, rows, n, k, lda, rs_b, cs_b, ldc;   /* rows: C's; m: A's (>= a vector) */
    T alpha, beta;
    const T *a, *b;
    T *c;
};

/* The tile code per x86 vector width (GG_X86_LEVELS), else one
 * portable entry. In translation units of their own, outside the runtime's
 * link-time optimization: their fully unrolled tiles were four fifths of
 * gemm_s.c's code, compiled three times over (the fat object, the
 * library's LTO link, gemmbench's), and they are called through a pointer
 * anyway. */
#if GG_X86_LEVELS
#define SM_X86 1
void FN(gg_sm_v4)(const struct FN(sm) *s);
void FN(gg_sm_v4t)(const struct FN(sm) *s);     /* C stored transposed */
void FN(gg_sm_v3)(const struct FN(sm) *s);
void FN(gg_sm_v1)(const struct FN(sm) *s);
#else
#define SM_X86 0
void FN(gg_sm_any)(const struct FN(sm) *s);
#endif
