#!/bin/sh
# ablation.sh: POCA's steps one by one on a CPU llvm-mca models, as
#   seed 001's Figures 9-10 do on hardware: the kernel with everything
#   (all), without list scheduling (--no-sched: instruction-selection
#   order), without pipelining, without either, and with the k loop
#   unrolled 1..8 times; each compiled by the kernel's own GCC and flags
#   plus -fno-schedule-insns -fno-schedule-insns2 -fno-peephole2, which
#   in-order machines' kernels ship with anyway (the emitted order runs,
#   and no load pairs: LLVM's Cortex-A55 model holds the load unit 6
#   cycles for an ldp of two q registers, 1 for an ldr),
#   its k loop cut out and timed by llvm-mca-19. Prints a
#   Markdown table of llvm-mca cycles per k step, the speedup over program
#   order (neither) and the share of the FMA peak (FMAs per step over the
#   FMA units of the machine file).
#   usage: scripts/ablation.sh GEMMGEN MACHINE LLVM_CPU [f64|f32]
#   ABL_EXTRA adds compiler flags (e.g. a register-allocation experiment).
#   e.g.   scripts/ablation.sh build/gen/gemmgen cortex-a55 cortex-a55 f64
set -eu
[ $# -ge 3 ] || { echo "usage: $0 GEMMGEN MACHINE LLVM_CPU [f64|f32]" >&2; exit 2; }
gg=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
m=$2 cpu=$3 t=${4:-f64}
y=$root/machines/$m.yaml
MCA=${MCA:-llvm-mca-19}
. "$(dirname "$0")/mca-lib.sh"   # json, mark, loop
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
triple=$(sed -n 's/^isa: *//p' "$y")
case $triple in
    aarch64) triple=aarch64-linux-gnu cmt=// ;;
    power) triple=powerpc64le-linux-gnu cmt='#' ;;
    *) triple=x86_64-linux-gnu cmt='#' ;;
esac
cc=$("$gg" --machine "$y" --type "$t" --print-cc)
flags="$("$gg" --machine "$y" --type "$t" --print-cflags) ${ABL_EXTRA:-} -fno-schedule-insns -fno-schedule-insns2 -fno-peephole2"

# one VARIANT ARGS...: prints "cycles-per-step fmas-per-step uf"
one() {
    d=$tmp/$1
    shift
    mkdir -p "$d"
    "$gg" --machine "$y" --type "$t" --name k -o "$d" "$@" >/dev/null
    "$gg" --machine "$y" --type "$t" --explain=json "$@" >"$d/x.json"
    mark "$d/k.c" "$d/m.c" "$cmt"
    # shellcheck disable=SC2086
    $cc $flags -O2 -S -I"$d" "$d/m.c" -o "$d/m.s"
    loop "$d/m.s" "$d/loop.s"
    "$MCA" -mtriple="$triple" -mcpu="$cpu" -iterations=200 "$d/loop.s" >"$d/mca.txt"
    uf=$(json unroll_factor "$d/x.json")
    awk -v uf="$uf" '/^Iterations:/ { it = $2 } /^Total Cycles:/ { tc = $3 }
        END { printf "%.2f %d\n", tc / it / uf, uf }' "$d/mca.txt"
}

mr=$(json mr "$("$gg" --machine "$y" --type "$t" --explain=json >"$tmp/x.json"; echo "$tmp/x.json")")
nr=$(json nr "$tmp/x.json")
fp=$(awk -v u="$(json predicted_fma_utilization "$tmp/x.json")" \
         -v c="$(json pipelined_cycles_per_iteration "$tmp/x.json")" 'BEGIN { printf "%.2f", u * c }')
base=$(one neither --no-sched --no-pipeline)
printf '| variant | cycles per k step | UF | speedup over program order | share of FMA peak |\n'
printf '|---|---|---|---|---|\n'
row() {
    name=$1
    shift
    if ! r=$(one "$(echo "$name" | tr ' ' _)" "$@" 2>/dev/null); then
        echo "| $name | (gemmgen refuses it) | | | |"
        return 0
    fi
    echo "$r $base" | awk -v n="$name" -v fp="$fp" '{ printf "| %s | %.2f | %d | %.2fx | %.1f%% |\n", n, $1, $2, $3 / $1, 100 * fp / $1 }'
}
row "all"
row "no scheduling" --no-sched
row "no pipelining" --no-pipeline
row "neither" --no-sched --no-pipeline
for u in 1 2 3 4 5 6 7 8; do
    row "unroll $u" --unroll "$u"
done
echo
echo "$m $t ${mr}x$nr, llvm-mca-19 -mcpu=$cpu; FMA peak: the FP work of one k step on the machine file's FMA units, $fp cycles"
