#!/bin/sh
# The BLIS wrapper (gemmgen --blis, real and complex types) must compile
# for POWER10 and AArch64
# (compile only: Debian ships BLIS for the host, so its x86 blis.h serves
# for the types and prototypes; it is put alone in a directory so it does
# not shadow the cross C library's headers).
# usage: blis_cross_compile.sh GEMMGEN MACHINES_DIR
set -eu
gg=$1; mdir=$2
hdr=$(ls /usr/include/*/blis.h /usr/include/blis/blis.h 2>/dev/null | head -1 || true)
[ -n "$hdr" ] || { echo "SKIP: no blis.h (libblis-dev)"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/inc"; ln -s "$hdr" "$tmp/inc/blis.h"
pass=0; fail=0
for m in power10 cortex-a57 neoverse-v1; do
    for t in f64 f32 c64 c32; do
        for api in 0 1; do
            name=w_$(echo "$m" | tr - _)_${t}_$api
            "$gg" --machine "$mdir/$m.yaml" --type "$t" --blis --blis-api "$api" --name "$name" -o "$tmp" >/dev/null
            cc=$("$gg" --machine "$mdir/$m.yaml" --print-cc)
            fl=$("$gg" --machine "$mdir/$m.yaml" --print-cflags)
            command -v "$cc" >/dev/null || { echo "SKIP: $cc not installed"; exit 77; }
            if $cc -std=c11 -O2 $fl -I"$tmp" -I"$tmp/inc" -c "$tmp/$name.c" -o "$tmp/$name.o" 2>"$tmp/err" &&
               nm "$tmp/$name.o" | grep -q " T ${name}_blis$"; then
                pass=$((pass + 1))
            else
                fail=$((fail + 1)); echo "FAIL: $m $t blis-api $api"; cat "$tmp/err" | head -20
            fi
        done
    done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
