#!/bin/sh
# tests/conformance/run-gpu.sh: the conformance suite on this machine's GPU,
# with the modules and expected lines that build-gpu.sh left in
# build/conformance/: oxide-runner conformance-gpu (needs only a C
# compiler and the CUDA driver; the runner comes built, in
# build/gpu-pack/runner.tar.xz, where there is no cargo: lib.sh).
#
#   sh tests/conformance/run-gpu.sh [GROUP...]
#
# `oxide-runner conformance-gpu --help` says what it does, prints and
# reads (CC, CONF_BUILD, CONF_WORK, JOBS, GPU_VARIANTS: GPU_VARIANTS=O3/so
# runs host-emulation modules, the runner's own test without a GPU).
cd "$(dirname "$0")/../.." || exit 1
. tests/conformance/lib.sh
exec "$OXIDE_RUNNER" conformance-gpu "$@"
