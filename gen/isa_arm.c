/* isa_arm.c: AArch64 NEON and SVE spellings (ACLE intrinsics).
 *
 * Both offer VectorLoad-Broadcast (POCA §3.1.1): B is loaded 128 bits at a
 * time and the FMA takes its B operand by lane (fmla by element), so the
 * broadcast costs nothing; and ScalarLoad-Broadcast (ld1r / ld1rd) for cores
 * where the indexed FMA is slow (A64FX). vector-shuffle is not offered: the
 * FMA by lane already reaches every B element of a register without a
 * permute, so shuffling B could only add instructions.
 *
 * SVE kernels are built for the vector length the machine file names: MR,
 * the packing and the edge buffer are counted in its elements. Every
 * predicate is svptrue, and -msve-vector-bits=%b lets GCC use the
 * [x, #imm, mul vl] addressing for the immediate offsets (§3.1.3) that it
 * cannot use when the length is unknown; the kernel refuses to compile
 * without it. A vector-length-agnostic kernel would need MR as a run-time
 * value, which the kernel ABI (MR in the header, packed panels of MR rows)
 * and the schedule (built for a known number of vectors) do not allow. */
#include "target.h"
#include <stddef.h>

/* What keeps the emitted order, per compiler (struct target's ooo_cflags
 * and inorder_cflags). */
#define ARM_OOO_CFLAGS { [COMPILER_GCC] = "-fno-schedule-insns", [COMPILER_CLANG] = NULL }
#define ARM_INORDER_CFLAGS { \
    [COMPILER_GCC] = "-fno-schedule-insns -fno-schedule-insns2 -fno-peephole2", \
    [COMPILER_CLANG] = "-mllvm -aarch64-enable-ldst-opt=false" }

/* NEON's zero and C's update after the loop, but for its multiply-add
 * (vfma); S is the ACLE type suffix ("f64"). */
#define NEON_EPI(S) \
    .zero = "%d = vdupq_n_" S "(0);", \
    .store = "vst1q_" S "(%m, %0);", .loadc = "vld1q_" S "(%m)", \
    .set1 = "vdupq_n_" S "(%0)", .vmul = "vmulq_" S "(%0, %1)", .vadd = "vaddq_" S "(%0, %1)", \
    .prefetch = "__builtin_prefetch(%m, 0, %l);"

/* NEON: vector-broadcast loads B with vld1q (one 128-bit group = one
 * register), so `load_b` stays NULL. */
#define NEON_SPELL(VT, S) { \
    .vtype = VT, \
    .load = "%d = vld1q_" S "(%m);", \
    .bcast = "%d = vld1q_dup_" S "(%m);", \
    .fma = "%d = vfmaq_" S "(%0, %1, %2);", \
    .fma_lane = "%d = vfmaq_laneq_" S "(%0, %1, %2, %l);", \
    .mul = "%d = vmulq_" S "(%1, %2);", .add = "%d = vaddq_" S "(%0, %1);", \
    .vfma = "vfmaq_" S "(%2, %0, %1)", NEON_EPI(S) }

/* Rank-G types by element (vector-broadcast alone): A's 16 bytes are 4
 * rows of G k steps, B's 4 columns of them, and the lane picks one
 * column's group, as the packed layout has them. The registers hold C's
 * type, reinterpreted for the dot product. bf16, i8mm: armv8.6-a, also
 * allowed from armv8.2-a. BFMMLA and USMMLA: NEON_MMLA, SVE_MMLA. */
/* MMLA on NEON: as SVE's (below) on its one segment; C's update works on
 * the low 64 bits of each register, a column of 2 rows. */
#define NEON_UZP(S, N) "vreinterpretq_" S "_u64(vuzp" N "q_u64(vreinterpretq_u64_" S "(%0), " \
                       "vreinterpretq_u64_" S "(%0)))"
