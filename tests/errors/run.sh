#!/bin/sh
# tests/errors/run.sh: what oxidec and mir-export cannot compile must fail
# cleanly. Each NAME.rs here is a kernel crate's lib.rs that uses one
# unsupported construct; NAME.err is the exact message (the tools' whole
# stderr, which names the Rust source line). mir-export exports it (as a
# FILE.rs crate) and, when that succeeds, oxidec compiles the JSON; the
# first tool that fails must:
#   - exit with status 1,
#   - print exactly NAME.err,
#   - leave no output file behind.
# A case that compiles fails the test: drop it (and say so in
# docs/conformance.md) once the construct is supported. Last, every error
# code of oxidec (src/util.h) must be listed in man/oxidec.1.
#
#   sh tests/errors/run.sh [NAME...]     UPDATE=1 rewrites the .err files
#
# Environment: MIR_EXPORT, OXIDEC (default build/bin/...), JOBS.
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$(pwd)
MIR_EXPORT=${MIR_EXPORT:-$ROOT/build/bin/mir-export}
OXIDEC=${OXIDEC:-$ROOT/build/bin/oxidec}
case $MIR_EXPORT in /*) ;; *) MIR_EXPORT=$ROOT/$MIR_EXPORT ;; esac
case $OXIDEC in /*) ;; *) OXIDEC=$ROOT/$OXIDEC ;; esac
JOBS=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}

# One case: writes $TMP/NAME.result ("PASS NAME" or "FAIL NAME: why"
# and details).
one() {   # name
	n=$1
	out="$TMP/$n"
	mkdir -p "$out"
	(
		cd tests/errors || exit 1
		"$MIR_EXPORT" "$n.rs" -o "$out/$n.mir.json" >"$out/stdout" 2>"$out/stderr"
		rc=$?
		stage=mir-export
		if [ $rc -eq 0 ]; then
			stage=oxidec
			"$OXIDEC" "$out/$n.mir.json" -o "$out/$n.ptx" >"$out/stdout" 2>"$out/stderr"
			rc=$?
		fi
		echo "$stage $rc" >"$out/status"
	)
	read -r stage rc <"$out/status"
	# paths of this run's temporary files out of the message
	sed "s#$out/##g" "$out/stderr" >"$out/message"
	if [ "${UPDATE:-0}" = 1 ] && [ "$rc" -ne 0 ]; then
		cp "$out/message" "tests/errors/$n.err"
	fi
	{
		if [ "$rc" -eq 0 ]; then
			echo "FAIL $n: compiled (the construct is supported now? remove the case)"
		elif [ "$rc" -ne 1 ]; then
			echo "FAIL $n: $stage exited with $rc, not 1"
			sed 's/^/    /' "$out/message"
		elif [ "$stage" = mir-export ] && [ -e "$out/$n.mir.json" ] ||
			[ "$stage" = oxidec ] && [ -e "$out/$n.ptx" ]; then
			echo "FAIL $n: $stage failed but left its output file"
		elif [ -n "$(find "$out" -name '*.tmp*' -o -name '.*.tmp')" ]; then
			echo "FAIL $n: $stage left a temporary file"
		elif ! [ -f "tests/errors/$n.err" ]; then
			echo "FAIL $n: no tests/errors/$n.err (UPDATE=1 writes it)"
			sed 's/^/    /' "$out/message"
		elif ! cmp -s "tests/errors/$n.err" "$out/message"; then
			echo "FAIL $n: $stage's message differs from $n.err"
			diff "tests/errors/$n.err" "$out/message" | sed 's/^/    /'
		else
			echo "PASS $n ($stage): $(cut -c1-110 "$out/message" | head -n 1)..."
		fi
	} >"$TMP/$n.result"
}

case ${1:-} in
--one)
	TMP=$2
	one "$3"
	exit 0
	;;
esac
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

names=$*
[ -n "$names" ] || names=$(cd tests/errors && ls ./*.rs | sed 's#^\./##; s#\.rs$##')
[ -x "$MIR_EXPORT" ] && [ -x "$OXIDEC" ] || { echo "errors: build mir-export and oxidec first (make)"; echo "errors: 0 passed, 1 failed"; exit 1; }
export MIR_EXPORT OXIDEC
# shellcheck disable=SC2086 # a list of names
printf '%s\n' $names | xargs -P "$JOBS" -I{} sh tests/errors/run.sh --one "$TMP" {}
pass=0 fail=0
for n in $names; do
	r="$TMP/$n.result"
	[ -f "$r" ] || { echo "FAIL $n: no result"; fail=$((fail + 1)); continue; }
	cat "$r"
	case $(head -n 1 "$r") in PASS*) pass=$((pass + 1)) ;; *) fail=$((fail + 1)) ;; esac
done
# The error codes: every one of oxidec's table (src/util.h DIAG_CODES) is
# listed in man/oxidec.1 (mir-export's: a unit test of its diag.rs).
codes=$(sed -n 's/^[ \t]*X(OX_[A-Z_]*, \([0-9]*\),.*/\1/p' src/util.h)
missing=""
for c in $codes; do
	c=$(printf 'OX%04d' "$c")
	grep -q "^\.B $c\$" man/oxidec.1 || missing="$missing $c"
done
if [ -z "$codes" ]; then
	echo "FAIL error codes: none found in src/util.h"; fail=$((fail + 1))
elif [ -n "$missing" ]; then
	echo "FAIL error codes: not in man/oxidec.1 (DIAGNOSTICS):$missing"; fail=$((fail + 1))
else
	echo "PASS error codes: man/oxidec.1 lists all $(echo $codes | wc -w)"; pass=$((pass + 1))
fi
echo "errors: $pass passed, $fail failed"
[ $fail -eq 0 ]
