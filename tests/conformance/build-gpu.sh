#!/bin/sh
# tests/conformance/build-gpu.sh: builds what tests/conformance/run-gpu.sh
# needs on a GPU machine that has no Rust or LLVM, into build/conformance/:
#
#   GROUP.expected   the CPU reference's lines
#   GROUP.kernels    the kernels of the group that oxidec compiles
#                    (ptxas-checked)
#   GROUP.O3.ptx GROUP.O3.cubin GROUP.O0.ptx GROUP.O0.cubin
#                    their module for each GPU variant (lib.sh
#                    GPU_VARIANTS; the cubin made here by oxidec, through
#                    nvJitLink); MODULE.failed lists a kernel that does not
#                    compile at one variant
#   failures.tsv     why the others did not compile
#
# It is run-host.sh in compile mode (same output, same PASS/FAIL lines for
# compilation) plus the group modules, then packs them into
# build/gpu-pack/conformance.tar.xz (a few MB). Carry that file (or
# build/conformance/) and the tree to the GPU machine, then run
# `sh tests/conformance/run-gpu.sh` there (tests/gpu/all.sh unpacks it).
# Arguments: GROUP... (default all). Environment: as run-host.sh.
cd "$(dirname "$0")/../.." || exit 1
. tests/conformance/lib.sh
sh tests/conformance/run-host.sh --mode=compile --gpu-artifacts "$@"
status=$?
n=$(cat "$B"/*.kernels 2>/dev/null | grep -c .)
for v in $GPU_VARIANTS; do
	echo "build-gpu: $v: $(ls "$B"/*."${v%/*}.${v#*/}" 2>/dev/null | wc -l) group modules in $B"
done
# unpacked as build/conformance/ wherever CONF_BUILD was
gpu_pack build/gpu-pack/conformance.tar.xz build/conformance
echo "build-gpu: $n kernels; packed in build/gpu-pack/conformance.tar.xz ($(du -k build/gpu-pack/conformance.tar.xz | cut -f1) KiB)"
exit $status
