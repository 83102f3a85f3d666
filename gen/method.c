/* method.c: where gemmgen's default departs from POCA as printed, and
 * why; --paper runs the paper's rules instead (kernel.paper). --explain
 * prints this list, and the two-iteration count the paper gives. */
#include "plan.h"

struct departure { const char *what, *paper, *why; };

static const struct departure departures[] = {
    { "RegPress also asks that the rest of the iteration stay schedulable within MaxReg",
      "LiveReg right after the instruction only",
      "a greedy choice can leave no order within MaxReg for tiles with many accumulators" },
    { "BalancedWKLD compares unit kinds",
      "sets of units: two loads on two load ports do not clash",
      "kept from the kernels in out/, made and measured with it" },
    { "FPFirst counts FMA, multiply and add",
      "shuffles too (Table 3: B1 before M0)",
      "kept from the kernels in out/, made and measured with it" },
    { "pointer bumps follow every access of their stream, prefetches address the old pointer",
      "Figure 4(a)'s order, PrfB from the bumped BP (Table 3: BP at cycle 0)",
      "the emitter bumps once a body: out of order at its end, in order where the schedule "
      "puts the bump (its add's latency then hides behind the body); last, it never delays "
      "a load" },
    { "pipelining also checks LiveReg over three kernel iterations in a row and moves fewer "
      "instructions up when they exceed MaxReg",
      "the two-iteration merge only (Table 4: j = 9)",
      "the rotating allocation needs the steady state within MaxReg, not just one merge" },
    { "pipelining counts a moved-up value live up to its last use merged so far",
      "to its last use in S' (Table 4: B1' waits for C2)",
      "the steady-state check above bounds what this lets through" },
    { "cycles per iteration from placing the rest of iteration 1 on the reservation table",
      "prologue + Pµ + epilogue, each with S's cycles (24 -> 20 for two iterations)",
      "the paper's count assumes no overlap of the epilogue with the next iteration" },
    { "accumulators keep one register each, and the RTG search stops at the first UF of 2",
      "every variable rotates, UF within [2, 8] (Figure 6: UF 4)",
      "the emitter zeroes and stores C from fixed registers; the search ends sooner" },
    { "on an in-order machine, or when the schedule fills a 16-register file, nothing moves "
      "up that saves no cycle",
      "Algorithm 1's j on any machine",
      "GCC's allocation of the pipelined body copied accumulators in the loop (in order: each "
      "copy a stall) or spilled them into their own recurrence (16 registers)" },
    { "on an in-order machine, or when the schedule fills a 16-register file without FMA, "
      "the k loop is not unrolled where no value outlives an iteration (unless the machine "
      "file's unroll asks)",
      "a UF within [2, 8]",
      "there rotation only renames, which an out-of-order core does itself and an in-order one "
      "never needs, and GCC's allocation of the rotated body copied accumulators (in order) "
      "or product registers (16 registers, multiply and add) in the loop" },
};

void method_text(const struct plan *pl, struct buf *b)
{
    int two = pl->single_cycles + pl->p.kernel_cycles;
    if (pl->k.paper) {
        int pro = pl->single_cycles - pl->p.kernel_cycles;
        buf_printf(b, "two iterations: %d cycles one after the other, %d pipelined "
                      "(prologue %d + P %d + epilogue %d, the paper's count)\n",
                   2 * pl->single_cycles, two, pro, pl->p.kernel_cycles, pl->p.kernel_cycles);
        buf_printf(b, "method: POCA as printed (--paper); gemmgen's default departs from it in "
                      "the %d ways --explain without --paper lists\n",
                   (int)(sizeof departures / sizeof *departures));
        return;
    }
    buf_printf(b, "two iterations: %d cycles one after the other, %d pipelined\n",
               2 * pl->single_cycles, two);
    buf_puts(b, "method: gemmgen's departures from POCA as printed (--paper turns them off):\n");
    for (size_t i = 0; i < sizeof departures / sizeof *departures; i++)
        buf_printf(b, "- %s (paper: %s): %s\n", departures[i].what, departures[i].paper,
                   departures[i].why);
}
