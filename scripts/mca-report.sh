#!/bin/sh
# mca-report.sh: gemmgen's predicted k-loop speed next to llvm-mca's, for
# CPUs we cannot run natively (POWER, Arm), so a user without the hardware
# can see how close to peak a kernel should run.
#   usage: scripts/mca-report.sh GEMMGEN [MACHINE...]
# For each machine of the table below (or those named) and f64/f32: generate
# the kernel, mark the k loop with asm comments in a copy, compile it with
# clang-19 --target=TRIPLE -O2 -S and the kernel's clang flags (MCA_CC=gcc:
# its cross GCC and GCC flags, as libgemmgen builds it), cut out the loop
# (from the label of the block holding the marker to the branch back), run
# llvm-mca-19 -mcpu=CPU on it and print one table row. Machines whose
# generation fails (a target not there yet) are skipped with a note.
#   model cyc/it   gemmgen: pipelined_cycles_per_iteration (one k step)
#   model util     gemmgen: predicted_fma_utilization
#   mca RThru/it   llvm-mca Block RThroughput / unroll factor (resources only)
#   mca cyc/it     llvm-mca Total Cycles / Iterations / unroll factor
#                  (resources and the loop-carried accumulator chains)
#   util           FP-unit cycles the model needs (util * cyc/it) over the
#                  mca figure before it
# MCA_TYPES (default "f64 f32") names the types; GEMMGEN_ARGS adds gemmgen
# options (--b-strategy S to time a strategy the machine does not pick);
# MCA_CFLAGS adds compiler flags (a scheduling or allocation experiment).
# Needs clang-19 and llvm-mca-19 (Debian's llvm-19); POSIX sh and awk.
set -eu
[ -n "${MCA_NO_INSTALL:-}" ] || sh "$(dirname "$0")/install-deps.sh" --bench   # clang-19, llvm-mca-19
[ $# -ge 1 ] || { echo "usage: $0 GEMMGEN [MACHINE...]" >&2; exit 2; }
gg=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
root=$(cd "$(dirname "$0")/.." && pwd)
CLANG=${CLANG:-clang-19}
MCA=${MCA:-llvm-mca-19}

# machine  clang/llvm-mca triple   llvm cpu     asm comment
table='sandybridge x86_64-linux-gnu      sandybridge #
haswell     x86_64-linux-gnu      haswell     #
skylake-avx512 x86_64-linux-gnu   skylake-avx512 #
sapphirerapids x86_64-linux-gnu   sapphirerapids #
zen3        x86_64-linux-gnu      znver3      #
zen4        x86_64-linux-gnu      znver4      #
zen5        x86_64-linux-gnu      znver5      #
power9      powerpc64le-linux-gnu pwr9        #
power10     powerpc64le-linux-gnu pwr10       #
cortex-a55  aarch64-linux-gnu     cortex-a55  //
cortex-a57  aarch64-linux-gnu     cortex-a57  //
neoverse-n1 aarch64-linux-gnu     neoverse-n1 //
neoverse-v1 aarch64-linux-gnu     neoverse-v1 //
neoverse-n2 aarch64-linux-gnu     neoverse-n2 //
a64fx       aarch64-linux-gnu     a64fx       //'

tmp=$(mktemp -d)
[ -n "${MCA_KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT INT TERM

. "$(dirname "$0")/mca-lib.sh"   # json, mark, loop

# row MACHINE TYPE TRIPLE CPU COMMENT: one table line, or a note on stderr
row() {
    m=$1 t=$2 d=$tmp/$1-$2
    mkdir -p "$d"
    # shellcheck disable=SC2086
    if ! "$gg" --machine "$root/machines/$m.yaml" --type "$t" ${GEMMGEN_ARGS:-} --name k -o "$d" >"$d/gen.log" 2>&1 ||
       ! "$gg" --machine "$root/machines/$m.yaml" --type "$t" ${GEMMGEN_ARGS:-} --explain=json >"$d/x.json" 2>>"$d/gen.log"; then
        echo "skip $m $t: gemmgen failed: $(head -n 1 "$d/gen.log")" >&2
        return 0
    fi
    mark "$d/k.c" "$d/m.c" "$5"
    # the kernel's own flags for its compiler, as shipped (no -mcpu: tuned
    # as a user who follows the kernel's header builds it)
    if [ "${MCA_CC:-clang}" = gcc ]; then
        cc=$("$gg" --machine "$root/machines/$m.yaml" --type "$t" --print-cc)
        flags=$("$gg" --machine "$root/machines/$m.yaml" --type "$t" --print-cflags)
    else
        cc="$CLANG --target=$3"
        flags=$("$gg" --machine "$root/machines/$m.yaml" --type "$t" --compiler clang --print-cflags)
    fi
    # shellcheck disable=SC2086
    # the packed kernel alone (its loop is the one measured): a fraction of the compile
    if ! $cc $flags ${MCA_CFLAGS:-} -O2 -DGEMMGEN_PACKED_ONLY -S -I"$d" "$d/m.c" -o "$d/m.s" 2>"$d/cc.log"; then
        echo "skip $m $t: $cc failed: $(grep -m1 error "$d/cc.log")" >&2
        return 0
    fi
    loop "$d/m.s" "$d/loop.s"
    "$MCA" -mtriple="$3" -mcpu="$4" -iterations=200 "$d/loop.s" >"$d/mca.txt" 2>"$d/mca.log" || {
        echo "skip $m $t: $MCA failed: $(head -n 1 "$d/mca.log")" >&2; return 0; }
    awk -v m="$m" -v t="$t" -v mr="$(json mr "$d/x.json")" -v nr="$(json nr "$d/x.json")" \
        -v uf="$(json unroll_factor "$d/x.json")" -v cyc="$(json pipelined_cycles_per_iteration "$d/x.json")" \
        -v util="$(json predicted_fma_utilization "$d/x.json")" '
        /^Iterations:/ { it = $2 } /^Total Cycles:/ { tc = $3 } /^Block RThroughput:/ { rt = $3 }
        END {
            fp = util * cyc; rtk = rt / uf; ck = tc / it / uf
            printf "%-12s %-4s %6s %3d %8.2f %6.1f%% %9.2f %6.1f%% %8.2f %6.1f%%\n", m, t, mr "x" nr, uf,
                   cyc, 100 * util, rtk, 100 * fp / rtk, ck, 100 * fp / ck
        }' "$d/mca.txt"
}

printf '%-12s %-4s %6s %3s %8s %7s %9s %7s %8s %7s\n' machine type MRxNR UF "model" "model" \
    "mca" "mca" "mca" "mca"
printf '%-12s %-4s %6s %3s %8s %7s %9s %7s %8s %7s\n' "" "" "" "" "cyc/it" "util" "RThru/it" \
    "util" "cyc/it" "util"
echo "$table" | while read -r m triple cpu cmt; do
    if [ $# -gt 0 ]; then
        want=no
        for x in "$@"; do [ "$x" = "$m" ] && want=yes; done
        [ $want = yes ] || continue
    fi
    for t in ${MCA_TYPES:-f64 f32}; do row "$m" "$t" "$triple" "$cpu" "$cmt"; done
done
