#!/bin/sh
# tests/fuzz/run.sh: random kernels (tools/mir-export/kernel-gen) through
# the whole pipeline, differentially checked against rustc's CPU code.
#
#   sh tests/fuzz/run.sh [--seeds N] [--start S] [--per-crate K] [options]
#
# Kernels gen_S .. gen_{S+N-1} are generated K to a crate under
# build/fuzz/kernels/; each crate is a conformance "group crate"
# (docs/conformance.md) and goes through the conformance machinery itself:
#   1. the CPU reference: tests/conformance/cpu-ref (its main.rs and
#      build.rs, through a manifest generated here over the fuzz crates);
#   2. mir-export of each crate (lib.sh export_group: a kernel mir-export
#      rejects fails alone, with its own error; the crate is built once,
#      and a rejected kernel is left out without a rebuild);
#   3. each crate at once (lib.sh batch_group): oxidec -> PTX and ptxas
#      -arch=sm_90 once, oxidec --target=host and cc -shared once, and one
#      harness.c process (oxrt's emulator) runs every kernel, each line
#      compared byte for byte with the CPU reference's. A kernel that fails
#      there, or that a compiler error names, is checked again alone by
#      tests/conformance/run-host.sh's worker, in compile mode (mirsplit,
#      oxidec -> PTX, ptxas), then in host mode (oxidec --target=host,
#      cc -shared, harness): each failure has its own message and files;
#   4. with --gpu, tests/conformance/run-gpu.sh on the PTX of the kernels
#      that passed (needs a GPU).
# Prints `PASS gen_N` or `FAIL gen_N: STAGE: message` per kernel, the
# failures grouped by message, then `fuzz: N passed, M failed`. A failing
# kernel is written again alone to build/fuzz/failed/gen_N/ (a crate with
# just that kernel: gen_N depends only on N and the feature options), with
# its results, and the line of its source is printed; the group crate of a
# failure is kept in build/fuzz/kernels/.
#
# With no arguments: seeds 0..23, 8 per crate (CI; about 20 s).
#
# Many kernels: 100 a crate. Each crate has a fixed cost (a cargo run,
# the layout probe, one oxidec, ptxas, cc and harness process each),
# while each kernel mir-export rejects costs a retry that reads the whole
# crate's MIR again: 100 balances the two. On two otherwise idle cores
#   sh tests/fuzz/run.sh --seeds 10000 --start 1000000 --per-crate 100 --gaps-ok
# takes about 25 minutes (7 kernels a second; a sixth of it the CPU
# reference, a third the exports, half the crates' compiles; longer where
# many kernels are rejected or checked alone), and build/fuzz holds up to
# about 2.5 GB meanwhile.
# FUZZ_DIR gives a run a directory of its own.
#
# Options:
#   --seeds N --start S --per-crate K   the kernels (defaults 24, 0, 8)
#   --disable F,.. / --enable F,..      kernel-gen features (kernel-gen --list-features)
#   --trap-rate N                       1 kernel in N may trap (default 50)
#   --gaps-ok   a construct that mir-export or oxidec cleanly reports as
#               not supported yet (error[OX0200]) or not possible on the
#               GPU (error[OX0300]) is a GAP, not a failure
#   --compile-only   no CPU reference and no host emulation
#   --gpu       also run the PTX on the GPU (tests/conformance/run-gpu.sh)
#   --gpu-artifacts   leave in build/fuzz what run-gpu.sh needs for a GPU
#               machine without Rust (GROUP.kernels, the kernels that
#               passed; GROUP.expected; their module for each GPU variant,
#               lib.sh GPU_VARIANTS: GROUP.O3.ptx, GROUP.O3.cubin,
#               GROUP.O0.ptx, GROUP.O0.cubin), all packed in
#               build/fuzz/gpu-pack.tar.xz: there, unpack it and run
#               CONF_BUILD=build/fuzz sh tests/conformance/run-gpu.sh
#   --keep      keep the crates and build products of passing kernels too
#   --no-batch  check every kernel alone (step 3 without the crate at
#               once: the same checks and messages, several times slower)
#   --crate DIR check an existing kernel crate instead of generating (to
#               reduce a failure by hand; repeatable; DIR's name is its
#               group name; its oxide-device dependency is repointed to
#               this tree's)
#
# Environment: as tests/conformance/run-host.sh (JOBS, MIR_EXPORT, OXIDEC,
# PTXAS, CC, CARGO); B (the build directory, build); KERNEL_GEN and
# OXIDE_RUNNER (tools/mir-export/oxide-runner: the BUG/GAP verdicts, from
# the error codes; default: built into $CARGO_TARGET, default $B/cargo);
# FUZZ_DIR (default build/fuzz: everything the run writes).
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$(pwd)
F=${FUZZ_DIR:-build/fuzz}

