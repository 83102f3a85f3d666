#!/bin/sh
# The main job: install dependencies, build gemmgen and generate the
# micro-kernel for this host (or for the machine given as arguments).
set -eu
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
[ -d build ] || meson setup build
ninja -C build gen/gemmgen
exec build/gen/gemmgen "$@"
