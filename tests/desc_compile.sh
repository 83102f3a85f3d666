#!/bin/sh
# Every set descriptor in out/ compiles against the runtime's structs
# (gg_internal.h) without a warning: its kernel lists' entries have the
# types of the struct fields they initialize.
# usage: desc_compile.sh CC [CC ARGS...] (the compiler command)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for d in "$root"/out/*_desc.h; do
    name=$(basename "$d" _desc.h)
    printf '#include "gg_internal.h"\n#include "%s_desc.h"\nconst struct gg_ukernel uk = %s_DESC_UKERNEL;\n' \
        "$name" "$name" > "$tmp/d.c"
    if "$@" -std=c11 -Wall -Wextra -Werror -fsyntax-only -I"$root/runtime/src" -I"$root/out" \
        "$tmp/d.c" 2> "$tmp/err"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $name:" >&2
        head -5 "$tmp/err" >&2
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
