#!/bin/sh
# tests/fuzz/run.sh: the fuzz runner, `oxide-runner fuzz` (random kernels
# through the whole pipeline, differentially checked against rustc's CPU
# code), run from the repository root:
#
#   sh tests/fuzz/run.sh [--seeds N] [--start S] [--per-crate K] [options]
#
# The options, the output and the files: sh tests/fuzz/run.sh --help,
# docs/fuzzing.md. Environment: OXIDE_RUNNER (default: built here into
# $CARGO_TARGET, default $B/cargo, B default build) and the runner's own
# (--help).
set -u
cd "$(dirname "$0")/../.." || exit 1
CT=${CARGO_TARGET:-${B:-build}/cargo}
RUNNER=${OXIDE_RUNNER:-$CT/release/oxide-runner}
if [ -z "${OXIDE_RUNNER:-}" ]; then
	"${CARGO:-cargo}" build --release --offline --quiet --manifest-path tools/mir-export/Cargo.toml \
		--target-dir "$CT" -p oxide-runner || { echo "fuzz: cannot build oxide-runner" >&2; exit 1; }
fi
exec "$RUNNER" fuzz "$@"
