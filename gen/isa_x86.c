/* isa_x86.c: AVX, AVX2+FMA and AVX-512 spellings. Shuffles permute lanes by
 * xor with 1<<bit: bit 0 swaps neighbours, higher bits swap 128-bit or
 * 256-bit blocks. */
#include "target.h"
#include <stddef.h>

/* clang's machine scheduler hoists the B broadcasts of the in-place kernels
 * (B read through a pointer per column) above their FMAs and spills the
 * vectors it then holds; GCC schedules nothing before allocation on x86. */
#define X86_COMMON \
    .family = FAM_X86, .includes = "#include <immintrin.h>", .cc = "cc", .runner = "", \
    .spare_regs = 1, .direct_spare_below = 32, \
    .ooo_cflags = { [COMPILER_CLANG] = "-mllvm -enable-misched=false" }

/* The k-group row tails' helpers (emit_kgroup.c), G = 2: a pair of B's
 * elements is broadcast as one element of twice the width, a pure load
 * on x86 (a 2-element broadcast would take a shuffle port, one of the FMA
 * ports); memcpy keeps the double-width read free of aliasing. sum2_ adds
 * neighbours and gathers the sums into the low half. */
#define X86_PAIRS_256_F32 \
    "static inline __m256 bcast2_(const float *p)\n" \
    "{\n" \
    "    double d;\n" \
    "    __builtin_memcpy(&d, p, sizeof d);\n" \
    "    return _mm256_castpd_ps(_mm256_set1_pd(d));\n" \
    "}\n" \
    "static inline __m256 tail2_(const float *p, int64_t r)\n" \
    "{\n" \
    "    (void)r;   /* 1 */\n" \
    "    return _mm256_blend_ps(_mm256_setzero_ps(), _mm256_set1_ps(*p), 0x55);\n" \
    "}\n" \
    "static inline __m256 sum2_(__m256 s)\n" \
    "{\n" \
    "    __m256 t = _mm256_add_ps(s, _mm256_permute_ps(s, 0xB1));\n" \
    "    __m256 u = _mm256_shuffle_ps(t, t, 0x88);   /* t0 t2 t0 t2 | t4 t6 t4 t6 */\n" \
    "    __m128d lo = _mm_castps_pd(_mm256_castps256_ps128(u)), hi = _mm_castps_pd(_mm256_extractf128_ps(u, 1));\n" \
    "    return _mm256_castps128_ps256(_mm_castpd_ps(_mm_unpacklo_pd(lo, hi)));\n" \
    "}\n"

#define X86_PAIRS_512_F32 \
    "static inline __m512 bcast2_(const float *p)\n" \
    "{\n" \
    "    double d;\n" \
    "    __builtin_memcpy(&d, p, sizeof d);\n" \
    "    return _mm512_castpd_ps(_mm512_set1_pd(d));\n" \
    "}\n" \
    "static inline __m512 tail2_(const float *p, int64_t r)\n" \
    "{\n" \
    "    (void)r;   /* 1 */\n" \
    "    return _mm512_maskz_mov_ps(0x5555, _mm512_set1_ps(*p));\n" \
    "}\n" \
    "static inline __m512 sum2_(__m512 s)\n" \
    "{\n" \
    "    const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15);\n" \
    "    return _mm512_permutexvar_ps(even, _mm512_add_ps(s, _mm512_permute_ps(s, 0xB1)));\n" \
    "}\n"

#define X86_PAIRS_512_F64 \
    "static inline __m512d bcast2_(const double *p)\n" \
    "{\n" \
    "    return _mm512_castps_pd(_mm512_broadcast_f32x4(_mm_loadu_ps((const float *)p)));\n" \
    "}\n" \
    "static inline __m512d tail2_(const double *p, int64_t r)\n" \
    "{\n" \
    "    (void)r;   /* 1 */\n" \
    "    return _mm512_maskz_mov_pd(0x55, _mm512_set1_pd(*p));\n" \
    "}\n" \
    "static inline __m512d sum2_(__m512d s)\n" \
    "{\n" \
    "    const __m512i even = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);\n" \
    "    return _mm512_permutexvar_pd(even, _mm512_add_pd(s, _mm512_permute_pd(s, 0x55)));\n" \
    "}\n"

