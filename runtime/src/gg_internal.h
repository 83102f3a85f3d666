/* gg_internal.h: what the runtime's files share. The kernel ABI is the one
 * gemmgen emits (see runtime/README.md); a kernel set is one machine's f64
 * and f32 kernels plus the caches its blocking is derived from. */
#ifndef GG_INTERNAL_H
#define GG_INTERNAL_H
#include <stddef.h>
#include <stdint.h>

typedef void gg_dkernel(int64_t m, int64_t n, int64_t k, const double *alpha,
                        const double *a, const double *b, const double *beta,
                        double *c, int64_t rs_c, int64_t cs_c,
                        const double *a_next, const double *b_next);
typedef void gg_skernel(int64_t m, int64_t n, int64_t k, const float *alpha,
                        const float *a, const float *b, const float *beta,
                        float *c, int64_t rs_c, int64_t cs_c,
                        const float *a_next, const float *b_next);

/* Complex kernels (double _Complex, float _Complex; interleaved re/im):
 * the same ABI in complex elements, with complex alpha and beta. */
typedef void gg_zkernel(int64_t m, int64_t n, int64_t k, const double _Complex *alpha,
                        const double _Complex *a, const double _Complex *b,
                        const double _Complex *beta, double _Complex *c, int64_t rs_c,
                        int64_t cs_c, const double _Complex *a_next,
                        const double _Complex *b_next);
typedef void gg_ckernel(int64_t m, int64_t n, int64_t k, const float _Complex *alpha,
                        const float _Complex *a, const float _Complex *b,
                        const float _Complex *beta, float _Complex *c, int64_t rs_c,
                        int64_t cs_c, const float _Complex *a_next,
                        const float _Complex *b_next);

/* The _direct and edge kernels: A(i,p) at a[i + p*lda], B by ldb. */
typedef void gg_ddirect(int64_t m, int64_t n, int64_t k, const double *alpha,
                        const double *a, int64_t lda, const double *b, int64_t ldb,
                        const double *beta, double *c, int64_t rs_c, int64_t cs_c);
typedef void gg_sdirect(int64_t m, int64_t n, int64_t k, const float *alpha,
                        const float *a, int64_t lda, const float *b, int64_t ldb,
                        const float *beta, float *c, int64_t rs_c, int64_t cs_c);
/* An edge kernel: MR' x NR' tiles (the generated header's EDGE_LIST). */
struct gg_dedge { int mr, nr; gg_ddirect *fn; };
struct gg_sedge { int mr, nr; gg_sdirect *fn; };
/* A packed row-edge kernel: the signature of the main (packed) kernel, on a
 * short last row panel packed mr rows high. */
struct gg_dpedge { int mr; gg_dkernel *fn; };
struct gg_spedge { int mr; gg_skernel *fn; };
/* The complex types have packed kernels only: their edges (fn) are packed
 * kernels too, on panels packed mr high and nr wide. */
struct gg_zedge { int mr, nr; void *fn; };
struct gg_cedge { int mr, nr; void *fn; };
struct gg_zpedge { int mr; gg_zkernel *fn; };
struct gg_cpedge { int mr; gg_ckernel *fn; };

/* Reduced precision: A and B packed in groups of G k steps (bf16: G = 2,
 * u8s8s32: G = 4), A(i,p) at a[(p/G)*MR*G + i*G + p%G], B(p,j) at
 * b[(p/G)*NR*G + j*G + p%G], k padded with zeros to a multiple of G; the
 * kernel takes the true k. bf16 (uint16_t bits) -> f32 in float math;
 * u8 x s8 -> s32 in wrapping int32 arithmetic (beta == 0 never reads C). */
typedef void gg_bkernel(int64_t m, int64_t n, int64_t k, const float *alpha,
                        const uint16_t *a, const uint16_t *b, const float *beta,
                        float *c, int64_t rs_c, int64_t cs_c,
                        const uint16_t *a_next, const uint16_t *b_next);
typedef void gg_ikernel(int64_t m, int64_t n, int64_t k, const int32_t *alpha,
                        const int8_t *a, const uint8_t *b, const int32_t *beta,
                        int32_t *c, int64_t rs_c, int64_t cs_c,
                        const int8_t *a_next, const uint8_t *b_next);
