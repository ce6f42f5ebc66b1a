#!/bin/sh
# tests/gpu/cas.sh (make bench-cas; part cas of make gpu-all): contended
# atomics on one global counter (issue 11, bench/cas): compiles nvcc's
# twins bench/cas/cas_ref.cu into build/gpu/cas_ref.cubin (without nvcc:
# oxidec's rows only) and bench/cas/cas.c with cc, then runs it on
# build/examples/cas_contention.ptx and .cubin (and examples/histogram's
# module at up to 1056 blocks), each run under a watchdog (timeout
# CAS_TIMEOUT seconds, default 300: a launch past it is a FAIL, not a
# hang). Every count is checked before it is timed. Prints the tables
# (also to build/gpu/cas-table.md); the last line says whether every count
# was right. Exit 1 on a wrong count, a failed build or a timeout.
# Environment: CC (cc), NVCC (nvcc, else $CUDA_HOME/bin/nvcc), ARCH
# (sm_90), CAS_TIMEOUT, CAS_STOP_MS / CAS_LIMIT_MS (bench/cas/cas.c).
cd "$(dirname "$0")/../.." || exit 1
CC=${CC:-cc}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
ARCH=${ARCH:-sm_90}
CAS_TIMEOUT=${CAS_TIMEOUT:-300}
OUT=build/gpu
mkdir -p "$OUT" || exit 1
if [ ! -f build/examples/cas_contention.ptx ]; then
	echo "cas: build/examples/cas_contention.ptx is missing: run 'make examples' (or gpu-pack) first" >&2
	exit 1
fi
if [ -z "${NVCC:-}" ]; then
	NVCC=$(command -v nvcc || echo "$CUDA_HOME/bin/nvcc")
fi
ref=-
if [ -x "$NVCC" ] || command -v "$NVCC" >/dev/null 2>&1; then
	"$NVCC" -O3 -arch="$ARCH" -cubin -o "$OUT/cas_ref.cubin" bench/cas/cas_ref.cu || exit 1
	ref=$OUT/cas_ref.cubin
else
	echo "cas: no nvcc ($NVCC): oxidec's rows only"
fi
$CC -O2 -std=c11 -Wall -Wextra -I"$CUDA_HOME/include" -o "$OUT/cas" bench/cas/cas.c \
	src/runtime/oxrt.c src/runtime/oxcuda.c src/runtime/oxemu*.c -ldl -lm -lpthread || exit 1
status=0
: >"$OUT/cas-table.md"
for m in ptx cubin; do
	mod=build/examples/cas_contention.$m
	[ -f "$mod" ] || continue
	hist=build/examples/histogram.$m
	[ -f "$hist" ] || hist=
	echo "== oxidec's $mod" | tee -a "$OUT/cas-table.md"
	# shellcheck disable=SC2086 # hist: one path or none
	timeout "$CAS_TIMEOUT" "$OUT/cas" "$mod" "$ref" $hist | tee -a "$OUT/cas-table.md"
	# the pipeline's status is tee's: ask the table's last line
	if ! tail -n 1 "$OUT/cas-table.md" | grep -q "every count right"; then
		echo "FAIL cas on $mod (exit or timeout after ${CAS_TIMEOUT} s)"
		status=1
	fi
done
if [ $status -eq 0 ]; then
	echo "cas: every count right"
else
	echo "cas: FAIL"
fi
exit $status
