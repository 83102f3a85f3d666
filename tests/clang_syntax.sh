#!/bin/sh
# clang_syntax.sh SRCROOT BUILDROOT: the generator's and libgemmgen's C
# (sources, kernels, tests) through clang-19's front end, so the project
# builds with clang as with GCC (the suite's build is GCC's; a full clang
# build and test run takes minutes, this about one second), and the
# runtime's x86 vector paths on under clang. Exit 77 (skip) without
# clang-19.
set -eu
command -v clang-19 >/dev/null 2>&1 || { echo "clang-19 not installed: skipped"; exit 77; }
src=$1 build=$2
bad=0 n=0
check() {
    n=$((n + 1))
    # shellcheck disable=SC2068
    clang-19 -std=c11 -fsyntax-only -D_FILE_OFFSET_BITS=64 -pthread "$@" || { echo "FAIL: $f"; bad=$((bad + 1)); }
}
for f in "$src"/gen/*.c; do
    check -DGEMMGEN_VERSION='"0"' -D_POSIX_C_SOURCE=200809L -I"$build/gen" -I"$src/gen" "$f"
done
rt="-I$build/runtime -I$src/runtime -I$src/runtime/include -I$src/runtime/src"
for f in "$src"/runtime/src/*.c "$src"/runtime/kernels/*.c; do
    # shellcheck disable=SC2086
    check $rt "$f"
done
for f in "$src"/runtime/tests/*.c; do
    case $f in */pdgemm_mpi.c) continue ;; esac      # an MPI program, built where MPI is
    # shellcheck disable=SC2086
    check $rt -I"$src/runtime/bench" -D_POSIX_C_SOURCE=200809L "$f"    # test_plot_svg's, as meson gives it
done
# clang 16+ builds the runtime's x86 level code and vector packing as GCC
# does (without them a clang build ran small and mid-size shapes far slower)
# shellcheck disable=SC2086
defs=$(echo '#include "gg_internal.h"' | clang-19 --target=x86_64-linux-gnu -std=c11 -dM -E $rt -x c -)
for m in GG_X86_LEVELS GG_SHUFFLES GG_PACK_X86; do
    echo "$defs" | grep -q "^#define $m 1\$" || { echo "FAIL: clang-19 has $m off"; bad=$((bad + 1)); }
done
echo "$n files through clang-19's front end; $bad failures"
[ "$bad" -eq 0 ]
