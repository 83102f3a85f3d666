#!/bin/sh
# Install everything gemmgen needs on Debian 12 (run as root). Idempotent:
# skips apt when every package is already there.
#   install-deps.sh          build, tests (incl. cross compilers, qemu, and
#                            llvm-mca-19 for the mca suite: llvm-19, ~200 MB)
#   install-deps.sh --bench  also clang-19 for scripts/mca-report.sh's default
set -eu
# The cross C libraries are named: apt only recommends them with the cross
# gcc, and --no-install-recommends would leave the cross tests without headers.
PKGS="gcc meson ninja-build pkg-config libyaml-dev libcmocka-dev
      libblis-dev libopenblas-dev
      gcc-powerpc64le-linux-gnu gcc-aarch64-linux-gnu qemu-user
      libc6-dev-ppc64el-cross libc6-dev-arm64-cross llvm-19"
[ "${1:-}" = "--bench" ] && PKGS="$PKGS clang-19"
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
