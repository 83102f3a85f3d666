#!/bin/sh
# installed.sh: gemmgen and libgemmgen as `meson install` leaves them, used
# from nowhere near the source tree. The build is staged (DESTDIR) under
# WORK; the source tree's machines/ is hidden behind an empty tmpfs (a
# private mount namespace: unshare) where the system allows it. Then:
#  1. the installed gemmgen finds its machine files under the install
#     (--machine zen5 by name), writes the same bytes as out/, and rejects an
#     unknown name with status 2, listing the known ones, writing nothing;
#  2. `pkg-config --cflags --libs gemmgen` alone builds a program against
#     the installed libgemmgen, which computes a DGEMM right;
#  3. examples/kernel-app, copied, builds with the installed gemmgen on PATH
#     (a kernel generated for this machine at build time) and the installed
#     libgemmgen (dependency('gemmgen') through pkg-config), and runs.
# usage: installed.sh BUILDROOT SRCROOT WORK BINDIR LIBDIR (absolute, as installed)
set -eu
build=$1 src=$2 work=$3 bindir=$4 libdir=$5
fail() { echo "installed.sh: FAIL: $*" >&2; exit 1; }

if [ -z "${GG_PRIVATE_NS:-}" ]; then
    for u in "unshare -m" "unshare -rm"; do
        if $u true 2>/dev/null; then GG_PRIVATE_NS=1 exec $u sh "$0" "$@"; fi
    done
fi
rm -rf "$work"
mkdir -p "$work/elsewhere"
meson install -C "$build" --no-rebuild --destdir "$work/stage" >"$work/install.log" 2>&1 ||
    { cat "$work/install.log" >&2; fail "meson install"; }
stage=$(cd "$work/stage" && pwd)
gg=$stage$bindir/gemmgen
machines=$(cd "$stage$bindir/../share/gemmgen/machines" && pwd) ||
    fail "no share/gemmgen/machines beside the installed gemmgen"
if [ -n "${GG_PRIVATE_NS:-}" ]; then
    mount -t tmpfs none "$src/machines"
    [ -z "$(ls -A "$src/machines")" ] || fail "could not hide $src/machines"
    echo "source machines hidden: $src/machines is empty"
else
    echo "note: no private mount namespace; checking the paths gemmgen reads only"
fi

# 1. machine files from the install, by name
cd "$work/elsewhere"
unset GEMMGEN_MACHINES
got=$("$gg" --machine zen5 --print-machine)
[ "$got" = "$machines/zen5.yaml" ] || fail "--machine zen5 read '$got', not '$machines/zen5.yaml'"
"$gg" --machine zen5 --type f64 >/dev/null
cmp out/zen5_dgemm_16x14.c "$src/out/zen5_dgemm_16x14.c" || fail "installed gemmgen: other bytes than out/"
cmp out/zen5_dgemm_16x14.h "$src/out/zen5_dgemm_16x14.h" || fail "installed gemmgen: other bytes than out/"
echo "installed gemmgen --machine zen5: $got, same bytes as out/"
if host=$("$gg" --print-machine 2>/dev/null); then
    case $host in "$machines"/*) echo "host machine: $host" ;; *) fail "host machine from '$host'" ;; esac
fi
mkdir nosuch && cd nosuch
if "$gg" --machine nosuch-cpu -o k >/dev/null 2>err; then fail "--machine nosuch-cpu accepted"; else st=$?; fi
[ "$st" = 2 ] || fail "--machine nosuch-cpu: status $st, not 2"
grep -q "no machine named 'nosuch-cpu' in $machines (known: .*zen5" err || fail "message: $(cat err)"
[ -z "$(ls -A | grep -v '^err$')" ] || fail "--machine nosuch-cpu wrote files"
echo "unknown name: status 2, $(cat err)"
cd ..

# 2. pkg-config alone
export PKG_CONFIG_PATH="$stage$libdir/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$stage"
flags=$(pkg-config --cflags --libs gemmgen) || fail "pkg-config gemmgen"
echo "pkg-config --cflags --libs gemmgen: $flags"
# shellcheck disable=SC2086
cc -O2 "$src/tests/pkgconfig_user.c" -o pkgconfig_user $flags -lm || fail "build with pkg-config's flags"
LD_LIBRARY_PATH="$stage$libdir" ./pkgconfig_user || fail "pkgconfig_user"

# 3. the example with the installed gemmgen and libgemmgen
cp -R "$src/examples/kernel-app" app
PATH="$stage$bindir:$PATH" meson setup app-build app -Dlibgemmgen=true >setup.log 2>&1 ||
    { cat setup.log >&2; fail "example: meson setup"; }
grep -q "Program gemmgen found: YES ($gg)" setup.log || fail "example: not the installed gemmgen: $(grep 'Program gemmgen' setup.log)"
ninja -C app-build >build.log 2>&1 || { cat build.log >&2; fail "example: build"; }
LD_LIBRARY_PATH="$stage$libdir" app-build/kernel-app >app.log || { cat app.log; fail "example: run"; }
cat app.log
grep -q "libgemmgen .* computed the tile too" app.log || fail "example: libgemmgen not used"