/* G = 4 (AVX-512 f32, 4 rows): a 4-element block is broadcast by
 * vbroadcastf32x4, a load uop only on Intel cores, a shuffle too on Zen 4
 * (machines/zen4.yaml vbroadcast_block), where the dot products pay from
 * k = 57 (X86_HSUM4_512_F32). */
#define X86_QUADS_512_F32 \
    "static inline __m512 bcast4_(const float *p)\n" \
    "{\n" \
    "    return _mm512_broadcast_f32x4(_mm_loadu_ps(p));\n" \
    "}\n" \
    "static inline __m512 tail4_(const float *p, int64_t r)\n" \
    "{\n" \
    "    return _mm512_broadcast_f32x4(_mm_setr_ps(p[0], r > 1 ? p[1] : 0.0f, r > 2 ? p[2] : 0.0f, 0.0f));\n" \
    "}\n" \
    "static inline __m512 sum4_(__m512 s)\n" \
    "{\n" \
    "    const __m512i first = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);\n" \
    "    __m512 t = _mm512_add_ps(s, _mm512_permute_ps(s, 0xB1));\n" \
    "    return _mm512_permutexvar_ps(first, _mm512_add_ps(t, _mm512_permute_ps(t, 0x4E)));\n" \
    "}\n"

/* The dot-product row tail's reduction (emit_dot.c), AVX-512 f32: the
 * four accumulators interleaved and added within 128-bit lanes (unpacks,
 * then in-lane shuffles: each lane holds its part of the 4 sums), then
 * the lanes added across, row r's sum in lane r: 8 shuffles and 5 adds
 * where three hadds took 11 and 8 (docs/decisions.md). */
#define X86_HSUM4_512_F32 \
    "static inline __m512 hsum4_(__m512 a, __m512 b, __m512 c, __m512 d)\n" \
    "{\n" \
    "    __m512 ab = _mm512_add_ps(_mm512_unpacklo_ps(a, b), _mm512_unpackhi_ps(a, b));\n" \
    "    __m512 cd = _mm512_add_ps(_mm512_unpacklo_ps(c, d), _mm512_unpackhi_ps(c, d));\n" \
    "    __m512 s = _mm512_add_ps(_mm512_shuffle_ps(ab, cd, 0x44), _mm512_shuffle_ps(ab, cd, 0xEE));\n" \
    "    s = _mm512_add_ps(s, _mm512_shuffle_f32x4(s, s, 0x4E));\n" \
    "    s = _mm512_add_ps(s, _mm512_shuffle_f32x4(s, s, 0xB1));\n" \
    "    return _mm512_zextps128_ps512(_mm512_castps512_ps128(s));\n" \
    "}\n"

/* The dot tail's 4 x 4 block at once, AVX-512 f32 (full-width pipes): the
 * 16 accumulators halved across 256-bit halves (red_a_: pairs of columns
 * 0/2 and 1/3), then across 128-bit blocks (red_b_), each a shuffle and
 * two adds (one masked: the adds run on FP2/FP3, the shuffles share FP1
 * with the FMAs), then hsum4_'s in-block steps: 18 shuffles and 27 adds
 * for the 16 sums where four hsum4_ took 32 and 20. C's four columns then
 * take one vector: masked loads and stores at c + q * cs_c - 4q touch only
 * lanes 4q.. (masked-off lanes do not fault; merged into one vector by
 * chained masked loads: four independent loads merged by blends ran
 * slower). It pays for 4 rows; 2 or 3 rows alone lose a little (their
 * masks idle lanes): docs/decisions.md. */
