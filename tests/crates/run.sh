#!/bin/sh
# tests/crates/run.sh: kernels that use real no_std crates from Debian's
# librust-*-dev packages (tools/deps.sh installs them under
# /usr/share/cargo/registry; tests/crates/.cargo/config.toml replaces
# crates.io with that directory). The conformance machinery runs them as
# its own suite (CONF_SUITE=tests/crates: kernels/GROUP crates,
# cpu-ref/, expected-errors.txt): each kernel is checked word for word
# against the same code compiled by rustc for the CPU (the CPU reference),
# after mir-export, oxidec --target=host and the emulator. A kernel listed
# in tests/crates/expected-errors.txt passes only when it fails with the
# error given there; any other failure, or a listed kernel that passes,
# fails the suite.
#
#   sh tests/crates/run.sh [--mode=auto|host|compile] [--gpu-artifacts] [GROUP...]
#
# Results in build/crates (CONF_BUILD), work files in build/crates-work
# (CONF_WORK): never the conformance suite's own directories.
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
for c in libm-0.2.1 half-1.6.0 num-traits-0.2.15 rand_xoshiro-0.6.0 rand_pcg-0.3.1 sha2-0.10.5 crc32fast-1.3.2 fnv-1.0.7 siphasher-0.3.10 adler-1.0.2 seahash-4.1.0 arrayvec-0.7.2 byteorder-1.4.3 bytemuck-1.12.1 xxhash-rust-0.8.5 keccak-0.1.0 oorandom-11.1.3 tinyvec-1.6.0; do
	[ -d "/usr/share/cargo/registry/$c" ] || {
		echo "crates: /usr/share/cargo/registry/$c is missing: run make deps (tools/deps.sh)"
		echo "crates: 0 passed, 1 failed"
		exit 1
	}
done
export CONF_SUITE=tests/crates
export CONF_BUILD="${CRATES_BUILD:-$B/crates}" CONF_WORK="${CRATES_WORK:-$B/crates-work}"
unset CONF_GROUPS
. tests/conformance/lib.sh
exec "$OXIDE_RUNNER" conformance "$@"
