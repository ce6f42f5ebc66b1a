#!/bin/sh
# deps.sh: install what oxidec needs to build and test (idempotent).
# Debian packages through apt; the CUDA toolkit must already be present.
set -eu

CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
# graphviz: --emit=dot pictures (make pictures, the golden .dot checks);
# pkgconf: pkg-config oxrt (tests/install)
# clang and its runtime libraries (libFuzzer, ASan, UBSan): the JSON fuzzer
# (make fuzz-json, a suite of make check) and make sanitize
# python3-numpy: the Python wrapper's argument packing (examples/python,
# tested without a GPU by tests/python in make check)
# librust-*-dev: crate sources in /usr/share/cargo/registry for tests/crates
# (kernels over real no_std crates; tests/crates/.cargo/config.toml points
# cargo at that directory, offline)
CRATES="librust-libm-dev librust-half-dev librust-num-traits-dev librust-rand-xoshiro-dev librust-rand-pcg-dev librust-sha2-dev librust-crc32fast-dev librust-fnv-dev librust-siphasher-dev librust-adler-dev librust-seahash-dev librust-arrayvec-dev librust-byteorder-dev librust-bytemuck-dev librust-xxhash-rust-dev librust-keccak-dev librust-oorandom-dev librust-tinyvec-dev"
PKGS="llvm-22-dev libzstd-dev libcjson-dev rustc-web cargo-web rust-web-src make gcc clang libclang-rt-14-dev graphviz pkgconf python3-numpy $CRATES"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "deps: installing$missing"
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO=sudo
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
else
	echo "deps: Debian packages present ($PKGS)"
fi

fail=0
need() {
	if [ ! -e "$1" ]; then
		echo "deps: missing $1 — $2" >&2
		fail=1
	fi
}
need "$CUDA_HOME/bin/ptxas" "install the CUDA toolkit (13.x) or set CUDA_HOME; tests validate PTX with it"
need "$CUDA_HOME/nvvm/libdevice/libdevice.10.bc" "CUDA toolkit's libdevice (math functions)"
ls "$CUDA_HOME"/lib64/libnvJitLink.so* >/dev/null 2>&1 ||
	{ echo "deps: missing $CUDA_HOME/lib64/libnvJitLink.so — needed for --emit=cubin" >&2; fail=1; }
command -v llvm-config-22 >/dev/null || { echo "deps: llvm-config-22 not on PATH" >&2; fail=1; }
command -v cargo >/dev/null || { echo "deps: no cargo on PATH (rustup stable or Debian cargo-web)" >&2; fail=1; }
printf 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }\n' |
	clang -fsanitize=fuzzer,address,undefined -x c - -o /dev/null 2>/dev/null ||
	{ echo "deps: clang cannot build a libFuzzer target with ASan+UBSan (clang, libclang-rt-14-dev)" >&2; fail=1; }
[ $fail -eq 0 ] || exit 1
echo "deps: ok (LLVM $(llvm-config-22 --version), $(rustc --version 2>/dev/null), CUDA $($CUDA_HOME/bin/ptxas --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'))"
