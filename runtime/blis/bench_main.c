/* gemmbench-blis: `gemmbench --blis` on its own, until gemmbench
 * (runtime/) dispatches to gemmbench_blis() itself. */
#include "bench_blis.h"

int main(int argc, char **argv) { return gemmbench_blis(argc, argv); }
