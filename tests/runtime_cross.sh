#!/bin/sh
# libgemmgen for another instruction set, run under qemu-user:
#   runtime_cross.sh GEMMGEN GGKERNEL SRCROOT MACHINE WORKDIR [OTHER_CPU]
# ggkernel generates MACHINE's kernels and compiles them with the cross
# compiler gemmgen names for it; the runtime's sources and cross_check.c
# are compiled with the same compiler, statically; cross_check then runs
# under gemmgen's runner (qemu-user with the machine's CPU) on the unpacked
# and the packed path, and with the path left to size. It fails unless the
# runtime picks MACHINE's kernels (its CPU detection works there) and every
# case matches the reference (the rank-G types: the set's kernels where
# gemmgen spells them for the machine, else the portable ones).
# With OTHER_CPU (a qemu -cpu value lacking what the kernels need: POWER9
# for POWER10's MMA, another SVE length) the same binary must fall back to
# the portable kernels there, and still compute right.
# Exit 77 (skip) only when the cross compiler or the emulator is missing.
set -eu
gg=$1 ggk=$2 src=$3 machine=$4 work=$5 other=${6:-}
yaml=$src/machines/$machine.yaml
rt=$src/runtime
cc=$("$gg" --machine "$yaml" --type f64 --print-cc)
runner=$("$gg" --machine "$yaml" --type f64 --print-runner)
emu=${runner%% *}
if ! command -v "$cc" >/dev/null 2>&1 || ! command -v "$emu" >/dev/null 2>&1; then
    echo "SKIP: $cc or $emu is not installed (scripts/install-deps.sh installs them)"
    exit 77
fi
rm -rf "$work"
mkdir -p "$work"
set -x
"$ggk" --gemmgen "$gg" --machine "$yaml" --name m --outdir "$work" --small --complex --lowp -- $cc -O2
# The runtime's objects (and cross_check's) are the same for every
# machine of one compiler: built once per compiler and state of the
# sources, in a directory beside WORKDIR that the tests of one
# architecture share (flock: meson runs them side by side).
key=$(cat "$rt"/src/* "$rt"/include/* "$rt"/kernels/* "$rt"/tests/cross_check.c \
      "$rt"/tests/*_case.h "$rt"/tests/ref.h | cksum | cut -d' ' -f1)
objs=$(dirname "$work")/rtcross-objs-$cc-$key
(
    flock 9
    if [ ! -f "$objs/done" ]; then
        for d in "$(dirname "$work")/rtcross-objs-$cc-"*; do   # older sources' objects
            if [ -d "$d" ]; then rm -rf "$d"; fi
        done
        mkdir -p "$objs"
        echo '#define GG_GENERATED_SETS(X) X(gg_m_set)' > "$objs/gg_sets.h"
        cd "$objs"
        $cc -O2 -std=c11 -c -I"$objs" -I"$rt/include" -I"$rt/src" -I"$rt/tests" \
            "$rt"/src/*.c "$rt"/kernels/portable_*.c "$rt/tests/cross_check.c"
        touch done
    fi
) 9>"$objs.lock"
$cc -O2 -std=c11 -static -I"$objs" -I"$work" -I"$rt/include" -I"$rt/src" \
    "$objs"/*.o "$work/gg_m_set.c" "$work"/gg_m_*.o -o "$work/cross_check" -lpthread -lm
for direct in 1 2 0 ""; do        # "": the path by size (tiny, gemv loops); 2: _stream
    GEMMGEN_DIRECT=$direct $runner "$work/cross_check" "$machine" 20
done
if [ -n "$other" ]; then
    $emu -cpu "$other" "$work/cross_check" portable 10
fi
