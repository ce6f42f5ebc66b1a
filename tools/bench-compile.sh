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
# rustc's own nvptx64 back end is not timed here (see BENCHMARKS.md).
# Environment: B (build), N (5), NVCC (nvcc, else $CUDA_HOME/bin/nvcc),
# EXAMPLES (default: every build/examples/*.mir.json).  Timings only:
# nothing here is asserted.
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
	done
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