#define X86_HSUM16_512_F32 \
    "static inline __m512 red_a_(__m512 x, __m512 y)\n" \
    "{\n" \
    "    __m512 t = _mm512_shuffle_f32x4(x, y, 0x4E);\n" \
    "    return _mm512_mask_add_ps(_mm512_add_ps(x, t), 0xFF00, y, t);\n" \
    "}\n" \
    "static inline __m512 red_b_(__m512 x, __m512 y)\n" \
    "{\n" \
    "    const __m512i i = _mm512_set_epi32(27, 26, 25, 24, 15, 14, 13, 12, 19, 18, 17, 16, 7, 6, 5, 4);\n" \
    "    __m512 t = _mm512_permutex2var_ps(x, i, y);\n" \
    "    return _mm512_mask_add_ps(_mm512_add_ps(x, t), 0xF0F0, y, t);\n" \
    "}\n" \
    "static inline __m512 hsum16_(__m512 s00, __m512 s01, __m512 s02, __m512 s03,\n" \
    "                             __m512 s10, __m512 s11, __m512 s12, __m512 s13,\n" \
    "                             __m512 s20, __m512 s21, __m512 s22, __m512 s23,\n" \
    "                             __m512 s30, __m512 s31, __m512 s32, __m512 s33)\n" \
    "{\n" \
    "    __m512 w0 = red_b_(red_a_(s00, s02), red_a_(s01, s03));\n" \
    "    __m512 w1 = red_b_(red_a_(s10, s12), red_a_(s11, s13));\n" \
    "    __m512 w2 = red_b_(red_a_(s20, s22), red_a_(s21, s23));\n" \
    "    __m512 w3 = red_b_(red_a_(s30, s32), red_a_(s31, s33));\n" \
    "    __m512 ab = _mm512_add_ps(_mm512_unpacklo_ps(w0, w1), _mm512_unpackhi_ps(w0, w1));\n" \
    "    __m512 cd = _mm512_add_ps(_mm512_unpacklo_ps(w2, w3), _mm512_unpackhi_ps(w2, w3));\n" \
    "    return _mm512_add_ps(_mm512_shuffle_ps(ab, cd, 0x44), _mm512_shuffle_ps(ab, cd, 0xEE));\n" \
    "}\n" \
    "static inline void cupd16_(float *c, int64_t cs_c, __m512 h, __m512 va_, __m512 vb_, float vb,\n" \
    "                           unsigned rows)\n" \
    "{\n" \
    "    const __mmask16 q0 = (__mmask16)rows, q1 = (__mmask16)(rows << 4),\n" \
    "                    q2 = (__mmask16)(rows << 8), q3 = (__mmask16)(rows << 12);\n" \
    "    __m512 v = _mm512_mul_ps(va_, h);\n" \
    "    if (vb != 0) {\n" \
    "        __m512 cv = _mm512_maskz_loadu_ps(q0, c);\n" \
    "        cv = _mm512_mask_loadu_ps(cv, q1, c + cs_c - 4);\n" \
    "        cv = _mm512_mask_loadu_ps(cv, q2, c + 2 * cs_c - 8);\n" \
    "        cv = _mm512_mask_loadu_ps(cv, q3, c + 3 * cs_c - 12);\n" \
    "        v = _mm512_fmadd_ps(vb_, cv, v);\n" \
    "    }\n" \
    "    _mm512_mask_storeu_ps(c, q0, v);\n" \
    "    _mm512_mask_storeu_ps(c + cs_c - 4, q1, v);\n" \
    "    _mm512_mask_storeu_ps(c + 2 * cs_c - 8, q2, v);\n" \
    "    _mm512_mask_storeu_ps(c + 3 * cs_c - 12, q3, v);\n" \
    "}\n"

/* The same on 256-bit pipes (Zen 4): each accumulator's halves added in
 * ymm, single-pumped, then three hadds leave row r's sum in lane r. */
