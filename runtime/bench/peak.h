/* peak.h: the machine's FMA throughput, measured (not looked up), as the
 * 100% that gemmbench's "% of peak" refers to. */
#ifndef GB_PEAK_H
#define GB_PEAK_H
/* GFLOPS of back-to-back independent FMAs on the widest vectors this CPU
 * runs, type 'd' or 's' (or the dot products of 'b', vdpbf16ps, and 'i',
 * vpdpbusd: 0 where the CPU has none), on `threads` threads at once (all busy, so turbo
 * frequencies are the ones a threaded GEMM would see). */
double gb_peak(char type, int threads);
const char *gb_peak_isa(void);                 /* "avx512", "avx2", "sse2" */
#endif
