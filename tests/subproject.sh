#!/bin/sh
# subproject.sh: examples/kernel-app built the way a user builds it with
# gemmgen vendored: the example copied to WORK, this checkout linked as
# subprojects/gemmgen, configured and built from scratch, run. The
# subproject gets the gemmgen command alone (-Dgemmgen:runtime=false): the
# example needs nothing else, and libgemmgen's compile costs minutes. So
# the example with libgemmgen from the subproject (gemmgen_dep) is
# configured only: its link line must name the subproject's libgemmgen
# (tests/installed.sh builds and runs that variant against the installed
# library).
# usage: subproject.sh SRCROOT WORK
set -eu
src=$1 work=$2
fail() { echo "subproject.sh: FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
cp -R "$src/examples/kernel-app" "$work/app"
mkdir "$work/app/subprojects"
ln -s "$src" "$work/app/subprojects/gemmgen"
cd "$work"
meson setup app-build app -Dgemmgen:runtime=false >setup.log 2>&1 ||
    { cat setup.log >&2; fail "meson setup"; }
grep -q "Program gemmgen found: YES (overridden)" setup.log ||
    fail "gemmgen is not the subproject's: $(grep 'Program gemmgen' setup.log)"
ninja -C app-build >build.log 2>&1 || { cat build.log >&2; fail "build"; }
grep -q "subprojects/gemmgen/gen/gemmgen" build.log || fail "the subproject's gemmgen was not built"
app-build/kernel-app
meson setup app-lib app -Dlibgemmgen=true >lib-setup.log 2>&1 ||
    { cat lib-setup.log >&2; fail "meson setup -Dlibgemmgen=true"; }
grep -q "Dependency gemmgen found: YES .* (overridden)" lib-setup.log ||
    fail "dependency('gemmgen') is not the subproject's: $(grep 'Dependency gemmgen' lib-setup.log)"
grep "^build kernel-app: " app-lib/build.ninja | grep -q "subprojects/gemmgen/runtime/libgemmgen.so" ||
    fail "kernel-app does not link the subproject's libgemmgen"
echo "with -Dlibgemmgen=true (configured only): kernel-app links subprojects/gemmgen/runtime/libgemmgen.so"