#define NEON_MMLA(VT, S, VFMA, LOADA, LOADB, GER) (&(const struct spell){ \
    .vtype = VT, .load = LOADA, .load_b = LOADB, .ger = GER, \
    .extract = "%t %d0 = " NEON_UZP(S, "1") ", %d1 = " NEON_UZP(S, "2") ";", .extract_vars = true, \
    .zero = "%d = vdupq_n_" S "(0);", \
    .store = "vst1_" S "(%m, vget_low_" S "(%0));", \
    .loadc = "vcombine_" S "(vld1_" S "(%m), vdup_n_" S "(0))", \
    .set1 = "vdupq_n_" S "(%0)", .vmul = "vmulq_" S "(%0, %1)", .vadd = "vaddq_" S "(%0, %1)", \
    .vfma = VFMA, .prefetch = "__builtin_prefetch(%m, 0, %l);" })
#define NEON_BF16 { \
    .vtype = "float32x4_t", \
    .load = "%d = vreinterpretq_f32_u16(vld1q_u16(%m));", \
    .fma_lane = "%d = vbfdotq_laneq_f32(%0, vreinterpretq_bf16_f32(%1), " \
                "vreinterpretq_bf16_f32(%2), %l);", \
    .vfma = "vfmaq_f32(%2, %0, %1)", NEON_EPI("f32"), \
    .requires = EXT_BF16, .cflags = "-march=armv8.2-a+bf16", .cpu_features = "GG_CPU_BF16", \
    .strategies = 1u << BS_VECTOR_BROADCAST | 1u << BS_OUTER_PRODUCT, \
    .outer = NEON_MMLA("float32x4_t", "f32", "vfmaq_f32(%2, %0, %1)", \
                       "%d = vreinterpretq_f32_u16(vld1q_u16(%m));", \
                       "%d = vreinterpretq_f32_u16(vld1q_u16(%m));", \
                       "%d = vbfmmlaq_f32(%0, vreinterpretq_bf16_f32(%2), " \
                       "vreinterpretq_bf16_f32(%1));") }
/* USDOT: A's bytes unsigned, B's signed, as ours */
/* A's bytes of type TA (u8 or s8), B's TB, DOT the by-element dot
 * product of that signedness (USDOT: unsigned A, SUDOT: signed A) */
#define NEON_I8(TA, TB, DOT, STRATS, ...) { \
    .vtype = "int32x4_t", \
    .load = "%d = vreinterpretq_s32_" TA "(vld1q_" TA "(%m));", \
    .load_b = "%d = vreinterpretq_s32_" TB "(vld1q_" TB "(%m));", \
    .fma_lane = "%d = " DOT "(%0, vreinterpretq_" TA "_s32(%1), " \
                "vreinterpretq_" TB "_s32(%2), %l);", \
    .vfma = "vmlaq_s32(%2, %0, %1)", NEON_EPI("s32"), \
    .requires = EXT_I8MM, .cflags = "-march=armv8.2-a+i8mm", .cpu_features = "GG_CPU_I8MM", \
    .strategies = STRATS, __VA_ARGS__ }

/* Complex kernels (split form): B's real and imaginary parts reach the
 * FMAs by broadcasts or by lane of a vector load (fmla by element, as
 * vector-broadcast does), whichever the cost model prefers; NEON has no add-subtract, so the signs come from a multiply by
 * { -1, +1, .. } folded into an FMA. */
/* FCMLA (armv8.3-a, extension fcma) where the machine file lists and
 * times it (vcmla): B's complex by one vector load (c32: two columns, by
 * lane; NEON has no indexed FCMLA for f64). */
#define NEON_CX(SWAP, VT, S, SIGN, ...) { \
    .name = "split re/im + permute/signed FMA", \
    .strategies = 1u << BS_SPLIT_COMPLEX | 1u << BS_SPLIT_COMPLEX_LANE | 1u << BS_CMLA, \
    .combine = { IC_VSHUFFLE, IC_VFMA }, .swap = SWAP, \
    .addsub = "vfmaq_" S "(%0, %1, (" VT "){ " SIGN " })", \
    .fmaddsub = "vfmaq_" S "(vmulq_" S "(%2, (" VT "){ " SIGN " }), %0, %1)", \
    .cmla = { "%d = vcmlaq_" S "(%0, %1, %2);", "%d = vcmlaq_rot90_" S "(%0, %1, %2);" }, \
    .cmla_name = "FCMLA, rotations 0 and 90", .cmla_requires = EXT_FCMA, \
    .cmla_cflags = "-march=armv8.3-a", .cmla_cpu_features = "GG_CPU_FCMA", __VA_ARGS__ }