#define X86_HSUM4_512_F32_HALF \
    "static inline __m256 half8_(__m512 s)\n" \
    "{\n" \
    "    return _mm256_add_ps(_mm512_castps512_ps256(s),\n" \
    "                         _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(s), 1)));\n" \
    "}\n" \
    "static inline __m512 hsum4_(__m512 a, __m512 b, __m512 c, __m512 d)\n" \
    "{\n" \
    "    __m256 s = _mm256_hadd_ps(_mm256_hadd_ps(half8_(a), half8_(b)), _mm256_hadd_ps(half8_(c), half8_(d)));\n" \
    "    return _mm512_zextps128_ps512(_mm_add_ps(_mm256_castps256_ps128(s), _mm256_extractf128_ps(s, 1)));\n" \
    "}\n"

/* The same for AVX-512 f64: pairs interleaved and added within 128-bit
 * lanes, the lanes gathered and added across, row r's sum in lane r: 8
 * shuffles and 4 adds where half4 and two hadds took 10 and 7. No
 * half-width spelling: the one such machine, Zen 4, has no f64 dot tail. */
#define X86_HSUM4_512_F64 \
    "static inline __m512d hsum4_(__m512d a, __m512d b, __m512d c, __m512d d)\n" \
    "{\n" \
    "    __m512d ab = _mm512_add_pd(_mm512_unpacklo_pd(a, b), _mm512_unpackhi_pd(a, b));\n" \
    "    __m512d cd = _mm512_add_pd(_mm512_unpacklo_pd(c, d), _mm512_unpackhi_pd(c, d));\n" \
    "    __m512d s = _mm512_add_pd(_mm512_shuffle_f64x2(ab, cd, 0x88), _mm512_shuffle_f64x2(ab, cd, 0xDD));\n" \
    "    s = _mm512_add_pd(s, _mm512_shuffle_f64x2(s, s, 0xB1));\n" \
    "    s = _mm512_shuffle_f64x2(s, s, 0x08);\n" \
    "    return _mm512_zextpd256_pd512(_mm512_castpd512_pd256(s));\n" \
    "}\n"

/* Complex kernels: B(p,j)'s real and imaginary parts broadcast into two
 * accumulator sets (plain FMAs in the k loop); after it, each C vector is
 * re + swap(im) under an add-subtract. AVX-512 has no addsub: fmaddsub by
 * one does it. */
#define X86_CX(N, ADD_IC, SWAP, ADDSUB, FMADDSUB) { \
    .name = N, .strategies = 1u << BS_SPLIT_COMPLEX, .combine = { IC_VSHUFFLE, ADD_IC }, \
    .swap = SWAP, .addsub = ADDSUB, .fmaddsub = FMADDSUB }
#define X86_CX_256_F64(FMADDSUB) X86_CX("split re/im broadcast + permute/addsub", IC_VFADD, \
    "_mm256_permute_pd(%0, 0x5)", "_mm256_addsub_pd(%0, %1)", FMADDSUB)
#define X86_CX_256_F32(FMADDSUB) X86_CX("split re/im broadcast + permute/addsub", IC_VFADD, \
    "_mm256_permute_ps(%0, 0xB1)", "_mm256_addsub_ps(%0, %1)", FMADDSUB)

#define AVX_F64(FMA, FMAV) { \
    .vtype = "__m256d", \
    .load = "%d = _mm256_loadu_pd(%m);", \
    .bcast = "%d = _mm256_broadcast_sd(%m);", \
    .shuf = { "%d = _mm256_permute_pd(%0, 0x5);", "%d = _mm256_permute2f128_pd(%0, %0, 0x01);" }, \
    .fma = FMA, .mul = "%d = _mm256_mul_pd(%1, %2);", .add = "%d = _mm256_add_pd(%0, %1);", \
    .zero = "%d = _mm256_setzero_pd();", \
    .store = "_mm256_storeu_pd(%m, %0);", .loadc = "_mm256_loadu_pd(%m)", \
    .set1 = "_mm256_set1_pd(%0)", .vmul = "_mm256_mul_pd(%0, %1)", .vadd = "_mm256_add_pd(%0, %1)", \
    .vfma = FMAV, \
    .prefetch = "__builtin_prefetch(%m, 0, %l);" }

