#!/bin/sh
# tests/fuzz-json/triage.sh: group crash inputs by what went wrong.
#
#   sh tests/fuzz-json/triage.sh [FILE|DIR]...   (default $B/fuzz-json/crashes)
#
# Runs each input once through the fuzzer binary and prints one line per
# input, "SIGNATURE<TAB>FILE", then a count per signature (lib.sh says
# what a signature is).  FUZZ_BIN: another fuzzer binary.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/fuzz-json/lib.sh
B=${B:-build}
BIN=${FUZZ_BIN:-$B/fuzz-json/fuzz-json}
[ $# -gt 0 ] || set -- "$B/fuzz-json/crashes"
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.log"' EXIT

for arg; do
	if [ -d "$arg" ]; then find "$arg" -type f; else echo "$arg"; fi
done | while read -r f; do
	ASAN_OPTIONS=fast_unwind_on_malloc=0 "$BIN" -runs=1 -rss_limit_mb=0 "$f" >"$tmp.log" 2>&1   # whole leak stacks
	printf '%s\t%s\n' "$(fuzz_signature "$tmp.log")" "$f"
done | tee "$tmp"
echo
cut -f1 "$tmp" | sort | uniq -c | sort -rn