#define NEON_CMLA_LANE(S) \
    .cmla_lane = { "%d = vcmlaq_laneq_" S "(%0, %1, %2, %l);", \
                   "%d = vcmlaq_rot90_laneq_" S "(%0, %1, %2, %l);" }

const struct target target_neon = {
    .name = "neon", .family = FAM_AARCH64, .requires = EXT_NEON,
    .min_bits = 128, .max_bits = 128,
    .strategies = 1u << BS_VECTOR_BROADCAST | 1u << BS_SCALAR_BROADCAST,
    .regprefix = { "v", "vp", "va" },
    .lane_group_bits = 128,
    .outer_rows = { [ELEM_BF16] = 2, [ELEM_S8U8] = 2 },
    .outer_cols = { [ELEM_BF16] = 2, [ELEM_S8U8] = 2 },
    .a_regs_per_load = { [ELEM_BF16] = 1, [ELEM_S8U8] = 1 },
    .outer_b_first = { [ELEM_BF16] = true, [ELEM_S8U8] = true },
    .outer_segments = true,
    .includes = "#include <arm_neon.h>",
    .cflags = "-march=armv8-a", .ooo_cflags = ARM_OOO_CFLAGS, .inorder_cflags = ARM_INORDER_CFLAGS,
    .cpu_features = "",          /* NEON: the AArch64 baseline */
    .cc = "aarch64-linux-gnu-gcc",
    .runner = "qemu-aarch64 -cpu max",
    .sp = {
        [ELEM_F64] = NEON_SPELL("float64x2_t", "f64"),
        [ELEM_F32] = NEON_SPELL("float32x4_t", "f32"),
        [ELEM_BF16] = NEON_BF16,
        [ELEM_U8S8] = NEON_I8("u8", "s8", "vusdotq_laneq_s32", 1u << BS_VECTOR_BROADCAST),
        [ELEM_S8U8] = NEON_I8("s8", "u8", "vsudotq_laneq_s32",
                              1u << BS_VECTOR_BROADCAST | 1u << BS_OUTER_PRODUCT,
                              .outer = NEON_MMLA("int32x4_t", "s32", "vmlaq_s32(%2, %0, %1)",
                                                 "%d = vreinterpretq_s32_s8(vld1q_s8(%m));",
                                                 "%d = vreinterpretq_s32_u8(vld1q_u8(%m));",
                                                 "%d = vusmmlaq_s32(%0, vreinterpretq_u8_s32(%2), "
                                                 "vreinterpretq_s8_s32(%1));")),
    },
    .cx = {
        [ELEM_F64] = NEON_CX("vextq_f64(%0, %0, 1)", "float64x2_t", "f64", "-1.0, 1.0", ),
        [ELEM_F32] = NEON_CX("vrev64q_f32(%0)", "float32x4_t", "f32", "-1.0f, 1.0f, -1.0f, 1.0f",
                             NEON_CMLA_LANE("f32")),
    },
};

/* SVE: P is the predicate element size ("b64"). Edge tiles are stored under
 * svwhilelt predicates. For vector-broadcast B
 * comes by ld1rq (128 bits replicated to every quadword, which is the
 * group svmla_lane indexes); for scalar-broadcast svdup of a loaded
 * element, which GCC emits as one ld1rd / ld1rw. */
