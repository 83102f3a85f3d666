#!/bin/sh
# ablation.sh: POCA Figures 9-10 on this host: the in-L1 speed of the
# generated micro-kernel with each optimization switched off, and with
# the unroll factor forced to 1..8, next to the model's prediction.
#   usage: scripts/ablation.sh GEMMGEN [f64|f32] [MACHINE.yaml]
# (no MACHINE: the host). The kernel must run here.
set -eu
gg=$1; t=${2:-f64}; mach=${3:-}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
margs=""; [ -n "$mach" ] && margs="--machine $mach"
ct=double; [ "$t" = f32 ] && ct=float
cflags=$("$gg" $margs --type "$t" --print-cflags)
printf "%-34s %8s %10s %12s\n" variant GFLOPS "vs all" "model cyc/it"
base=""
run() {   # label, gemmgen flags
    n=v$(echo "$1" | tr -c 'a-z0-9\n' _)
    if ! "$gg" $margs --type "$t" $2 --name "$n" -o "$tmp" >/dev/null 2>"$tmp/err"; then
        printf "%-34s %s\n" "$1" "refused: $(sed 's/^gemmgen: //' "$tmp/err" | cut -c1-60)"
        return
    fi
    cc -O2 $cflags -I"$tmp" -DKNAME="$n" -DKHEADER="\"$n.h\"" -DKTYPE=$ct \
        "$root/runtime/bench/ablation_micro.c" "$tmp/$n.c" -o "$tmp/$n"
    gf=$("$tmp/$n" 256 40000)
    cyc=$("$gg" $margs --type "$t" $2 --explain=json | sed 's/.*"pipelined_cycles_per_iteration": \([0-9.]*\).*/\1/')
    [ -z "$base" ] && base=$gf
    printf "%-34s %8s %9.1f%% %12s\n" "$1" "$gf" "$(echo "$gf $base" | awk '{print 100*$1/$2}')" "$cyc"
}
run "all (sched + pipeline + rotation)" ""
run "scheduling only (no pipelining)" "--no-pipeline"
run "pipelining only (no scheduling)" "--no-sched"
run "none" "--no-sched --no-pipeline"
for u in 1 2 3 4 5 6 7 8; do run "unroll $u" "--unroll $u"; done
