# tests/conformance/lib.sh: the small helpers shared by run-host.sh,
# build-gpu.sh and run-gpu.sh, and used by oxide-runner fuzz (sourced,
# from the repository root). The batch exporter and the fuzz runner are
# tools/mir-export/oxide-runner.
#
# Results, small enough to carry to a GPU machine ($B, build/conformance):
#   GROUP.expected            the CPU reference's lines
#   GROUP.ptx, GROUP.kernels  (compile mode with --gpu-artifacts) the
#                             kernels that compiled, and their names
#   failures.tsv, failures.txt  why the others failed, grouped by message
# Everything else ($W, build/conformance-work):
#   tools/mirsplit, tools/harness   the C tools
#   cpu-ref-target/                 cargo's target dir of the CPU reference
#   kernels.list                    "GROUP NAME" of every kernel
#   export/GROUP/                   the group crate as exported (kernels
#                                   that mir-export rejects left out)
#   GROUP.mir.json                  the export; GROUP.export-errors:
#                                   "NAME<TAB>message" of those left out
#   GROUP/NAME.*                    one kernel: JSON, PTX / .o / .so, logs
#
# Environment: MIR_EXPORT, OXIDEC, PTXAS, CC, CARGO, CONF_BUILD (= $B),
# CONF_WORK (= $W), OXIDE_RUNNER, CARGO_TARGET.

CONF=tests/conformance
B=${CONF_BUILD:-build/conformance}
W=${CONF_WORK:-build/conformance-work}
MIR_EXPORT=${MIR_EXPORT:-build/bin/mir-export}
OXIDEC=${OXIDEC:-build/bin/oxidec}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
PTXAS=${PTXAS:-$CUDA_HOME/bin/ptxas}
CC=${CC:-cc}
CARGO=${CARGO:-cargo}

conf_die() {
	echo "conformance: $*" >&2
	exit 1
}

# The first line of a log that says "error", else its first line.
first_error() {
	line=$(grep -m1 -i 'error' "$1")
	[ -n "$line" ] || line=$(head -n 1 "$1")
	printf '%s' "$line" | cut -c1-400
}

# mirsplit and (when oxrt is there) harness.
build_tools() {
	mkdir -p "$W/tools"
	if [ ! -x "$W/tools/mirsplit" ] || [ "$CONF/mirsplit.c" -nt "$W/tools/mirsplit" ]; then
		$CC -O2 -std=c11 -o "$W/tools/mirsplit" "$CONF/mirsplit.c" -lcjson ||
			conf_die "cannot build mirsplit (needs cJSON: libcjson-dev)"
	fi
}

# The C harness, with both backends of the runtime (the driver's and the
# emulator's: oxrt.c picks one per module).
build_harness() {
	mkdir -p "$W/tools"
	$CC -O2 -std=c11 -rdynamic -o "$W/tools/harness" "$CONF/harness.c" \
		src/runtime/oxrt.c src/runtime/oxcuda.c src/runtime/oxemu.c \
		-ldl -lm -lpthread ||
		conf_die "cannot build the harness"
}

# CPU reference: one cargo build (every group crate once), then the
# expected lines of every group and the list of kernels.
cpu_reference() {
	"$CARGO" build --release --offline --quiet \
		--manifest-path "$CONF/cpu-ref/Cargo.toml" \
		--target-dir "$W/cpu-ref-target" ||
		conf_die "the CPU reference does not build"
	ref="$W/cpu-ref-target/release/conformance-cpu-ref"
	mkdir -p "$B"
	"$ref" --list >"$W/kernels.list" || conf_die "cpu-ref --list failed"
	"$ref" --out "$B" || conf_die "the CPU reference failed"
}