#define SVE_PG(P) "svptrue_" P "()"
/* SVE's zero and C's update after the loop, masked on edge tiles. */
#define SVE_EPI(S, P) \
    .zero = "%d = svdup_n_" S "(0);", \
    .store = "svst1_" S "(" SVE_PG(P) ", %m, %0);", .loadc = "svld1_" S "(" SVE_PG(P) ", %m)", \
    .set1 = "svdup_n_" S "(%0)", .vmul = "svmul_" S "_x(" SVE_PG(P) ", %0, %1)", \
    .vadd = "svadd_" S "_x(" SVE_PG(P) ", %0, %1)", \
    .vfma = "svmla_" S "_x(" SVE_PG(P) ", %2, %0, %1)", \
    .mask_decl = "const svbool_t %d = svwhilelt_" P "((int64_t)%0, (int64_t)%1);", \
    .mloadc = "svld1_" S "(%1, %m)", .mstore = "svst1_" S "(%1, %m, %0);", \
    .prefetch = "__builtin_prefetch(%m, 0, %l);"
#define SVE_SPELL(VT, S, P, SUMS) { \
    .vtype = VT, \
    .load = "%d = svld1_" S "(" SVE_PG(P) ", %m);", \
    .load_b = "%d = svld1rq_" S "(" SVE_PG(P) ", %m);", \
    .bcast = "%d = svdup_n_" S "(*(%m));", \
    .fma = "%d = svmla_" S "_x(" SVE_PG(P) ", %0, %1, %2);", \
    .fma_lane = "%d = svmla_lane_" S "(%0, %1, %2, %l);", \
    .mul = "%d = svmul_" S "_x(" SVE_PG(P) ", %1, %2);", \
    .add = "%d = svadd_" S "_x(" SVE_PG(P) ", %0, %1);", \
    SVE_EPI(S, P), \
    .hsum4 = "static inline " VT " hsum4_(" VT " a, " VT " b, " VT " c, " VT " d)\n" \
             "{\n" \
             "    const svbool_t t = " SVE_PG(P) ";\n" \
             "    return " SUMS ";\n" \
             "}\n" }

/* Rank-G types by element on SVE, as NEON's within each 128-bit segment:
 * A's vector is VL/32 rows of G k steps, B's 16 bytes ld1rq-replicated to
 * every segment, the lane one column's group there (svbfdot_lane,
 * svusdot_lane). */
#define SVE_BF16 { \
    .vtype = "svfloat32_t", \
    .load = "%d = svreinterpret_f32_u16(svld1_u16(svptrue_b16(), %m));", \
    .load_b = "%d = svreinterpret_f32_u16(svld1rq_u16(svptrue_b16(), %m));", \
    .fma_lane = "%d = svbfdot_lane_f32(%0, svreinterpret_bf16_f32(%1), " \
                "svreinterpret_bf16_f32(%2), %l);", \
    SVE_EPI("f32", "b32"), \
    .requires = EXT_BF16, .cflags = "-march=armv8.2-a+sve+bf16", .cpu_features = "GG_CPU_BF16", \
    .strategies = 1u << BS_VECTOR_BROADCAST | 1u << BS_OUTER_PRODUCT, .fence_cases = true, \
    .outer = SVE_MMLA("svfloat32_t", "f32", \
                      "%d = svreinterpret_f32_u16(svld1_u16(svptrue_b16(), %m));", \
                      "%d = svreinterpret_f32_u16(svld1rq_u16(svptrue_b16(), %m));", \
                      "%d = svbfmmla_f32(%0, svreinterpret_bf16_f32(%2), " \
                      "svreinterpret_bf16_f32(%1));", true) }
/* as NEON_I8, on SVE (B's quadword replicated by ld1rq) */
#define SVE_I8(TA, TB, DOT, STRATS, ...) { \
    .vtype = "svint32_t", \
    .load = "%d = svreinterpret_s32_" TA "(svld1_" TA "(svptrue_b8(), %m));", \
    .load_b = "%d = svreinterpret_s32_" TB "(svld1rq_" TB "(svptrue_b8(), %m));", \
    .fma_lane = "%d = " DOT "(%0, svreinterpret_" TA "_s32(%1), " \
                "svreinterpret_" TB "_s32(%2), %l);", \
    SVE_EPI("s32", "b32"), \
    .requires = EXT_I8MM, .cflags = "-march=armv8.2-a+sve+i8mm", .cpu_features = "GG_CPU_I8MM", \
    .strategies = STRATS, __VA_ARGS__ }

