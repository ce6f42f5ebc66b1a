#!/bin/sh
# tests/emu/run.sh: runs oxidec's output without a GPU. For every
# examples/NAME/host.c it builds the unchanged host program with the oxrt
# runtime (src/runtime/*.c, linked with -rdynamic so the kernel module can
# call the emulator) into build/emu/NAME and runs it on build/emu/NAME.so,
# the example compiled by `oxidec --target=host` (made by `make emu`).
# Then tests/gpu/prims/host.c on build/emu/gpu_prims.so against itself
# (every tensor-core and async-copy primitive, checked against CPU
# references), and the emulator's own tests: tests/emu/kernels.c
# (hand-written kernels) into build/emu/test_kernels.so, run by
# tests/emu/test_emu.c; examples/multi_device again over OX_EMU_DEVICES=3;
# and typed launches through `oxidec --emit=header`:
# tests/golden/header_abi's kernels (host object and header made here with
# $OXIDEC) run by tests/emu/test_header.c.
# Prints PASS/FAIL lines and "N passed, M failed"; exits 1 on any failure.
# Environment: B (the build directory, build), CC (cc), CFLAGS (-O2; e.g.
# "-g -fsanitize=address,undefined"),
# RUNNER (a command to run the programs under, e.g. "valgrind -q
# --error-exitcode=99").

cd "$(dirname "$0")/../.." || exit 1
CC=${CC:-cc}
CFLAGS=${CFLAGS:--O2}
RUNNER=${RUNNER:-}
OXIDEC=${OXIDEC:-${B:-build}/bin/oxidec}
OUT=${B:-build}/emu
case $OUT in /*) ;; *) OUT=./$OUT ;; esac    # run programs by path
pass=0
fail=0

ok() { echo "PASS $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
show() { sed 's/^/    /' "$1"; }

mkdir -p "$OUT" || exit 1
if command -v timeout >/dev/null 2>&1; then
	limit="timeout 300"
else
	limit=""
fi

# build OUTPUT SOURCE... : a host program with the runtime; CFLAGS splits
# on purpose.
# shellcheck disable=SC2086
build() {
	exe=$1
	shift
	$CC $CFLAGS -std=c11 -ffp-contract=off -Wall -Wextra -rdynamic -iquote "${B:-build}/examples" -iquote src/runtime \
	    -o "$exe" "$@" src/runtime/*.c -ldl -lm >"$exe.build.log" 2>&1
}

for host in examples/*/host.c; do
	[ -f "$host" ] || continue
	name=$(basename "$(dirname "$host")")
	if [ ! -f "$OUT/$name.so" ]; then
		bad "$name (emulated): $OUT/$name.so is missing: run 'make emu'"
		continue
	fi
	if ! build "$OUT/$name" "$host"; then
		bad "$name (emulated): building the host program failed"
		show "$OUT/$name.build.log"
		continue
	fi
	# shellcheck disable=SC2086
	if $limit $RUNNER "$OUT/$name" "$OUT/$name.so" >"$OUT/$name.log" 2>&1
	then
		ok "$name (emulated)"
	else
		bad "$name (emulated): exit status $?"
	fi
	show "$OUT/$name.log"
done

# Several emulated devices: multi_device over 3 (its shares, the peer
# copies, the refused launch of another device's kernel), and a count
# OX_EMU_DEVICES cannot give is an error that says so.
if [ -x "$OUT/multi_device" ]; then
	# shellcheck disable=SC2086
	if OX_EMU_DEVICES=3 $limit $RUNNER "$OUT/multi_device" "$OUT/multi_device.so" >"$OUT/multi_device3.log" 2>&1 &&
	   grep -q 'over 3 devices' "$OUT/multi_device3.log" && grep -q '^PASS refused' "$OUT/multi_device3.log"; then
		ok "multi_device (emulated, OX_EMU_DEVICES=3)"
	else
		bad "multi_device (emulated, OX_EMU_DEVICES=3)"
	fi
	show "$OUT/multi_device3.log"
	# shellcheck disable=SC2086
	OX_EMU_DEVICES=65 $RUNNER "$OUT/multi_device" "$OUT/multi_device.so" >"$OUT/multi_device65.log" 2>&1
	if [ $? -ne 0 ] && grep -q 'OX_EMU_DEVICES=65: the number of emulated devices, 1 to 64' "$OUT/multi_device65.log"; then
		ok "OX_EMU_DEVICES=65 is refused, saying the range"
	else
		bad "OX_EMU_DEVICES=65 is refused, saying the range"
		show "$OUT/multi_device65.log"
	fi
fi

