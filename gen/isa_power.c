/* isa_power.c: POWER9 VSX and POWER10 MMA spellings (GCC/Clang altivec.h).
 *
 * VSX: vec_xl/vec_xst are unaligned and element-ordered on both endians;
 * vec_splats(*p) becomes lxvdsx (f64) or lxvwsx (f32); vec_madd is
 * xvmaddadp/xvmaddasp. Shuffles permute lanes by xor with 1<<bit: f64 has
 * one (swap doublewords, xxpermdi), f32 two (swap words within doublewords
 * by vperm with a constant control, swap doublewords by xxpermdi).
 *
 * MMA: xvf64gerpp takes A as a __vector_pair of 4 doubles (lxvp) and B as
 * one VSR of 2 doubles, giving a 4x2 tile; xvf32gerpp takes one VSR of 4
 * floats each side, giving 4x4. Checked under qemu-ppc64le -cpu power10
 * with GCC 12 and little-endian: lxvp of a[0..3] then disassemble gives
 * row i = { a[i]*b[0], a[i]*b[1], ... }, i.e. output vector i of an
 * accumulator is row i of its tile with columns in lanes, the map
 * kernel.c's build_outer_product writes. GCC rejects a direct cast of
 * double * to __vector_pair *, hence the (const void *) step; Clang wants
 * the lxvp offset as a long.
 *
 * MMA rank-G (--type bf16, u8s8s32): xvbf16ger2pp and xvi8ger4pp read 16
 * bytes a side, word i holding G k steps of row (column) i: the packed
 * layout as it is. Each tile lane sums the G products of a word pair, so
 * the order of elements within a word (little-endian) cancels out as long
 * as A and B agree. xvi8ger4 takes XA's bytes as signed and XB's as
 * unsigned (Power ISA 3.1; qemu's -cpu power10 agrees: with A as XA the
 * u8s8s32 check fails), hence B first and the tile transposed.
 *
 * -fno-schedule-insns (ooo_cflags): GCC schedules before register
 * allocation on POWER (x86 does not), which undoes the emitted order and
 * spills the 64-register kernels in the k loop. */
#include "target.h"
#include <stddef.h>

#define POWER_OOO_CFLAGS { [COMPILER_GCC] = "-fno-schedule-insns" }

#define POWER_COMMON \
    .family = FAM_POWER, .includes = "#include <altivec.h>", \
    .cc = "powerpc64le-linux-gnu-gcc", .min_bits = 128, .max_bits = 128

/* C's update after the loop, but for its multiply-add (vfma). */
#define VSX_EPI \
    .store = "vec_xst(%0, 0, %m);", .loadc = "vec_xl(0, %m)", \
    .set1 = "vec_splats(%0)", .vmul = "vec_mul(%0, %1)", .vadd = "vec_add(%0, %1)", \
    .prefetch = "__builtin_prefetch(%m, 0, %l);"

/* The VSX statements MMA shares: A and C loads, C stores, alpha/beta. */
#define VSX_SPELL(VT) \
    .vtype = VT, \
    .load = "%d = vec_xl(0, %m);", \
    .bcast = "%d = vec_splats(*(%m));", \
    .fma = "%d = vec_madd(%1, %2, %0);", \
    .mul = "%d = vec_mul(%1, %2);", .add = "%d = vec_add(%0, %1);", \
    .vfma = "vec_madd(%0, %1, %2)", VSX_EPI

/* xxpermdi with both inputs equal and DM = 2 swaps the doublewords on
 * either endian; vec_perm indices follow the element order (GCC and Clang
 * adjust them on little-endian), so this control swaps words 0<->1, 2<->3. */
#define SWAP_DW(CAST, VT) "%d = (" VT ")vec_xxpermdi(" CAST "%0, " CAST "%0, 2);"
#define SWAP_W "%d = vec_perm(%0, %0, (__vector unsigned char){ 4, 5, 6, 7, 0, 1, 2, 3, " \
               "12, 13, 14, 15, 8, 9, 10, 11 });"

/* Complex kernels (split form): VSX has no add-subtract, so the signs
 * come from a multiply by { -1, +1, .. } folded into an FMA. */
#define VSX_CX(SWAP, VT, SIGN, SPELL) { \
    .name = "split re/im broadcast + permute/signed FMA", .strategies = 1u << BS_SPLIT_COMPLEX, \
    .combine = { IC_VSHUFFLE, IC_VFMA }, .swap = SWAP, \
    .addsub = "vec_madd(%1, (" VT "){ " SIGN " }, %0)", \
    .fmaddsub = "vec_madd(%0, %1, vec_mul(%2, (" VT "){ " SIGN " }))", .spell = SPELL }
#define VSX_CX_F64(SPELL) VSX_CX("vec_xxpermdi(%0, %0, 2)", "__vector double", "-1.0, 1.0", SPELL)
#define VSX_CX_F32(SPELL) VSX_CX("vec_perm(%0, %0, (__vector unsigned char){ 4, 5, 6, 7, 0, 1, 2, 3, " \
                          "12, 13, 14, 15, 8, 9, 10, 11 })", "__vector float", "-1.0f, 1.0f, -1.0f, 1.0f", SPELL)

