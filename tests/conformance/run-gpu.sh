#!/bin/sh
# tests/conformance/run-gpu.sh: the conformance suite on this machine's GPU,
# with the modules and expected lines that build-gpu.sh left in
# build/conformance/ (needs only a C compiler and the CUDA driver).
#
#   sh tests/conformance/run-gpu.sh [GROUP...]
#
# For each group: builds the C harness (tests/conformance/harness.c with
# src/runtime/oxrt.c), runs every kernel of GROUP.kernels from GROUP.ptx
# (2 blocks x 64 threads, each kernel in a harness child process so that a
# trap does not take the others down), and compares each line with the CPU
# reference's byte for byte. Kernels that did not compile are failures too
# (with the compiler's message from failures.tsv).
# Kernels that do not compile because they use a construct listed in
# tests/conformance/expected-errors.txt (the host run checks their
# error) print UNSUPPORTED and are counted apart.
# Prints PASS/FAIL lines and "conformance-gpu: N passed, M failed".
# Environment: CC, CONF_BUILD (default build/conformance), MODULE_EXT
# (ptx, or cubin when build/conformance has GROUP.cubin files).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/conformance/lib.sh
EXT=${MODULE_EXT:-ptx}

ls "$B"/*.expected >/dev/null 2>&1 ||
	conf_die "$B/*.expected missing: run tests/conformance/build-gpu.sh first (where Rust and LLVM are)"
if command -v nvidia-smi >/dev/null 2>&1; then
	nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
fi
build_harness
if [ $# -gt 0 ]; then
	sel="$*"
else
	sel=$(for f in "$B"/*.expected; do basename "$f" .expected; done)
fi
pass=0 fail=0 unsupported=0
for g in $sel; do
	[ -f "$B/$g.expected" ] || conf_die "no $B/$g.expected"
	mkdir -p "$W/gpu"
	actual="$W/gpu/$g.actual"
	: >"$actual"
	kernels=""
	[ -s "$B/$g.kernels" ] && kernels=$(tr '\n' ' ' <"$B/$g.kernels")
	if [ -n "$kernels" ]; then
		# shellcheck disable=SC2086
		"$W/tools/harness" "$B/$g.$EXT" $kernels >"$actual" 2>"$W/gpu/$g.log"
	fi
	for k in $(awk '{ print $1 }' "$B/$g.expected"); do
		case " $kernels " in
		*" $k "*)
			r=$(compare_line "$g" "$k" "$(awk -v k="$k" '$1 == k { print; exit }' "$actual")")
			;;
		*)
			# a construct not supported yet: the host run checked that
			# it fails with its expected error
			want=$(awk -F '\t' -v k="$g/$k" '$1 == k { print $2; exit }' "$CONF/expected-errors.txt" 2>/dev/null)
			why=$(awk -F '\t' -v gk="$g/$k" '$1 == gk { print $2 ": " $3; exit }' "$B/failures.tsv" 2>/dev/null)
			if [ -n "$want" ]; then
				r="UNSUPPORTED $g/$k: expected error: $want"
			else
				r="FAIL $g/$k: not compiled: ${why:-see build-gpu.sh}"
			fi
			;;
		esac
		case $r in
		PASS*) pass=$((pass + 1)); echo "$r" ;;
		UNSUPPORTED*) unsupported=$((unsupported + 1)); echo "$r" ;;
		*) fail=$((fail + 1)); printf '%s\n' "$r" | sed -e '2d' ;;
		esac
	done
done
echo
if [ $unsupported -gt 0 ]; then
	echo "conformance-gpu: $pass passed, $fail failed ($unsupported not supported yet: expected-errors.txt)"
else
	echo "conformance-gpu: $pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