SEEDS=24 START=0 PER=8 FEATS="" GAPS_OK=0 GPU=0 GPU_ART=0 KEEP=0 CRATES="" MODE=auto BATCH=1
while [ $# -gt 0 ]; do
	case $1 in
	--seeds) SEEDS=$2; shift ;;
	--start) START=$2; shift ;;
	--per-crate) PER=$2; shift ;;
	--disable | --enable | --trap-rate) FEATS="$FEATS $1 $2"; shift ;;
	--gaps-ok) GAPS_OK=1 ;;
	--compile-only) MODE=compile ;;
	--gpu) GPU=1 GPU_ART=1 ;;
	--gpu-artifacts) GPU_ART=1 KEEP=1 ;;
	--keep) KEEP=1 ;;
	--no-batch) BATCH=0 ;;
	--crate) CRATES="$CRATES $(cd "$2" && pwd)" || exit 2; shift ;;
	-h | --help) awk 'NR > 1 && !/^#/ { exit } NR > 1' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "fuzz: unknown argument $1 (see --help)" >&2; exit 2 ;;
	esac
	shift
done
case "$SEEDS$START$PER" in *[!0-9]*) echo "fuzz: --seeds, --start, --per-crate take numbers" >&2; exit 2 ;; esac
[ "$PER" -ge 1 ] && [ "$SEEDS" -ge 1 ] || { echo "fuzz: --seeds and --per-crate must be >= 1" >&2; exit 2; }

# The conformance machinery with its build directory ($B) set to ours. Its
# sources stay tests/conformance ($CONF); the two steps that read group
# crates from $CONF/kernels (cpu_reference, export_group) run with CONF
# pointed at build/fuzz, where the fuzz crates are.
BUILD=${B:-build}    # make's build directory (lib.sh takes B for its own)
LIB=tests/conformance/lib.sh
RUN_HOST=tests/conformance/run-host.sh
for f in $LIB $RUN_HOST tests/conformance/cpu-ref/src/main.rs tests/conformance/cpu-ref/build.rs; do
	[ -f "$f" ] || { echo "fuzz: $f is missing: the conformance machinery is needed" >&2; exit 1; }
done
# results (expected lines, GPU modules) in $F, everything else in $F/work
CONF_BUILD=$F CONF_WORK=$F/work
export CONF_BUILD CONF_WORK
. "./$LIB"
W=${W:-$B}
[ "$B" = "$F" ] || { echo "fuzz: $LIB does not take CONF_BUILD" >&2; exit 1; }
[ -x "$MIR_EXPORT" ] || { echo "fuzz: $MIR_EXPORT is missing: run make" >&2; exit 1; }
[ -x "$OXIDEC" ] || { echo "fuzz: $OXIDEC is missing: run make" >&2; exit 1; }
JOBS=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
export JOBS
start_time=$(date +%s)

# ------------------------------------------------------------- the crates
CT=${CARGO_TARGET:-$BUILD/cargo}
KG=${KERNEL_GEN:-$CT/release/kernel-gen}
RUNNER=${OXIDE_RUNNER:-$CT/release/oxide-runner}
if [ -z "${KERNEL_GEN:-}" ] && [ -z "$CRATES" ]; then
	"$CARGO" build --release --offline --quiet --manifest-path tools/mir-export/Cargo.toml \
		--target-dir "$CT" -p kernel-gen || { echo "fuzz: cannot build kernel-gen" >&2; exit 1; }
