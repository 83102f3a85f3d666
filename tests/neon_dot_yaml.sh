#!/bin/sh
# The stand-in machine of the kernel-neon-dot-* tests: neoverse-n1.yaml
# with the NEON extensions no shipped NEON-only machine has added: bf16
# and i8mm (BFDOT, USDOT by element, BFMMLA and USMMLA) and fcma (FCMLA).
# Its timings of them are no real core's: the tests check the kernels'
# arithmetic, not their speed.
# usage: neon_dot_yaml.sh neoverse-n1.yaml > neon-dot.yaml
set -eu
sed -e 's/^name: neoverse-n1$/name: neon-dot/' \
    -e 's/^extensions: \[neon\]$/extensions: [neon, bf16, i8mm, fcma]/' \
    -e '/^  vfma_lane:/a\
  vdot_bf16:  {latency: 4, unit: v}\
  vdot_i8:    {latency: 3, unit: v}\
  vmmla_bf16: {latency: 4, unit: v}\
  vmmla_i8:   {latency: 3, unit: v}\
  vcmla:      {latency: 4, unit: v}' "$1"
