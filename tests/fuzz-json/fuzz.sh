#!/bin/sh
# tests/fuzz-json/fuzz.sh: `make fuzz-json`, a long run of the JSON fuzzer
# (docs/fuzzing.md).
#
#   sh tests/fuzz-json/fuzz.sh             fuzz for FUZZ_TIME seconds
#   sh tests/fuzz-json/fuzz.sh --seeds     rebuild tests/fuzz-json/corpus/:
#                                          the smallest set of inputs (of
#                                          at most 64 KB) that keeps the
#                                          coverage of the seeds and of the
#                                          working corpus
#
# The working corpus $B/fuzz-json/corpus/ grows from run to run; each run
# also reads the repository's seeds and the build's JSON: the examples
# ($B/examples, `make examples`), tests/golden, and the conformance
# kernels ($B/conformance-work, `sh tests/conformance/run-host.sh
# --mode=compile`).  libFuzzer's fork mode goes on after a crash; every
# crash, leak, timeout and OOM is saved in $B/fuzz-json/crashes/ and
# counted at the end (exit 1 when there is any).
#
# Environment: B (build), FUZZ_TIME (seconds, 3600), FUZZ_JOBS (processes,
# 1), FUZZ_EMIT=1 (also build the LLVM module: about 3 times slower),
# FUZZ_ARGS (more libFuzzer options).
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$(pwd)
B=${B:-build}
FZ=$ROOT/$B/fuzz-json
BIN=$FZ/fuzz-json
[ -x "$BIN" ] || { echo "fuzz-json: $BIN missing (make fuzz-json builds it; needs clang's libFuzzer)" >&2; exit 1; }
mkdir -p "$FZ/corpus" "$FZ/crashes" "$FZ/seeds"

# The build's JSON, copied so that the corpus directories stay flat.
rm -f "$FZ/seeds/"*
for f in "$B"/examples/*.mir.json tests/golden/*.mir.json "$B"/conformance-work/*/*.mir.json; do
	[ -f "$f" ] || continue
	d=$(dirname "$f")
	cp "$f" "$FZ/seeds/$(basename "$d")-$(basename "$f")"
done

if [ "${1:-}" = --seeds ]; then
	new=$FZ/new-seeds
	rm -rf "$new" && mkdir -p "$new"
	"$BIN" -merge=1 -max_len=65536 -close_fd_mask=3 "$new" tests/fuzz-json/corpus "$FZ/seeds" "$FZ/corpus" ||
		{ echo "fuzz-json: merge failed" >&2; exit 1; }
	rm -f tests/fuzz-json/corpus/*
	cp "$new"/* tests/fuzz-json/corpus/
	echo "fuzz-json: tests/fuzz-json/corpus: $(ls tests/fuzz-json/corpus | wc -l) inputs, $(du -sh tests/fuzz-json/corpus | cut -f1)"
	exit 0
fi

T=${FUZZ_TIME:-3600} J=${FUZZ_JOBS:-1}
before=$(ls "$FZ/crashes" | wc -l)
echo "fuzz-json: $T s, $J process(es); corpus $FZ/corpus, seeds $(ls "$FZ/seeds" | wc -l) + tests/fuzz-json/corpus"
cd "$FZ" || exit 1
# shellcheck disable=SC2086
"$BIN" -fork="$J" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 -max_total_time="$T" \
	-timeout=10 -rss_limit_mb=2048 -max_len=300000 -close_fd_mask=3 -artifact_prefix="$FZ/crashes/" \
	${FUZZ_ARGS:-} "$FZ/corpus" "$ROOT/tests/fuzz-json/corpus" "$FZ/seeds" 2>&1 | tee "$FZ/log" |
	grep -v '^#[0-9]*: cov' || true
grep '^#[0-9]*: cov' "$FZ/log" | tail -n 1
n=$(($(ls "$FZ/crashes" | wc -l) - before))
execs=$(grep '^#[0-9]*: cov' "$FZ/log" | tail -n 1 | sed 's/^#\([0-9]*\):.*/\1/')
echo "fuzz-json: ${execs:-0} executions in $T s, $n new crash/leak/timeout/OOM inputs in $FZ/crashes"
[ "$n" -eq 0 ]