const struct target target_vsx = {
    POWER_COMMON, .name = "vsx", .requires = EXT_VSX,
    .strategies = 1u << BS_VECTOR_SHUFFLE | 1u << BS_SCALAR_BROADCAST,
    .regprefix = { "vs", "vsp", "vsa" },
    .cflags = "-mcpu=power9", .ooo_cflags = POWER_OOO_CFLAGS,
    .cpu_features = "GG_CPU_PWR9",
    .runner = "qemu-ppc64le -cpu power9",
    .sp = {
        [ELEM_F64] = { VSX_SPELL("__vector double"), .zero = "%d = vec_splats(0.0);",
                       .shuf = { SWAP_DW("", "__vector double") } },
        [ELEM_F32] = { VSX_SPELL("__vector float"), .zero = "%d = vec_splats(0.0f);",
                       .shuf = { SWAP_W, SWAP_DW("(__vector double)", "__vector float") } },
    },
    .cx = { [ELEM_F64] = VSX_CX_F64(NULL), [ELEM_F32] = VSX_CX_F32(NULL) },
};

/* The accumulator is pinned, so %d and %0 name the same __vector_quad. */
#define MMA_ACC \
    .pairtype = "__vector_pair", .acctype = "__vector_quad", \
    .zero = "__builtin_mma_xxsetaccz(&%d);", \
    .extract = "%t %d[4]; __builtin_mma_disassemble_acc(%d, &%0);"
#define MMA_SPELL(VT, GER) VSX_SPELL(VT), MMA_ACC, .ger = GER

/* Rank-G types (bf16, u8s8s32): A's (B's) 16 bytes are 4 rows (columns) of
 * G k steps, loaded as they are and handed to the ger as bytes; C's update
 * is VSX's in C's type (int32 has no vec_madd; vec_mul, vec_add wrap). */
#define MMA_G_SPELL(VT, GER, VFMA) \
    .vtype = VT, MMA_ACC, VSX_EPI, .ger = GER, .vfma = VFMA, \
    .load = "%d = (" VT ")vec_xl(0, %m);"

const struct target target_mma = {
    POWER_COMMON, .name = "mma", .requires = EXT_VSX | EXT_MMA,
    .strategies = 1u << BS_OUTER_PRODUCT,
    .regprefix = { "vs", "vp", "acc" },
    .outer_rows = { [ELEM_F64] = 4, [ELEM_F32] = 4, [ELEM_BF16] = 4, [ELEM_U8S8] = 4,
                    [ELEM_S8U8] = 4 },
    .outer_cols = { [ELEM_F64] = 2, [ELEM_F32] = 4, [ELEM_BF16] = 4, [ELEM_U8S8] = 4,
                    [ELEM_S8U8] = 4 },
    .a_regs_per_load = { [ELEM_F64] = 2, [ELEM_F32] = 1, [ELEM_BF16] = 1, [ELEM_U8S8] = 1,
                         [ELEM_S8U8] = 1 },
    .outer_b_first = { [ELEM_U8S8] = true },
    .cflags = "-mcpu=power10", .ooo_cflags = POWER_OOO_CFLAGS,
    .cpu_features = "GG_CPU_PWR10",
    .runner = "qemu-ppc64le -cpu power10",
    .sp = {
        [ELEM_F64] = { MMA_SPELL("__vector double",
                                 "__builtin_mma_xvf64gerpp(&%d, %1, (__vector unsigned char)%2);"),
                       .load_pair = "%d = __builtin_vsx_lxvp(0L, (const __vector_pair *)(const void *)(%m));" },
        [ELEM_F32] = { MMA_SPELL("__vector float",
                                 "__builtin_mma_xvf32gerpp(&%d, (__vector unsigned char)%1, "
                                 "(__vector unsigned char)%2);") },
        /* xvbf16ger2pp: a word of A's (B's) vector holds one row's (column's)
         * two k steps; each lane of the tile adds their two products */
        [ELEM_BF16] = { MMA_G_SPELL("__vector float",
                                    "__builtin_mma_xvbf16ger2pp(&%d, (__vector unsigned char)%1, "
                                    "(__vector unsigned char)%2);", "vec_madd(%0, %1, %2)") },
        /* xvi8ger4pp multiplies its first operand's bytes as signed and its
         * second's as unsigned (Power ISA 3.1: EXTS(XA) * EXTZ(XB)); A is
         * the uint8 one, so B goes first (outer_b_first) */
        [ELEM_U8S8] = { MMA_G_SPELL("__vector signed int",
                                    "__builtin_mma_xvi8ger4pp(&%d, (__vector unsigned char)%2, "
                                    "(__vector unsigned char)%1);", "vec_add(vec_mul(%0, %1), %2)") },
        /* s8u8s32: A is the signed operand, in its natural place */
        [ELEM_S8U8] = { MMA_G_SPELL("__vector signed int",
                                    "__builtin_mma_xvi8ger4pp(&%d, (__vector unsigned char)%1, "
                                    "(__vector unsigned char)%2);", "vec_add(vec_mul(%0, %1), %2)") },
    },
    /* complex: the split form on VSX FMAs (MMA's outer products would need
     * the parts packed apart), spelled as VSX's (MMA's own zeroes accumulators) */
    .cx = { [ELEM_F64] = VSX_CX_F64(&target_vsx.sp[ELEM_F64]),
            [ELEM_F32] = VSX_CX_F32(&target_vsx.sp[ELEM_F32]) },
};