fi
if [ -z "${OXIDE_RUNNER:-}" ]; then
	"$CARGO" build --release --offline --quiet --manifest-path tools/mir-export/Cargo.toml \
		--target-dir "$CT" -p oxide-runner || { echo "fuzz: cannot build oxide-runner" >&2; exit 1; }
fi

# everything but failed/ (reproducers of earlier runs), the C tools and
# cpu-ref-target/ (cargo's incremental state)
for x in "$F"/* "$W"/*; do
	case ${x##*/} in failed | work | cpu-ref-target | tools) ;; *) rm -rf "$x" ;; esac
done
mkdir -p "$F/kernels" "$F/failed" "$W"
# generated crates name oxide-device by absolute path: they are copied
# to the suite's work directories
DEVICE="--device-dir $ROOT/tools/mir-export/oxide-device"
# export_group copies the suite's common.rs next to the groups (unused by
# the generated crates, which carry their own digest helpers)
cp "$CONF/kernels/common.rs" "$F/kernels/common.rs"

groups_list=""
: >"$F/fuzz.list"
for c in $CRATES; do
	g=$(basename "$c")
	mkdir -p "$F/kernels/$g"
	# its oxide-device by absolute path, as for generated crates
	sed "s#^oxide-device *= *{ *path *= *\"[^\"]*\"#oxide-device = { path = \"$ROOT/tools/mir-export/oxide-device\"#" \
		"$c/Cargo.toml" >"$F/kernels/$g/Cargo.toml"
	[ -f "$c/Cargo.lock" ] && cp "$c/Cargo.lock" "$F/kernels/$g/"
	cp -R "$c/src" "$F/kernels/$g/"
	groups_list="$groups_list $g"
	awk '/^[ \t]*#\[kernel\]/ { k = 1; next } k && /pub fn / { n = $0; sub(/.*pub fn /, "", n); sub(/[^A-Za-z0-9_].*/, "", n); print n; k = 0 }' \
		"$c/src/lib.rs" | grep . | sed "s/^/$g /" >>"$F/fuzz.list"
	grep -q "^$g " "$F/fuzz.list" || { echo "fuzz: no \`#[kernel]\` + \`pub fn NAME\` in $c/src/lib.rs" >&2; exit 1; }
done
s=$START
end=$((START + SEEDS))
[ -n "$CRATES" ] && end=$s
while [ $s -lt $end ]; do
	k=$PER
	[ $((s + k)) -gt $end ] && k=$((end - s))
	g="fuzz_${s}_$k"
	# shellcheck disable=SC2086
	"$KG" --seed "$s" --count "$k" --out "$F/kernels/$g" $DEVICE $FEATS || { echo "fuzz: kernel-gen failed" >&2; exit 1; }
	groups_list="$groups_list $g"
	j=0
	while [ $j -lt $k ]; do
		echo "$g gen_$((s + j))" >>"$F/fuzz.list"
		j=$((j + 1))
	done
	s=$((s + k))
done
if [ -n "$CRATES" ]; then
	echo "fuzz: crates$CRATES"
else
	echo "fuzz: kernels gen_$START..gen_$((end - 1)), $PER per crate, in $F/kernels$FEATS"
fi

