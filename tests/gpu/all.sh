#!/bin/sh
# tests/gpu/all.sh: the whole GPU check in one run, on a GPU machine that
# has this tree and the prebuilt build/ directories (no Rust or LLVM
# needed there):
#   1. tests/gpu/gpu-check.sh       every example from .ptx and .cubin
#   2. tests/gpu/sanitize.sh        compute-sanitizer memcheck, racecheck,
#                                   synccheck on every example
#   3. tests/conformance/run-gpu.sh the conformance suite (build/conformance,
#                                   from tests/conformance/build-gpu.sh)
#   4. the same runner on generated kernels, when build/fuzzgpu holds
#      them (tests/fuzz/run.sh --gpu-artifacts, copied there)
#   5. the ptxas hazard probe, when build/gpu-hazards holds it (make
#      gpu-hazards): fails on a hazard not in its known.txt
# Each part's log is in build/gpu-all/; the summary lines come last.
# Exit status 1 when any part failed.
cd "$(dirname "$0")/../.." || exit 1
L=build/gpu-all
mkdir -p "$L"
status=0
part() {   # name command...
	name=$1; shift
	echo "==== $name"
	"$@" >"$L/$name.log" 2>&1 || status=1
	grep -E "^(FAIL|PASS .*(trap|assert|refused))" "$L/$name.log" | head -n 40
	tail -n 1 "$L/$name.log"
	echo "$name: $(tail -n 1 "$L/$name.log")" >>"$L/summary"
}
: >"$L/summary"
part examples sh tests/gpu/gpu-check.sh
part sanitizer sh tests/gpu/sanitize.sh
if ls build/conformance/*.expected >/dev/null 2>&1; then
	part conformance sh tests/conformance/run-gpu.sh
fi
if ls build/fuzzgpu/*.expected >/dev/null 2>&1; then
	groups=$(cd build/fuzzgpu && ls ./*.kernels | sed 's#^\./##; s#\.kernels$##' | tr '\n' ' ')
	# shellcheck disable=SC2086 # a list of groups
	part fuzz env CONF_BUILD=build/fuzzgpu sh tests/conformance/run-gpu.sh $groups
fi
if [ -f build/gpu-hazards/host.c ]; then
	part hazards sh build/gpu-hazards/run.sh
fi
echo
echo "==== summary"
cat "$L/summary"
exit $status
