#!/bin/sh
# tests/gpu/lineinfo/cudagdb.sh (GPU machine; make gpu-all's part cudagdb):
# cuda-gdb on oob_store built with -O0 -g (full DWARF, unoptimized like
# nvcc -G, so that arguments are not optimized out: what `make
# gpu-lineinfo` writes as build/gpu-lineinfo/lineinfo.g.cubin): a pending
# breakpoint at the Rust line of the store (src/lib.rs, the line marked
# OOB_STORE_LINE) must stop in the kernel there, and `info args` must name
# the kernel's Rust parameters (out, skew).
# Prints PASS/FAIL lines and "N passed, M failed".
cd "$(dirname "$0")/../../.." || exit 1
CC=${CC:-cc}
GDB=${CUDA_GDB:-$(command -v cuda-gdb || echo /usr/local/cuda/bin/cuda-gdb)}
OUT=build/gpu-lineinfo
line=$(grep -n OOB_STORE_LINE tests/gpu/lineinfo/src/lib.rs | cut -d: -f1)
pass=0 fail=0
ok() { echo "PASS $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
if [ ! -x "$GDB" ] || [ ! -f "$OUT/lineinfo.g.cubin" ]; then
	bad "cudagdb: no cuda-gdb ($GDB) or no $OUT/lineinfo.g.cubin (make gpu-lineinfo)"
	echo "$pass passed, $fail failed"
	exit 1
fi
$CC -O0 -g -std=c11 -o $OUT/host-g tests/gpu/lineinfo/host.c src/runtime/*.c -ldl -lm || exit 1
log=$OUT/cudagdb.log
timeout 300 "$GDB" -q -batch -ex "set breakpoint pending on" -ex "set cuda break_on_launch none" \
	-ex "break lib.rs:$line" -ex run -ex bt -ex "info args" -ex kill \
	--args $OUT/host-g $OUT/lineinfo.g.cubin >"$log" 2>&1
if grep -Eq "(Breakpoint|Thread) .*oob_store.* at (.*/)?lib\.rs:$line" "$log" ||
   grep -Eq "^$line[[:space:]].*OOB_STORE_LINE" "$log" && grep -q "oob_store" "$log"; then
	ok "cuda-gdb stops in oob_store at lib.rs:$line"
else
	bad "cuda-gdb did not stop at lib.rs:$line"
	tail -n 25 "$log" | sed 's/^/    /'
fi
if grep -Eq "^(out|skew) = " "$log" && grep -q "^skew = 16" "$log"; then
	ok "cuda-gdb's info args names out and skew (skew = 16)"
else
	bad "cuda-gdb's info args does not name out and skew"
	grep -A4 "info args" "$log" | sed 's/^/    /'
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
