#!/bin/sh
# tests/conformance/build-gpu.sh: builds what tests/conformance/run-gpu.sh
# needs on a GPU machine that has no Rust or LLVM, into build/conformance/
# (GROUP.expected, GROUP.kernels, GROUP.O3.ptx GROUP.O3.cubin GROUP.O0.ptx
# GROUP.O0.cubin, MODULE.failed, failures.tsv), packed into
# build/gpu-pack/conformance.tar.xz: oxide-runner conformance-build-gpu
# (run-host.sh --mode=compile --gpu-artifacts GROUP..., then the pack).
# Arguments: GROUP... (default all). Environment: as run-host.sh.
cd "$(dirname "$0")/../.." || exit 1
. tests/conformance/lib.sh
exec "$OXIDE_RUNNER" conformance-build-gpu "$@"
