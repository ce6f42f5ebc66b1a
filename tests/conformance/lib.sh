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

run_mir_export() {  # workdir json log [option...]
	w=$1 j=$2 l=$3
	shift 3
	"$MIR_EXPORT" "$w" -o "$j" "$@" >"$l" 2>&1
}

# rustc's MIR of the crate in export work dir $1 (mir-export's target
# directory holds one), or status 1.
export_mir_file() {
	_w=$1
	set -- "$1"/target/mir-export/*/deps/*.mir
	# one, and written since export_group made the copy of the crate
	[ $# -eq 1 ] && [ -f "$1" ] && [ "$1" -nt "$_w/lib.rs.orig" ] && printf '%s\n' "$1"
}

# Leaves the kernels $2 (space separated; the others are put back) out of
# the next mir-export of work dir $1 without a rebuild: mir-export finds
# the kernels by their marker constants (`const __OXIDE_KERNEL_NAME: &str`)
# in the MIR rustc wrote, and reads that file again when cargo finds the
# crate fresh; the markers of the kernels left out are renamed there
# (line numbers kept). The export is the same as with their `#[kernel]`
# commented out, without recompiling the crate. With $3 = check, only
# tells whether the MIR is still so (no rebuild since). Status 1 when the
# MIR or a marker is not there.
mir_leave_out() {   # workdir "names" [check]
	_mf=$(export_mir_file "$1") || return 1
	# shellcheck disable=SC2086 # a list of names
	_n=$(printf '%s\n' $2 | grep -c .)
	_out=$_mf.new
	[ -z "${3:-}" ] || _out=/dev/null
	awk -v skip=" $2 " -v n="$_n" -v check="${3:-}" '
		$1 == "const" && match($2, /__OXIDE_(KERNEL|LEFT_OUT)_[A-Za-z0-9_]+:$/) {
			k = substr($2, RSTART, RLENGTH - 1)
			sub(/^__OXIDE_(KERNEL|LEFT_OUT)_/, "", k)
			out = index(skip, " " k " ") > 0
			found += out
			if (check != "") {
				if ((out && $2 !~ /__OXIDE_LEFT_OUT_/) || (!out && $2 !~ /__OXIDE_KERNEL_/)) bad = 1
				next
			}
			sub(/__OXIDE_(KERNEL|LEFT_OUT)_/, out ? "__OXIDE_LEFT_OUT_" : "__OXIDE_KERNEL_")
		}
		check == "" { print }
		END { exit (bad || found != n) }' "$_mf" >"$_out" || { rm -f "$_mf.new"; return 1; }
	[ -n "${3:-}" ] || mv "$_mf.new" "$_mf"
}

# The kernels mir-export rejected, from its log $1: "NAME<TAB>message" for
# every error at a line of lib.rs ($2) inside a kernel, the first error of
# each kernel (today's mir-export stops at its first error; one that
# reports every error is used fully). Nothing when the log's first error
# is not such a line (a crate-wide failure).
export_rejects() {   # log lib.rs
	{
		first_error "$1"
		echo
		grep -E '^src/lib\.rs:[0-9]+:[0-9]+: error(\[OX[0-9]+\])?: ' "$1"
	} | awk '
		# the kernels of lib.rs, as kernel_at_line
		FNR == NR {
			if ($0 ~ /^[ \t]*(\/\/ )?#\[kernel\]/) { inker = 1; start = FNR; name = ""; next }
			if (inker && name == "" && $0 ~ /^pub fn /) { name = $0; sub(/^pub fn /, "", name); sub(/[^A-Za-z0-9_].*/, "", name); next }
			if (inker && $0 ~ /^}/) { n++; s[n] = start; e[n] = FNR; kn[n] = name; inker = 0 }
			next
		}
		{
			k = ""
			if ($0 ~ /^src\/lib\.rs:[0-9]+:/) {
				l = $0; sub(/^src\/lib\.rs:/, "", l); sub(/:.*/, "", l); l += 0
				for (i = 1; i <= n; i++) if (l >= s[i] && l <= e[i]) { k = kn[i]; break }
			}
			if (FNR == 1 && k == "") exit
			if (k != "" && !(k in seen)) { seen[k] = 1; printf "%s\t%s\n", k, substr($0, 1, 400) }
		}' "$2" -
}

