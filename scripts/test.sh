#!/bin/sh
# The whole test suite: install dependencies, configure, build, test.
set -eu
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
[ -d build ] || meson setup build
ninja -C build
meson test -C build --print-errorlogs --num-processes 2

# Once more under AddressSanitizer and UndefinedBehaviorSanitizer: the
# generator (unit tests, out/ regenerated, the fuzz corpus) and the runtime
# (every path), in a build of their own, so that `build` stays the
# optimized one that benchmarks time. The kernels of every machine file and
# the cross suites run in `build` only. Any report fails the test.
[ -d build-asan ] || meson setup build-asan -Db_sanitize=address,undefined \
    -Dbuildtype=debugoptimized -Dbench=false -Dkernel_tests=false \
    -Dcross_tests=disabled -Dblis=disabled
ninja -C build-asan
ASAN_OPTIONS=halt_on_error=1:abort_on_error=1 \
UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1 \
    meson test -C build-asan --print-errorlogs --num-processes 2 \
    --suite unit --suite golden --suite generator --suite runtime