/* Packed kernels only (the edges too), as the complex types. */
struct gg_bedge { int mr, nr; void *fn; };
struct gg_iedge { int mr, nr; void *fn; };
struct gg_bpedge { int mr; gg_bkernel *fn; };
struct gg_ipedge { int mr; gg_ikernel *fn; };
/* The u8s8s32 kernels' (uint8 A, int8 B): libgemmgen runs the s8u8s32
 * mirror, but their descriptors name their edges all the same. */
struct gg_uedge { int mr, nr; void *fn; };
struct gg_upedge { int mr; void *fn; };

/* CPU features a kernel may need; cpu.c tests them (x86: cpuid + xgetbv;
 * AArch64 and POWER: the kernel's hardware capability words). SVE128,
 * SVE256 and SVE512: SVE with exactly that vector length, as kernels built with
 * -msve-vector-bits need. PWR9: ISA 3.0; PWR10: ISA 3.1 with MMA. BF16,
 * I8MM: AArch64's FEAT_BF16 / FEAT_I8MM, in their SVE forms too where the
 * CPU has SVE (the kernels use SVE's there). */
enum {
    GG_CPU_SSE2 = 1u << 0, GG_CPU_AVX = 1u << 1, GG_CPU_AVX2 = 1u << 2,
    GG_CPU_FMA = 1u << 3, GG_CPU_AVX512F = 1u << 4, GG_CPU_AVX512DQ = 1u << 5,
    GG_CPU_AVX512BW = 1u << 6, GG_CPU_AVX512VL = 1u << 7,
    GG_CPU_SVE = 1u << 8, GG_CPU_SVE256 = 1u << 9, GG_CPU_SVE512 = 1u << 10,
    GG_CPU_PWR9 = 1u << 11, GG_CPU_PWR10 = 1u << 12,
    GG_CPU_AVX512BF16 = 1u << 13, GG_CPU_AVX512VNNI = 1u << 14,
    GG_CPU_BF16 = 1u << 15, GG_CPU_I8MM = 1u << 16,
    GG_CPU_FCMA = 1u << 17,     /* AArch64 armv8.3-a complex multiply-add (NEON FCMLA) */
    GG_CPU_SVE128 = 1u << 18,
    GG_CPU_AMX_BF16 = 1u << 19, GG_CPU_AMX_INT8 = 1u << 20,   /* x86 AMX tiles, OS and process allowed */
};
unsigned gg_cpu_features(void);
/* the x86-64 level (4, 3, 1; 0: none) the runtime's own vector code uses */
int gg_x86_level(void);

struct gg_cache { long size; int line, ways, shared; };   /* size 0: absent; shared: cores sharing it (0: 1) */
struct gg_caches { struct gg_cache l1d, l2, l3; };

/* A row-tail kernel for a block's last rows, the signature of direct:
 * group 0 reads A's rows along k (a[i*lda + p], the dot kernel), group
 * G > 1 reads them packed in groups of G k steps (a[(p/G)*lda + G*i +
 * p%G], zero past k and past the rows), group 1 as a column panel
 * (a[p*lda + i], `rows` rows read); up to `rows` rows, from k = min_k. */
/* A row tail (the header's TAIL_LIST): it runs for k >= min_k, and below
 * all_k only for k a multiple of kstep (the dot kernel's whole last vector). */
struct gg_tail { void *fn; int rows, min_k, group, kstep, all_k; };
enum { GG_TAILS = 3 };

/* fn reads packed panels; direct (NULL when absent) is the same kernel on
 * A(i,p) at a[i + p*lda] and B(p,j) at b[p + j*ldb] (direct_b_cols) or
 * b[p*ldb + j]; edges: nedges struct gg_dedge / gg_sedge, direct kernels
 * for short last row and column panels. */
