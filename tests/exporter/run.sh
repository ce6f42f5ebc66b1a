#!/bin/sh
# Exporter tests: mir-export's own cargo tests, then every example's Rust
# source -> oxide-mir JSON -> PTX (validated by ptxas), with each supported
# rustc that is installed (rustup stable 1.95, Debian rustc-web 1.96).
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}      # the build directory (make's B)
# mir-export finds oxide-device from its own path inside the tree; from a
# build directory elsewhere it needs telling
case $B in build|./build) ;; *) export OXIDE_DEVICE_DIR=${OXIDE_DEVICE_DIR:-$PWD/tools/mir-export/oxide-device} ;; esac
PTXAS=${PTXAS:-${CUDA_HOME:-/usr/local/cuda}/bin/ptxas}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && sed 's/^/    /' "$2" | tail -30; }

# cargo test: count its "test result" lines
if cargo test --offline --release --manifest-path tools/mir-export/Cargo.toml --target-dir "${CARGO_TARGET:-$B/cargo}" >"$TMP/cargo" 2>&1; then
	n=$(sed -n 's/^test result: ok\. \([0-9]*\) passed.*/\1/p' "$TMP/cargo" | awk '{ s += $1 } END { print s + 0 }')
	ok "cargo test (mir-export: $n tests)"
else
	bad "cargo test (mir-export)" "$TMP/cargo"
fi

rustcs=""
for r in "$(command -v rustc)" /usr/bin/rustc; do
	[ -x "$r" ] || continue
	case " $rustcs " in *" $r "*) ;; *) rustcs="$rustcs $r" ;; esac
done

for r in $rustcs; do
	ver=$("$r" -vV | sed -n 's/^release: //p')
	for ex in examples/*/; do
		name=$(basename "$ex")
		[ -e "$ex/Cargo.toml" ] || continue
		json="$TMP/$name-$ver.mir.json" ptx="$TMP/$name-$ver.ptx"
		if ! RUSTC="$r" $B/bin/mir-export "$ex" -o "$json" >"$TMP/log" 2>&1; then
			bad "$name (rustc $ver): mir-export" "$TMP/log"; continue
		fi
		# the example's architecture (examples/NAME/arch, as make examples)
		arch=sm_90
		[ -f "$ex/arch" ] && arch=$(cat "$ex/arch")
		if ! $B/bin/oxidec --arch="$arch" "$json" -o "$ptx" >"$TMP/log" 2>&1; then
			bad "$name (rustc $ver): oxidec" "$TMP/log"; continue
		fi
		if [ -x "$PTXAS" ] && ! "$PTXAS" -arch="$arch" "$ptx" -o "$TMP/x.cubin" >"$TMP/log" 2>&1; then
			bad "$name (rustc $ver): ptxas" "$TMP/log"; continue
		fi
		# every #[kernel] fn of the crate is an entry, a generic one's
		# instances each (at least one; a kernel a macro defines, `fn
		# $name`, is counted, not named)
		kernels=$(awk -f tests/exporter/kernels.awk "$ex/src/lib.rs")
		missing=""
		for k in ${kernels:-$name}; do
			case $k in
			'$'*) grep -q "\.entry " "$ptx" || missing="$missing (any)" ;;
			*) grep -q "\.entry $k(" "$ptx" || missing="$missing $k" ;;
			esac
		done
		[ -z "$missing" ] || { bad "$name (rustc $ver): no .entry for$missing"; continue; }
		ok "$name (rustc $ver): Rust -> JSON -> PTX, ptxas ok"
	done
done
echo "exporter: $pass passed, $fail failed"
[ $fail -eq 0 ]
