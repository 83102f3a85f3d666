#!/bin/sh
# clang_syntax.sh SRCROOT BUILDROOT: the generator's and libgemmgen's C
# (sources, kernels, tests) through clang-19's front end, so the project
# builds with clang as with GCC (the suite's build is GCC's; a full clang
# build and test run takes minutes, this about one second). Exit 77
# (skip) without clang-19.
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
echo "$n files, $bad failed clang-19's front end"
[ "$bad" -eq 0 ]
