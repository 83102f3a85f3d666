#!/bin/sh
# Regenerate out/ (the committed kernels for every shipped machine and
# type, and its small_tile kernel where it names one) with a given
# gemmgen. usage: regen-out.sh GEMMGEN [OUTDIR]
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
        if [ "$("$gg" --machine "$y" --type "$t" --print-small-tile)" != none ]; then
            "$gg" --machine "$y" --type "$t" --small-tile -o "$out" >/dev/null
        fi
    done
done