#define AVX_F32(FMA, FMAV) { \
    .vtype = "__m256", \
    .load = "%d = _mm256_loadu_ps(%m);", \
    .bcast = "%d = _mm256_broadcast_ss(%m);", \
    .shuf = { "%d = _mm256_permute_ps(%0, 0xB1);", "%d = _mm256_permute_ps(%0, 0x4E);", \
              "%d = _mm256_permute2f128_ps(%0, %0, 0x01);" }, \
    .fma = FMA, .mul = "%d = _mm256_mul_ps(%1, %2);", .add = "%d = _mm256_add_ps(%0, %1);", \
    .zero = "%d = _mm256_setzero_ps();", \
    .store = "_mm256_storeu_ps(%m, %0);", .loadc = "_mm256_loadu_ps(%m)", \
    .set1 = "_mm256_set1_ps(%0)", .vmul = "_mm256_mul_ps(%0, %1)", .vadd = "_mm256_add_ps(%0, %1)", \
    .vfma = FMAV, \
    .prefetch = "__builtin_prefetch(%m, 0, %l);", \
    .groups = { X86_PAIRS_256_F32 } }

const struct target target_avx = {
    X86_COMMON, .name = "avx", .requires = EXT_AVX, .min_bits = 256, .max_bits = 256,
    .strategies = 1u << BS_VECTOR_SHUFFLE | 1u << BS_SCALAR_BROADCAST,
    .regprefix = { "ymm", "ymmp", "ymma" },
    .cflags = "-mavx",
    .cpu_features = "GG_CPU_AVX",
    .sp = {
        [ELEM_F64] = AVX_F64(NULL, "_mm256_add_pd(_mm256_mul_pd(%0, %1), %2)"),
        [ELEM_F32] = AVX_F32(NULL, "_mm256_add_ps(_mm256_mul_ps(%0, %1), %2)"),
    },
    .cx = {
        [ELEM_F64] = X86_CX_256_F64("_mm256_addsub_pd(_mm256_mul_pd(%0, %1), %2)"),
        [ELEM_F32] = X86_CX_256_F32("_mm256_addsub_ps(_mm256_mul_ps(%0, %1), %2)"),
    },
};

const struct target target_avx2 = {
    X86_COMMON, .name = "avx2", .requires = EXT_AVX | EXT_AVX2 | EXT_FMA,
    .min_bits = 256, .max_bits = 256,
    .strategies = 1u << BS_VECTOR_SHUFFLE | 1u << BS_SCALAR_BROADCAST,
    .regprefix = { "ymm", "ymmp", "ymma" },
    .cflags = "-mavx2 -mfma",
    .cpu_features = "GG_CPU_AVX2 | GG_CPU_FMA",
    .sp = {
        [ELEM_F64] = AVX_F64("%d = _mm256_fmadd_pd(%1, %2, %0);", "_mm256_fmadd_pd(%0, %1, %2)"),
        [ELEM_F32] = AVX_F32("%d = _mm256_fmadd_ps(%1, %2, %0);", "_mm256_fmadd_ps(%0, %1, %2)"),
    },
    .cx = {
        [ELEM_F64] = X86_CX_256_F64("_mm256_fmaddsub_pd(%0, %1, %2)"),
        [ELEM_F32] = X86_CX_256_F32("_mm256_fmaddsub_ps(%0, %1, %2)"),
    },
};

/* AVX-512's half-width row tail runs on AVX2's ymm spelling: VEX-encoded
 * without AVX-512VL, so it names only ymm0-15. */
#define X86_HALF(E, WIDEN) .half = &target_avx2.sp[E], .half_regs = 16, .widen = WIDEN

/* C's update in f32 vectors (SGEMM, and bf16 into f32) */
#define X86_C_512_F32 \
    .store = "_mm512_storeu_ps(%m, %0);", .loadc = "_mm512_loadu_ps(%m)", \
    .set1 = "_mm512_set1_ps(%0)", .vmul = "_mm512_mul_ps(%0, %1)", .vadd = "_mm512_add_ps(%0, %1)", \
    .vfma = "_mm512_fmadd_ps(%0, %1, %2)", \
    .mask_decl = "const __mmask16 %d = (__mmask16)(%1 - %0 >= 16 ? 0xFFFF : (1u << (%1 - %0)) - 1);", \
    .mloadc = "_mm512_maskz_loadu_ps(%1, %m)", .mstore = "_mm512_mask_storeu_ps(%m, %1, %0);", \
    .prefetch = "__builtin_prefetch(%m, 0, %l);"

