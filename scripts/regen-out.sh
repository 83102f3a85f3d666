#!/bin/sh
# Regenerate out/ (the committed kernels for every shipped machine and
# type, its small_tile kernel where it names one, and the complex kernels,
# each with its set descriptor NAME_desc.h) with a given gemmgen.
# usage: regen-out.sh GEMMGEN [OUTDIR]
# Run from anywhere; paths in the kernels' headers are relative to the
# source root, so the bytes do not depend on where the checkout lives.
set -eu
gg=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
out=${2:-out}
cd "$root"
mkdir -p "$out"
for y in machines/*.yaml; do
    for t in f64 f32; do
        "$gg" --machine "$y" --type "$t" -o "$out" >/dev/null
        # writes nothing (and says so) where the machine names no small_tile
        # for the type; other messages are errors
        err=$("$gg" --machine "$y" --type "$t" --small-tile -o "$out" 2>&1 >/dev/null) ||
            { echo "$err" >&2; exit 1; }
    done
done
# complex kernels where the machine's instruction set has a complex
# strategy (gemmgen refuses the others with exit status 2)
for y in machines/*.yaml; do
    for t in c64 c32; do
        if "$gg" --machine "$y" --type "$t" --print-cflags >/dev/null 2>&1; then
            "$gg" --machine "$y" --type "$t" -o "$out" >/dev/null
        fi
    done
done
# rank-G kernels (bf16, u8s8s32 and its mirror s8u8s32) where the machine
# has the instructions
for y in machines/*.yaml; do
    for t in bf16 u8s8s32 s8u8s32; do
        if "$gg" --machine "$y" --type "$t" --print-cflags >/dev/null 2>&1; then
            "$gg" --machine "$y" --type "$t" -o "$out" >/dev/null
        fi
    done
done
