#!/bin/sh
# tests/conformance/run-host.sh: the conformance suite without a GPU
# (docs/conformance.md).
#
#   sh tests/conformance/run-host.sh [--mode=auto|host|compile] [GROUP...]
#
# For every group crate under tests/conformance/kernels/:
#   1. the CPU reference (tests/conformance/cpu-ref, one cargo build for all
#      groups) writes the expected lines, build/conformance/GROUP.expected;
#   2. mir-export exports the group once (oxide-runner export-group: a
#      kernel that mir-export rejects is left out and reported, the
#      others go on);
#   3. every kernel is compiled on its own (tests/conformance/mirsplit.c
#      cuts it out of the group's JSON), so that one construct oxidec does
#      not support yet fails only the kernels that use it;
#   4. mode host: `oxidec --target=host`, `cc -shared`, and the C harness
#      (tests/conformance/harness.c through oxrt's emulator) runs it; its
#      line must equal the CPU reference's byte for byte.
#      mode compile: `oxidec -o K.ptx` and `ptxas -arch=sm_90` must accept
#      it. With --gpu-artifacts (build-gpu.sh) build/conformance/ then
#      holds GROUP.kernels, the kernels that compiled, and their module
#      for each GPU variant (lib.sh GPU_VARIANTS: GROUP.O3.ptx,
#      GROUP.O3.cubin, GROUP.O0.ptx, GROUP.O0.cubin; a kernel that does not
#      compile at one is left out of it and listed in MODULE.failed).
#   auto (default): host when oxidec knows --target=host, else compile.
#
# Prints "PASS group/name" or "FAIL group/name: why" (with the differing
# words or the compiler's message), then the failures grouped by message
# (also in build/conformance/failures.txt), then
# "conformance: N passed, M failed". Exit status 1 when any failed.
#
# Environment: JOBS (parallel kernels, default: CPUs), MIR_EXPORT, OXIDEC,
# PTXAS, CC, CARGO, OXIDE_RUNNER (default: built into $CARGO_TARGET,
# default build/cargo), CONF_BUILD (results, default build/conformance),
# GPU_VARIANTS (--gpu-artifacts; default "O3/ptx O3/cubin O0/ptx O0/cubin"),
# CONF_WORK (work files, default build/conformance-work).
#
# Internal entry points (also used by other suites that reuse this runner):
#   run-host.sh --export GROUP          export one group (oxide-runner export-group)
#   run-host.sh --kernel MODE GROUP K   compile / run one kernel
#   run-host.sh --gpu-modules GROUP     the GPU variants' modules of a group
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/conformance/lib.sh
SELF=tests/conformance/run-host.sh

# ---------------------------------------------------------------- workers

# One kernel: writes $W/GROUP/NAME.result, line 1 "PASS ..." or
# "FAIL ...", line 2 (FAIL) "STAGE<TAB>message" for grouping, then details;
# on a FAIL, $W/GROUP/NAME.status: the exit status of the tool that failed.
kernel_worker() {   # mode group name
	mode=$1 g=$2 k=$3
	d="$W/$g"
	res="$d/$k.result"
	log="$d/$k.log"
	fail() {   # stage message [detail-file]; $? the failed tool's status
		st=$?
		[ $st -eq 0 ] || echo $st >"$d/$k.status"
		set -- "$1" "${2#"${1%% *}: "}" "${3:-}"   # no "oxidec: oxidec: ..."
		{
			printf 'FAIL %s/%s: %s: %s\n' "$g" "$k" "$1" "$2"
			printf '%s\t%s\n' "$1" "$(normalise "$2")"
			[ -n "${3:-}" ] && sed 's/^/    /' "$3" | head -n 20
		} >"$res"
		exit 0
	}
	rm -f "$d/$k.status"
	err=$(export_error "$g" "$k")
	[ -n "$err" ] && fail mir-export "$err"
	[ -f "$W/$g.mir.json" ] || fail mir-export "no export of group $g"
	"$W/tools/mirsplit" "$W/$g.mir.json" "$d/$k.mir.json" "$k" >"$log" 2>&1 ||
		fail mirsplit "$(first_error "$log")"
	case $mode in
	compile)
		"$OXIDEC" "$d/$k.mir.json" -o "$d/$k.ptx" >"$log" 2>&1 ||
			fail oxidec "$(first_error "$log")" "$log"
		if [ -x "$PTXAS" ]; then
			"$PTXAS" -arch=sm_90 "$d/$k.ptx" -o "$d/$k.cubin" >"$log" 2>&1 ||
				fail ptxas "$(first_error "$log")" "$log"
			rm -f "$d/$k.cubin"
		fi
		echo "PASS $g/$k" >"$res"
		;;
	host)
		"$OXIDEC" --target=host "$d/$k.mir.json" -o "$d/$k.o" >"$log" 2>&1 ||
			fail "oxidec --target=host" "$(first_error "$log")" "$log"
		$CC -shared "$d/$k.o" -o "$d/$k.so" -lm >"$log" 2>&1 ||
			fail "cc -shared" "$(first_error "$log")" "$log"
		"$W/tools/harness" "$d/$k.so" "$k" >"$d/$k.actual" 2>"$log"
		compare_line "$g" "$k" "$(cat "$d/$k.actual")" >"$res"
		;;
	esac
	exit 0
}