struct gg_ukernel {
    int mr, nr, row_pref;
    void *fn;
    void *direct;
    int direct_b_cols;
    const void *edges;
    int nedges;
    int b_l1_percent;          /* of L1 for B's micro-panel (KC); 0: 50 */
    const void *pedges;        /* packed row edges: npedges struct gg_dpedge / gg_spedge */
    int npedges;
    struct gg_tail tails[GG_TAILS];   /* row tails, in the order to try them; fn NULL: none */
    void *stream;              /* direct that prefetches the next A tile (NULL: none) */
    int narrow_k;              /* the unpacked path's column panels W wide up to this k */
    /* the same kernel reading B by rows in place (direct_b_cols 0: its
     * _direct_rows and edges' _rows, no row tails or stream), for B^T where
     * direct reads B by columns; NULL: none */
    const struct gg_ukernel *b_rows;
    /* a thread's least work, thread_edge^3 multiply-adds (the machine
     * file's runtime.thread_edge; 0: limits.c's table) */
    int thread_edge;
    /* k steps per packed group where unlike the type's (MMLA kernels:
     * twice); 0: the type's */
    int kg;
    /* k steps per group of packed A where unlike kg (AMX: the type's, A
     * being the VNNI side; A's panels are still kg deep); 0: kg */
    int kg_a;
};

struct gg_kernel_set {
    const char *name;          /* machine name, or "portable" */
    unsigned features;         /* GG_CPU_* bits the kernels need */
    int rank;                  /* higher wins when several are supported */
    int caches_known;          /* 0: detect the caches at run time */
    struct gg_caches caches;
    struct gg_ukernel d, s;
    /* the small_tile kernels (fn NULL: none), for the unpacked path at
     * small k (gemm_tmpl.h, FN(small_rows)) */
    struct gg_ukernel d_small, s_small;
    int small_max_k;           /* the deepest k they take (0: SMALL_TILE_K) */
    /* complex double and float (fn NULL: the portable ones run) */
    struct gg_ukernel z, c;
    /* bf16 -> f32 and u8 x s8 -> s32 (fn NULL: the portable ones run), and
     * the CPU features each needs beyond the set's: a CPU without them
     * runs the set's other kernels and the portable one for the type */
    struct gg_ukernel bf16, u8s8;
    unsigned bf16_features, u8s8_features;
};

/* registry.c */
int gg_set_count(void);
const struct gg_kernel_set *gg_set_get(int i);
const struct gg_kernel_set *gg_set_current(void);

/* blocking.c */
struct gg_blocking {
    int mr, nr, mc, kc, nc;
    int l1_sets, l1_ways, l1_line;   /* for the unpacked path's conflict check */
};
struct gg_blocking gg_blocking_for(const struct gg_caches *c, int mr, int nr,
                                   int elem_size, int b_l1_percent);
void gg_caches_detect(struct gg_caches *c);
/* the blocking of the current set for 'd' or 's' (cached) */
const struct gg_blocking *gg_blocking_current(char type);
void gg_blocking_reset(void);
/* GEMMGEN_X86_LEVEL: the highest x86-64 level the runtime's own vector
 * code uses (the small-operand loops' tiles, the packing's transposes) */
int gg_x86_cap(void);
/* Lanes of two vectors picked by constant indexes (the packing's
 * transposes, the matrix-vector loops' folds): clang's and GCC 12's
 * __builtin_shufflevector, older GCC's __builtin_shuffle, whose index
 * vector has type MT (integers as wide as the lanes, as many);
 * GG_SHUFFLES 0 where neither is known. */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)
#define GG_SHUFFLES 1
#define GG_SHUFFLE(MT, a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
#elif defined(__GNUC__)
#define GG_SHUFFLES 1
#define GG_SHUFFLE(MT, a, b, ...) __builtin_shuffle(a, b, (MT){ __VA_ARGS__ })
#else
#define GG_SHUFFLES 0
#endif
#if GG_SHUFFLES
typedef long long gg_mask2 __attribute__((vector_size(16)));
typedef int gg_mask4 __attribute__((vector_size(16)));
#define GG_SHUF2(a, b, i, j) GG_SHUFFLE(gg_mask2, a, b, i, j)
#define GG_SHUF4(a, b, i, j, k, l) GG_SHUFFLE(gg_mask4, a, b, i, j, k, l)
#endif
#if GG_SHUFFLES
/* r[0..3], four 4-lane vectors (rows), transposed in place (columns):
 * pairs of lanes interleaved, then pairs of pairs. */
