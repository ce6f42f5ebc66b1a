#!/bin/sh
# Golden tests: tests/golden/NAME.mir.json is the input; next to it
#   NAME.mir NAME.ssa NAME.nvvm NAME.llir   exact dump of that stage
#   NAME.host.nvvm NAME.host.llir           the same with --target=host
#   NAME.mir.dot ... NAME.llir.dot          exact --emit=dot --dot-stage=STAGE output,
#                                           also rendered by dot -Tsvg (graphviz)
#   NAME.ptx                                lines that must appear in the PTX, in order
#                                           ("!text" means text must NOT appear);
#                                           the PTX is also validated with ptxas, and
#                                           oxidec must print nothing
#   NAME.O0.warn NAME.O3.warn               lines that must appear in stderr at that
#                                           -O level, in order ("!text": must not);
#                                           exit 0 and an output file all the same
#   NAME.O0.ptx ... NAME.O3.ptx             as NAME.ptx, for the PTX at that -O level
#                                           (NAME.ptx: oxidec's default level)
#   NAME.loc NAME.O0.loc                    the PTX's line information (default level,
#                                           -O0) against the Rust source ("# source: DIR",
#                                           the crate, from here; "PREFIX => TEXT": the
#                                           instructions starting with PREFIX have a .loc
#                                           where the source reads TEXT); loc.awk says more
#   NAME.err                                expected stderr (exit 1, no output file)
#   NAME.arch                               the --arch of every check of NAME (and of
#                                           ptxas), e.g. sm_90a; default sm_90
#   NAME.h                                  exact --emit=header output, which must also
#                                           compile (included twice: the guard) with
#                                           cc -std=c11 -Wall -Wextra -Werror
#   NAME.h.err                              expected stderr of --emit=header (exit 1,
#                                           no output file)
#   NAME.sig.json                           exact --emit=signature output, which must
#                                           also parse as JSON and list the PTX
#                                           parameters of the header's OXK_K_PARAMS
#                                           (sig_vs_header.py, python3)
#   NAME.sig.err                            expected stderr of --emit=signature (exit 1,
#                                           no output file)
#   NAME.launch.rs                          exact --emit=rust output (tests/host-rs compiles
#                                           it against tools/oxide-host)
#   NAME.launch.rs.err                      expected stderr of --emit=rust (exit 1, no
#                                           output file)
#   NAME.reject.c                           a C file using NAME's header: it compiles
#                                           with -DOX_RIGHT_TYPES and -Werror, and
#                                           without it fails with an incompatible
#                                           pointer type (wrong element type)
# UPDATE=1 rewrites the exact-dump and .err expectations (review the diff).
set -u
cd "$(dirname "$0")"
OXIDEC=${OXIDEC:-../../build/bin/oxidec}
PTXAS=${PTXAS:-${CUDA_HOME:-/usr/local/cuda}/bin/ptxas}
CC=${CC:-cc}
HCFLAGS="-std=c11 -Wall -Wextra -Werror -I$(pwd)/../../src/runtime"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0

ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && sed 's/^/    /' "$2" | head -40; }

check_stage() {   # name stage [host]
	exp="$1.${3:+host.}$2" what="$1 (${3:+host }$2)"
	"$OXIDEC" "$1.mir.json" ${3:+--target=host} --emit="$2" -o "$TMP/out" 2>"$TMP/stderr" || { bad "$what: oxidec failed" "$TMP/stderr"; return; }
	if [ "${UPDATE:-}" = 1 ]; then cp "$TMP/out" "$exp"; fi
	if diff -u "$exp" "$TMP/out" >"$TMP/diff"; then ok "$what"; else bad "$what" "$TMP/diff"; fi
}

# dot -Tsvg must accept file $1 (skipped, and said once, without graphviz).
dot_ok() {
	command -v dot >/dev/null || { [ -n "${nodot_said:-}" ] || echo "NOTE graphviz not installed: .dot files not rendered"; nodot_said=1; return 0; }
	dot -Tsvg "$1" -o "$TMP/out.svg" 2>"$TMP/dot.err" && [ -s "$TMP/out.svg" ] && [ ! -s "$TMP/dot.err" ]
}

check_dot() {   # name stage
	exp="$1.$2.dot" what="$1 ($2 dot)"
	"$OXIDEC" "$1.mir.json" --emit=dot --dot-stage="$2" -o "$TMP/out.dot" 2>"$TMP/stderr" || { bad "$what: oxidec failed" "$TMP/stderr"; return; }
	if [ "${UPDATE:-}" = 1 ]; then cp "$TMP/out.dot" "$exp"; fi
	diff -u "$exp" "$TMP/out.dot" >"$TMP/diff" || { bad "$what" "$TMP/diff"; return; }
	if dot_ok "$TMP/out.dot"; then ok "$what, dot -Tsvg"; else bad "$what: dot -Tsvg" "$TMP/dot.err"; fi
}