/* MMLA on SVE (outer product, outer_segments): BFMMLA and USMMLA multiply
 * each 128-bit segment of their first operand, 2 rows of G k steps (G: 4
 * bf16, 8 bytes), by the second's 2 rows transposed into a 2x2 tile, lane
 * 2c + r = first row c, second row r. B comes first (USMMLA's unsigned
 * operand in s8u8s32, and the order that leaves each of C's columns in a
 * 64-bit half): B's 2 columns ld1rq-replicated to every segment, A's
 * vector VL/64 rows (a segment each pair), so lane 2c + r of segment s is
 * C(2s + r, c). uzp1 / uzp2 of the doublewords gather column 0 / 1 into
 * the low half of a register: C's update works on VL/2 lanes. Not for
 * u8s8s32, whose unsigned A would go first (C's rows in the halves). */
#define SVE_HALF(P) "svwhilelt_" P "(0, (int32_t)(svcntw() / 2))"
#define SVE_UZP(S, N) "svreinterpret_" S "_u64(svuzp" N "_u64(svreinterpret_u64_" S "(%0), " \
                      "svreinterpret_u64_" S "(%0)))"
#define SVE_MMLA(VT, S, LOADA, LOADB, GER, FENCE) (&(const struct spell){ \
    .vtype = VT, .load = LOADA, .load_b = LOADB, .ger = GER, .fence_cases = FENCE, \
    .extract = "%t %d0 = " SVE_UZP(S, "1") ", %d1 = " SVE_UZP(S, "2") ";", .extract_vars = true, \
    .zero = "%d = svdup_n_" S "(0);", \
    .store = "svst1_" S "(" SVE_HALF("b32") ", %m, %0);", \
    .loadc = "svld1_" S "(" SVE_HALF("b32") ", %m)", \
    .set1 = "svdup_n_" S "(%0)", .vmul = "svmul_" S "_x(" SVE_PG("b32") ", %0, %1)", \
    .vadd = "svadd_" S "_x(" SVE_PG("b32") ", %0, %1)", \
    .vfma = "svmla_" S "_x(" SVE_PG("b32") ", %2, %0, %1)", \
    .mask_decl = "const svbool_t %d = svand_b_z(svptrue_b32(), svwhilelt_b32((int64_t)%0, " \
                 "(int64_t)%1), " SVE_HALF("b32") ");", \
    .mloadc = "svld1_" S "(%1, %m)", .mstore = "svst1_" S "(%1, %m, %0);", \
    .prefetch = "__builtin_prefetch(%m, 0, %l);" })

/* Complex kernels on SVE. The split form as NEON's: the pair swap is a
 * word reversal within doublewords (f32) or a table lookup of index ^ 1
 * (f64: SVE before 2.1 has no doubleword reversal within quadwords); the
 * signs { -1, +1 } come from svdupq. And FCMLA, which every SVE CPU has,
 * where the machine file times it (vcmla): B's complex by ld1rq, c32's
 * indexed within 128-bit groups (SVE has no indexed FCMLA for f64). */
#define SVE_CX(SWAP, S, P, SIGN, ...) { \
    .name = "split re/im + permute/signed FMA", \
    .strategies = 1u << BS_SPLIT_COMPLEX | 1u << BS_SPLIT_COMPLEX_LANE | 1u << BS_CMLA, \
    .combine = { IC_VSHUFFLE, IC_VFMA }, .swap = SWAP, \
    .addsub = "svmla_" S "_x(" SVE_PG(P) ", %0, %1, svdupq_n_" S "(" SIGN "))", \
    .fmaddsub = "svmla_" S "_x(" SVE_PG(P) ", svmul_" S "_x(" SVE_PG(P) ", %2, svdupq_n_" S \
                "(" SIGN ")), %0, %1)", \
    .cmla = { "%d = svcmla_" S "_x(" SVE_PG(P) ", %0, %1, %2, 0);", \
              "%d = svcmla_" S "_x(" SVE_PG(P) ", %0, %1, %2, 90);" }, \
    .cmla_name = "FCMLA, rotations 0 and 90", __VA_ARGS__ }