case ${1:-} in
--kernel)
	kernel_worker "$2" "$3" "$4"
	;;
--export)
	export_group "$2"
	exit 0
	;;
--gpu-modules)
	gpu_modules "$2"
	exit 0
	;;
esac

# ------------------------------------------------------------------- main

mode=auto
gpu_artifacts=0
sel=""
for a in "$@"; do
	case $a in
	--mode=*) mode=${a#--mode=} ;;
	--gpu-artifacts) gpu_artifacts=1 ;;
	-h | --help) awk 'NR > 1 && !/^#/ { exit } NR > 1' "$SELF"; exit 0 ;;
	-*) conf_die "unknown option $a" ;;
	*) sel="$sel $a" ;;
	esac
done
[ -n "$sel" ] && CONF_GROUPS=$sel && export CONF_GROUPS
[ -x "$MIR_EXPORT" ] || conf_die "$MIR_EXPORT is missing: run make"
[ -x "$OXIDEC" ] || conf_die "$OXIDEC is missing: run make"
if [ "$mode" = auto ]; then
	if "$OXIDEC" --help 2>&1 | grep -q -- '--target='; then mode=host; else mode=compile; fi
fi
case $mode in host | compile) ;; *) conf_die "unknown mode $mode" ;; esac
JOBS=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
start=$(date +%s)

mkdir -p "$B" "$W"
build_tools
[ "$mode" = host ] && build_harness
echo "conformance: mode $mode, $JOBS jobs"
cpu_reference
for g in $(groups); do
	grep -q "^$g " "$W/kernels.list" || conf_die "group $g has no kernels in the CPU reference"
	rm -rf "${W:?}/$g"
	mkdir -p "$W/$g"
done
echo "conformance: CPU reference: $(wc -l <"$W/kernels.list") kernels ($(($(date +%s) - start)) s)"

need_runner
groups | tr ' ' '\n' | xargs -P "$JOBS" -I{} sh "$SELF" --export {}
echo "conformance: exported ($(($(date +%s) - start)) s)"

for g in $(groups); do
	kernels_of "$g" | sed "s/^/$mode $g /"
done | xargs -P "$JOBS" -L 1 sh "$SELF" --kernel

