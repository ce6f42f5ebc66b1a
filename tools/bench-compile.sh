#!/bin/sh
# tools/bench-compile.sh: compile times side by side (make bench-compile),
# printed as one markdown table (also written to build/bench-compile.md)
# for BENCHMARKS.md.  Per example (build/examples/NAME.mir.json, made by
# make examples): mir-export warm (Rust source -> JSON, the second run
# after a warm-up, so rustc's and cargo's files are cached), oxidec
# JSON -> PTX at -O3 (the sum of -v's stage times, wall clock and CPU,
# and the whole process's wall clock, program start included), each the
# median of N runs.  Then nvcc -O3 -ptx of each CUDA C twin (bench/*/
# *_ref.cu), the same flags as tests/gpu/bench.sh less -cubin.
# Then rustc's own nvptx64 back end on the twins in bench/rustc-nvptx/
# (the example's kernel in plain `core` Rust: rustc -C opt-level=3
# --emit=asm, one process per kernel) against oxidec's end to end (the
# same example's mir-export warm plus oxidec's whole process).  That
# needs a rustc whose library source is installed (Debian's rustc-web
# and rust-web-src: /usr/bin/rustc, /usr/src/rustc-VERSION/library):
# core and compiler_builtins are built for nvptx64 once into
# $B/rustc-nvptx/VERSION (not timed); without one the table says so.
# Environment: B (build), N (5), NVCC (nvcc, else $CUDA_HOME/bin/nvcc),
# RUSTC_NVPTX (/usr/bin/rustc), EXAMPLES (default: every
# build/examples/*.mir.json).  Timings only: nothing here is asserted.
cd "$(dirname "$0")/.." || exit 1
B=${B:-build}
N=${N:-5}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
NVCC=${NVCC:-$(command -v nvcc || echo "$CUDA_HOME/bin/nvcc")}
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%.1f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
now_ms() { date +%s%N | awk '{ printf "%.3f", $1 / 1e6 }'; }

# one oxidec run: "stage-wall stage-cpu process-wall" (ms)
oxidec_once() {
	t0=$(now_ms)
	"$B/bin/oxidec" -v "$@" -o "$TMP/out.ptx" 2>"$TMP/v" >/dev/null || return 1
	t1=$(now_ms)
	awk -v p="$t0" -v q="$t1" '/^oxidec: [a-z]+ +[0-9.]+ ms/ { w += $3; c += $6 }
		END { printf "%.3f %.3f %.3f\n", w, c, q - p }' "$TMP/v"
}

# "NAME ARGS...": the median of N runs of each column, or "fail"
time_oxidec() {
	: >"$TMP/runs"
	for i in $(seq "$N"); do
		oxidec_once "$@" >>"$TMP/runs" || { echo "fail"; return; }
	done
	for col in 1 2 3; do
		awk -v c=$col '{ print $c }' "$TMP/runs" | median
		printf ' '
	done
}

# wall ms of a command, median of N runs (after one warm-up run)
time_cmd() {
	"$@" >/dev/null 2>&1 || { echo "fail"; return; }
	for i in $(seq "$N"); do
		t0=$(now_ms)
		"$@" >/dev/null 2>&1
		t1=$(now_ms)
		echo "$t0 $t1" | awk '{ print $2 - $1 }'
	done | median
}

RUSTC_NVPTX=${RUSTC_NVPTX:-/usr/bin/rustc}
RNV_FLAGS="--edition 2024 --target nvptx64-nvidia-cuda -Zunstable-options -C panic=immediate-abort -C opt-level=3 -C target-cpu=sm_90"