# A compiler message without its location and prefixes, for grouping.
normalise() {
	printf '%s' "$1" | sed -e 's/^oxidec: //' -e 's/^mir-export: //' -e 's/^error\(\[OX[0-9]*\]\)\{0,1\}: //' \
		-e 's/^[^ ]*:[0-9][0-9]*:[0-9][0-9]*: //' -e 's/^[^ ]*\.json: [^ ]*: //' \
		-e 's/^error\(\[OX[0-9]*\]\)\{0,1\}: //' -e 's/^in [A-Za-z0-9_]*: //' -e 's/^ptxas [^,]*, line [0-9]*; //'
}

# "PASS g/k", or "FAIL g/k: ..." + "run<TAB>what" + the differences, for
# the actual line $3 against the CPU reference's.
compare_line() {   # group name actual-line
	want=$(awk -v k="$2" '$1 == k { print; exit }' "$B/$1.expected")
	if [ "$3" = "$want" ]; then
		echo "PASS $1/$2"
		return
	fi
	printf '%s\n%s\n' "$want" "$3" | awk -v gk="$1/$2" '
		NR == 1 { n = split($0, w, " ") } NR == 2 { m = split($0, a, " ") }
		END {
			if (a[2] == "error") {
				msg = a[3]; for (i = 4; i <= m; i++) msg = msg " " a[i]
				printf "FAIL %s: %s\nrun\terror: %s\n", gk, msg, msg; exit
			}
			if (m == 0) { printf "FAIL %s: no output\nrun\tno output\n", gk; exit }
			if (w[2] != a[2]) {
				printf "FAIL %s: expected %s, got %s\nrun\texpected %s, got %s\n", gk, w[2], a[2], w[2], a[2]; exit
			}
			bad = 0
			for (i = 3; i <= n; i++) if (w[i] != a[i]) bad++
			printf "FAIL %s: %d of %d words differ\nrun\twrong result\n", gk, bad, n - 2
			shown = 0
			for (i = 3; i <= n && shown < 4; i++) if (w[i] != a[i]) {
				printf "    out[%d]: expected %s, got %s\n", i - 3, w[i], a[i]; shown++
			}
		}'
}

groups() {
	if [ -n "${CONF_GROUPS:-}" ]; then
		echo $CONF_GROUPS
	else
		for d in "$CONF"/kernels/*/; do
			[ -f "$d/Cargo.toml" ] && basename "$d"
		done
	fi
}

kernels_of() {
	awk -v g="$1" '$1 == g { print $2 }' "$W/kernels.list"
}

# oxide-runner (tools/mir-export/oxide-runner): the batch exporter and
# the fuzz runner; make builds it (make check passes OXIDE_RUNNER).
runner_given=${OXIDE_RUNNER:+1}
OXIDE_RUNNER=${OXIDE_RUNNER:-${CARGO_TARGET:-build/cargo}/release/oxide-runner}

# oxide-runner built unless OXIDE_RUNNER names one (a no-op when it is
# fresh); exports OXIDE_RUNNER for the workers.
need_runner() {
	export OXIDE_RUNNER
	[ -n "$runner_given" ] && return 0
	"$CARGO" build --release --offline --quiet --manifest-path tools/mir-export/Cargo.toml \
		--target-dir "${CARGO_TARGET:-build/cargo}" -p oxide-runner || conf_die "cannot build oxide-runner"
}

# mir-export of one group (oxide-runner export-group): a construct
# mir-export rejects fails only the kernels that use it, each left out
# with its error in $W/GROUP.export-errors ("NAME<TAB>message"), the
# others exported into $W/GROUP.mir.json; the copy of the crate in
# $W/export/GROUP/ (docs/conformance.md, "The batch exporter").
export_group() {   # group
	"$OXIDE_RUNNER" export-group --kernels "$CONF/kernels" "$1"
}

# The export error of kernel $2 of group $1, or nothing.
export_error() {
	awk -F '\t' -v k="$2" '$1 == k { print $2; exit }' "$W/$1.export-errors"
}

# ------------------------------------------------------------ GPU variants

# What run-gpu.sh runs: optimisation level / module kind. Every group gets
# a module for each (gpu_modules); .cubin is made here by oxidec (nvJitLink),
# .ptx is JIT-compiled by the driver there.
GPU_VARIANTS=${GPU_VARIANTS:-"O3/ptx O3/cubin O0/ptx O0/cubin"}

# The module of group $1 for variant $2: $B/GROUP.O3.ptx, ...
variant_module() {   # group variant
	printf '%s/%s.%s.%s' "$B" "$1" "${2%/*}" "${2#*/}"
}

