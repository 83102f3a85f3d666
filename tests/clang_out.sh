#!/bin/sh
# clang_out.sh: every kernel of out/ compiles with clang-19 for its target,
# with the clang flags its header names: users build the kernels with their
# own compiler, BLIS's with clang too.
# Exit 77 (skip) without clang-19.
set -eu
command -v clang-19 >/dev/null 2>&1 || { echo "clang-19 not installed: skipped"; exit 77; }
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
one() {
    f=$1
    m=$(sed -n 's/^ \*   machine [^ ]* (\([^)]*\)).*/\1/p' "$f" | head -n 1)
    case $(sed -n 's/^isa: *//p' "$root/machines/$m") in
        x86) triple=x86_64-linux-gnu ;;
        power) triple=powerpc64le-linux-gnu ;;
        aarch64) triple=aarch64-linux-gnu ;;
        *) echo "FAIL: $f: no target for machine file $m"; return 1 ;;
    esac
    flags=$(sed -n 's/^ \*  *or: clang -O2//p' "$f" | head -n 1)
    [ -n "$flags" ] || { echo "FAIL: $f: no clang line in its header"; return 1; }
    # shellcheck disable=SC2086
    if ! clang-19 --target="$triple" -O2 $flags -Werror=unused-command-line-argument \
            -Werror=ignored-optimization-argument -c -I"$root/out" "$f" -o "$tmp/$(basename "$f").o" \
            2>"$tmp/$(basename "$f").log"; then
        echo "FAIL: $f (clang-19 --target=$triple -O2 $flags):"; grep -m3 -e error -e 'Cannot' "$tmp/$(basename "$f").log"
        return 1
    fi
}
bad=0 n=0
for f in "$root"/out/*.c; do
    n=$((n + 1))
    one "$f" || bad=$((bad + 1))
done
echo "$n kernels, $bad failed to compile with clang-19"
[ "$bad" -eq 0 ]
