#!/bin/sh
# tests/gpu/bench.sh: oxidec's vecadd against nvcc's, on this machine's GPU.
# Compiles bench/vecadd/vecadd_ref.cu with nvcc into build/gpu/ and
# bench/vecadd/bench.c with cc, then runs the bench with
# build/examples/vecadd.ptx and, when present, build/examples/vecadd.cubin.
# Environment: CC (cc), NVCC (nvcc, else $CUDA_HOME/bin/nvcc), ARCH (sm_90).

cd "$(dirname "$0")/../.." || exit 1
CC=${CC:-cc}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
ARCH=${ARCH:-sm_90}
OUT=build/gpu

if [ -z "${NVCC:-}" ]; then
	if command -v nvcc >/dev/null 2>&1; then
		NVCC=nvcc
	else
		NVCC=$CUDA_HOME/bin/nvcc
	fi
fi
if ! command -v "$NVCC" >/dev/null 2>&1; then
	echo "bench: nvcc not found (set NVCC or CUDA_HOME)" >&2
	exit 1
fi
if [ ! -f build/examples/vecadd.ptx ]; then
	echo "bench: build/examples/vecadd.ptx is missing: run 'make examples'" \
	     "on a machine with LLVM first, then copy build/ here" >&2
	exit 1
fi
mkdir -p "$OUT" || exit 1
if command -v nvidia-smi >/dev/null 2>&1; then
	nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
fi
set -e
"$NVCC" -O3 -arch="$ARCH" -cubin -o "$OUT/vecadd_ref.cubin" \
	bench/vecadd/vecadd_ref.cu
$CC -O2 -std=c11 -ffp-contract=off -Wall -Wextra -o "$OUT/bench_vecadd" \
	bench/vecadd/bench.c src/runtime/oxrt.c src/runtime/oxcuda.c src/runtime/oxemu.c -ldl -lm
set +e

status=0
for kind in ptx cubin; do
	module=build/examples/vecadd.$kind
	[ -f "$module" ] || continue
	echo
	echo "== oxidec $module vs nvcc $OUT/vecadd_ref.cubin"
	"./$OUT/bench_vecadd" "$module" "$OUT/vecadd_ref.cubin" || status=1
done
exit $status