#define GG_TRANSPOSE4(r) do { \
        __typeof__((r)[0]) t0_ = GG_SHUF4((r)[0], (r)[1], 0, 4, 1, 5); \
        __typeof__((r)[0]) t1_ = GG_SHUF4((r)[0], (r)[1], 2, 6, 3, 7); \
        __typeof__((r)[0]) t2_ = GG_SHUF4((r)[2], (r)[3], 0, 4, 1, 5); \
        __typeof__((r)[0]) t3_ = GG_SHUF4((r)[2], (r)[3], 2, 6, 3, 7); \
        (r)[0] = GG_SHUF4(t0_, t2_, 0, 1, 4, 5); \
        (r)[1] = GG_SHUF4(t0_, t2_, 2, 3, 6, 7); \
        (r)[2] = GG_SHUF4(t1_, t3_, 0, 1, 4, 5); \
        (r)[3] = GG_SHUF4(t1_, t3_, 2, 3, 6, 7); \
    } while (0)
#endif
/* Loops of interleaving copies that clang's cost model leaves scalar (the
 * k-grouped packing) where GCC vectorizes them. */
#ifdef __clang__
#define GG_VECTORIZE _Pragma("clang loop vectorize(enable) vectorize_width(4)")
#else
#define GG_VECTORIZE
#endif
/* That code is built per level with target attributes and picked by
 * __builtin_cpu_supports("x86-64-v4"): GCC, clang from 16 (clang 14 does
 * not know the level names). */
#if defined(__x86_64__) && defined(__GNUC__) && (!defined(__clang__) || __clang_major__ >= 16)
#define GG_X86_LEVELS 1
#else
#define GG_X86_LEVELS 0
#endif

/* pack_x86.c: dst[i + p*ld] = x[i*rs + p] for i < rows, 0 up to pad, by
 * AVX-512 transposes, p up to the returned multiple of 8 in np (with
 * GG_X86_LEVELS; pack_tmpl.h and edge_tmpl.h call them where
 * gg_x86_level() is 4) */
#if GG_X86_LEVELS
#define GG_PACK_X86 1
int64_t d_gg_rows_v4(int64_t np, const double *x, int64_t rs, int64_t rows, int64_t pad,
                     int64_t ld, double *dst);
int64_t s_gg_rows_v4(int64_t np, const float *x, int64_t rs, int64_t rows, int64_t pad,
                     int64_t ld, float *dst);
#else
#define GG_PACK_X86 0
#endif

/* buffers.c: per-thread, 64-byte aligned packing space */
void *gg_pack_buffer(int which, size_t bytes);   /* which: 0 = A, 1 = B, 2 = edge B,
                                                   3 = A's rows for a row tail */

/* threads.c */
int gg_threads_wanted(void);
/* 1 when this call follows the previous one within the pool's spin time */
int gg_calls_back_to_back(void);
/* Runs fn(arg, t, nt) for t = 0..nt-1 on the pool; returns when all end. */
void gg_parallel(int nt, void (*fn)(void *arg, int t, int nt), void *arg);

/* gemm_z.c / gemm_c.c: the same for complex, op(A) = conj(A) when conj_a
 * (likewise B): alpha, beta by value. */
void z_gg_gemm(int64_t m, int64_t n, int64_t k, double _Complex alpha,
               const double _Complex *a, int64_t rs_a, int64_t cs_a,
               const double _Complex *b, int64_t rs_b, int64_t cs_b,
               double _Complex beta, double _Complex *c, int64_t rs_c, int64_t cs_c,
               int conj_a, int conj_b);
void c_gg_gemm(int64_t m, int64_t n, int64_t k, float _Complex alpha,
               const float _Complex *a, int64_t rs_a, int64_t cs_a,
               const float _Complex *b, int64_t rs_b, int64_t cs_b,
               float _Complex beta, float _Complex *c, int64_t rs_c, int64_t cs_c,
               int conj_a, int conj_b);

/* gemm_bf16.c / gemm_u8s8.c: the same on the reduced-precision kernels
 * (A and B bf16; A the int8 operand and B the uint8 one, never swapped:
 * oneDNN's row-major u8s8s32 as C^T = B^T A^T) */
void b_gg_gemm(int64_t m, int64_t n, int64_t k, float alpha,
               const uint16_t *a, int64_t rs_a, int64_t cs_a,
               const uint16_t *b, int64_t rs_b, int64_t cs_b,
               float beta, float *c, int64_t rs_c, int64_t cs_c);
void i_gg_gemm(int64_t m, int64_t n, int64_t k, int32_t alpha,
               const int8_t *a, int64_t rs_a, int64_t cs_a,
               const uint8_t *b, int64_t rs_b, int64_t cs_b,
               int32_t beta, int32_t *c, int64_t rs_c, int64_t cs_c);