# The kernels a mir-export with --keep-going left out, from its log $1:
# "NAME<TAB>message", the message the error line before each
# "mir-export: note: kernel `NAME` left out".
export_left_out() {   # log
	awk '/^mir-export: note: kernel `[^`]*` left out/ {
			k = $0; sub(/^[^`]*`/, "", k); sub(/`.*/, "", k); sub(/.*::/, "", k)
			printf "%s\t%s\n", k, substr(last, 1, 400); next
		}
		tolower($0) ~ /error/ { last = $0 }' "$1"
}

# Builds the group crates' dependencies (oxide-device, oxide-macros) once,
# in $W/export/.deps/target, with the Cargo.toml of group $1 (its profile)
# around an empty library. export_group starts a group's target directory
# as a copy of it (cargo still rebuilds whatever does not match) instead
# of building them again for every group.
export_deps_template() {   # group
	t="$W/export/.deps"
	rm -rf "$t"
	mkdir -p "$t/src"
	sed "s#^oxide-device = { path = \"[^\"]*\" }#oxide-device = { path = \"$(pwd)/tools/mir-export/oxide-device\" }#" \
		"$CONF/kernels/$1/Cargo.toml" |
		awk '!done && /^name *=/ { print "name = \"oxide-export-deps\""; done = 1; next } { print }' >"$t/Cargo.toml"
	: >"$t/src/lib.rs"
	# fails (no kernels) once the dependencies are built
	run_mir_export "$t" "$t/deps.mir.json" "$t/log"
	rm -rf "$t"/target/mir-export/*/deps/*oxide_export_deps* "$t"/target/mir-export/*/*oxide_export_deps* \
		"$t"/target/mir-export/*/.fingerprint/oxide-export-deps-* "$t"/target/mir-export/oxide-rustc-command-*
	ls "$t"/target/mir-export/*/deps/liboxide_device-* >/dev/null 2>&1 || rm -rf "$t"
	return 0
}

# mir-export of one group. A construct mir-export rejects fails only the
# kernels that use it: the kernel around each reported line is left out
# and the export retried; when the line is not inside a kernel, the
# kernels that fail alone are found and left out (each with the error of
# its export alone), and when even that does not help every kernel is
# exported alone.
#
# A kernel is left out by renaming its marker in the MIR rustc already
# wrote (mir_leave_out): no rebuild, so a retry costs a fraction of a
# build, and the kernels that fail alone are found by bisection (export
# the first half of a failing set, then the second if need be; about
# log2(N) retries for a failing kernel instead of N exports alone). Should
# cargo rebuild after all, the MIR not be there, or the bisection
# contradict itself, it falls back to commenting out the `#[kernel]` in
# the copy of the crate (a rebuild each time) and exporting every
# remaining kernel alone. The copy is left with the `#[kernel]` of the
# kernels left out commented out. A mir-export that has --keep-going does
# it all in one run.
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
	[ -d "$work/target" ] || [ ! -d "$W/export/.deps/target" ] || cp -Rp "$W/export/.deps/target" "$work/target"
	all=$(kernels_of "$g" | tr '\n' ' ')
	skip=""
	: >"$errs"
	rm -f "$json"
	strip_kernels "$work/lib.rs.orig" "$work/src/lib.rs" ""
	if "$MIR_EXPORT" --help 2>&1 | grep -q -- '--keep-going'; then
		run_mir_export "$work" "$json" "$log" --keep-going
		case $? in
		0) return 0 ;;
		3)
			if [ -f "$json" ]; then
				export_left_out "$log" >"$errs"
				skip=$(cut -f1 "$errs" | tr '\n' ' ')
				strip_kernels "$work/lib.rs.orig" "$work/src/lib.rs" "$skip"
				return 0
			fi
			;;
		esac
		: >"$errs"
		rm -f "$json"
		mir_leave_out "$work" ""   # every marker as rustc wrote it
	fi
	bymir=1   # kernels left out in the MIR (0: in the source)
	while :; do
		left=0
		for k in $all; do case " $skip " in *" $k "*) ;; *) left=$((left + 1)) ;; esac; done
		[ $left -eq 0 ] && break
		if run_mir_export "$work" "$json" "$log"; then
			# the MIR read must have been the one edited (no rebuild since)
			[ $bymir -eq 0 ] || [ -z "$skip" ] || mir_leave_out "$work" "$skip" check && break
			bymir=0
			strip_kernels "$work/lib.rs.orig" "$work/src/lib.rs" "$skip"
			continue
		fi
		rejects=$(export_rejects "$log" "$work/lib.rs.orig")
		k=$(printf '%s\n' "$rejects" | head -n 1 | cut -f1)
		case " $skip " in
		*" ${k:-//} "*)
			# one left out before: rebuilt after all
			if [ $bymir -eq 1 ]; then
				bymir=0
				strip_kernels "$work/lib.rs.orig" "$work/src/lib.rs" "$skip"
				continue
			fi
			k="" ;;
		esac
		if [ -n "$k" ]; then
			printf '%s\n' "$rejects" | while IFS='	' read -r k msg; do
				case " $skip " in *" $k "*) ;; *) printf '%s\t%s\n' "$k" "$msg" ;; esac
			done >>"$errs"
			skip=" $(cut -f1 "$errs" | tr '\n' ' ')"
			if [ $bymir -eq 0 ] || ! mir_leave_out "$work" "$skip"; then
				bymir=0
				strip_kernels "$work/lib.rs.orig" "$work/src/lib.rs" "$skip"
			fi
			continue
		fi
		# Not attributable. An error at a source line (a helper that
		# kernels call): find the kernels that fail alone by bisection.
		if [ $bymir -eq 1 ] && first_error "$log" | grep -qE '^[^ ]*\.rs:[0-9]+:[0-9]+: error(\[OX[0-9]+\])?: ' &&
			export_bisect "$work" && [ -n "$found" ]; then
			printf '%s' "$found" >>"$errs"
			skip=" $(cut -f1 "$errs" | tr '\n' ' ')"
			mir_leave_out "$work" "$skip" && continue
		fi
		# Else export each remaining kernel alone.
		bymir=0
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
	[ $bymir -eq 0 ] || strip_kernels "$work/lib.rs.orig" "$work/src/lib.rs" "$skip"
	return 0
}

