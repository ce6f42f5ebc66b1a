#!/bin/sh
# tests/python/run.sh: the Python wrapper (examples/python/oxide_cupy.py)
# without a GPU, in three parts:
#   1. test_marshal.py: arguments packed for the golden signatures
#      (tests/golden/*.sig.json) through a stand-in for cupy.RawModule,
#      checked byte for byte, and the refusals;
#   2. every $B/examples/NAME.sig.json loads into the wrapper;
#   3. examples/python/run_examples.py itself (CuPy part, sizes / 64) on
#      oxrt's CPU emulator (emu_cupy.py: a stand-in for the CuPy calls it
#      makes), so the real kernels run through the wrapper and are compared
#      with NumPy: needs $B/examples/NAME.sig.json and $B/emu/NAME.so
#      (make emu), and builds src/runtime into $B/python/liboxrt.so.
# Ends with "python: N passed, M failed" (all parts). Needs a python3
# with numpy (make deps installs python3-numpy): PYTHON, else the first of
# python3 and /usr/bin/python3 that imports numpy; none is a failure.
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
CC=${CC:-cc}
py=""
for p in ${PYTHON:-} python3 /usr/bin/python3; do
	if "$p" -c 'import numpy' >/dev/null 2>&1; then py=$p; break; fi
done
if [ -z "$py" ]; then
	echo "FAIL no python3 with numpy (make deps installs python3-numpy; or set PYTHON)"
	echo "python: 0 passed, 1 failed"
	exit 1
fi
pass=0 fail=0
count() {   # log: add its last "N passed, M failed" line; none is a failure
	line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
	if [ -z "$line" ]; then fail=$((fail + 1)); return; fi
	pass=$((pass + $(echo "$line" | sed 's/.*: \([0-9]*\) passed.*/\1/')))
	fail=$((fail + $(echo "$line" | sed 's/.* \([0-9]*\) failed.*/\1/')))
}
log=$(mktemp)
trap 'rm -f "$log"' EXIT

"$py" tests/python/test_marshal.py >"$log" 2>&1 || [ -s "$log" ] || echo "FAIL test_marshal.py" >"$log"
cat "$log"
count "$log"

# every example's signature loads into the wrapper (each kind of parameter
# and type the examples have: structs, tensor maps, atomics, pointers)
if ls "$B"/examples/*.sig.json >/dev/null 2>&1 &&
   "$py" -c 'import glob, sys; sys.path.insert(0, "examples/python"); import oxide_cupy
n = [len(oxide_cupy.load(f[:-9] + ".cubin", f, raw_module=object).kernels) for f in sorted(glob.glob(sys.argv[1] + "/*.sig.json"))]
print(f"{sum(n)} kernels of {len(n)} modules")' "$B/examples" >"$log" 2>&1; then
	echo "PASS every example's signature loads: $(cat "$log")"
	pass=$((pass + 1))
else
	echo "FAIL every example's signature loads (make emu writes them)"
	sed 's/^/    /' "$log" | tail -20
	fail=$((fail + 1))
fi

mkdir -p "$B/python"
missing=""
for f in vecadd saxpy generic_axpy reduce_shared grid_sync scale2d histogram; do
	[ -f "$B/examples/$f.sig.json" ] && [ -f "$B/emu/$f.so" ] || missing="$missing $f"
done
if [ -n "$missing" ]; then
	echo "FAIL emulated run_examples.py: no $B/examples/NAME.sig.json or $B/emu/NAME.so for$missing (make emu)"
	fail=$((fail + 1))
elif ! $CC -shared -fPIC -O1 -o "$B/python/liboxrt.so" src/runtime/*.c -ldl -lm -lpthread >"$log" 2>&1; then
	echo "FAIL emulated run_examples.py: building $B/python/liboxrt.so"
	sed 's/^/    /' "$log" | head -20
	fail=$((fail + 1))
elif ! printf '#include "oxrt.h"\n#include <stdio.h>\nint main(void) { printf("%%zu %%zu\\n", sizeof(OxModule), sizeof(OxFunc)); return 0; }\n' |
	$CC -x c -iquote src/runtime -o "$B/python/sizes" - >"$log" 2>&1; then
	echo "FAIL emulated run_examples.py: building the layout probe"
	sed 's/^/    /' "$log" | head -20
	fail=$((fail + 1))
else
	OXRT_SIZES=$("$B/python/sizes") "$py" tests/python/emu_cupy.py "$B/python/liboxrt.so" "$B/emu" -- examples/python/run_examples.py \
		--dir "$B/examples" --no-torch --scale 64 >"$log" 2>&1
	rc=$?
	sed 's/^\(PASS\|FAIL\) \(.*\)$/\1 emulated: \2/' "$log"
	count "$log"
	[ $rc -ne 0 ] && ! grep -q ' [1-9][0-9]* failed' "$log" && fail=$((fail + 1))
fi
echo "python: $pass passed, $fail failed"
[ $fail -eq 0 ]
