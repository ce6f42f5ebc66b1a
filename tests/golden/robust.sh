#!/bin/sh
# What oxidec promises on bad input beyond one file's error message
# (tests/golden/run.sh has those): linking two crates' JSON, the input size
# limit, and no output or temporary file left on any way out, signals
# included.  Each check prints PASS/FAIL; the last line counts them.
set -u
cd "$(dirname "$0")"
OXIDEC=${OXIDEC:-../../build/bin/oxidec}
case $OXIDEC in /*) ;; *) OXIDEC=$(pwd)/$OXIDEC ;; esac
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && sed 's/^/    /' "$2" | head -20; }

# An error: exit code 1, stderr matching $2 (a grep pattern, with the
# error[OXnnnn] code), nothing in $TMP/out.
expect_error() {   # name pattern oxidec-args...
	name=$1 pat=$2; shift 2
	rm -rf "$TMP/out"; mkdir "$TMP/out"
	"$OXIDEC" "$@" -o "$TMP/out/k.ptx" 2>"$TMP/stderr"
	rc=$?
	if [ $rc -ne 1 ]; then bad "$name: exit code $rc, expected 1" "$TMP/stderr"
	elif [ -n "$(ls -A "$TMP/out")" ]; then bad "$name: left $(ls -A "$TMP/out")"
	elif ! grep -q -- "$pat" "$TMP/stderr"; then bad "$name: no \"$pat\" in the message" "$TMP/stderr"
	else ok "$name"; fi
}

# --- linking: items are keyed by crate (link/pair_*.rs are the sources)
# a and c both define `struct Pair`; c's is {x: u16, y: u32}, y at offset 0.
if "$OXIDEC" link/pair_a.mir.json link/pair_c.mir.json --emit=llir -o "$TMP/ac.llir" 2>"$TMP/stderr" &&
   awk '/^func @c__getc/ { f = 1 } f && /llir.load/ { print; exit }' "$TMP/ac.llir" |
   grep -q 'llir.load %0, align 4 : i32'; then
	ok "link: two crates' Pair, c's own layout"
else
	bad "link: two crates' Pair, c's own layout" "$TMP/stderr"
fi
if "$OXIDEC" link/pair_a.mir.json link/pair_a.mir.json -o "$TMP/aa.ptx" 2>"$TMP/stderr"; then
	ok "link: one crate twice is one crate"
else
	bad "link: one crate twice is one crate" "$TMP/stderr"
fi
# not the same file (a comment differs), the same definitions: merged
sed '1s/^{/{"comment": "a copy",/' link/pair_a.mir.json >"$TMP/pair_a_copy.mir.json"
if "$OXIDEC" link/pair_a.mir.json "$TMP/pair_a_copy.mir.json" -o "$TMP/aa2.ptx" 2>"$TMP/stderr"; then
	ok "link: one crate's items from two files merge"
else
	bad "link: one crate's items from two files merge" "$TMP/stderr"
fi
# two crates' Constant statics named TABLE: the host could not tell them apart
sed 's/"crate": "const_lookup"/"crate": "other"/' \
	const_lookup.mir.json >"$TMP/other.mir.json"
expect_error "link: two crates' Constant statics of one name" \
	"error\\[OX0100\\]: Constant static \`TABLE\` has the exported name \`TABLE\`, which const_lookup.mir.json already defines" \
	const_lookup.mir.json "$TMP/other.mir.json"
expect_error "link: one crate, two definitions of Pair" \
	'error\[OX0100\]: type `Pair` of crate `a` is defined differently in link/pair_a.mir.json' \
	link/pair_a.mir.json link/pair_a_changed.mir.json

# --- input size
expect_error "size: /dev/zero" "error\\[OX0002\\]: input larger than 4 MiB" --max-input=4 /dev/zero
: >"$TMP/big.json"
truncate -s 3M "$TMP/big.json" 2>/dev/null || dd if=/dev/zero of="$TMP/big.json" bs=1M count=3 2>/dev/null
expect_error "size: a regular file" "error\\[OX0002\\]: input larger than 2 MiB" --max-input=2 "$TMP/big.json"
expect_error "unreadable input" "error\\[OX0002\\]: cannot read" "$TMP/none.json"
rm -rf "$TMP/out"; mkdir "$TMP/out"
"$OXIDEC" saxpy.mir.json -o "$TMP/out/no/such/dir.ptx" 2>"$TMP/stderr"
if [ $? -eq 1 ] && grep -q "error\\[OX0002\\]: cannot create output file" "$TMP/stderr" && [ -z "$(ls -A "$TMP/out")" ]; then
	ok "unwritable output"
else
	bad "unwritable output" "$TMP/stderr"
fi

# --- signals: oxidec creates its temporary output file, then blocks
# reading a FIFO nobody writes; the signal must leave nothing behind.
for sig in TERM HUP SEGV ABRT; do
	d=$TMP/sig-$sig
	mkdir "$d" && mkfifo "$d/in.json"
	"$OXIDEC" "$d/in.json" -o "$d/out.ptx" 2>"$d/stderr" &
	pid=$!
	n=0
	while [ $n -lt 600 ] && ! ls "$d"/out.ptx.tmp* >/dev/null 2>&1; do sleep 0.05; n=$((n + 1)); done
	if ! ls "$d"/out.ptx.tmp* >/dev/null 2>&1; then
		kill -KILL $pid; wait $pid 2>/dev/null
		bad "signal $sig: no temporary file while reading the input"
		continue
	fi
	kill -$sig $pid
	wait $pid
	rc=$?
	left=$(cd "$d" && ls -A | grep -v '^in.json$' | grep -v '^stderr$')
	if [ $rc -le 128 ]; then bad "signal $sig: exit code $rc, expected death by the signal" "$d/stderr"
	elif [ -n "$left" ]; then bad "signal $sig: left $left"
	else ok "signal $sig: died of it, nothing left"; fi
done

echo "robustness: $pass passed, $fail failed"
[ $fail -eq 0 ]
