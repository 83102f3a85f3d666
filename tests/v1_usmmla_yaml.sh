#!/bin/sh
# The stand-in machine of the runtime-v1-usmmla test: neoverse-v1.yaml
# with SUDOT by element on two pipes instead of four, so that USMMLA does
# more multiply-adds a cycle and s8u8s32 takes it: libgemmgen's loops for
# kernel sets packing 8 k steps a group then run under qemu. Its timings
# are no real core's: the test checks the arithmetic, not the speed.
# usage: v1_usmmla_yaml.sh neoverse-v1.yaml > v1-usmmla.yaml
set -eu
sed -e 's/^name: neoverse-v1$/name: v1-usmmla/' \
    -e 's/^\(  vdot_i8: *\){latency: 3, unit: \[v01, v23\]}/\1{latency: 3, unit: v01}/' "$1"
