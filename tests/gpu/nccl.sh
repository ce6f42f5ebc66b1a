#!/bin/sh
# tests/gpu/nccl.sh (GPU machine; make gpu-all's part nccl): the job of
# examples/multi_device split over every GPU of the machine and combined
# with NCCL's all-reduce (examples/multi_device/nccl.c), on the module's
# cubin and PTX. Needs nccl.h and libnccl: NCCL_HOME if set, else the
# system's (/usr/include, /usr/lib/x86_64-linux-gnu: the device machines'
# package), else the CUDA toolkit's (CUDA_HOME, default /usr/local/cuda).
# With one GPU it is one rank; the 2-GPU device kind runs it over two.
# Prints PASS/FAIL lines and "nccl: N passed, M failed".
cd "$(dirname "$0")/../.." || exit 1
CC=${CC:-cc}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
OUT=build/gpu-nccl
mkdir -p "$OUT"
pass=0 fail=0
ok() { echo "PASS $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
inc= lib=
for h in ${NCCL_HOME:+"$NCCL_HOME"} /usr "$CUDA_HOME"; do
	[ -f "$h/include/nccl.h" ] || continue
	inc=$h/include
	for l in "$h/lib/x86_64-linux-gnu" "$h/lib64" "$h/lib"; do
		[ -e "$l/libnccl.so" ] && { lib=$l; break; }
	done
	break
done
if [ -z "$inc" ] || [ -z "$lib" ] || [ ! -f build/examples/multi_device.h ]; then
	bad "nccl: no nccl.h and libnccl.so (NCCL_HOME, /usr, $CUDA_HOME) or no build/examples/multi_device.h (make examples)"
elif ! $CC -std=c11 -Wall -Wextra -Werror -iquote build/examples -iquote src/runtime -I"$inc" -I"$CUDA_HOME/include" \
	-o "$OUT/nccl" examples/multi_device/nccl.c src/runtime/oxrt.c src/runtime/oxcuda.c src/runtime/oxemu*.c \
	-L"$lib" -Wl,-rpath,"$lib" -lnccl -ldl -lm >"$OUT/build.log" 2>&1; then
	bad "nccl (build): $CC failed"
	sed 's/^/    /' "$OUT/build.log" | head -20
else
	ok "nccl (build)"
	for kind in cubin ptx; do
		if "./$OUT/nccl" "build/examples/multi_device.$kind" >"$OUT/$kind.log" 2>&1; then
			ok "nccl ($kind): $(grep -c '^PASS device' "$OUT/$kind.log") device(s) agree"
		else
			bad "nccl ($kind): exit status $?"
		fi
		sed 's/^/    /' "$OUT/$kind.log"
	done
fi
echo "nccl: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
