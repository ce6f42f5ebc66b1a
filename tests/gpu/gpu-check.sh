#!/bin/sh
# tests/gpu/gpu-check.sh: runs every example's C host program on this
# machine's GPU against the prebuilt kernels in build/examples/. Needs only
# a C compiler, the CUDA driver (libcuda.so.1) and build/ from a machine
# with LLVM (the kernels and the headers of typed launchers, NAME.h, which
# host.c includes). For examples/NAME/host.c it builds build/gpu/NAME and runs it
# with build/examples/NAME.ptx, then NAME.cubin, NAME.O0.ptx and
# NAME.O0.cubin (oxidec -O0) when those exist.
# Prints PASS/FAIL lines and "N passed, M failed"; exits 1 on any failure.
# Environment: CC (default cc), CFLAGS (default -O2).

cd "$(dirname "$0")/../.." || exit 1
CC=${CC:-cc}
CFLAGS=${CFLAGS:--O2}
OUT=build/gpu
pass=0
fail=0

ok() { echo "PASS $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

# Indented output of a run, so it reads under its PASS/FAIL line.
show() { sed 's/^/    /' "$1"; }

if command -v nvidia-smi >/dev/null 2>&1; then
	nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
fi
if ! command -v "$CC" >/dev/null 2>&1; then
	echo "gpu-check: no C compiler ($CC); set CC" >&2
	exit 1
fi
if [ ! -d build/examples ]; then
	echo "gpu-check: build/examples/ is missing: run 'make examples' on a" \
	     "machine with LLVM first, then copy build/ here" >&2
	exit 1
fi
mkdir -p "$OUT" || exit 1
if command -v timeout >/dev/null 2>&1; then
	limit="timeout 300"
else
	limit=""
fi

# build NAME: compile the host program; 0 on success. CFLAGS splits on
# purpose.
# shellcheck disable=SC2086
build() {
	$CC $CFLAGS -std=c11 -ffp-contract=off -Wall -Wextra -iquote build/examples -iquote src/runtime \
	    -o "$OUT/$1" "examples/$1/host.c" src/runtime/oxrt.c src/runtime/oxcuda.c src/runtime/oxemu*.c -ldl -lm \
	    >"$OUT/$1.build.log" 2>&1
}

# run NAME KIND: run the host program on build/examples/NAME.KIND.
run() {
	log="$OUT/$1.$2.log"
	if $limit "./$OUT/$1" "build/examples/$1.$2" >"$log" 2>&1; then
		ok "$1 ($2)"
	else
		bad "$1 ($2): exit status $?"
	fi
	show "$log"
}

for host in examples/*/host.c; do
	[ -f "$host" ] || continue
	name=$(basename "$(dirname "$host")")
	if [ ! -f "build/examples/$name.ptx" ]; then
		bad "$name (ptx): build/examples/$name.ptx is missing: run" \
		    "'make examples' on a machine with LLVM first"
		continue
	fi
	if ! build "$name"; then
		bad "$name (build): $CC failed"
		show "$OUT/$name.build.log"
		continue
	fi
	run "$name" ptx
	for kind in cubin O0.ptx O0.cubin; do
		if [ -f "build/examples/$name.$kind" ]; then
			run "$name" "$kind"
		fi
	done
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