/* AVX512_VNNI's 8-bit kernels, DOT the multiply-add (which operand is
 * the unsigned one); C's update in int32 */
#define X86_I8_512(DOT) { X86_I8_BODY(DOT), .strategies = 1u << BS_SCALAR_BROADCAST }
#define X86_I8_BODY(DOT) \
    .vtype = "__m512i", \
    .load = "%d = _mm512_loadu_si512(%m);", \
    .bcast = "%d = _mm512_broadcastd_epi32(_mm_loadu_si32(%m));", \
    .fma = DOT, \
    .zero = "%d = _mm512_setzero_si512();", \
    X86_C_512_I32, \
    .requires = EXT_AVX512VNNI, .cflags = "-mavx512vnni", \
    .cpu_features = "GG_CPU_AVX512VNNI"

/* C's update in int32 vectors (the 8-bit types) */
#define X86_C_512_I32 \
    .store = "_mm512_storeu_si512(%m, %0);", .loadc = "_mm512_loadu_si512(%m)", \
    .set1 = "_mm512_set1_epi32(%0)", .vmul = "_mm512_mullo_epi32(%0, %1)", \
    .vadd = "_mm512_add_epi32(%0, %1)", \
    .vfma = "_mm512_add_epi32(_mm512_mullo_epi32(%0, %1), %2)", \
    .mask_decl = "const __mmask16 %d = (__mmask16)(%1 - %0 >= 16 ? 0xFFFF : (1u << (%1 - %0)) - 1);", \
    .mloadc = "_mm512_maskz_loadu_epi32(%1, %m)", .mstore = "_mm512_mask_storeu_epi32(%m, %1, %0);", \
    .prefetch = "__builtin_prefetch(%m, 0, %l);"

/* AMX (outer product on tiles): eight 16-row x 64-byte tiles hold the
 * accumulators and the operands. TDPBUSD / TDPBF16PS add to a 16 x 16
 * tile of C's type the products of their first source's rows (16 rows of
 * 64 bytes along k) with the second's VNNI quads (pairs): 16 k groups of
 * 16 columns. B's columns are the first source, packed 64 bytes of k
 * together (outer_group); A's rows the second, packed in the type's
 * groups, so a tile of A is 16 consecutive groups of the panel, a row
 * stride of MR groups. The accumulator's row t is then C's column t:
 * B first. The tile configuration (all eight 16 x 64) is per thread:
 * the kernel loads it where the thread's differs (its first call), after
 * asking Linux for the tile state (arch_prctl ARCH_REQ_XCOMP_PERM, which
 * a process may repeat). */
#define X86_AMX_PROLOGUE \
    "{\n" \
    "        static const unsigned char cfg_[64] __attribute__((aligned(64))) = {\n" \
    "            1, [16] = 64, 0, 64, 0, 64, 0, 64, 0, 64, 0, 64, 0, 64, 0, 64, 0,\n" \
    "            [48] = 16, 16, 16, 16, 16, 16, 16, 16 };\n" \
    "        unsigned char cur_[64] __attribute__((aligned(64)));\n" \
    "        _tile_storeconfig(cur_);\n" \
    "        if (_mm512_cmpneq_epi32_mask(_mm512_load_si512(cur_), _mm512_load_si512(cfg_))) {\n" \
    "            long r_;   /* arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA) */\n" \
    "            __asm__ volatile(\"syscall\" : \"=a\"(r_) : \"0\"(158L), \"D\"(0x1023L), \"S\"(18L)\n" \
    "                             : \"rcx\", \"r11\", \"memory\");\n" \
    "            (void)r_;\n" \
    "            _tile_loadconfig(cfg_);\n" \
    "        }\n" \
    "    }"