/* gemm_bf16_mmla.c / gemm_u8s8_mmla.c: the same loops for kernel sets
 * whose k group is twice the type's (gg_ukernel.kg: MMLA's) */
void bm_gg_gemm(int64_t m, int64_t n, int64_t k, float alpha,
                const uint16_t *a, int64_t rs_a, int64_t cs_a,
                const uint16_t *b, int64_t rs_b, int64_t cs_b,
                float beta, float *c, int64_t rs_c, int64_t cs_c);
void im_gg_gemm(int64_t m, int64_t n, int64_t k, int32_t alpha,
                const int8_t *a, int64_t rs_a, int64_t cs_a,
                const uint8_t *b, int64_t rs_b, int64_t cs_b,
                int32_t beta, int32_t *c, int64_t rs_c, int64_t cs_c);
/* gemm_bf16_amx.c / gemm_u8s8_amx.c: the same for AMX sets (kg 32 or 64, A
 * packed in the type's groups: gg_ukernel.kg_a) */
void ba_gg_gemm(int64_t m, int64_t n, int64_t k, float alpha,
                const uint16_t *a, int64_t rs_a, int64_t cs_a,
                const uint16_t *b, int64_t rs_b, int64_t cs_b,
                float beta, float *c, int64_t rs_c, int64_t cs_c);
void ia_gg_gemm(int64_t m, int64_t n, int64_t k, int32_t alpha,
                const int8_t *a, int64_t rs_a, int64_t cs_a,
                const uint8_t *b, int64_t rs_b, int64_t cs_b,
                int32_t beta, int32_t *c, int64_t rs_c, int64_t cs_c);

/* gemm_d.c / gemm_s.c: C = alpha A B + beta C in general strides. */
void gg_dgemm(int64_t m, int64_t n, int64_t k, double alpha,
              const double *a, int64_t rs_a, int64_t cs_a,
              const double *b, int64_t rs_b, int64_t cs_b,
              double beta, double *c, int64_t rs_c, int64_t cs_c);
void gg_sgemm(int64_t m, int64_t n, int64_t k, float alpha,
              const float *a, int64_t rs_a, int64_t cs_a,
              const float *b, int64_t rs_b, int64_t cs_b,
              float beta, float *c, int64_t rs_c, int64_t cs_c);

/* kernels/portable_*.c */
gg_dkernel gg_portable_f64;
gg_skernel gg_portable_f32;
/* ... their in-place variants (B as rows) and edge kernels: n = half
 * width, m = half height, mn = both */
gg_ddirect gg_portable_f64_direct, gg_portable_f64_en, gg_portable_f64_em, gg_portable_f64_emn;
gg_sdirect gg_portable_f32_direct, gg_portable_f32_en, gg_portable_f32_em, gg_portable_f32_emn;
gg_zkernel gg_portable_c64;
gg_ckernel gg_portable_c32;
enum { GG_PORTABLE_C64_MR = 4, GG_PORTABLE_C64_NR = 4,
       GG_PORTABLE_C32_MR = 4, GG_PORTABLE_C32_NR = 4 };
gg_bkernel gg_portable_bf16;
gg_ikernel gg_portable_u8s8;
enum { GG_PORTABLE_BF16_MR = 6, GG_PORTABLE_BF16_NR = 8,
       GG_PORTABLE_U8S8_MR = 6, GG_PORTABLE_U8S8_NR = 8 };
/* MR rows of NR/VL 16-byte vectors (portable_tmpl.h says why 6 x 2) */
enum { GG_PORTABLE_F64_MR = 6, GG_PORTABLE_F64_NR = 4,
       GG_PORTABLE_F32_MR = 6, GG_PORTABLE_F32_NR = 8 };
/* the edge kernels' half height and half width (whole vectors) */
enum { GG_PORTABLE_F64_MH = GG_PORTABLE_F64_MR / 2, GG_PORTABLE_F64_NH = GG_PORTABLE_F64_NR / 2,
       GG_PORTABLE_F32_MH = GG_PORTABLE_F32_MR / 2, GG_PORTABLE_F32_NH = GG_PORTABLE_F32_NR / 2 };

#endif
