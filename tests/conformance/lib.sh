# tests/conformance/lib.sh: shared by run-host.sh, build-gpu.sh and
# run-gpu.sh (sourced, from the repository root).
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
# CONF_WORK (= $W).

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

# The C harness; $1 = "host" also links the emulator (oxemu.c).
build_harness() {
	mkdir -p "$W/tools"
	emu=""
	[ -f src/runtime/oxemu.c ] && emu="src/runtime/oxemu.c"
	$CC -O2 -std=c11 -rdynamic -o "$W/tools/harness" "$CONF/harness.c" \
		src/runtime/oxrt.c $emu -ldl -lm -lpthread ||
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
	printf '%s' "$1" | sed -e 's/^oxidec: //' -e 's/^mir-export: //' -e 's/^error: //' \
		-e 's/^[^ ]*:[0-9][0-9]*:[0-9][0-9]*: //' -e 's/^[^ ]*\.json: [^ ]*: //' \
		-e 's/^error: //' -e 's/^in [A-Za-z0-9_]*: //' -e 's/^ptxas [^,]*, line [0-9]*; //'
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

# lib.rs with "#[kernel]" turned into a comment for the kernels named in
# $2 (space separated), so that they are plain functions that mir-export
# does not export; line numbers are kept.
strip_kernels() {   # src dst "names"
	awk -v skip=" $3 " '
		/^[ \t]*#\[kernel\][ \t]*$/ { held = 1; buf = ""; next }
		held && /^[ \t]*#\[/ { buf = buf $0 "\n"; next }
		held { name = $0; sub(/^[ \t]*pub fn /, "", name); sub(/[^A-Za-z0-9_].*/, "", name)
		       print (index(skip, " " name " ") ? "// #[kernel] (left out)" : "#[kernel]")
		       printf "%s", buf; held = 0 }
		{ print }' "$1" >"$2.tmp" && mv "$2.tmp" "$2"
}

# The kernel whose definition spans line $2 of lib.rs $1 (from its
# "#[kernel]" to the first "}" in column 0), or nothing.
kernel_at_line() {
	awk -v L="$2" '
		/^[ \t]*(\/\/ )?#\[kernel\]/ { inker = 1; start = NR; name = ""; next }
		inker && name == "" && /^pub fn / { name = $0; sub(/^pub fn /, "", name); sub(/[^A-Za-z0-9_].*/, "", name); next }
		inker && /^}/ { if (L >= start && L <= NR) { print name; exit } inker = 0 }' "$1"
}

run_mir_export() {  # workdir json log
	"$MIR_EXPORT" "$1" -o "$2" >"$3" 2>&1
}

# mir-export of one group. A construct mir-export rejects fails only the
# kernels that use it: the kernel around the reported line is left out
# and the export retried; when the line is not inside a kernel, every
# kernel is exported alone to find the failing ones.
export_group() {
	g=$1
	work="$W/export/$g"
	json="$W/$g.mir.json"
	errs="$W/$g.export-errors"
	log="$W/export/$g.log"
	mkdir -p "$work/src"
	cp "$CONF/kernels/common.rs" "$W/export/common.rs"
	# The path of oxide-device made absolute: $W may be anywhere.
	sed "s#^oxide-device = { path = \"[^\"]*\" }#oxide-device = { path = \"$(pwd)/tools/mir-export/oxide-device\" }#" \
		"$CONF/kernels/$g/Cargo.toml" >"$work/Cargo.toml"
	[ -f "$CONF/kernels/$g/Cargo.lock" ] && cp "$CONF/kernels/$g/Cargo.lock" "$work/"
	cp -R "$CONF/kernels/$g/src/." "$work/src/"
	cp "$work/src/lib.rs" "$work/lib.rs.orig"
	all=$(kernels_of "$g" | tr '\n' ' ')
	skip=""
	: >"$errs"
	rm -f "$json"
	while :; do
		strip_kernels "$work/lib.rs.orig" "$work/src/lib.rs" "$skip"
		left=0
		for k in $all; do case " $skip " in *" $k "*) ;; *) left=$((left + 1)) ;; esac; done
		[ $left -eq 0 ] && return 0
		if run_mir_export "$work" "$json" "$log"; then
			return 0
		fi
		msg=$(first_error "$log")
		line=$(printf '%s' "$msg" | sed -n 's/^src\/lib\.rs:\([0-9][0-9]*\):.*/\1/p')
		k=""
		[ -n "$line" ] && k=$(kernel_at_line "$work/lib.rs.orig" "$line")
		case " $skip " in *" $k "*) k="" ;; esac
		if [ -n "$k" ]; then
			printf '%s\t%s\n' "$k" "$msg" >>"$errs"
			skip="$skip $k"
			continue
		fi
		# Not attributable: export each remaining kernel alone.
		for k in $all; do
			case " $skip " in *" $k "*) continue ;; esac
			others=$(echo "$all" | tr ' ' '\n' | grep -vx "$k" | tr '\n' ' ')
			strip_kernels "$work/lib.rs.orig" "$work/src/lib.rs" "$others"
			if ! run_mir_export "$work" "$W/export/$g.one.json" "$log"; then
				printf '%s\t%s\n' "$k" "$(first_error "$log")" >>"$errs"
				skip="$skip $k"
			fi
		done
		rm -f "$W/export/$g.one.json"
		strip_kernels "$work/lib.rs.orig" "$work/src/lib.rs" "$skip"
		left=0
		for k in $all; do case " $skip " in *" $k "*) ;; *) left=$((left + 1)) ;; esac; done
		[ $left -eq 0 ] && return 0
		if ! run_mir_export "$work" "$json" "$log"; then
			msg=$(first_error "$log")
			for k in $all; do
				case " $skip " in *" $k "*) continue ;; esac
				printf '%s\t%s\n' "$k" "export of the group failed: $msg" >>"$errs"
			done
			rm -f "$json"
		fi
		return 0
	done
}

# The export error of kernel $2 of group $1, or nothing.
export_error() {
	awk -F '\t' -v k="$2" '$1 == k { print $2; exit }' "$W/$1.export-errors"
}
