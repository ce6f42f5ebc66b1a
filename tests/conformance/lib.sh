# tests/conformance/lib.sh: sets OXIDE_RUNNER for the conformance wrappers
# (run-host.sh, build-gpu.sh, run-gpu.sh) and tests/gpu/pack.sh; sourced
# from the repository root. The suite itself is tools/mir-export/
# oxide-runner (oxide-runner conformance --help).
#
# OXIDE_RUNNER when set (make check passes it); else, where cargo is, the
# one built into $CARGO_TARGET (default build/cargo; cargo build is a
# no-op when it is fresh); where it is not (a GPU machine), the copy that
# make gpu-pack packed (build/gpu-pack/runner.tar.xz, unpacked by
# tests/gpu/all.sh as build/gpu-bin/oxide-runner).
if [ -z "${OXIDE_RUNNER:-}" ]; then
	OXIDE_RUNNER=${CARGO_TARGET:-build/cargo}/release/oxide-runner
	if command -v "${CARGO:-cargo}" >/dev/null 2>&1; then
		"${CARGO:-cargo}" build --release --offline --quiet --manifest-path tools/mir-export/Cargo.toml \
			--target-dir "${CARGO_TARGET:-build/cargo}" -p oxide-runner ||
			{ echo "conformance: cannot build oxide-runner" >&2; exit 1; }
	elif [ ! -x "$OXIDE_RUNNER" ]; then
		OXIDE_RUNNER=build/gpu-bin/oxide-runner
	fi
fi
[ -x "$OXIDE_RUNNER" ] || {
	echo "conformance: $OXIDE_RUNNER is missing: run make (or, on a GPU machine, unpack build/gpu-pack/runner.tar.xz)" >&2
	exit 1
}