# ------------------------------------------------------- what can be checked
missing=""
build_tools
if [ "$MODE" = auto ]; then
	MODE=host
	if ! "$OXIDEC" --help 2>&1 | grep -q -- '--target='; then
		MODE=compile
		missing="$missing
  oxidec has no --target=host (host emulation)"
	elif [ ! -f src/runtime/oxemu.c ]; then
		MODE=compile
		missing="$missing
  src/runtime/oxemu.c (oxrt's host emulation) is missing"
	elif ! (build_harness) >"$F/harness.log" 2>&1; then
		MODE=compile
		missing="$missing
  the C harness does not build ($F/harness.log): $(first_error "$F/harness.log")"
	fi
fi

# The CPU reference over our crates: the suite's main.rs and build.rs,
# the suite's [profile.release] (its semantics) verbatim.
if [ "$MODE" = host ]; then
	mkdir -p "$F/cpu-ref"
	{
		echo "# Generated by tests/fuzz/run.sh: the conformance CPU reference over the fuzz crates."
		echo "[package]"
		echo "name = \"conformance-cpu-ref\""
		echo "version = \"0.1.0\""
		echo "edition = \"2021\""
		echo "publish = false"
		echo "build = \"$ROOT/$CONF/cpu-ref/build.rs\""
		echo
		echo "[[bin]]"
		echo "name = \"conformance-cpu-ref\""
		echo "path = \"$ROOT/$CONF/cpu-ref/src/main.rs\""
		echo
		echo "[dependencies]"
		echo "oxide-device = { path = \"$ROOT/tools/mir-export/oxide-device\" }"
		for g in $groups_list; do
			echo "$g = { path = \"../kernels/$g\" }"
		done
		echo
		echo "[workspace]"
		echo
		awk '/^\[profile\.release\]/ { p = 1; print; next } /^\[/ { p = 0 } p' "$CONF/cpu-ref/Cargo.toml"
	} >"$F/cpu-ref/Cargo.toml"
	if ! (CONF=$F; cpu_reference) >"$F/cpu-ref.log" 2>&1; then
		MODE=compile
		missing="$missing
  the CPU reference did not build or run ($F/cpu-ref.log): $(first_error "$F/cpu-ref.log")"
	fi
fi
# the list of kernels is ours (the CPU reference's is the same when it ran)
cp "$F/fuzz.list" "$W/kernels.list"
[ -x "$PTXAS" ] || missing="$missing
  ptxas ($PTXAS): PTX is not validated"
if [ $GPU_ART -eq 1 ] && [ "$MODE" != host ]; then
	missing="$missing
  --gpu and --gpu-artifacts need the CPU reference"
	GPU=0 GPU_ART=0
fi
if [ -n "$missing" ]; then
	echo "fuzz: checks that cannot run:$missing"
fi
if [ "$MODE" = host ]; then
	echo "fuzz: checks: export, oxidec + ptxas, host emulation vs CPU reference$([ $GPU -eq 1 ] && echo ", GPU vs CPU reference")"
else
	echo "fuzz: checks: export, oxidec + ptxas (compile only: no differential comparison)"
fi

# ------------------------------------------------------------ the kernels
for g in $groups_list; do
	mkdir -p "$W/$g"
done
# oxide-device built once for every export (a copy in each)
# shellcheck disable=SC2086
(CONF=$F; set -- $groups_list; export_deps_template "$1")
echo "$groups_list" | tr ' ' '\n' | grep . |
	xargs -P "$JOBS" -I{} sh -c '. "./$1"; CONF=$2; export_group "$3"' sh "$LIB" "$F" {}

# A crate-wide export failure (no src/lib.rs line to blame: MIR that
# mir-export cannot parse, say) fails every kernel of the group. Those
# kernels are exported again, each in a crate of its own.
split=""
if [ -z "$CRATES" ]; then
	for g in $groups_list; do
		[ -s "$W/$g.export-errors" ] || continue
		ks=$(awk -F '\t' '$2 !~ /^src\/lib\.rs:[0-9]/ { print $1 }' "$W/$g.export-errors")
		[ "$(echo "$ks" | grep -c .)" -ge 2 ] || continue
		for k in $ks; do
			seed=${k#gen_}
			ng="fuzz_${seed}_1"
			# shellcheck disable=SC2086
			"$KG" --seed "$seed" --count 1 --out "$F/kernels/$ng" $DEVICE $FEATS || continue
			[ -f "$B/$g.expected" ] && grep "^$k " "$B/$g.expected" >"$B/$ng.expected"
			mkdir -p "$W/$ng"
			echo "$g $k $ng" >>"$F/split.list"
			split="$split $ng"
		done
	done
fi
if [ -n "$split" ]; then
	awk 'NR == FNR { to[$1 " " $2] = $3; next } ($1 " " $2) in to { print to[$1 " " $2], $2; next } { print }' \
		"$F/split.list" "$W/kernels.list" >"$W/kernels.list.new" && mv "$W/kernels.list.new" "$W/kernels.list"
	echo "fuzz: $(echo $split | wc -w) kernels of crate-wide export failures exported again alone"
	echo "$split" | tr ' ' '\n' | grep . |
		xargs -P "$JOBS" -I{} sh -c '. "./$1"; CONF=$2; export_group "$3"' sh "$LIB" "$F" {}
	groups_list="$groups_list$split"
fi
# the target directories (rustc's MIR: 10 MB a group) were only a cache
rm -rf "$W"/export/*/target "$W/export/.deps"
echo "fuzz: exported ($(($(date +%s) - start_time)) s)"

# Batch path (lib.sh batch_group): a group's exported kernels compiled
# together, once for the GPU (oxidec + ptxas) and once for the host
# (oxidec --target=host + cc -shared), then one harness process runs
# them all from the group's .so. A kernel an error names is taken out
# and the rest compiled again (a failure that names none splits the set
# in two); the kernels that pass get $W/GROUP/NAME.compile and .result
# as from the workers, the others are checked alone below (each failure
# with its own message and files).
if [ $BATCH -eq 1 ]; then
	echo "$groups_list" | tr ' ' '\n' | grep . |
		xargs -P "$JOBS" -I{} sh -c '. "./$1"; batch_group "$2" "$3"' sh "$LIB" "$MODE" {}
	n=0
	while read -r g k; do
		[ -f "$W/$g/$k.compile" ] && n=$((n + 1))
	done <"$W/kernels.list"
	echo "fuzz: batch compile and run: $n kernels passed, the others are checked alone ($(($(date +%s) - start_time)) s)"
fi

# compile mode for every kernel the batch did not settle, then host mode
# for those that compiled (the worker writes $F/GROUP/NAME.result: "PASS
# ..." or "FAIL ..." then "STAGE<TAB>message")
while read -r g k; do
	[ -f "$W/$g/$k.compile" ] || echo "compile $g $k"
done <"$W/kernels.list" >"$F/compile.todo"
[ -s "$F/compile.todo" ] && xargs -P "$JOBS" -L 1 sh "$RUN_HOST" --kernel <"$F/compile.todo"
: >"$F/host.todo"
while read -r _ g k; do
	r="$W/$g/$k.result"
	[ -f "$r" ] && mv "$r" "$W/$g/$k.compile"
	case $(head -n 1 "$W/$g/$k.compile" 2>/dev/null) in
	PASS*) echo "host $g $k" >>"$F/host.todo" ;;
	esac
done <"$F/compile.todo"
if [ "$MODE" = host ] && [ -s "$F/host.todo" ]; then
	xargs -P "$JOBS" -L 1 sh "$RUN_HOST" --kernel <"$F/host.todo"
fi

# --gpu: the group modules of the kernels that passed, run-gpu.sh on them
gpu_groups=""
if [ $GPU_ART -eq 1 ]; then
	for g in $groups_list; do
		: >"$F/$g.kernels"
		for k in $(kernels_of "$g"); do
			case $(head -n 1 "$W/$g/$k.result" 2>/dev/null) in PASS*) echo "$k" >>"$F/$g.kernels" ;; esac
		done
		[ -s "$F/$g.kernels" ] || continue
		# shellcheck disable=SC2046
		if "$W/tools/mirsplit" "$W/$g.mir.json" "$W/$g/all.mir.json" $(cat "$F/$g.kernels") >"$W/$g/all.log" 2>&1; then
			gpu_groups="$gpu_groups $g"
		else
			echo "fuzz: mirsplit of the module of $g failed: $(first_error "$W/$g/all.log")"
		fi
	done
	# every GPU variant's module (lib.sh gpu_modules), in parallel
	# shellcheck disable=SC2086
	[ -n "$gpu_groups" ] && printf '%s\n' $gpu_groups | xargs -P "$JOBS" -I{} sh "$RUN_HOST" --gpu-modules {}
	for g in $gpu_groups; do
		for v in $GPU_VARIANTS; do
			m=$(variant_module "$g" "$v")
			[ -s "$m.failed" ] && echo "fuzz: $(grep -c . "$m.failed") kernels of $g do not compile at $v, e.g. $(head -n 1 "$m.failed")"
		done
	done
	[ -z "$gpu_groups" ] || gpu_pack "$F/gpu-pack.tar.xz"
fi
if [ $GPU -eq 1 ]; then
	# shellcheck disable=SC2086
	[ -n "$gpu_groups" ] && sh tests/conformance/run-gpu.sh $gpu_groups >"$F/gpu.log" 2>&1
	echo "fuzz: GPU: $(tail -n 1 "$F/gpu.log" 2>/dev/null)"
fi

# -------------------------------------------------------------- verdicts

# BUG unless a tool cleanly rejected a construct it does not support yet
# (oxide-runner verdict: by the error code of the first error line,
# OX0200 or OX0300, and the tool's exit status; never by the text).
classify() {  # stage message [status]
	printf '%s\n' "$2" | "$RUNNER" verdict ${3:+--status "$3"} "$1" - || echo BUG
}

kernel_line() {  # crate-dir seed
	grep -n "^/// Random kernel $2[ ,(]" "$1/src/lib.rs" | head -n 1 | cut -d: -f1
}

pass=0 fail=0 gaps=0
: >"$F/failures.tsv"
kept=""
while read -r g k; do
	[ -n "$g" ] && [ -n "$k" ] || continue
	r="$W/$g/$k.result"
	[ -f "$r" ] || r="$W/$g/$k.compile"
	head="" line2=""
	# shell builtins only (one line per kernel of 10,000)
	[ -f "$r" ] && { IFS= read -r head; IFS= read -r line2; } <"$r"
	stage=${line2%%"	"*}
	msg=${line2#*"	"}
	case $head in
	PASS*)
		if [ $GPU -eq 1 ]; then
			# a failure at any variant first
			gl=$(grep -m1 "^FAIL $g/${k}[: ]" "$F/gpu.log" 2>/dev/null || grep -m1 "^[A-Z]* $g/${k}[: ]" "$F/gpu.log" 2>/dev/null)
			case $gl in
			PASS*) ;;
			*) head="FAIL $g/$k: gpu: ${gl#*: }" stage=gpu msg=${gl#*: } ;;
			esac
		fi
		;;
	"")
		head="FAIL $g/$k: no result (the worker crashed)" stage=worker msg="no result" ;;
	esac
	case $head in
	PASS*)
		pass=$((pass + 1))
		echo "PASS $k"
		[ ! -e "$F/failed/$k" ] || rm -rf "${F:?}/failed/${k:?}"
		continue
		;;
	esac
	[ "$stage" = run ] && stage="host emulation"
	case $msg in
	*:) # e.g. "LLVM module is invalid ...:": what LLVM said is a detail line
		msg="$msg $(sed -n '3,$p' "$r" | sed 's/^ *//' | grep -v -F -e "${msg#*: }" | grep -m1 .)" ;;
	esac
	# the result's first line holds the tool's first error line (its code)
	kind=$(classify "$stage" "$head" "$(cat "$W/$g/$k.status" 2>/dev/null)")
	[ "$kind" = GAP ] && [ $GAPS_OK -eq 1 ] && tag=GAP || tag=FAIL
	# paths of one run's files out of the message (for grouping)
	msg=$(printf '%s' "$msg" | sed -e 's#^[^ ]*\.mir:[0-9]*: ##' -e 's#^[^ ]*\.mir\.json: [^ ]*: ##' -e 's/^error: //')
	printf '%s\t%s\t%s\t%s\n' "$k" "$kind" "$stage" "$msg" >>"$F/failures.tsv"
	echo "$tag $k: ${head#*: }"
	sed -n '3,$p' "$r" | grep -v -F -e "${head#*: *: }" | head -n 4
	if [ $tag = GAP ]; then
		gaps=$((gaps + 1))
		continue
	fi
	fail=$((fail + 1))
	case " $kept " in *" $g "*) ;; *) kept="$kept $g" ;; esac
	seed=${k#gen_}
	rm -rf "${F:?}/failed/${k:?}"
	case $seed in *[!0-9]* | "") continue ;; esac
	[ -n "$CRATES" ] && continue
	# shellcheck disable=SC2086
	if "$KG" --seed "$seed" --count 1 --out "$F/failed/$k" $DEVICE $FEATS 2>/dev/null; then
		for x in compile result log actual ptx; do
			[ -f "$W/$g/$k.$x" ] && cp "$W/$g/$k.$x" "$F/failed/$k/"
		done
		grep "^$k " "$F/$g.expected" >"$F/failed/$k/expected" 2>/dev/null
		echo "    seed $seed: $F/failed/$k/src/lib.rs:$(kernel_line "$F/failed/$k" "$seed") (kernel-gen --seed $seed$FEATS)"
	fi
