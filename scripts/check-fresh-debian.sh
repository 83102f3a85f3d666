#!/bin/sh
# check-fresh-debian.sh: the README's first command (sh scripts/run.sh) on
# a fresh minimal Debian 12, as a user's container would run it, so that
# scripts/install-deps.sh is known to name every package the build needs.
# A manual check (downloads and installs packages: minutes), not a test.
#   usage (root): sh scripts/check-fresh-debian.sh [COMMAND]
# Builds a debootstrap --variant=minbase bookworm root under /var/tmp, puts
# `git archive HEAD` of this checkout (the committed state, nothing else) in
# /src there, and runs COMMAND (default: sh scripts/run.sh) in /src in a
# chroot with /proc mounted. The mirror is the first Debian one apt is
# configured with (MIRROR=URL overrides it). KEEP=1 keeps the root.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cmd=${1:-sh scripts/run.sh}
[ "$(id -u)" = 0 ] || { echo "check-fresh-debian: run as root (debootstrap, chroot)" >&2; exit 1; }
if ! command -v debootstrap >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends debootstrap
fi
# apt's own mirror: deb822 "URIs:" lines or one-line "deb URL bookworm ..."
mirror=${MIRROR:-$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
    /etc/apt/sources.list.d/*.sources 2>/dev/null |
    sed -n -e 's|^URIs: *\([^ ]*/debian\)/*$|\1|p' \
           -e 's|^deb  *\([^ ]*/debian\)/*  *bookworm .*|\1|p' | head -n 1)}
mirror=${mirror:-http://deb.debian.org/debian}

dir=$(mktemp -d /var/tmp/gemmgen-fresh.XXXXXX)
cleanup() {
    umount "$dir/proc" 2>/dev/null || true
    # never delete through a mount still in place
    if [ "${KEEP:-0}" = 1 ] || mountpoint -q "$dir/proc"; then
        echo "check-fresh-debian: root kept in $dir" >&2
    else
        rm -rf "$dir"
    fi
}
trap cleanup EXIT INT TERM

echo "check-fresh-debian: debootstrap minbase bookworm from $mirror into $dir" >&2
debootstrap --variant=minbase bookworm "$dir" "$mirror" >"$dir.debootstrap.log" 2>&1 || {
    tail -n 20 "$dir.debootstrap.log" >&2; rm -f "$dir.debootstrap.log"; exit 1; }
rm -f "$dir.debootstrap.log"
mkdir "$dir/src"
git -C "$root" archive HEAD | tar -x -C "$dir/src"
cp /etc/resolv.conf "$dir/etc/resolv.conf" 2>/dev/null || true
mount -t proc proc "$dir/proc"
echo "check-fresh-debian: running '$cmd' in the fresh root" >&2
if chroot "$dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
        sh -c "cd /src && $cmd"; then
    echo "check-fresh-debian: PASS: '$cmd' on a fresh Debian 12 minbase root" >&2
else
    rc=$?
    echo "check-fresh-debian: FAIL: '$cmd' exited with status $rc" >&2
    exit "$rc"
fi
