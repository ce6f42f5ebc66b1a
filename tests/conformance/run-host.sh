#!/bin/sh
# tests/conformance/run-host.sh: the conformance suite without a GPU
# (docs/conformance.md): oxide-runner conformance.
#
#   sh tests/conformance/run-host.sh [--mode=auto|host|compile] [--gpu-artifacts] [GROUP...]
#
# `oxide-runner conformance --help` (or run-host.sh --help) says what it
# does, prints and reads. OXIDE_RUNNER: as tests/conformance/lib.sh.
cd "$(dirname "$0")/../.." || exit 1
. tests/conformance/lib.sh
exec "$OXIDE_RUNNER" conformance "$@"