done <"$W/kernels.list"

# Failures by message: what the compilers need next.
if [ -s "$F/failures.tsv" ]; then
	echo
	echo "fuzz: failures by message (count, BUG/GAP, stage: message, kernels):"
	# grouped with type arguments, array lengths and generated names blurred
	sed -E -e ':a' -e 's/<[^<>]*>/(T)/' -e 'ta' -e 's/; [0-9]+\]/; N]/g' -e 's/\b([SEfm])[0-9]+_[0-9]+\b/\1N_N/g' \
		-e 's/src\/lib\.rs:[0-9]+:[0-9]+(: [0-9]+:[0-9]+)?/src\/lib.rs:L/g' -e 's/\b_[0-9]+\b/_N/g' "$F/failures.tsv" |
	awk -F '\t' '{ key = $2 "\t" $3 ": " $4; n[key]++; if (n[key] <= 8) ks[key] = ks[key] " " $1; else if (n[key] == 9) ks[key] = ks[key] " ..." }
		END { for (key in n) printf "%d\t%s\t%s\n", n[key], key, ks[key] }' |
		sort -t '	' -k1,1nr -k3 | awk -F '\t' '{ printf "%4d  %s  %s\n       %s\n", $1, $2, substr($3, 1, 240), $4 }'
fi

