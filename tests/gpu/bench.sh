#!/bin/sh
# tests/gpu/bench.sh: oxidec's kernels against nvcc's (and cuBLAS), on this
# machine's GPU. For each benchmark B (vecadd; mma_gemm: the tensor-core
# GEMMs mma_gemm, mma_gemm_pipelined, hopper_gemm and hopper_gemm_persistent
# (BENCH_GRID: its blocks, default one per multiprocessor), also against cuBLAS;
# softmax_bf16: a fused kernel over bf16 rows) compiles bench/B/B_ref.cu with nvcc into
# build/gpu/ and bench/B/bench.c with cc, then runs the bench with
# build/examples/B.ptx and, when present, build/examples/B.cubin.
# Then the suite (bench/suite/bench.c): safe register-blocked SGEMM, single
# (sgemm_rb) and double buffered (sgemm_db; both twins in
# bench/suite/sgemm_rb_ref.cu), also against cuBLAS, f32x4 copy (against the float4 copy ceiling),
# grid-stride reduction, histogram, f32 softmax over rows
# (examples/bench_kernels), transpose, stencil2d and warp scan (the
# examples), each against its CUDA C twin (bench/suite/*_ref.cu), results
# checked first, registers and spills from ptxas -v for both sides; its
# ONE markdown table (date, GPU, commit, then a row per workload and
# module) is printed last, also to build/gpu/bench-table.md.
# Environment: CC (cc), NVCC (nvcc, else $CUDA_HOME/bin/nvcc), ARCH (sm_90),
# BENCH_COMMIT (the commit to print; else git's HEAD, else "unknown"),
# BENCH_ONLY=suite (the suite alone).

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
if [ ! -f build/examples/vecadd.ptx ] || [ ! -f build/examples/bench_kernels.ptx ]; then
	echo "bench: build/examples/vecadd.ptx or bench_kernels.ptx is missing: run 'make examples'" \
	     "on a machine with LLVM first, then copy build/ here" >&2
	exit 1
fi
mkdir -p "$OUT" || exit 1
if command -v nvidia-smi >/dev/null 2>&1; then
	nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
fi
set -e
# the suite: twins (with ptxas -v), driver, registers of both sides
"$NVCC" -O3 -arch="$ARCH" -fmad=false -cubin -Xptxas -v -o "$OUT/suite_ref.cubin" \
	bench/suite/suite_ref.cu 2>"$OUT/suite_ref.ptxas"
"$NVCC" -O3 -arch="$ARCH" -cubin -Xptxas -v -o "$OUT/sgemm_rb_ref.cubin" \
	bench/suite/sgemm_rb_ref.cu 2>"$OUT/sgemm_rb_ref.ptxas"
$CC -O2 -std=c11 -Wall -Wextra -I"$CUDA_HOME/include" -o "$OUT/bench_suite" \
	bench/suite/bench.c src/runtime/oxrt.c src/runtime/oxcuda.c src/runtime/oxemu*.c \
	-L"$CUDA_HOME/lib64" -lcublas -lcudart -ldl -lm -lpthread
PTXAS=$(dirname "$(command -v "$NVCC")")/ptxas
for m in bench_kernels transpose stencil2d warp_reduce; do
	"$PTXAS" -arch="$ARCH" -v "build/examples/$m.ptx" -o /dev/null
done 2>&1 | sh tests/gpu/bench-regs.sh >"$OUT/bench-regs.txt"
cat "$OUT/suite_ref.ptxas" "$OUT/sgemm_rb_ref.ptxas" | sh tests/gpu/bench-regs.sh >>"$OUT/bench-regs.txt"
if [ "${BENCH_ONLY:-}" != suite ]; then
"$NVCC" -O3 -arch="$ARCH" -cubin -o "$OUT/vecadd_ref.cubin" \
	bench/vecadd/vecadd_ref.cu
