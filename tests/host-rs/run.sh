#!/bin/sh
# tests/host-rs/run.sh: typed launches from Rust (tools/oxide-host), built
# offline by cargo (std only, no dependencies) and run without a GPU:
#   1. cargo test of oxide-host: device memory, sub-slices, pinned memory,
#      a Stream::scope of async copies, events, wrong lengths refused, and
#      ffi.rs's structs against oxrt.h's (a C probe); served by the
#      emulator when there is no GPU
#   2. examples/NAME/host-rs (vecadd, saxpy, grid_sync: cooperative
#      launches): cargo build, whose build.rs
#      runs mir-export and oxidec on examples/NAME (oxide_host::build),
#      (its generated launchers must be tests/golden/NAME.launch.rs for
#      vecadd and saxpy), then the program on its embedded emulation module (--emulate) and
#      on $B/emu/NAME.so (make emu): the checks of examples/NAME/host.c,
#      every PASS line expected and exit status 0
#   3. tests/host-rs/golden: tests/golden/*.launch.rs (oxidec --emit=rust)
#      compiled against oxide-host with the right types (their const
#      asserts check the structs' layouts), then with one wrong argument
#      each (a feature): a compile error of the expected kind at that line
# Prints PASS/FAIL lines and "host-rs: N passed, M failed".
# Environment: B (the build directory, build), CARGO (cargo), OXIDEC and
# MIR_EXPORT (default: $B/bin's; the build helper reads them).
cd "$(dirname "$0")/../.." || exit 1
ROOT=$(pwd)
B=${B:-build}
CARGO=${CARGO:-cargo}
export OXIDEC="${OXIDEC:-$ROOT/$B/bin/oxidec}" MIR_EXPORT="${MIR_EXPORT:-$ROOT/$B/bin/mir-export}"
T=$ROOT/$B/host-rs
LOG=$T/logs
mkdir -p "$LOG" || exit 1
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && tail -n 30 "$2" | sed 's/^/    /'; }
# cargo without make's variables (make check's MAKEFLAGS jobserver)
cargo_() {   # subcommand args...
	sub=$1
	shift
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "$CARGO" "$sub" --offline --release --target-dir "$T" "$@"
}

# 1. the crate's own tests (one thread: oxrt is not thread-safe)
if cargo_ test --manifest-path tools/oxide-host/Cargo.toml -- --test-threads=1 >"$LOG/unit.log" 2>&1; then
	n=$(sed -n 's/^test result: ok\. \([0-9]*\) passed.*/\1/p' "$LOG/unit.log" | awk '{ s += $1 } END { print s + 0 }')
	ok "cargo test (oxide-host: $n tests)"
else
	bad "cargo test (oxide-host)" "$LOG/unit.log"
fi

# 2. the examples' Rust hosts: NAME and the PASS lines it must print
run_host() {   # name module-argument tag what lines...
	name=$1 arg=$2 l=$LOG/$1.$3.log what=$4
	shift 4
	timeout 300 "$T/release/$name-host" "$arg" >"$l" 2>&1
	rc=$?
	for want in "$@"; do
		grep -qF "PASS $want" "$l" || { bad "$name (Rust host, $what): no 'PASS $want'" "$l"; return; }
	done
	if [ $rc -ne 0 ] || grep -q '^FAIL' "$l"; then
		bad "$name (Rust host, $what): exit status $rc" "$l"
		return
	fi
	ok "$name (Rust host, $what): $(grep '^PASS' "$l" | sed 's/^PASS [^:]*: //' | paste -sd ';' -)"
}
host_example() {   # name lines...
	name=$1
	shift
	if ! cargo_ build --manifest-path "examples/$name/host-rs/Cargo.toml" >"$LOG/$name.build.log" 2>&1; then
		bad "$name (Rust host): cargo build" "$LOG/$name.build.log"
		return
	fi
	if grep -q '^warning' "$LOG/$name.build.log"; then
		bad "$name (Rust host): cargo build warns" "$LOG/$name.build.log"
	else
		ok "$name (Rust host): cargo build --offline (mir-export and oxidec from build.rs), no warnings"
	fi
	# the launchers build.rs generated are the golden ones of the examples
	# whose kernels tests/golden/NAME.mir.json is (not grid_sync's: a kernel
	# of its own)
	# shellcheck disable=SC2012 # the names are cargo's: no odd characters
	gen=$(ls -t "$T"/release/build/"$name"-host-*/out/"$name".launch.rs 2>/dev/null | head -n 1)
	if [ "$name" != grid_sync ]; then
		if [ -n "$gen" ] && diff -u "tests/golden/$name.launch.rs" "$gen" >"$LOG/$name.golden.diff"; then
			ok "$name (Rust host): build.rs generated tests/golden/$name.launch.rs exactly"
		else
			bad "$name (Rust host): the generated launchers differ from tests/golden/$name.launch.rs" "$LOG/$name.golden.diff"
		fi
	fi
	run_host "$name" --emulate embedded "embedded .so" "$@"
	if [ -f "$B/emu/$name.so" ]; then
		run_host "$name" "$ROOT/$B/emu/$name.so" emu "$B/emu/$name.so" "$@"
	else
		bad "$name (Rust host): $B/emu/$name.so is missing: run 'make emu'"
	fi
}
host_example vecadd "vecadd (Rust host): 1048579/1048579 elements bit-exact" \
	"vecadd (Rust host): bounds check trapped as expected (CUDA_ERROR_LAUNCH_FAILED)"
host_example saxpy "saxpy (Rust host): 1048579/1048579 elements bit-exact"
host_example grid_sync "two_phase (Rust host): 8 blocks each read all 8 partials" "stencil (Rust host): 7 rounds over 5000 words" \
	"refused (Rust host): a cooperative grid of 2^20 blocks" "hang reported (Rust host): early_exit"

# 3. the golden launchers: right types compile, wrong ones do not
G=tests/host-rs/golden/Cargo.toml
if cargo_ build --manifest-path "$G" >"$LOG/golden.log" 2>&1 && ! grep -q '^warning' "$LOG/golden.log"; then
	ok "tests/golden/*.launch.rs compile with the right types, no warnings"
else
	bad "tests/golden/*.launch.rs with the right types" "$LOG/golden.log"
fi
reject() {   # feature what expected-text
	if cargo_ build --manifest-path "$G" --features "$1" >"$LOG/$1.log" 2>&1; then
		bad "$2: it compiled"
	elif grep -qF -- "$3" "$LOG/$1.log"; then
		ok "$2: $(grep -m1 '^error\[' "$LOG/$1.log")"
	else
		bad "$2: another error than '$3'" "$LOG/$1.log"
	fi
}
# shellcheck disable=SC2016 # backquotes are rustc's, not the shell's
reject wrong-elem "a &DeviceSlice<u32> for vecadd's a: &[f32] is refused" 'expected `&DeviceSlice<f32>`, found `&DeviceSlice<u32>`'
# shellcheck disable=SC2016
reject wrong-mut "a &DeviceSlice<f32> for vecadd's c: DisjointSlice<f32> is refused" 'expected mutable reference `&mut DeviceSlice<_>`'
# shellcheck disable=SC2016
reject wrong-scalar "an f64 for saxpy's a: f32 is refused" 'expected `f32`, found `f64`'
reject coop-stream "a stream for a kernel that calls grid::sync() is refused" 'error[E0061]'
# shellcheck disable=SC2016
reject wrong-struct "a Two for header_abi's p: Params is refused" 'expected `Params`, found `Two`'

echo "host-rs: $pass passed, $fail failed"
[ $fail -eq 0 ]
