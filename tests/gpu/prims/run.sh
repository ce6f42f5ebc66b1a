#!/bin/sh
# tests/gpu/prims/run.sh [A B]: builds host.c with the runtime and runs it
# on the modules built by `make gpu-prims` (build/gpu-prims/): by default
# the GPU's (prims.cubin) against the emulator's (prims.so, linked here
# from prims.o), then every f32 through cvt.rna.tf32.f32 on the GPU
# (host --sweep). Without a GPU: run.sh build/gpu-prims/prims.so
# build/gpu-prims/prims.so (the emulator against itself and the CPU
# references). Needs sm_90 (stmatrix, mbarrier expect_tx, bulk copies,
# elect.sync): the H100 / H200. PRIMS_F32_ULPS: the tolerance of the
# f32 mma results (default 0: bit for bit).
cd "$(dirname "$0")/../../.." || exit 1
CC=${CC:-cc}
D=build/gpu-prims
$CC -shared -o $D/prims.so $D/prims.o -lm || exit 1
$CC -O2 -std=c11 -rdynamic -o $D/host tests/gpu/prims/host.c src/runtime/*.c -ldl -lm || exit 1
A=${1:-$D/prims.cubin}
B=${2:-$D/prims.so}
status=0
$D/host "$A" "$B" || status=1
case $A in
*.so) ;;
*) $D/host --sweep "$A" || status=1 ;;
esac
exit $status
