#!/bin/sh
# pdgemm_mpi.sh: ScaLAPACK's PDGEMM on 2 MPI ranks of this machine with
# libgemmgen preloaded as the BLAS (pdgemm_mpi.c checks the numbers). Shows
# libgemmgen serves it: every rank's dgemm_ resolves into libgemmgen, and
# every rank's libgemmgen starts up (a GEMMGEN_KERNEL it does not know makes
# it say so on its first GEMM; the program itself never calls libgemmgen).
# usage: pdgemm_mpi.sh MPIRUN PROGRAM LIBGEMMGEN.so, or pdgemm_mpi.sh
# skip:REASON (MPI or ScaLAPACK not found at configure time): exit 77, skip.
set -eu
case $1 in skip:*) echo "skipped: ${1#skip:}"; exit 77 ;; esac
mpirun=$1 prog=$2 lib=$3
fail() { echo "pdgemm_mpi.sh: FAIL: $*" >&2; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# one thread per rank: the two ranks already fill the two cores
out=$("$mpirun" --oversubscribe -np 2 -x LD_PRELOAD="$lib" -x GEMMGEN_NUM_THREADS=1 \
      -x GEMMGEN_KERNEL=probe-not-a-kernel "$prog" 2>&1) || { st=$?; echo "$out"; fail "mpirun exited $st"; }
echo "$out"
[ "$(echo "$out" | grep -c "dgemm_ from .*libgemmgen")" = 2 ] || fail "dgemm_ is not libgemmgen's in both ranks"
[ "$(echo "$out" | grep -c "gemmgen: GEMMGEN_KERNEL=probe-not-a-kernel is unknown")" = 2 ] ||
    fail "libgemmgen did not run a GEMM in both ranks"
[ "$(echo "$out" | grep -c "max |C - serial| = 0 ok")" = 5 ] || fail "wrong results"