pass=0 fail=0
: >"$B/failures.tsv"
# Kernels that use a construct oxidec or mir-export does not support yet:
# their expected error, its code (OXnnnn, man/oxidec.1 DIAGNOSTICS) and a
# substring of the one-line message. Such a kernel passes only when it
# fails with that error, so the list cannot go stale.
EXPECTED="$CONF/expected-errors.txt"
expected_error() {   # group/name -> "error[OXnnnn]<TAB>substring", or nothing
	[ -f "$EXPECTED" ] && awk -F '\t' -v k="$1" '$1 == k { printf "error[%s]\t%s\n", $2, $3; exit }' "$EXPECTED"
}
for g in $(groups); do
	# Kernels mir-export found that the CPU reference does not know.
	if [ -f "$W/$g.mir.json" ]; then
		for k in $("$W/tools/mirsplit" --list "$W/$g.mir.json"); do
			grep -qx "$g $k" "$W/kernels.list" && continue
			echo "FAIL $g/$k: exported by mir-export but unknown to the CPU reference"
			fail=$((fail + 1))
		done
	fi
	passed=""
	for k in $(kernels_of "$g"); do
		r="$W/$g/$k.result"
		if [ ! -f "$r" ]; then
			echo "FAIL $g/$k: no result (the worker crashed)"
			fail=$((fail + 1))
			continue
		fi
		want=$(expected_error "$g/$k")
		code=${want%%"	"*} want=${want#*"	"}
		first=$(head -n 1 "$r")
		if [ -n "$want" ]; then
			want="$code: ... $want"
			case $first in
			PASS*) echo "FAIL $g/$k: compiled, but expected-errors.txt says: $want (remove it there)"
			       fail=$((fail + 1)) ;;
			*"$code: "*"${want#*... }"*) echo "PASS $g/$k (expected error: $want)"
			       pass=$((pass + 1)) ;;
			*) echo "$first"; echo "    (expected the error: $want)"
			       fail=$((fail + 1)) ;;
			esac
			continue
		fi
		case $first in
		PASS*)
			pass=$((pass + 1))
			passed="$passed $k"
			head -n 1 "$r"
			;;
		*)
			fail=$((fail + 1))
			head -n 1 "$r"
			sed -n '3,$p' "$r"
			printf '%s/%s\t%s\n' "$g" "$k" "$(sed -n 2p "$r")" >>"$B/failures.tsv"
			;;
		esac
	done
	if [ "$mode" = compile ] && [ "$gpu_artifacts" = 1 ]; then
		rm -f "$B/$g".*.ptx "$B/$g".*.cubin "$B/$g".*.failed "$W/$g/all.mir.json"
		# shellcheck disable=SC2086 # a list of names
		printf '%s\n' $passed | grep . >"$B/$g.kernels"
		# shellcheck disable=SC2086
		if [ -n "$passed" ] && ! "$W/tools/mirsplit" "$W/$g.mir.json" "$W/$g/all.mir.json" $passed >"$W/$g/all.log" 2>&1; then
			echo "FAIL $g: mirsplit of the group module: $(first_error "$W/$g/all.log")"
			fail=$((fail + 1))
		fi
	fi
done

# --gpu-artifacts: every group's module for each GPU variant (lib.sh
# gpu_modules), in parallel
if [ "$mode" = compile ] && [ "$gpu_artifacts" = 1 ]; then
	for g in $(groups); do
		[ -f "$W/$g/all.mir.json" ] && echo "$g"
	done | xargs -P "$JOBS" -I{} sh "$SELF" --gpu-modules {}
	for g in $(groups); do
		for v in $GPU_VARIANTS; do
			m=$(variant_module "$g" "$v")
			[ -s "$m.failed" ] || continue
			n=$(grep -c . "$m.failed")
			echo "FAIL $g [$v]: $n kernels do not compile at $v, e.g. $(head -n 1 "$m.failed")"
			fail=$((fail + n))
		done
	done
	echo "conformance: GPU modules ($GPU_VARIANTS) in $B ($(($(date +%s) - start)) s)"
fi

# Failures by message (names in backquotes masked, one full message shown):
# what the compilers need next.
if [ -s "$B/failures.tsv" ]; then
	awk -F '\t' '{ msg = $3; gsub(/`[^`]*`/, "`_`", msg); key = $2 ": " msg
			if (!(key in n)) ex[key] = $2 ": " $3
			n[key]++; ks[key] = ks[key] " " $1 }
		END { for (key in n) printf "%d\t%s\t%s\t%s\n", n[key], key, ex[key], ks[key] }' "$B/failures.tsv" |
		sort -t '	' -k1,1nr -k2 >"$B/failures.txt"
	echo
	echo "failures by message (count, stage: message, e.g., kernels):"
	awk -F '\t' '{ printf "%4d  %s\n", $1, $2; if ($3 != $2) printf "      e.g. %s\n", $3; printf "      %s\n", $4 }' "$B/failures.txt"
fi
echo
echo "conformance: $pass passed, $fail failed ($(($(date +%s) - start)) s, mode $mode)"
[ "$fail" -eq 0 ]