# core and compiler_builtins for nvptx64 from the rustc's own library
# source, once; prints the directory, or nothing when there is no source
rustc_nvptx_sysroot() {
	ver=$("$RUSTC_NVPTX" --version 2>/dev/null | cut -d' ' -f2)
	lib=/usr/src/rustc-$ver/library
	[ -n "$ver" ] && [ -f "$lib/core/src/lib.rs" ] || return 0
	dir=$B/rustc-nvptx/$ver
	if [ ! -f "$dir/libcompiler_builtins.rlib" ]; then
		mkdir -p "$dir" &&
			RUSTC_BOOTSTRAP=1 "$RUSTC_NVPTX" $RNV_FLAGS --crate-type rlib --crate-name core \
				-Zforce-unstable-if-unmarked --cap-lints allow "$lib/core/src/lib.rs" --out-dir "$dir" >&2 &&
			RUSTC_BOOTSTRAP=1 "$RUSTC_NVPTX" $RNV_FLAGS --crate-type rlib --crate-name compiler_builtins \
				-Zforce-unstable-if-unmarked --cap-lints allow -L "$dir" --cfg 'feature="compiler-builtins"' \
				"$lib/compiler-builtins/compiler-builtins/src/lib.rs" --out-dir "$dir" >&2 || return 0
	fi
	echo "$dir"
}

# Rust source -> PTX: rustc's nvptx64 back end on bench/rustc-nvptx/NAME.rs
# against the example's mir-export warm + oxidec process (from $TMP/e2e)
rustc_nvptx_table() {
	sysroot=$(rustc_nvptx_sysroot)
	if [ -z "$sysroot" ]; then
		echo "(no library source for $RUSTC_NVPTX: rustc's nvptx64 back end was not timed; Debian: rust-web-src)"
		return
	fi
	echo "| Rust source -> PTX | rustc $("$RUSTC_NVPTX" --version | cut -d' ' -f2) nvptx64 ms (wall) | mir-export warm + oxidec process ms (wall) | ratio oxidec/rustc |"
	echo "|---|---|---|---|"
	for rs in bench/rustc-nvptx/*.rs; do
		e=$(basename "$rs" .rs)
		set -- $(grep "^$e " "$TMP/e2e" 2>/dev/null)
		[ $# -eq 3 ] || continue
		r=$(time_cmd env RUSTC_BOOTSTRAP=1 "$RUSTC_NVPTX" $RNV_FLAGS --crate-type lib -L "$sysroot" --emit=asm -o "$TMP/r.ptx" "$rs")
		echo "$r $2 $3" | awk -v e="$e" '$1 + 0 > 0 && $2 != "fail" && $3 != "fail" {
			printf "| %s | %s | %.1f | %.2f |\n", e, $1, $2 + $3, ($2 + $3) / $1; next }
			{ printf "| %s | %s | fail | |\n", e, $1 }'
	done
}

examples=${EXAMPLES:-$(ls "$B"/examples/*.mir.json 2>/dev/null | sed 's|.*/||; s|\.mir\.json$||')}
[ -n "$examples" ] || { echo "bench-compile: no $B/examples/*.mir.json (make examples first)" >&2; exit 1; }
commit=$(git rev-parse --short HEAD 2>/dev/null || echo "?")
{
	echo "### make bench-compile, $(date -u +%Y-%m-%d), $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), commit $commit"
	echo
	echo "| example | mir-export warm ms | oxidec JSON -> PTX ms (wall) | (CPU) | oxidec process ms (wall) | PTX lines |"
	echo "|---|---|---|---|---|---|"
	for e in $examples; do
		arch=
		[ -f "examples/$e/arch" ] && arch="--arch=$(cat "examples/$e/arch")"
		mx=$(time_cmd "$B/bin/mir-export" "examples/$e" -o "$TMP/x.json")
		set -- $(time_oxidec $arch "$B/examples/$e.mir.json")
		echo "| $e | $mx | $1 | ${2:-} | ${3:-} | $(wc -l <"$TMP/out.ptx" 2>/dev/null) |"
		echo "$e $mx ${3:-fail}" >>"$TMP/e2e"
	done
	echo
	rustc_nvptx_table
	echo
	if [ -x "$NVCC" ]; then
		echo "| CUDA C twin | nvcc -O3 -ptx ms (wall) |"
		echo "|---|---|"
		for cu in bench/*/*_ref.cu; do
			arch=sm_90
			case $cu in *hopper*) arch=sm_90a ;; esac
			fmad=
			case $cu in */suite_ref.cu) fmad=-fmad=false ;; esac
			echo "| $cu | $(time_cmd "$NVCC" -O3 -arch=$arch $fmad -ptx -o "$TMP/ref.ptx" "$cu") |"
		done
	else
		echo "(no nvcc: the CUDA C twins were not timed)"
	fi
} | tee "$B/bench-compile.md"