# oxidec -O$3 of JSON $1 to module $2 (a PTX module must pass ptxas too;
# a .so is a host-emulation module, to test run-gpu.sh without a GPU),
# its messages in log $4; status 1 (and no module) when that fails.
gpu_module_try() {   # json module level log
	case $2 in
	*.so)
		"$OXIDEC" --target=host "-$3" "$1" -o "$2.o" >"$4" 2>&1 && $CC -shared "$2.o" -o "$2" -lm >>"$4" 2>&1
		st=$?
		rm -f "$2.o"
		[ $st -eq 0 ] || rm -f "$2"
		return $st
		;;
	esac
	"$OXIDEC" "-$3" "$1" -o "$2" >"$4" 2>&1 || { rm -f "$2"; return 1; }
	case $2 in
	*.ptx)
		[ -x "$PTXAS" ] || return 0
		"$PTXAS" -arch=sm_90 "$2" -o "$2.cubin" >>"$4" 2>&1 || { rm -f "$2" "$2.cubin"; return 1; }
		rm -f "$2.cubin"
		;;
	esac
}

# The modules of group $1 for every variant, of the kernels in
# $B/GROUP.kernels ($W/GROUP/all.mir.json holds them). A kernel that does
# not compile at a variant is left out of that variant's module and
# listed in MODULE.failed ("NAME<TAB>message", for run-gpu.sh); the
# module is made of the others. Run it in a subshell (sh has no locals).
gpu_modules() {   # group
	g=$1
	for v in $GPU_VARIANTS; do
		m=$(variant_module "$g" "$v")
		lvl=${v%/*} ext=${v#*/}
		rm -f "$m" "$m.failed"
		gpu_module_try "$W/$g/all.mir.json" "$m" "$lvl" "$W/$g/all.$lvl.$ext.log" && continue
		# find the kernels that fail alone
		good=""
		for k in $(cat "$B/$g.kernels"); do
			one="$W/$g/$k.one"
			if "$W/tools/mirsplit" "$W/$g.mir.json" "$one.json" "$k" >"$one.log" 2>&1 &&
				gpu_module_try "$one.json" "$one.$ext" "$lvl" "$one.log"; then
				good="$good $k"
			else
				printf '%s\t%s\n' "$k" "$(first_error "$one.log")" >>"$m.failed"
			fi
			rm -f "$one.json" "$one.$ext"
		done
		[ -n "$good" ] || continue
		# shellcheck disable=SC2086 # a list of names
		"$W/tools/mirsplit" "$W/$g.mir.json" "$W/$g/good.json" $good >"$W/$g/good.log" 2>&1 &&
			gpu_module_try "$W/$g/good.json" "$m" "$lvl" "$W/$g/good.log" ||
			printf '%s\t%s\n' "*" "the module of the kernels that compile alone does not: $(first_error "$W/$g/good.log")" >>"$m.failed"
	done
}

# Packs the GPU artifacts of $B (expected lines, kernel lists, modules,
# failure lists) into $1 (.tar.xz), paths relative to the tree's root,
# under directory $2 (default $B) there.
gpu_pack() {   # archive [dir]
	mkdir -p "$(dirname "$1")"
	(cd "$B" && ls | grep -E '\.(expected|kernels|ptx|cubin|failed)$|^failures\.tsv$') |
		tar -cJf "$1" -C "$B" --transform "s#^#${2:-$B}/#" -T - || conf_die "cannot pack $1"
}
