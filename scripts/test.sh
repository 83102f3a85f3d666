#!/bin/sh
# The whole test suite: install dependencies, configure, build, test.
set -eu
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
[ -d build ] || meson setup build
ninja -C build
meson test -C build --print-errorlogs --num-processes 2