# Any input's graph at a stage: oxidec writes it, dot renders it (every
# input without .dot expectations, at the mir and llir stages, when
# graphviz is installed).
render_dot() {   # name stage
	what="$1 ($2 dot -Tsvg)"
	"$OXIDEC" "$1.mir.json" --arch="$(arch_of "$1")" --emit=dot --dot-stage="$2" -o "$TMP/out.dot" 2>"$TMP/stderr" ||
		{ bad "$what: oxidec failed" "$TMP/stderr"; return; }
	if dot_ok "$TMP/out.dot"; then ok "$what"; else bad "$what" "$TMP/dot.err"; fi
}

# Ordered substrings of file $2 (the lines of $1): each expected line must
# occur after the previous one; "!text" must not occur at all.
match_ordered() {
	awk -v expfile="$1" '
		BEGIN { n = 0; while ((getline l < expfile) > 0) if (l != "") want[n++] = l }
		{ text = text $0 "\n" }
		END {
			pos = 1
			for (i = 0; i < n; i++) {
				w = want[i]
				if (substr(w, 1, 1) == "!") {
					if (index(text, substr(w, 2))) { print "found forbidden: " substr(w, 2); exit 1 }
					continue
				}
				k = index(substr(text, pos), w)
				if (!k) { print "missing (in order): " w; exit 1 }
				pos += k + length(w) - 1
			}
		}' "$2"
}

arch_of() {   # name
	if [ -e "$1.arch" ]; then cat "$1.arch"; else echo sm_90; fi
}

check_ptx() {   # name [level]
	what="$1 (ptx${2:+ -$2})"
	"$OXIDEC" "$1.mir.json" --arch="$(arch_of "$1")" ${2:+-$2} -o "$TMP/out.ptx" 2>"$TMP/stderr" || { bad "$what: oxidec failed" "$TMP/stderr"; return; }
	[ -s "$TMP/stderr" ] && { bad "$what: unexpected diagnostics" "$TMP/stderr"; return; }
	match_ordered "$1${2:+.$2}.ptx" "$TMP/out.ptx" >"$TMP/diff" || { bad "$what" "$TMP/diff"; return; }
	if [ -x "$PTXAS" ]; then
		"$PTXAS" -arch="$(arch_of "$1")" "$TMP/out.ptx" -o "$TMP/out.cubin" 2>"$TMP/diff" || { bad "$what: ptxas" "$TMP/diff"; return; }
		ok "$what, ptxas"
	else
		ok "$what; ptxas not found, not validated"
	fi
}

# Line information: NAME.loc for the PTX at the default level, NAME.O0.loc
# for -O0; each .loc checked against the source by loc.awk.
check_loc() {   # name [level]
	what="$1 (loc${2:+ -$2})" exp="$1${2:+.$2}.loc"
	src=$(sed -n 's/^# source: //p' "$exp")
	[ -d "$src" ] || { bad "$what: no crate directory '# source: $src'"; return; }
	"$OXIDEC" "$1.mir.json" --arch="$(arch_of "$1")" ${2:+-$2} -o "$TMP/out.ptx" 2>"$TMP/stderr" || { bad "$what: oxidec failed" "$TMP/stderr"; return; }
	if awk -v src="$src" -v expfile="$exp" -f loc.awk "$TMP/out.ptx" >"$TMP/diff"; then ok "$what"; else bad "$what" "$TMP/diff"; fi
}

# Warnings: exit 0, an output file, the expected lines on stderr.
check_warn() {   # name level
	rm -f "$TMP/out.ptx"
	"$OXIDEC" "-$2" "$1.mir.json" -o "$TMP/out.ptx" 2>"$TMP/stderr"
	rc=$?
	if [ $rc -ne 0 ]; then bad "$1 ($2 warn): exit code $rc, expected 0" "$TMP/stderr"
	elif [ ! -s "$TMP/out.ptx" ]; then bad "$1 ($2 warn): no output file"
	elif match_ordered "$1.$2.warn" "$TMP/stderr" >"$TMP/diff"; then ok "$1 ($2 warn)"
	else cat "$TMP/stderr" >>"$TMP/diff"; bad "$1 ($2 warn)" "$TMP/diff"; fi
}

