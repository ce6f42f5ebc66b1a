#!/bin/sh
# tests/gpu/lineinfo/run.sh (GPU machine): compute-sanitizer memcheck on
# oob_store (src/lib.rs: a raw-pointer store past the end of its buffer),
# from the PTX (JIT) and the cubin that `make gpu-lineinfo` built into
# build/gpu-lineinfo with oxidec's default line information.  Passes when
# memcheck reports the invalid write at lib.rs:LINE, LINE the line marked
# OOB_STORE_LINE (compute-sanitizer 2025 prints the file's last component:
# "at oob_store+0xd0 in lib.rs:13"), and the PTX's .file names the crate's
# file, src/lib.rs (relative to the crate: docs/DESIGN.md, line information).
# Prints PASS/FAIL lines and "N passed, M failed".
cd "$(dirname "$0")/../../.." || exit 1
CC=${CC:-cc}
SAN=${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
OUT=build/gpu-lineinfo
line=$(grep -n OOB_STORE_LINE tests/gpu/lineinfo/src/lib.rs | cut -d: -f1)
pass=0 fail=0
if grep -Eq '^[[:space:]]*\.file[[:space:]]+[0-9]+ "src/lib\.rs"' $OUT/lineinfo.ptx; then
	echo "PASS $OUT/lineinfo.ptx: .file names src/lib.rs"
	pass=$((pass + 1))
else
	echo "FAIL $OUT/lineinfo.ptx: no .file naming src/lib.rs"
	fail=$((fail + 1))
fi
$CC -O2 -std=c11 -o $OUT/host tests/gpu/lineinfo/host.c src/runtime/*.c -ldl -lm || exit 1
for mod in $OUT/lineinfo.ptx $OUT/lineinfo.cubin; do
	log=$mod.memcheck.log
	"$SAN" --tool memcheck --error-exitcode 99 $OUT/host "$mod" >"$log" 2>&1
	rc=$?
	if [ $rc -eq 99 ] && grep -q "Invalid __global__ write" "$log" &&
		grep -Eq "at oob_store\+0x[0-9a-f]+ in (.*/)?lib\.rs:$line\$" "$log"; then
		echo "PASS $mod: memcheck names lib.rs:$line"
		pass=$((pass + 1))
	else
		echo "FAIL $mod: exit $rc, expected 99 and an invalid write at lib.rs:$line"
		grep "^=========" "$log" | head -n 12 | sed 's/^/    /'
		fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