# keep what failed, drop the rest
if [ $KEEP -eq 0 ]; then
	for g in $groups_list; do
		[ -n "$g" ] || continue
		case " $kept " in *" $g "*) continue ;; esac
		rm -rf "${W:?}/$g" "$W/export/$g" "$W/work/$g" "$W/$g".* "$F/kernels/$g" "${F:?}/$g".*
	done
fi
if [ $GPU_ART -eq 1 ] && [ $GPU -eq 0 ] && [ -n "$gpu_groups" ]; then
	echo
	echo "fuzz: GPU artifacts in $F ($(echo $gpu_groups | wc -w) groups, variants $GPU_VARIANTS), packed in $F/gpu-pack.tar.xz ($(du -k "$F/gpu-pack.tar.xz" | cut -f1) KiB);"
	echo "on the GPU machine, with the tree and that file: tar -xJf $F/gpu-pack.tar.xz, then"
	echo "  CONF_BUILD=$F sh tests/conformance/run-gpu.sh$gpu_groups"
fi
echo
if [ $GAPS_OK -eq 1 ]; then
	echo "fuzz: $pass passed, $fail failed, $gaps gaps ($(($(date +%s) - start_time)) s)"
else
	echo "fuzz: $pass passed, $fail failed ($(($(date +%s) - start_time)) s)"
fi
[ $fail -eq 0 ]