#define SVE_CMLA_LANE(S) \
    .cmla_lane = { "%d = svcmla_lane_" S "(%0, %1, %2, %l, 0);", \
                   "%d = svcmla_lane_" S "(%0, %1, %2, %l, 90);" }

const struct target target_sve = {
    .name = "sve", .family = FAM_AARCH64, .requires = EXT_NEON | EXT_SVE,
    .min_bits = 128, .max_bits = 2048,
    .strategies = 1u << BS_VECTOR_BROADCAST | 1u << BS_SCALAR_BROADCAST,
    .regprefix = { "z", "zp", "za" },
    .lane_group_bits = 128,
    .includes = "#include <arm_sve.h>\n"
                "#if __ARM_FEATURE_SVE_BITS != %b\n"
                "#error \"built for %b-bit SVE vectors: compile with -msve-vector-bits=%b\"\n"
                "#endif",
    .cflags = "-march=armv8.2-a+sve -msve-vector-bits=%b", .ooo_cflags = ARM_OOO_CFLAGS,
    .inorder_cflags = ARM_INORDER_CFLAGS,
    .cpu_features = "GG_CPU_SVE | GG_CPU_SVE%b",   /* SVE of exactly this length */
    .cc = "aarch64-linux-gnu-gcc",
    /* user-mode qemu defaults to 512-bit vectors (as Linux does); -1 asks
     * for the largest enabled length, so sve1024/sve2048 take effect */
    .runner = "qemu-aarch64 -cpu max,sve%b=on,sve-default-vector-length=-1",
    .sp = {
        [ELEM_F64] = SVE_SPELL("svfloat64_t", "f64", "b64",
            /* svdupq takes a quadword: two doubles, four floats */
            "svsel_f64(svwhilelt_b64(0, 2), svdupq_n_f64(svaddv_f64(t, a), svaddv_f64(t, b)), "
            "svdupq_n_f64(svaddv_f64(t, c), svaddv_f64(t, d)))"),
        [ELEM_F32] = SVE_SPELL("svfloat32_t", "f32", "b32",
            "svdupq_n_f32(svaddv_f32(t, a), svaddv_f32(t, b), svaddv_f32(t, c), svaddv_f32(t, d))"),
        [ELEM_BF16] = SVE_BF16,
        [ELEM_U8S8] = SVE_I8("u8", "s8", "svusdot_lane_s32", 1u << BS_VECTOR_BROADCAST),
        [ELEM_S8U8] = SVE_I8("s8", "u8", "svsudot_lane_s32",
                             1u << BS_VECTOR_BROADCAST | 1u << BS_OUTER_PRODUCT,
            .outer = SVE_MMLA("svint32_t", "s32",
                              "%d = svreinterpret_s32_s8(svld1_s8(svptrue_b8(), %m));",
                              "%d = svreinterpret_s32_u8(svld1rq_u8(svptrue_b8(), %m));",
                              "%d = svusmmla_s32(%0, svreinterpret_u8_s32(%2), "
                              "svreinterpret_s8_s32(%1));", false)),
    },
    .outer_rows = { [ELEM_BF16] = 2, [ELEM_S8U8] = 2 },
    .outer_cols = { [ELEM_BF16] = 2, [ELEM_S8U8] = 2 },
    .a_regs_per_load = { [ELEM_BF16] = 1, [ELEM_S8U8] = 1 },
    .outer_b_first = { [ELEM_BF16] = true, [ELEM_S8U8] = true },
    .outer_segments = true,
    .cx = {
        [ELEM_F64] = SVE_CX("svtbl_f64(%0, sveor_n_u64_x(svptrue_b64(), svindex_u64(0, 1), 1))",
                            "f64", "b64", "-1.0, 1.0", ),
        [ELEM_F32] = SVE_CX("svreinterpret_f32_u64(svrevw_u64_x(svptrue_b64(), svreinterpret_u64_f32(%0)))",
                            "f32", "b32", "-1.0f, 1.0f, -1.0f, 1.0f", SVE_CMLA_LANE("f32")),
    },
};
