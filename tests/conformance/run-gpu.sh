#!/bin/sh
# tests/conformance/run-gpu.sh: the conformance suite on this machine's GPU,
# with the modules and expected lines that build-gpu.sh left in
# build/conformance/ (needs only a C compiler and the CUDA driver).
#
#   sh tests/conformance/run-gpu.sh [GROUP...]
#
# For each GPU variant (GPU_VARIANTS, default: each of O3/ptx O3/cubin
# O0/ptx O0/cubin that has modules here: GROUP.O3.ptx, ...) and each group:
# builds the C harness once (tests/conformance/harness.c with the
# runtime: src/runtime/oxrt.c and its backends), runs every kernel of GROUP.kernels from the
# variant's module (2 blocks x 64 threads, in a harness child process so
# that a trap does not take the others down; JOBS groups at once), and
# compares each line with the CPU reference's byte for byte. Kernels that
# did not compile are failures too (with the compiler's message from
# failures.tsv, or MODULE.failed for one variant).
# Kernels that do not compile because they use a construct listed in
# tests/conformance/expected-errors.txt (the host run checks their
# error) print UNSUPPORTED and are counted apart.
# Prints "PASS GROUP/NAME [VARIANT]" / "FAIL GROUP/NAME [VARIANT]: why"
# lines, then per variant "conformance-gpu[O3/ptx]: N passed, M failed",
# and last "conformance-gpu: N passed, M failed" over all variants.
# Environment: CC, CONF_BUILD (default build/conformance), JOBS (default:
# CPUs), GPU_VARIANTS (a variant LEVEL/so runs host-emulation modules of
# the same build, made with GPU_VARIANTS=O3/so on the build machine: the
# runner's own test without a GPU).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/conformance/lib.sh

ls "$B"/*.expected >/dev/null 2>&1 ||
	conf_die "$B/*.expected missing: run tests/conformance/build-gpu.sh first (where Rust and LLVM are)"

# One group at one variant: the harness's lines in $W/gpu/VARIANT/GROUP.actual.
if [ "${1:-}" = --run ]; then
	v=$2 g=$3
	m=$(variant_module "$g" "$v")
	d="$W/gpu/$(echo "$v" | tr / -)"
	: >"$d/$g.actual"
	kernels=$(cat "$B/$g.kernels" 2>/dev/null)
	if [ -s "$m.failed" ]; then
		cut -f1 "$m.failed" >"$d/$g.skip"
		kernels=$(echo "$kernels" | grep -vxF -f "$d/$g.skip")
	fi
	if [ -n "$kernels" ] && [ -f "$m" ]; then
		# shellcheck disable=SC2086 # a list of names
		"$W/tools/harness" "$m" $kernels >"$d/$g.actual" 2>"$d/$g.log"
	fi
	exit 0
fi

if command -v nvidia-smi >/dev/null 2>&1; then
	nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
fi
build_harness
if [ $# -gt 0 ]; then
	sel="$*"
else
	sel=$(for f in "$B"/*.expected; do basename "$f" .expected; done)
fi
variants=""
for v in $GPU_VARIANTS; do
	ls "$B"/*."${v%/*}.${v#*/}" >/dev/null 2>&1 && variants="$variants $v"
done
[ -n "$variants" ] || conf_die "no modules in $B for any of $GPU_VARIANTS: run tests/conformance/build-gpu.sh"
JOBS=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 4)}
start=$(date +%s)
for v in $variants; do
	mkdir -p "$W/gpu/$(echo "$v" | tr / -)"
	for g in $sel; do
		[ -f "$B/$g.expected" ] || conf_die "no $B/$g.expected"
		echo "$v $g"
	done
done | xargs -P "$JOBS" -L 1 sh tests/conformance/run-gpu.sh --run

# The verdicts of one variant; its summary line last.
verdicts() {   # variant
	v=$1
	d="$W/gpu/$(echo "$v" | tr / -)"
	pass=0 fail=0 unsupported=0
	for g in $sel; do
		m=$(variant_module "$g" "$v")
		kernels=" $(tr '\n' ' ' <"$B/$g.kernels" 2>/dev/null) "
		for k in $(awk '{ print $1 }' "$B/$g.expected"); do
			notbuilt=$(awk -F '\t' -v k="$k" '$1 == k || $1 == "*" { print $2; exit }' "$m.failed" 2>/dev/null)
			case "$kernels" in
			*" $k "*)
				if [ -n "$notbuilt" ]; then
					r="FAIL $g/$k: not compiled at $v: $notbuilt"
				elif [ ! -f "$m" ]; then
					r="FAIL $g/$k: no module $m"
				else
					r=$(compare_line "$g" "$k" "$(awk -v k="$k" '$1 == k { print; exit }' "$d/$g.actual")")
				fi
				;;
			*)
				# a construct not supported yet: the host run checked that
				# it fails with its expected error
				want=$(awk -F '\t' -v k="$g/$k" '$1 == k { print "error[" $2 "]: ... " $3; exit }' "$CONF/expected-errors.txt" 2>/dev/null)
				why=$(awk -F '\t' -v gk="$g/$k" '$1 == gk { print $2 ": " $3; exit }' "$B/failures.tsv" 2>/dev/null)
				if [ -n "$want" ]; then
					r="UNSUPPORTED $g/$k: expected error: $want"
				else
					r="FAIL $g/$k: not compiled: ${why:-see build-gpu.sh}"
				fi
				;;
			esac
			# the variant after the name: "FAIL g/k [O0/ptx]: ..."
			r=$(printf '%s\n' "$r" | sed -e '2d' -e "1s#^\([A-Z]* [^ :]*\)#\1 [$v]#")
			case $r in
			PASS*) pass=$((pass + 1)) ;;
			UNSUPPORTED*) unsupported=$((unsupported + 1)) ;;
			*) fail=$((fail + 1)) ;;
			esac
			printf '%s\n' "$r"
		done
	done
	extra=""
	[ $unsupported -gt 0 ] && extra=" ($unsupported not supported yet: expected-errors.txt)"
	echo "conformance-gpu[$v]: $pass passed, $fail failed$extra"
}

# every variant's verdicts at once (thousands of kernels), printed in order
for v in $variants; do
	verdicts "$v" >"$W/gpu/$(echo "$v" | tr / -).verdicts" &
done
wait
: >"$W/gpu/summary"
for v in $variants; do
	f="$W/gpu/$(echo "$v" | tr / -).verdicts"
	grep -v '^conformance-gpu' "$f"
	tail -n 1 "$f" >>"$W/gpu/summary"
done
echo
cat "$W/gpu/summary"
tp=$(awk '{ s += $2 } END { print s + 0 }' "$W/gpu/summary")
tf=$(awk '{ s += $4 } END { print s + 0 }' "$W/gpu/summary")
echo "conformance-gpu: $tp passed, $tf failed ($(echo $variants | wc -w) variants, $(($(date +%s) - start)) s)"
[ "$tf" -eq 0 ]
