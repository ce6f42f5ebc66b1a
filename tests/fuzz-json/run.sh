#!/bin/sh
# tests/fuzz-json/run.sh: the JSON fuzzer's suite in `make check`.
#   1. every reproducer in tests/fuzz-json/crashes/ must run clean (or
#      XFAIL: its bug is still listed in known-open.txt);
#   2. a fuzzing run of FUZZ_CHECK_TIME seconds (default 60) from the
#      repository's seed corpus (tests/fuzz-json/corpus/), with a fixed
#      libFuzzer seed, must find no crash, abort, leak, hang or OOM; a find
#      whose signature (lib.sh) is listed in tests/fuzz-json/known-open.txt
#      (a reported bug that another branch fixes) prints XFAIL instead.
# The binary is $B/fuzz-json/fuzz-json (make builds it when clang's
# libFuzzer is there; otherwise this prints SKIP).  FUZZ_SKIP=why skips
# too (make sanitize: the fuzzer is an ASan+UBSan build already).
# Prints PASS/FAIL lines and "N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/fuzz-json/lib.sh
B=${B:-build}
FZ=$B/fuzz-json
BIN=$FZ/fuzz-json
T=${FUZZ_CHECK_TIME:-60}
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && grep -v '^#\|^INFO\|^MS:' "$2" | head -n 40 | sed 's/^/    /'; }
done_() { echo "fuzz-json: $pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit $?; }

if [ -n "${FUZZ_SKIP:-}" ]; then
	echo "SKIP fuzz-json: $FUZZ_SKIP"
	done_
fi
if [ ! -x "$BIN" ]; then
	echo "SKIP fuzz-json: $BIN not built (needs clang with libFuzzer: make deps installs it)"
	done_
fi
mkdir -p "$FZ/check"
log=$FZ/check/log

# 1. the reproducers of fixed bugs (-rss_limit_mb=0: no RSS-watching
# thread, which LeakSanitizer could catch half started at exit, its 32
# bytes from pthread_getattr_np reported as our leak on a loaded machine)
for c in tests/fuzz-json/crashes/*.json; do
	[ -f "$c" ] || continue
	if ASAN_OPTIONS=fast_unwind_on_malloc=0 "$BIN" -runs=1 -rss_limit_mb=0 "$c" >"$log" 2>&1; then
		ok "fuzz-json: $(basename "$c")"
	elif k=$(fuzz_known "$(fuzz_signature "$log")"); then
		echo "XFAIL fuzz-json: $(basename "$c"): known open bug (${k#*	})"
	else
		bad "fuzz-json: $(basename "$c") crashes: $(fuzz_signature "$log")" "$log"
	fi
done

# 2. fuzzing (fork mode: it goes on after a find); a fresh working corpus
# each time, so that a run depends only on the repository (and timing)
W=$FZ/check
rm -rf "$W/corpus" "$W/finds" "$W/new"
mkdir -p "$W/corpus" "$W/finds"
"$BIN" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 -max_total_time="$T" -seed=1 \
	-timeout=10 -rss_limit_mb=2048 -max_len=300000 -close_fd_mask=3 -artifact_prefix="$W/finds/" \
	"$W/corpus" tests/fuzz-json/corpus >"$log" 2>&1
execs=$(grep '^#[0-9]*: cov' "$log" | tail -n 1 | sed 's/^#\([0-9]*\):.*/\1/')
nfind=0
: >"$W/sigs"
for f in "$W/finds/"*-*; do
	[ -f "$f" ] || continue
	nfind=$((nfind + 1))
	ASAN_OPTIONS=fast_unwind_on_malloc=0 "$BIN" -runs=1 -rss_limit_mb=0 "$f" >"$f.log" 2>&1
	sig=$(fuzz_signature "$f.log")
	printf '%s\t%s\n' "$sig" "$f" >>"$W/sigs"
done
# one line per cause: XFAIL when known-open.txt lists it, else FAIL
cut -f1 "$W/sigs" | sort | uniq -c | while read -r n sig; do
	f=$(grep -F "$sig	" "$W/sigs" | head -n 1 | cut -f2)
	if k=$(fuzz_known "$sig"); then
		echo "XFAIL fuzz-json: $n input(s): $sig: known open bug (${k#*	}); e.g. $f"
	else
		echo "FAIL fuzz-json: $n input(s): $sig (reproduce: $BIN $f)"
		grep -v '^#\|^INFO\|^MS:' "$f.log" | head -n 30 | sed 's/^/    /'
		echo x >>"$W/new"
	fi
done
[ -f "$W/new" ] && fail=$((fail + $(wc -l <"$W/new")))
if grep -q '^#[0-9]*: cov' "$log"; then
	ok "fuzz-json: ${T} s of fuzzing from the seed corpus, ${execs:-0} executions, $nfind finds"
else
	bad "fuzz-json: the fuzzer did not run (log $log)" "$log"
fi
done_