$CC -O2 -std=c11 -ffp-contract=off -Wall -Wextra -o "$OUT/bench_vecadd" \
	bench/vecadd/bench.c src/runtime/oxrt.c src/runtime/oxcuda.c src/runtime/oxemu*.c -ldl -lm
"$NVCC" -O3 -arch="$ARCH" -cubin -o "$OUT/mma_gemm_ref.cubin" bench/mma_gemm/mma_gemm_ref.cu
"$NVCC" -O3 -gencode=arch=compute_90a,code=sm_90a -cubin -o "$OUT/hopper_gemm_ref.cubin" \
	bench/mma_gemm/hopper_gemm_ref.cu
$CC -O2 -std=c11 -Wall -Wextra -I"$CUDA_HOME/include" -o "$OUT/bench_mma_gemm" \
	bench/mma_gemm/bench.c src/runtime/oxrt.c src/runtime/oxcuda.c src/runtime/oxemu*.c \
	-L"$CUDA_HOME/lib64" -lcublas -lcudart -ldl -lm -lpthread
"$NVCC" -O3 -arch="$ARCH" -fmad=false -cubin -o "$OUT/softmax_bf16_ref.cubin" bench/softmax_bf16/softmax_bf16_ref.cu
$CC -O2 -std=c11 -Wall -Wextra -o "$OUT/bench_softmax_bf16" bench/softmax_bf16/bench.c \
	src/runtime/oxrt.c src/runtime/oxcuda.c src/runtime/oxemu*.c -ldl -lm -lpthread
fi
set +e

status=0
# the suite first; its table is printed at the end
commit=${BENCH_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1 |
	sed 's/, / , driver /; s/ , /, /')
table=$OUT/bench-table.md
{
	echo "### make bench, $(date -u +%Y-%m-%d), ${gpu:-unknown GPU}, commit $commit"
	echo
	echo "| workload | module | oxidec ms | nvcc ms | ratio oxidec/nvcc (time) | share of ceiling | oxidec regs / spill bytes | nvcc regs / spill bytes |"
	echo "|---|---|---|---|---|---|---|---|"
} >"$table"
for kind in ptx cubin; do
	[ -f "build/examples/bench_kernels.$kind" ] || continue
	LD_LIBRARY_PATH="$CUDA_HOME/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		"./$OUT/bench_suite" build/examples "$kind" "$OUT" "$OUT/bench-regs.txt" >>"$table" || status=1
done
if [ "${BENCH_ONLY:-}" = suite ]; then
	echo
	cat "$table"
	exit $status
fi

for kind in ptx cubin; do
	module=build/examples/vecadd.$kind
	[ -f "$module" ] || continue
	echo
	echo "== oxidec $module vs nvcc $OUT/vecadd_ref.cubin"
	"./$OUT/bench_vecadd" "$module" "$OUT/vecadd_ref.cubin" || status=1
done
for kernel in mma_gemm mma_gemm_pipelined hopper_gemm hopper_gemm_persistent; do
	ex=mma_gemm
	case $kernel in hopper_gemm*) ex=hopper_gemm ;; esac
	for kind in ptx cubin; do
		module=build/examples/$ex.$kind
		[ -f "$module" ] || continue
		echo
		echo "== $kernel: oxidec $module vs nvcc $OUT/${ex}_ref.cubin vs cuBLAS"
		LD_LIBRARY_PATH="$CUDA_HOME/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
			"./$OUT/bench_mma_gemm" "$module" "$OUT/${ex}_ref.cubin" "$kernel" || status=1
	done
done
for kind in ptx cubin; do
	module=build/examples/softmax_bf16.$kind
	[ -f "$module" ] || continue
	echo
	echo "== softmax_bf16: oxidec $module vs nvcc $OUT/softmax_bf16_ref.cubin"
	"./$OUT/bench_softmax_bf16" "$module" "$OUT/softmax_bf16_ref.cubin" || status=1
done
echo
cat "$table"
exit $status