# A host program linked without -rdynamic: the module cannot reach the
# emulator, and the error says what to do.
if [ -f "$OUT/vecadd.so" ]; then
	# shellcheck disable=SC2086
	$CC $CFLAGS -std=c11 -iquote "${B:-build}/examples" -iquote src/runtime -o "$OUT/no_rdynamic" \
	    examples/vecadd/host.c src/runtime/*.c -ldl -lm &&
	"$OUT/no_rdynamic" "$OUT/vecadd.so" >"$OUT/no_rdynamic.log" 2>&1
	if [ $? -ne 0 ] && grep -q -- '-rdynamic' "$OUT/no_rdynamic.log"; then
		ok "a host program without -rdynamic is told to use it"
	else
		bad "a host program without -rdynamic is told to use it"
		show "$OUT/no_rdynamic.log"
	fi
fi

# The TMA rules measured on the H200 (tests/gpu/tma-rules): the emulated
# tma_copy must succeed and fail where the GPU does.
if [ ! -f "$OUT/tma_copy.so" ]; then
	bad "tma-rules (emulated): $OUT/tma_copy.so is missing: run 'make emu'"
else
	MODULES="$OUT/tma_copy.so" sh tests/gpu/tma-rules/run.sh >"$OUT/tma_rules.log" 2>&1
	rc=$?
	grep -E '^(PASS|FAIL) ' "$OUT/tma_rules.log" | sed -e 's/^PASS /PASS tma-rules (emulated): /' \
	    -e 's/^FAIL /FAIL tma-rules (emulated): /'
	pass=$((pass + $(grep -c '^PASS ' "$OUT/tma_rules.log")))
	fail=$((fail + $(grep -c '^FAIL ' "$OUT/tma_rules.log")))
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$OUT/tma_rules.log"; then
		bad "tma-rules (emulated): exit status $rc"
		show "$OUT/tma_rules.log"
	fi
fi

# tests/gpu/prims (the tensor-core and async-copy primitives) on the
# emulator against itself: each result checked against the CPU
# references of its host program (made by `make emu`: gpu_prims.so).
if [ ! -f "$OUT/gpu_prims.so" ]; then
	bad "prims (emulated): $OUT/gpu_prims.so is missing: run 'make emu'"
elif ! build "$OUT/gpu_prims" tests/gpu/prims/host.c; then
	bad "prims (emulated): building tests/gpu/prims/host.c failed"
	show "$OUT/gpu_prims.build.log"
else
	# shellcheck disable=SC2086
	$limit $RUNNER "$OUT/gpu_prims" "$OUT/gpu_prims.so" "$OUT/gpu_prims.so" >"$OUT/gpu_prims.log" 2>&1
	rc=$?
	grep -E '^(PASS|FAIL) ' "$OUT/gpu_prims.log" | sed -e 's/^PASS /PASS prims (emulated): /' -e 's/^FAIL /FAIL prims (emulated): /'
	p=$(grep -c '^PASS ' "$OUT/gpu_prims.log")
	f=$(grep -c '^FAIL ' "$OUT/gpu_prims.log")
	pass=$((pass + p))
	fail=$((fail + f))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		bad "prims (emulated): exit status $rc"
		show "$OUT/gpu_prims.log"
	fi
fi

# The emulator's own tests: barriers, indices, traps, limits.
# shellcheck disable=SC2086
if ! $CC $CFLAGS -std=c11 -Wall -Wextra -shared -fPIC \
     -o "$OUT/test_kernels.so" tests/emu/kernels.c >"$OUT/test_kernels.log" 2>&1; then
	bad "emulator tests: building tests/emu/kernels.c failed"
	show "$OUT/test_kernels.log"
elif ! build "$OUT/test_emu" tests/emu/test_emu.c; then
	bad "emulator tests: building tests/emu/test_emu.c failed"
	show "$OUT/test_emu.build.log"
else
	# shellcheck disable=SC2086
	$limit $RUNNER "$OUT/test_emu" "$OUT/test_kernels.so" >"$OUT/test_emu.log" 2>&1
	rc=$?
	grep -E '^(PASS|FAIL) ' "$OUT/test_emu.log" | sed -e 's/^PASS /PASS emulator: /' -e 's/^FAIL /FAIL emulator: /'
	p=$(grep -c '^PASS ' "$OUT/test_emu.log")
	f=$(grep -c '^FAIL ' "$OUT/test_emu.log")
	pass=$((pass + p))
	fail=$((fail + f))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		bad "emulator tests: exit status $rc"
		show "$OUT/test_emu.log"
	fi
fi

# Typed launches from C: the header of tests/golden/header_abi and its
# kernels for the emulator.
ha=tests/golden/header_abi.mir.json
if ! "$OXIDEC" --target=host "$ha" -o "$OUT/header_abi.o" >"$OUT/header_abi.log" 2>&1 ||
   ! $CC -shared "$OUT/header_abi.o" -o "$OUT/header_abi.so" -lm >>"$OUT/header_abi.log" 2>&1 ||
   ! "$OXIDEC" --emit=header "$ha" -o "$OUT/header_abi.h" >>"$OUT/header_abi.log" 2>&1; then
	bad "header: building header_abi.so and header_abi.h failed"
	show "$OUT/header_abi.log"
elif ! build "$OUT/test_header" -I"$OUT" -Isrc/runtime tests/emu/test_header.c; then
	bad "header: building tests/emu/test_header.c failed"
	show "$OUT/test_header.build.log"
else
	# shellcheck disable=SC2086
	$limit $RUNNER "$OUT/test_header" "$OUT/header_abi.so" >"$OUT/test_header.log" 2>&1
	rc=$?
	grep -E '^(PASS|FAIL) ' "$OUT/test_header.log"
	p=$(grep -c '^PASS ' "$OUT/test_header.log")
	f=$(grep -c '^FAIL ' "$OUT/test_header.log")
	pass=$((pass + p))
	fail=$((fail + f))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		bad "header: exit status $rc"
		show "$OUT/test_header.log"
	fi
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
