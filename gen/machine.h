/* machine.h: the machine model read from machines/NAME.yaml.
 * Everything the passes know about a CPU comes from here; nothing else in
 * gen/ names a CPU. */
#ifndef GEMMGEN_MACHINE_H
#define GEMMGEN_MACHINE_H
#include <stdbool.h>
#include "runtime_knobs.h"

enum isa_family { FAM_X86, FAM_POWER, FAM_AARCH64, FAM_COUNT };

/* ISA extensions, one bit each; the YAML spells them in lower case. */
enum ext {
    EXT_SSE2 = 1u << 0, EXT_AVX = 1u << 1, EXT_AVX2 = 1u << 2, EXT_FMA = 1u << 3,
    EXT_AVX512F = 1u << 4, EXT_VSX = 1u << 5, EXT_MMA = 1u << 6,
    EXT_NEON = 1u << 7, EXT_SVE = 1u << 8,
    EXT_AVX512BF16 = 1u << 9, EXT_AVX512VNNI = 1u << 10,
    EXT_BF16 = 1u << 11, EXT_I8MM = 1u << 12,   /* AArch64 armv8.6-a: BFDOT, USDOT */
    EXT_FCMA = 1u << 13,                        /* AArch64 armv8.3-a: FCMLA on NEON */
    EXT_AMX_BF16 = 1u << 14, EXT_AMX_INT8 = 1u << 15,   /* x86 AMX tiles: TDPBF16PS, TDPBUSD */
};

/* Instruction classes: the timing keys of the YAML `instructions` map. */
enum iclass {
    IC_VLOAD, IC_VLOAD_PAIR, IC_VBROADCAST, IC_VSHUFFLE, IC_VFMA, IC_VFMA_LANE,
    IC_VFMUL, IC_VFADD, IC_GER, IC_IADD, IC_PREFETCH, IC_VBROADCAST_BLOCK,
    IC_VDOT_BF16, IC_VDOT_I8,   /* rank-2 bf16 and rank-4 8-bit multiply-adds */
    IC_VCMLA,                   /* complex multiply-add, one rotation (FCMLA) */
    IC_VMMLA_BF16, IC_VMMLA_I8, /* a 2x2 tile per 128 bits: BFMMLA (4 k steps), USMMLA (8) */
    IC_TILE_LOAD, IC_TDP_BF16, IC_TDP_I8,   /* AMX: a 1 KB tile load, a 16x16 tile update */
    IC_COUNT
};

#define MAX_UNITS 16
#define MAX_UNIT_ALTS 4

struct unit { char name[32]; int count; };

struct timing {
    bool present;
    int line;                  /* YAML line, for errors raised later */
    int latency;
    int occupancy;             /* cycles a unit stays busy: 1 / throughput */
    int uops;                  /* issue slots */
    int nalt;                  /* alternative units it may issue to */
    int alt[MAX_UNIT_ALTS];    /* indices into machine.units */
};

/* shared_by: cores sharing it (1 when not given); the runtime sizes its
 * blocks to one core's share */
struct cache { bool present; long size; int line, ways, shared_by; };

enum dispatch_order { DISPATCH_IN_ORDER, DISPATCH_OUT_OF_ORDER };

struct machine {
    char path[512];            /* the YAML file, for messages */
    char name[64];
    enum isa_family family;
    unsigned ext;              /* enum ext bits */
    int vector_bits;
    int datapath_bits;         /* FP pipe width: vector_bits unless the YAML says less */
    int vector_registers;
    int max_regs;              /* MaxReg: min(vector_registers, max_regs:) */
    int acc_count, acc_bits, acc_blocks;   /* MMA accumulators, 0 if none */
    int dispatch_width;
    enum dispatch_order order;
    double freq_ghz;           /* 0 if unknown */
    int nunits;
    struct unit units[MAX_UNITS];
    struct timing ic[IC_COUNT];
    int instr_line;            /* line of `instructions:`, for late errors */
    int ext_line;              /* line of `extensions:` */
    int vreg_line;             /* line of `vector_registers:` */
    struct cache l1d, l2, l3;
    int b_prefetch_distance;   /* bytes ahead of B, into L1 */
    int a_prefetch_distance;   /* bytes ahead of A, into L1 (0: none) */
    bool a_next_prefetch;      /* the next A micro-panel, into L1 */
    bool b_next_prefetch;      /* the next B micro-panel, into L2 */
    bool c_prefetch_in_loop;   /* C's lines fetched a column a pass of the k loop */
    int b_strategy;            /* -1 = auto, else enum bstrat */
    int unroll;                /* k-loop unroll without --unroll (0: the RTG's) */
    int unroll_line;
    /* the runtime: section, apart from the model above */
    struct runtime_knobs runtime;
    /* host detection */
    char cpuid_vendor[16];
    int cpuid_family;
    int ncpuid_models;
    int cpuid_models[32];
};

extern const char *const iclass_names[IC_COUNT];
/* The YAML name of the lowest extension among BITS (enum ext). */
const char *ext_name(unsigned bits);
extern const char *const family_names[FAM_COUNT];

/* Reads and validates PATH; on any error prints "PATH:LINE: FIELD: what"
 * and exits with status 2. */
void machine_load(struct machine *m, const char *path);
/* Same from a string (PATH only names it in messages); for tests. */
void machine_load_string(struct machine *m, const char *path, const char *yaml);

/* Requires the timing of class IC; `why` names the user of it. */
const struct timing *machine_timing(const struct machine *m, enum iclass ic, const char *why);
int machine_units_of(const struct machine *m, enum iclass ic); /* total units it may use */
#endif
