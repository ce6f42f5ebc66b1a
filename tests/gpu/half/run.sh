#!/bin/sh
# tests/gpu/half/run.sh (GPU machine): builds host.c with the runtime and
# runs it on the module built here by `make gpu-pack` (build/gpu-half/).
# Needs sm_89+ (fp8) and sm_90 (bf16 add/mul): the H100 / H200. HALF_OPS
# (default 2^26) sets the number of random triples.
cd "$(dirname "$0")/../../.." || exit 1
CC=${CC:-cc}
$CC -O2 -std=c11 -fopenmp -o build/gpu-half/host tests/gpu/half/host.c \
	src/runtime/oxrt.c src/runtime/oxcuda.c src/runtime/oxemu*.c -ldl -lm -lpthread || exit 1
build/gpu-half/host build/gpu-half/half.cubin
