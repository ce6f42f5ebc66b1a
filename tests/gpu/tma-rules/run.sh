#!/bin/sh
# tests/gpu/tma-rules/run.sh (part tma-rules of make gpu-all): the two
# rules of the H200's TMA that the emulator enforces (oxemu.c's tma_box and
# tma_store refuse what breaks them), measured again on this GPU, on
# oxidec's examples/tma_copy cubin and on twin.cu, the same kernels written
# in CUDA C and compiled by nvcc:
#   - a box whose x times the element size is not a multiple of 16 bytes
#     faults (illegal instruction), loads and stores, x < 0 too;
#   - a store whose box starts below 0 in any dimension faults.
# Each copy runs alone (examples/tma_copy/host MODULE CASE OP X Y, CASE as
# in host.c's table); a line passes when the copy's outcome (correct
# result, or a failed launch) is the one expected, for both modules.
# Needs build/examples/tma_copy.cubin (make gpu-pack) and nvcc. With
# MODULES set (e.g. build/emu/tma_copy.so, as tests/emu/run.sh does), those
# modules alone: the emulator must agree with the table.
cd "$(dirname "$0")/../../.." || exit 1
O=${B:-build}/tma-rules
mkdir -p "$O"
pass=0 fail=0
if [ -z "${MODULES:-}" ]; then
	nvcc -arch=sm_90a -cubin -o "$O/twin.cubin" tests/gpu/tma-rules/twin.cu || { echo "0 passed, 1 failed"; exit 1; }
	MODULES="build/examples/tma_copy.cubin $O/twin.cubin"
fi
cc -O1 -std=c11 -rdynamic -o "$O/host" examples/tma_copy/host.c src/runtime/*.c -ldl -lm ||
	{ echo "0 passed, 1 failed"; exit 1; }
# case op x y  outcome (ok | fault)
while read -r c op x y want; do
	for m in $MODULES; do
		if timeout 60 "$O/host" "$m" "$c" "$op" "$x" "$y" >"$O/one.log" 2>&1; then got=ok; else got=fault; fi
		what="case $c $op at ($x, $y): $want ($(basename "$m"))"
		if [ "$got" = "$want" ]; then
			echo "PASS $what"; pass=$((pass + 1))
		else
			echo "FAIL $what, got $got"; sed 's/^/    /' "$O/one.log"; fail=$((fail + 1))
		fi
	done
done <<'CASES'
3 load -8 2 ok
3 load -3 2 fault
3 load 0 2 ok
3 load 4 2 fault
3 load 8 2 ok
3 load 60 2 fault
3 load 72 2 ok
3 store 8 2 ok
3 store 60 2 fault
3 store 72 2 ok
2 load 56 30 ok
2 load 60 30 fault
2 store 56 30 ok
2 store 60 30 fault
6 load 16 2 ok
6 load 20 2 fault
6 load -16 2 ok
6 store 16 2 fault
4 load 36 -1 ok
4 load 35 -1 fault
0 load 980 0 ok
0 load 981 0 fault
1 store -8 0 fault
1 store 8 0 ok
CASES
echo "tma-rules: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
