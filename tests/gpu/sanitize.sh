#!/bin/sh
# tests/gpu/sanitize.sh: every example's host program under NVIDIA's
# compute-sanitizer, on the GPU, from build/examples/NAME.ptx: memcheck
# (out-of-bounds and misaligned accesses, leaks), racecheck (shared-memory
# hazards) and synccheck (barriers in divergent code). Run after
# tests/gpu/gpu-check.sh built the host programs into build/gpu/.
#
# The deliberate failures of the examples (vecadd's bounds-check trap,
# launch_bounds' refused 512-thread launch, device_assert's failed assert,
# cluster_reduce's refused cluster shapes, generic_axpy's lookup of the
# generic function's own name, which has no entry)
# are left out with OX_SKIP_TRAP_TEST=1: the sanitizer counts any failed
# launch as an error.
#
# Prints "PASS NAME (tool): ..." / "FAIL ..." and "N passed, M failed".
# Environment: SANITIZER (default: compute-sanitizer on PATH or in
# /usr/local/cuda/bin), TOOLS (default "memcheck racecheck synccheck").
cd "$(dirname "$0")/../.." || exit 1
SAN=${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
TOOLS=${TOOLS:-memcheck racecheck synccheck}
OUT=build/gpu
pass=0 fail=0
[ -x "$SAN" ] || { echo "sanitize: no compute-sanitizer ($SAN)"; echo "0 passed, 1 failed"; exit 1; }
for host in examples/*/host.c; do
	name=$(basename "$(dirname "$host")")
	if [ ! -x "$OUT/$name" ] || [ ! -f "build/examples/$name.ptx" ]; then
		echo "FAIL $name: $OUT/$name or build/examples/$name.ptx is missing (run tests/gpu/gpu-check.sh first)"
		fail=$((fail + 1))
		continue
	fi
	for tool in $TOOLS; do
		log="$OUT/$name.$tool.log"
		extra=""
		[ "$tool" = memcheck ] && extra="--leak-check full"
		# shellcheck disable=SC2086 # extra splits on purpose
		OX_SKIP_TRAP_TEST=1 timeout 600 "$SAN" --tool "$tool" $extra --error-exitcode 99 \
			"./$OUT/$name" "build/examples/$name.ptx" >"$log" 2>&1
		rc=$?
		summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -n 1 | sed 's/^========= //')
		if [ $rc -eq 0 ]; then
			echo "PASS $name ($tool): ${summary:-no summary}"
			pass=$((pass + 1))
		else
			echo "FAIL $name ($tool): exit $rc: ${summary:-no summary}"
			grep -E "^=========" "$log" | head -n 12 | sed 's/^/    /'
			fail=$((fail + 1))
		fi
	done
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