check_err() {
	rm -f "$TMP/out.ptx"
	"$OXIDEC" "$1.mir.json" --arch="$(arch_of "$1")" -o "$TMP/out.ptx" 2>"$TMP/stderr"
	rc=$?
	sed "s|$TMP/||g" "$TMP/stderr" >"$TMP/got"
	if [ "${UPDATE:-}" = 1 ]; then cp "$TMP/got" "$1.err"; fi
	if [ $rc -ne 1 ]; then bad "$1 (err): exit code $rc, expected 1" "$TMP/got"
	elif [ -e "$TMP/out.ptx" ] || ls "$TMP"/out.ptx.tmp* >/dev/null 2>&1; then bad "$1 (err): an output file was left behind"
	elif diff -u "$1.err" "$TMP/got" >"$TMP/diff"; then ok "$1 (err)"
	else bad "$1 (err)" "$TMP/diff"; fi
}

# The header of NAME into $TMP/NAME.h; 1 (after bad) when oxidec fails.
make_header() {   # name what
	"$OXIDEC" "$1.mir.json" --arch="$(arch_of "$1")" --emit=header -o "$TMP/$1.h" 2>"$TMP/stderr" || { bad "$2: oxidec failed" "$TMP/stderr"; return 1; }
	[ -s "$TMP/stderr" ] && { bad "$2: unexpected diagnostics" "$TMP/stderr"; return 1; }
	return 0
}

check_header() {   # name
	what="$1 (header)"
	make_header "$1" "$what" || return
	if [ "${UPDATE:-}" = 1 ]; then cp "$TMP/$1.h" "$1.h"; fi
	diff -u "$1.h" "$TMP/$1.h" >"$TMP/diff" || { bad "$what" "$TMP/diff"; return; }
	printf '#include "%s.h"\n#include "%s.h"\n' "$1" "$1" >"$TMP/inc.c"
	# shellcheck disable=SC2086 # HCFLAGS splits on purpose
	$CC $HCFLAGS -I"$TMP" -c "$TMP/inc.c" -o "$TMP/inc.o" 2>"$TMP/diff" || { bad "$what: cc -Werror" "$TMP/diff"; return; }
	ok "$what, cc -Werror"
}

# An output oxidec must refuse: exit 1, no file left, the message of
# NAME.EXPECTED (its paths relative).
check_emit_err() {   # name emit expected label
	rm -f "$TMP/out.$2"
	"$OXIDEC" "$1.mir.json" --arch="$(arch_of "$1")" --emit="$2" -o "$TMP/out.$2" 2>"$TMP/stderr"
	rc=$?
	sed "s|$TMP/||g" "$TMP/stderr" >"$TMP/got"
	if [ "${UPDATE:-}" = 1 ]; then cp "$TMP/got" "$1.$3"; fi
	if [ $rc -ne 1 ]; then bad "$1 ($4 err): exit code $rc, expected 1" "$TMP/got"
	elif [ -e "$TMP/out.$2" ] || ls "$TMP/out.$2".tmp* >/dev/null 2>&1; then bad "$1 ($4 err): an output file was left behind"
	elif diff -u "$1.$3" "$TMP/got" >"$TMP/diff"; then ok "$1 ($4 err)"
	else bad "$1 ($4 err)" "$TMP/diff"; fi
}

# The signature: exact, and the same parameters as the header's rows.
check_signature() {   # name
	what="$1 (signature)"
	"$OXIDEC" "$1.mir.json" --arch="$(arch_of "$1")" --emit=signature -o "$TMP/$1.sig.json" 2>"$TMP/stderr" ||
		{ bad "$what: oxidec failed" "$TMP/stderr"; return; }
	[ -s "$TMP/stderr" ] && { bad "$what: unexpected diagnostics" "$TMP/stderr"; return; }
	if [ "${UPDATE:-}" = 1 ]; then cp "$TMP/$1.sig.json" "$1.sig.json"; fi
	diff -u "$1.sig.json" "$TMP/$1.sig.json" >"$TMP/diff" || { bad "$what" "$TMP/diff"; return; }
	command -v python3 >/dev/null || { ok "$what; no python3, not compared with the header"; return; }
	make_header "$1" "$what" || return
	if python3 sig_vs_header.py "$TMP/$1.sig.json" "$TMP/$1.h" >"$TMP/diff" 2>&1; then ok "$what, = header"
	else bad "$what: not the header's parameters" "$TMP/diff"; fi
}