# export_group's bisection, in the MIR of work dir $1: the remaining
# kernels ($all less $skip) fail together; sets $found to
# "NAME<TAB>message" lines of kernels that fail when exported alone (with
# that error). Status 1 when it cannot tell (a set assumed to fail that
# does not, a rebuild): export_group then exports every kernel alone.
export_bisect() {   # workdir
	wd=$1
	found=""
	# First the kernels whose MIR holds the error's place (a helper
	# inlined into them), each exported alone.
	loc=$(first_error "$log" | sed -n 's/^\([^ ]*\.rs:[0-9][0-9]*:[0-9][0-9]*\): error\(\[OX[0-9]*\]\)\{0,1\}: .*/\1/p')
	for k in $([ -z "$loc" ] || mir_kernels_at "$wd" "$loc"); do
		case " $skip " in *" $k "*) continue ;; esac
		case " $all " in *" $k "*) ;; *) continue ;; esac
		export_try "$wd" "$k," && continue
		[ -n "$tried" ] || return 1
		found="$found$k	$(first_error "$log")
"
	done
	[ -z "$found" ] || return 0
	# Else bisection.
	# sets of kernels (comma separated) that hold a failing one
	sets=$(for k in $all; do case " $skip " in *" $k "*) ;; *) printf '%s,' "$k" ;; esac; done)
	while [ -n "$sets" ]; do
		set -- $sets
		cur=$1
		shift
		sets=$*
		n=$(echo "$cur" | tr ',' '\n' | grep -c .)
		if [ "$n" -eq 1 ]; then
			# alone: it must fail
			export_try "$wd" "$cur" && return 1
			[ -n "$tried" ] || return 1
			found="$found${cur%,}	$(first_error "$log")
"
			continue
		fi
		a=$(echo "$cur" | tr ',' '\n' | grep . | head -n $((n / 2)) | tr '\n' ',')
		b=$(echo "$cur" | tr ',' '\n' | grep . | tail -n $((n - n / 2)) | tr '\n' ',')
		if export_try "$wd" "$a"; then
			sets="$b $sets"   # then b holds the failing one
		else
			[ -n "$tried" ] || return 1
			if [ $((n / 2)) -eq 1 ]; then
				found="$found${a%,}	$(first_error "$log")
"
			else
				sets="$a $sets"
			fi
			# b is tried on its own
			if ! export_try "$wd" "$b"; then
				[ -n "$tried" ] || return 1
				if [ $((n - n / 2)) -eq 1 ]; then
					found="$found${b%,}	$(first_error "$log")
