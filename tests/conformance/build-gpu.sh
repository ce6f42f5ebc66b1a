#!/bin/sh
# tests/conformance/build-gpu.sh: builds what tests/conformance/run-gpu.sh
# needs on a GPU machine that has no Rust or LLVM, into build/conformance/:
#
#   GROUP.expected   the CPU reference's lines
#   GROUP.ptx        every kernel of the group that oxidec compiles (ptxas-checked)
#   GROUP.kernels    their names
#   failures.tsv     why the others did not compile
#
# It is run-host.sh in compile mode (same output, same PASS/FAIL lines for
# compilation) plus the group modules. Carry build/conformance/ (about
# 1 MB; the bulky work files are in build/conformance-work/) and the tree
# to the GPU machine, then run `sh tests/conformance/run-gpu.sh`.
# Arguments: GROUP... (default all). Environment: as run-host.sh.
cd "$(dirname "$0")/../.." || exit 1
. tests/conformance/lib.sh
sh tests/conformance/run-host.sh --mode=compile --gpu-artifacts "$@"
status=$?
n=$(cat "$B"/*.kernels 2>/dev/null | grep -c .)
echo "build-gpu: $(ls "$B"/*.ptx 2>/dev/null | wc -l) group modules in $B, $n kernels in them"
exit $status