#define X86_AMX(VT, LOADV, CT, C_UPDATE, DP, REQ, FLAGS, FEAT) (&(const struct spell){ \
    C_UPDATE, \
    .vtype = VT, .tiles = true, .regs = 8, .regprefix = "tmm", .prologue = X86_AMX_PROLOGUE, \
    .load = "_tile_loadd(%#d, %m, %l);", .ger = DP, .zero = "_tile_zero(%#d);", \
    .load_acc = "_tile_loadd(%#d, %m, cs_c * %l);", .store_acc = "_tile_stored(%#d, %m, cs_c * %l);", \
    .extract = "%t %d[16];\n    {\n        " CT " tile_[256] __attribute__((aligned(64)));\n" \
               "        _tile_stored(%#0, tile_, 64);\n" \
               "        for (int i_ = 0; i_ < 16; i_++) %d[i_] = " LOADV "(tile_ + 16 * i_);\n    }", \
    .requires = REQ, .cflags = FLAGS, .cpu_features = FEAT })

const struct target target_avx512 = {
    X86_COMMON, .name = "avx512", .requires = EXT_AVX512F, .min_bits = 512, .max_bits = 512,
    .strategies = 1u << BS_VECTOR_SHUFFLE | 1u << BS_SCALAR_BROADCAST,
    /* AMX tiles (the rank-G types' outer product): 16 rows of A, 16 columns of B */
    .outer_rows = { [ELEM_BF16] = 16, [ELEM_S8U8] = 16 },
    .outer_cols = { [ELEM_BF16] = 16, [ELEM_S8U8] = 16 },
    .a_regs_per_load = { [ELEM_BF16] = 1, [ELEM_S8U8] = 1 },
    .outer_b_first = { [ELEM_BF16] = true, [ELEM_S8U8] = true },
    .outer_group = { [ELEM_BF16] = 32, [ELEM_S8U8] = 64 },
    .regprefix = { "zmm", "zmmp", "zmma" },
    .cflags = "-mavx512f -mfma",
    .cpu_features = "GG_CPU_AVX512F | GG_CPU_FMA",
    .sp = {
        [ELEM_F64] = {
            .vtype = "__m512d",
            .load = "%d = _mm512_loadu_pd(%m);",
            .bcast = "%d = _mm512_set1_pd(*(%m));",
            .shuf = { "%d = _mm512_permute_pd(%0, 0x55);",
                      "%d = _mm512_shuffle_f64x2(%0, %0, 0xB1);",
                      "%d = _mm512_shuffle_f64x2(%0, %0, 0x4E);" },
            .fma = "%d = _mm512_fmadd_pd(%1, %2, %0);",
            .mul = "%d = _mm512_mul_pd(%1, %2);", .add = "%d = _mm512_add_pd(%0, %1);",
            .zero = "%d = _mm512_setzero_pd();",
            .store = "_mm512_storeu_pd(%m, %0);", .loadc = "_mm512_loadu_pd(%m)",
            .set1 = "_mm512_set1_pd(%0)", .vmul = "_mm512_mul_pd(%0, %1)", .vadd = "_mm512_add_pd(%0, %1)",
            .vfma = "_mm512_fmadd_pd(%0, %1, %2)",
            .mask_decl = "const __mmask8 %d = (__mmask8)(%1 - %0 >= 8 ? 0xFF : (1u << (%1 - %0)) - 1);",
            .mloadc = "_mm512_maskz_loadu_pd(%1, %m)", .mstore = "_mm512_mask_storeu_pd(%m, %1, %0);",
            .prefetch = "__builtin_prefetch(%m, 0, %l);",
            .groups = { X86_PAIRS_512_F64 },
            .hsum4 = X86_HSUM4_512_F64,
            X86_HALF(ELEM_F64, "_mm512_zextpd256_pd512(%0)"),
        },
        [ELEM_F32] = {
            .vtype = "__m512",
            .load = "%d = _mm512_loadu_ps(%m);",
            .bcast = "%d = _mm512_set1_ps(*(%m));",
            .shuf = { "%d = _mm512_permute_ps(%0, 0xB1);", "%d = _mm512_permute_ps(%0, 0x4E);",
                      "%d = _mm512_shuffle_f32x4(%0, %0, 0xB1);",
                      "%d = _mm512_shuffle_f32x4(%0, %0, 0x4E);" },
            .fma = "%d = _mm512_fmadd_ps(%1, %2, %0);",
            .mul = "%d = _mm512_mul_ps(%1, %2);", .add = "%d = _mm512_add_ps(%0, %1);",
            .zero = "%d = _mm512_setzero_ps();",
            X86_C_512_F32,
            .groups = { X86_PAIRS_512_F32, X86_QUADS_512_F32 },
            .hsum4 = X86_HSUM4_512_F32, .hsum4_half = X86_HSUM4_512_F32_HALF, .hsum16 = X86_HSUM16_512_F32,
            X86_HALF(ELEM_F32, "_mm512_zextps256_ps512(%0)"),
        },
        /* rank-2: a 32-bit lane holds two bf16 k steps; vdpbf16ps adds
         * their products to an f32 lane, so C's update is SGEMM's */
        [ELEM_BF16] = {
            .vtype = "__m512",
            .load = "%d = _mm512_castsi512_ps(_mm512_loadu_si512(%m));",
            .bcast = "%d = _mm512_castsi512_ps(_mm512_broadcastd_epi32(_mm_loadu_si32(%m)));",
            .fma = "%d = _mm512_dpbf16_ps(%0, (__m512bh)%1, (__m512bh)%2);",
            .zero = "%d = _mm512_setzero_ps();",
            X86_C_512_F32,
            .requires = EXT_AVX512BF16, .cflags = "-mavx512bf16",
            .cpu_features = "GG_CPU_AVX512BF16",
            .strategies = 1u << BS_SCALAR_BROADCAST | 1u << BS_OUTER_PRODUCT,
            .outer = X86_AMX("__m512", "_mm512_load_ps", "float", X86_C_512_F32,
                             "_tile_dpbf16ps(%#d, %#2, %#1);",
                             EXT_AMX_BF16, "-mamx-tile -mamx-bf16", "GG_CPU_AMX_BF16"),
        },
        /* rank-4: four u8 times four s8 k steps into an int32 lane
         * (vpdpbusd takes the unsigned operand first; no saturation) */
        [ELEM_U8S8] = X86_I8_512("%d = _mm512_dpbusd_epi32(%0, %1, %2);"),
        /* s8u8s32: B the unsigned operand, TDPBUSD's rows */
        [ELEM_S8U8] = { X86_I8_BODY("%d = _mm512_dpbusd_epi32(%0, %2, %1);"),
                        .strategies = 1u << BS_SCALAR_BROADCAST | 1u << BS_OUTER_PRODUCT,
                        .outer = X86_AMX("__m512i", "_mm512_load_si512", "int32_t", X86_C_512_I32,
                                         "_tile_dpbusd(%#d, %#2, %#1);", EXT_AMX_INT8,
                                         "-mamx-tile -mamx-int8", "GG_CPU_AMX_INT8") },
    },
    .cx = {
        [ELEM_F64] = X86_CX("split re/im broadcast + permute/fmaddsub", IC_VFMA,
                            "_mm512_permute_pd(%0, 0x55)",
                            "_mm512_fmaddsub_pd(%0, _mm512_set1_pd(1.0), %1)",
                            "_mm512_fmaddsub_pd(%0, %1, %2)"),
        [ELEM_F32] = X86_CX("split re/im broadcast + permute/fmaddsub", IC_VFMA,
                            "_mm512_permute_ps(%0, 0xB1)",
                            "_mm512_fmaddsub_ps(%0, _mm512_set1_ps(1.0f), %1)",
                            "_mm512_fmaddsub_ps(%0, %1, %2)"),
    },
};