check_rust() {   # name
	what="$1 (rust)"
	"$OXIDEC" "$1.mir.json" --arch="$(arch_of "$1")" --emit=rust -o "$TMP/$1.rs" 2>"$TMP/stderr" || { bad "$what: oxidec failed" "$TMP/stderr"; return; }
	[ -s "$TMP/stderr" ] && { bad "$what: unexpected diagnostics" "$TMP/stderr"; return; }
	if [ "${UPDATE:-}" = 1 ]; then cp "$TMP/$1.rs" "$1.launch.rs"; fi
	if diff -u "$1.launch.rs" "$TMP/$1.rs" >"$TMP/diff"; then ok "$what"; else bad "$what" "$TMP/diff"; fi
}

# NAME.reject.c: right with -DOX_RIGHT_TYPES, a C type error without.
check_reject() {   # name
	what="$1 (header rejects a wrong element type)"
	make_header "$1" "$what" || return
	# shellcheck disable=SC2086
	$CC $HCFLAGS -I"$TMP" -DOX_RIGHT_TYPES -c "$1.reject.c" -o "$TMP/rej.o" 2>"$TMP/diff" ||
		{ bad "$what: the right types do not compile" "$TMP/diff"; return; }
	# shellcheck disable=SC2086
	if $CC $HCFLAGS -I"$TMP" -c "$1.reject.c" -o "$TMP/rej.o" 2>"$TMP/diff"; then bad "$what: it compiled"
	elif grep -q 'incompatible pointer type' "$TMP/diff"; then ok "$what"
	else bad "$what: another error" "$TMP/diff"; fi
}

for input in *.mir.json; do
	name=${input%.mir.json}
	if [ -e "$name.err" ]; then check_err "$name"; continue; fi
	for st in mir ssa nvvm llir; do [ -e "$name.$st" ] && check_stage "$name" "$st"; done
	for st in nvvm llir; do [ -e "$name.host.$st" ] && check_stage "$name" "$st" host; done
	for st in mir ssa nvvm llir; do
		if [ -e "$name.$st.dot" ]; then check_dot "$name" "$st"
		elif [ "$st" = mir ] || [ "$st" = llir ]; then command -v dot >/dev/null && render_dot "$name" "$st"; fi
	done
	[ -e "$name.ptx" ] && check_ptx "$name"
	for lv in O0 O1 O2 O3; do [ -e "$name.$lv.ptx" ] && check_ptx "$name" $lv; done
	for lv in O0 O3; do [ -e "$name.$lv.warn" ] && check_warn "$name" "$lv"; done
	[ -e "$name.h" ] && check_header "$name"
	[ -e "$name.h.err" ] && check_emit_err "$name" header h.err header
	[ -e "$name.reject.c" ] && check_reject "$name"
	[ -e "$name.sig.json" ] && check_signature "$name"
	[ -e "$name.sig.err" ] && check_emit_err "$name" signature sig.err signature
	[ -e "$name.launch.rs" ] && check_rust "$name"
	[ -e "$name.launch.rs.err" ] && check_emit_err "$name" rust launch.rs.err rust
	[ -e "$name.loc" ] && check_loc "$name"
	for lv in O0 O3; do [ -e "$name.$lv.loc" ] && check_loc "$name" $lv; done
done
# --emit=dot's options: -o FILE.dot alone draws mir; --dot-stage alone,
# a stage that is no IR, or a second --emit are usage errors (exit 2).
"$OXIDEC" vecadd.mir.json -o "$TMP/v.dot" 2>"$TMP/stderr" && cmp -s "$TMP/v.dot" vecadd.mir.dot &&
	ok "dot: -o FILE.dot draws mir" || bad "dot: -o FILE.dot draws mir" "$TMP/stderr"
dot_usage() {   # what message args...
	what=$1 msg=$2; shift 2
	"$OXIDEC" vecadd.mir.json "$@" 2>"$TMP/stderr"
	rc=$?
	if [ $rc -eq 2 ] && grep -qF -e "$msg" "$TMP/stderr" && [ ! -e "$TMP/u.out" ]; then ok "dot usage: $what"
	else bad "dot usage: $what (exit $rc)" "$TMP/stderr"; fi
}
dot_usage "--dot-stage without --emit=dot" "--dot-stage needs --emit=dot" --dot-stage=ssa -o "$TMP/u.out"
dot_usage "--dot-stage=ll" "bad --dot-stage 'll'" --emit=dot --dot-stage=ll -o "$TMP/u.out"
dot_usage "--emit=dot --emit=ptx" "--emit=dot and --emit=ptx" --emit=dot --emit=ptx -o "$TMP/u.out"
echo "golden: $pass passed, $fail failed"
[ $fail -eq 0 ]