"
				else
					sets="$b $sets"
				fi
			fi
		fi
	done
	return 0
}

# The kernels whose body in rustc's MIR of work dir $1 holds place $2
# ("src/lib.rs:LINE:COL"): in code inlined there, or in a function (or
# closure) they call, directly or not.
mir_kernels_at() {   # workdir place
	_mf=$(export_mir_file "$1") || return 0
	awk -v loc="$2: " '
		$1 == "const" && match($2, /__OXIDE_(KERNEL|LEFT_OUT)_[A-Za-z0-9_]+:$/) {
			k = substr($2, RSTART, RLENGTH - 1); sub(/^__OXIDE_(KERNEL|LEFT_OUT)_/, "", k); kern[k] = 1; next
		}
		/^fn / { name = $2; sub(/\(.*/, "", name); sub(/::\{closure.*/, "", name); sub(/.*::/, "", name); next }
		/^}/ { name = ""; next }
		name == "" { next }
		index($0, loc) { hit[name] = 1 }
		/ = [^ (]+\(.*\) -> / {
			c = $0; sub(/^[^=]*= /, "", c); sub(/\(.*/, "", c); sub(/::<.*/, "", c); sub(/.*::/, "", c)
			calls[name] = calls[name] " " c " "
		}
		END {
			do {
				more = 0
				for (b in calls) if (!(b in hit)) for (h in hit) if (index(calls[b], " " h " ")) { hit[b] = 1; more = 1; break }
			} while (more)
			for (n in hit) if (n in kern) print n
		}' "$_mf" | sort
}

# One export of work dir $1 with only the kernels $2 (comma separated),
# by the MIR; status 0 when it succeeds. $tried is empty when the export
# could not be tried so (no MIR, a rebuild: the caller gives up).
export_try() {   # workdir kernels
	tried=""
	others=$(for _k in $all; do case ",$2" in *",$_k,"*) ;; *) printf '%s ' "$_k" ;; esac; done)
	mir_leave_out "$1" "$others" || return 1
	tried=1
	run_mir_export "$1" "$W/export/$g.one.json" "$log"
	st=$?
	rm -f "$W/export/$g.one.json"
	# a rebuild reads a MIR with every kernel again
	mir_leave_out "$1" "$others" check || { tried=""; return 1; }
	return $st
}

# The export error of kernel $2 of group $1, or nothing.
export_error() {
	awk -F '\t' -v k="$2" '$1 == k { print $2; exit }' "$W/$1.export-errors"
}

# The kernels of lib.rs $1 around the error lines ("FILE:LINE:COL: error:"
# with FILE src/lib.rs) of log $2 that are in $3 (space separated), one a
# line; nothing when the log's first error is not such a line.
kernels_at_errors() {   # lib.rs log "names"
	first_error "$2" | grep -qE '^src/lib\.rs:[0-9]+:[0-9]+: ' || return 0
	grep -E '^src/lib\.rs:[0-9]+:[0-9]+: ' "$2" | cut -d: -f2 | sort -un | while read -r l; do
		kernel_at_line "$1" "$l"
	done | awk -v names=" $3 " 'index(names, " " $0 " ") && !seen[$0]++'
}

# A whole group at once (tests/fuzz/run.sh): for the kernels that
# run-host.sh's kernel_worker would pass, the same result files in far
# fewer processes. The group's JSON is compiled once, by oxidec to PTX
# (and ptxas), and in mode host by oxidec --target=host and cc -shared
# into one .so that the harness runs every kernel of (one process, a new
# child after a trap), each line compared with the CPU reference's. A
# kernel oxidec reports an error in is taken out and the rest compiled
# again; a failure that names no kernel splits the set in two. Writes,
# for every kernel that passed, $W/GROUP/NAME.compile and NAME.result
# ("PASS GROUP/NAME"), and in mode host NAME.actual; nothing for
# the others (any failure, a kernel mir-export rejected), which
# kernel_worker is to check alone (with their own messages and files).
batch_group() {   # mode group
	bmode=$1 g=$2
	d="$W/$g"
	json="$W/$g.mir.json"
	lib="$W/export/$g/lib.rs.orig"
	mkdir -p "$d"
	rm -f "$d"/batch*
	[ -f "$json" ] || return 0
	listed=$("$W/tools/mirsplit" --list "$json" 2>/dev/null | tr '\n' ' ')
	rejected=" $(cut -f1 "$W/$g.export-errors" 2>/dev/null | tr '\n' ' ') "
	# sets of kernels (comma separated) to compile together
	sets=""
	for k in $(kernels_of "$g"); do
		case "$rejected" in *" $k "*) continue ;; esac
		case " $listed " in *" $k "*) sets="$sets$k," ;; esac
	done
	i=0
	while [ -n "$sets" ]; do
		# shellcheck disable=SC2086
		set -- $sets
		cur=$1
		shift
		sets=$*
		i=$((i + 1))
		b="$d/batch$i"
		names=$(echo "$cur" | tr ',' ' ')
		bad=""        # kernels an error names
		failed=""     # a step failed
		if [ "$(echo $names | tr ' ' '\n' | sort | tr '\n' ' ')" = "$(echo $listed | tr ' ' '\n' | sort | tr '\n' ' ')" ]; then
			bjson=$json
		else
			bjson=$b.mir.json
			# shellcheck disable=SC2086
			"$W/tools/mirsplit" "$json" "$bjson" $names >"$b.log" 2>&1 || failed=mirsplit
		fi
		if [ -z "$failed" ] && ! "$OXIDEC" "$bjson" -o "$b.ptx" >"$b.log" 2>&1; then
			failed=oxidec
			bad=$(kernels_at_errors "$lib" "$b.log" "$names")
		fi
		if [ -z "$failed" ] && [ -x "$PTXAS" ]; then
			"$PTXAS" -arch=sm_90 "$b.ptx" -o "$b.cubin" >"$b.log" 2>&1 || failed=ptxas
			rm -f "$b.cubin"
		fi
		if [ -z "$failed" ] && [ "$bmode" = host ]; then
			if ! "$OXIDEC" --target=host "$bjson" -o "$b.o" >"$b.log" 2>&1; then
				failed=host
				bad=$(kernels_at_errors "$lib" "$b.log" "$names")
			elif ! $CC -shared "$b.o" -o "$b.so" -lm >"$b.log" 2>&1; then
				failed=cc
			fi
			rm -f "$b.o"
		fi
		if [ -n "$failed" ]; then
			n=$(echo $names | wc -w)
			if [ -n "$bad" ]; then
				# the others again
				rest=$(for k in $names; do echo "$bad" | grep -qx "$k" || printf '%s,' "$k"; done)
				[ -n "$rest" ] && sets="$rest $sets"
			elif [ "$n" -gt 2 ]; then
				half=$((n / 2))
				sets="$(echo $names | tr ' ' '\n' | head -n $half | tr '\n' ',') $(echo $names | tr ' ' '\n' | tail -n $((n - half)) | tr '\n' ',') $sets"
			fi
			rm -f "$b.ptx" "$b.so"
			[ "$bjson" = "$json" ] || rm -f "$bjson"
			continue
		fi
		if [ "$bmode" = host ]; then
			# shellcheck disable=SC2086
			"$W/tools/harness" "$b.so" $names >"$b.actual" 2>"$b.log"
		else
			: >"$b.actual"
		fi
		# PASS when the kernel's one line is the CPU reference's (as
		# compare_line), in one awk for the group
		exp=/dev/null
		[ "$bmode" = host ] && exp="$B/$g.expected"
		awk -v names=" $names " -v host="$([ "$bmode" = host ] && echo 1)" -v g="$g" -v d="$d" -v expf="$exp" '
			FILENAME == expf { if (index(names, " " $1 " ") && !($1 in want)) want[$1] = $0; next }
			index(names, " " $1 " ") { got[$1] = $0; n[$1]++ }
			END {
				m = split(names, ks, " ")
				for (i = 1; i <= m; i++) {
					k = ks[i]
					if (host) {
						if (n[k] != 1 || !(k in want) || (got[k] "") != (want[k] "")) continue
						print got[k] > (d "/" k ".actual"); close(d "/" k ".actual")
					}
					print "PASS " g "/" k > (d "/" k ".result"); close(d "/" k ".result")
					print "PASS " g "/" k > (d "/" k ".compile"); close(d "/" k ".compile")
				}
			}' "$exp" "$b.actual"
		[ "$bjson" = "$json" ] || rm -f "$bjson"
		rm -f "$b.so" "$b.ptx"
	done
	return 0
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
