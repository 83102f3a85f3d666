#!/bin/sh
# The stand-in machine of the kernel-v1-sve512-* tests: neoverse-v1.yaml
# with 512-bit vectors, so that the MMLA kernels' segments are four to a
# register (A's vector 8 rows, C's columns gathered from four 64-bit
# halves). No such core: the tests check the arithmetic, not the speed.
# usage: v1_sve512_yaml.sh neoverse-v1.yaml > v1-sve512.yaml
set -eu
sed -e 's/^name: neoverse-v1$/name: v1-sve512/' \
    -e 's/^vector_bits: 256 /vector_bits: 512 /' "$1"
