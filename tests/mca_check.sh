#!/bin/sh
# mca_check.sh GEMMGEN: the model's cycles per k step against llvm-mca-19's
# for every machine of scripts/mca-report.sh, each kernel compiled as it
# ships (its own GCC and flags, MCA_CC=gcc). A row passes within 10%; the
# rows listed below differ for the reasons machines/README.md gives
# ("The model against llvm-mca") and must stay within their own bound, so
# they cannot drift further unseen. Exit 77 (skip) without llvm-mca-19.
set -eu
command -v llvm-mca-19 >/dev/null 2>&1 || { echo "llvm-mca-19 not installed: skipped"; exit 77; }
root=$(cd "$(dirname "$0")/.." && pwd)
# machine type  highest mca/model ratio allowed
known='sandybridge f32 1.30
skylake-avx512 f64 1.18
skylake-avx512 f32 1.18
sapphirerapids f64 2.10
sapphirerapids f32 2.10
zen4 f64 1.50
zen4 f32 1.50
zen5 f64 3.00
zen5 f32 3.00
power9 f64 1.20
power9 f32 1.38
power10 f64 1.95
power10 f32 1.95'
out=$(MCA_NO_INSTALL=1 MCA_CC=gcc sh "$root/scripts/mca-report.sh" "$1" 2>&1)
echo "$out"
echo "$out" | awk -v known="$known" '
    BEGIN { n = split(known, l, "\n"); for (i = 1; i <= n; i++) { split(l[i], f, " "); lim[f[1] " " f[2]] = f[3] } }
    /^skip / { print "FAIL: " $0; bad++ }
    NF == 10 && $5 + 0 > 0 {
        rows++
        r = $9 / $5; key = $1 " " $2
        hi = (key in lim) ? lim[key] : 1.10
        if (r > hi || r < 0.90) { printf "FAIL: %s: mca %.2f against the model %.2f (ratio %.2f, allowed 0.90-%.2f)\n", key, $9, $5, r, hi; bad++ }
        else if ((key in lim) && r <= 1.10) printf "note: %s is now within 10%%: drop it from the known list\n", key
    }
    END { if (rows < 30) { print "FAIL: " rows " rows, expected 30"; bad++ } exit bad > 0 }'
