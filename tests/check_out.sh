#!/bin/sh
# out/ must hold exactly what this gemmgen generates: any change to the
# generator shows up as a diff of real kernels. usage: check_out.sh GEMMGEN
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/out"
sh "$root/scripts/regen-out.sh" "$1" "$tmp/out"
cd "$root"
if diff -r -q out "$tmp/out"; then
    n=$(ls "$tmp/out" | wc -l)
    echo "out/: $n files identical"
    echo "1 passed, 0 failed"
else
    echo "out/ differs from the generator's output: run scripts/regen-out.sh build/gen/gemmgen and review the diff" >&2
    diff -r out "$tmp/out" | head -40 >&2
    echo "0 passed, 1 failed"
    exit 1
fi
