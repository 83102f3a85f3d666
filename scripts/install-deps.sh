#!/bin/sh
# Install everything gemmgen needs on Debian 12 (run as root). Idempotent:
# skips apt when every package is already there. scripts/check-fresh-debian.sh
# checks that this list is complete on a minimal (debootstrap minbase) root.
#   install-deps.sh          build, tests (incl. cross compilers, qemu, MPI,
#                            oneDNN, llvm-mca-19 for the mca suite: llvm-19, and
#                            clang-19, which the clang suite compiles out/ with)
#   install-deps.sh --bench  also chromium to look at the SVG pictures (headless
#                            screenshots; the tests do not need it)
set -eu
# --no-install-recommends leaves out what gcc only recommends, so the C
# library's headers and start files (libc6-dev) and the cross C libraries
# are named. ScaLAPACK and Open MPI: the test of libgemmgen under PDGEMM;
# oneDNN: gemmgen_gemm_u8s8s32 compared with dnnl_gemm_u8s8s32, and the peer
# of gemmbench --lowp.
PKGS="gcc libc6-dev meson ninja-build pkg-config libyaml-dev libcmocka-dev
      libblis-dev libopenblas-dev libdnnl-dev
      gcc-powerpc64le-linux-gnu gcc-aarch64-linux-gnu qemu-user
      libc6-dev-ppc64el-cross libc6-dev-arm64-cross llvm-19 clang-19
      libscalapack-openmpi-dev libopenmpi-dev openmpi-bin"
[ "${1:-}" = "--bench" ] && PKGS="$PKGS chromium fonts-dejavu-core"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
    echo "install-deps: missing:$missing (run as root, or install them)" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing
