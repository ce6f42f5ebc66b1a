#!/bin/sh
# The whole test suite without a GPU: unit tests, golden tests, exporter
# tests, the runtime's ABI header (tests/abi), its CUDA driver backend
# against a stand-in driver (tests/driver), the examples run by host
# emulation, a project built from `make install` (tests/install), the
# Python wrapper's argument packing (tests/python, no GPU), and kernels
# over real no_std crates from Debian (tests/crates).
# Each suite ends with "N passed, M failed"; the totals come last.
# B (make's build directory, default build) picks the build every suite
# tests: `make sanitize` runs this with B=build-asan.
set -u
cd "$(dirname "$0")/.."
B=${B:-build}
ROOT=$(pwd)
export B
export OXIDEC="${OXIDEC:-$ROOT/$B/bin/oxidec}" MIR_EXPORT="${MIR_EXPORT:-$ROOT/$B/bin/mir-export}"
export CONF_BUILD="${CONF_BUILD:-$B/conformance}" CONF_WORK="${CONF_WORK:-$B/conformance-work}"
export FUZZ_DIR="${FUZZ_DIR:-$B/fuzz}"
total_pass=0 total_fail=0 suites_failed=0

run_suite() {   # name command...
	name=$1; shift
	echo "==== $name"
	log=$(mktemp)
	{ "$@" 2>&1; echo $? >"$log.rc"; } | tee "$log"
	rc=$(cat "$log.rc")
	line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	p=$(echo "$line" | sed -n 's/.*\b\([0-9][0-9]*\) passed.*/\1/p')
	f=$(echo "$line" | sed -n 's/.* \([0-9][0-9]*\) failed.*/\1/p')
	if [ -z "$line" ]; then p=0; f=1; echo "$name: no summary line (crashed?)"; fi
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "$name: exit code $rc"; fi
	total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
	rm -f "$log" "$log.rc"
}

for t in "$B"/tests/test_*; do
	[ -x "$t" ] && run_suite "unit: $(basename "$t")" "$t"
done
run_suite "golden" sh tests/golden/run.sh
run_suite "python" sh tests/python/run.sh
run_suite "robustness" sh tests/golden/robust.sh
run_suite "errors" sh tests/errors/run.sh
run_suite "intrinsics" sh tests/intrinsics/run.sh
run_suite "exporter" sh tests/exporter/run.sh
run_suite "runtime ABI" sh tests/abi/run.sh
run_suite "driver backend" sh tests/driver/run.sh
run_suite "emulation" sh tests/emu/run.sh
run_suite "install" sh tests/install/run.sh
run_suite "conformance" sh tests/conformance/run-host.sh
run_suite "crates" sh tests/crates/run.sh
run_suite "fuzz" sh tests/fuzz/run.sh --gaps-ok
run_suite "fuzz-json" sh tests/fuzz-json/run.sh
echo
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
