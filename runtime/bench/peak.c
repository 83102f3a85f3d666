/* peak.c: see peak.h. N independent accumulator chains hide the FMA
 * latency (4 cycles x 2 pipes needs >= 8 in flight) and, with the two
 * operands, fit the register file (16 with AVX-512, 12 in AVX2's 16
 * registers: spilled chains run through memory); the multiplicand and
 * addend never change, so the loop is FMAs plus one branch. Each probe is
 * compiled for its ISA with a target attribute, so the file builds for any
 * x86-64 and the probe run is chosen by __builtin_cpu_supports. */
#include <immintrin.h>
#include <pthread.h>
#include "measure.h"
#include "peak.h"

static const long ITERS = 30 * 1000 * 1000;
static volatile double sink;   /* keeps the accumulators alive */

/* One probe: returns the flops it did. VT vector type, L lanes. */
#define PROBE(NAME, TARGET, N, VT, L, SET1, FMA, ADD, CVT)                     \
__attribute__((target(TARGET))) static double NAME(long iters)                 \
{                                                                              \
    VT acc[N], x = SET1(1.0000001), y = SET1(1e-9);                            \
    for (int j = 0; j < N; j++) acc[j] = SET1(j);                              \
    for (long i = 0; i < iters; i++)                                           \
        _Pragma("GCC unroll 16")                                               \
        for (int j = 0; j < N; j++) acc[j] = FMA(acc[j], x, y);                \
    for (int j = 1; j < N; j++) acc[0] = ADD(acc[0], acc[j]);                  \
    sink = CVT(acc[0]);                                                        \
    return 2.0 * N * L * iters;                                                \
}

#define MUL_ADD_PD(a, x, y) _mm_add_pd(_mm_mul_pd(a, x), y)
#define MUL_ADD_PS(a, x, y) _mm_add_ps(_mm_mul_ps(a, x), y)
PROBE(p512d, "avx512f,fma", 16, __m512d, 8, _mm512_set1_pd, _mm512_fmadd_pd, _mm512_add_pd, _mm512_reduce_add_pd)
PROBE(p512s, "avx512f,fma", 16, __m512, 16, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_add_ps, _mm512_reduce_add_ps)
PROBE(p256d, "avx2,fma", 12, __m256d, 4, _mm256_set1_pd, _mm256_fmadd_pd, _mm256_add_pd, _mm256_cvtsd_f64)
PROBE(p256s, "avx2,fma", 12, __m256, 8, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_add_ps, _mm256_cvtss_f32)
PROBE(p128d, "sse2", 12, __m128d, 2, _mm_set1_pd, MUL_ADD_PD, _mm_add_pd, _mm_cvtsd_f64)
PROBE(p128s, "sse2", 12, __m128, 4, _mm_set1_ps, MUL_ADD_PS, _mm_add_ps, _mm_cvtss_f32)

/* The dot-product instructions of the reduced-precision types: 16 lanes of
 * 2 bf16 products (vdpbf16ps) or 4 byte products (vpdpbusd) each, a
 * multiply and an add per product, as gemmbench counts their GEMMs.
 * Spelled in asm: with the intrinsics GCC copied each accumulator through
 * another register every pass (the instructions overwrite their addend),
 * and the copies took the same ports, so the peak read low. */
#define DOT_PROBE(NAME, TARGET, INSN, G)                                       \
__attribute__((target(TARGET))) static double NAME(long iters)                 \
{                                                                              \
    __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0, a4 = a0,   \
            a5 = a0, a6 = a0, a7 = a0, a8 = a0, a9 = a0, a10 = a0, a11 = a0;  \
    __m512i x = _mm512_set1_epi32(0x3f803f80), y = _mm512_set1_epi32(0x00010001); \
    for (long i = 0; i < iters; i++)                                           \
        __asm__ volatile(INSN " %13, %12, %0\n\t" INSN " %13, %12, %1\n\t"     \
                         INSN " %13, %12, %2\n\t" INSN " %13, %12, %3\n\t"     \
                         INSN " %13, %12, %4\n\t" INSN " %13, %12, %5\n\t"     \
                         INSN " %13, %12, %6\n\t" INSN " %13, %12, %7\n\t"     \
                         INSN " %13, %12, %8\n\t" INSN " %13, %12, %9\n\t"     \
                         INSN " %13, %12, %10\n\t" INSN " %13, %12, %11"        \
                         : "+v"(a0), "+v"(a1), "+v"(a2), "+v"(a3), "+v"(a4),   \
                           "+v"(a5), "+v"(a6), "+v"(a7), "+v"(a8), "+v"(a9),   \
                           "+v"(a10), "+v"(a11) : "v"(x), "v"(y));             \
    __m512i s = _mm512_add_epi32(_mm512_add_epi32(a0, a1), _mm512_add_epi32(a2, a3)); \
    s = _mm512_add_epi32(s, _mm512_add_epi32(_mm512_add_epi32(a4, a5), _mm512_add_epi32(a6, a7))); \
    s = _mm512_add_epi32(s, _mm512_add_epi32(_mm512_add_epi32(a8, a9), _mm512_add_epi32(a10, a11))); \
    sink = _mm512_reduce_add_epi32(s);                                         \
    return 2.0 * 12 * 16 * G * iters;                                          \
}
DOT_PROBE(p512bf16, "avx512f,avx512bf16", "vdpbf16ps", 2)
DOT_PROBE(p512vnni, "avx512f,avx512vnni", "vpdpbusd", 4)

const char *gb_peak_isa(void)
{
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return "avx512";
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return "avx2";
    return "sse2";
}

static double (*probe_for(char type))(long)
{
    const char *isa = gb_peak_isa();
    if (type == 'b') return __builtin_cpu_supports("avx512bf16") ? p512bf16 : NULL;
    if (type == 'i') return __builtin_cpu_supports("avx512vnni") ? p512vnni : NULL;
    if (isa[3] == '5') return type == 'd' ? p512d : p512s;
    if (isa[3] == '2') return type == 'd' ? p256d : p256s;
    return type == 'd' ? p128d : p128s;
}

struct job { double (*fn)(long); double flops, secs; };

static void *worker(void *p)
{
    struct job *j = p;
    double t0 = gb_now();
    j->flops = j->fn(ITERS);
    j->secs = gb_now() - t0;
    return NULL;
}

/* All threads run the probe at once; the peak is the sum of their own
 * rates, best of three rounds. The rate of the round as a whole read one
 * core's peak for two threads when the VM ran them one after the other. */
double gb_peak(char type, int threads)
{
    enum { MAXT = 64 };
    if (!probe_for(type)) return 0;             /* no such instructions here */
    if (threads > MAXT) threads = MAXT;
    if (threads < 1) threads = 1;
    struct job jobs[MAXT];
    pthread_t th[MAXT];
    double best = 0;
    for (int round = 0; round < 3; round++) {
        double rate = 0;
        for (int t = 0; t < threads; t++) {
            jobs[t].fn = probe_for(type);
            if (t) pthread_create(&th[t], NULL, worker, &jobs[t]);
        }
        worker(&jobs[0]);
        for (int t = 1; t < threads; t++) pthread_join(th[t], NULL);
        for (int t = 0; t < threads; t++) rate += jobs[t].flops / jobs[t].secs * 1e-9;
        if (rate > best) best = rate;
    }
    return best;
}
