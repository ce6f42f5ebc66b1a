# tests/fuzz-json/lib.sh: shared by run.sh and triage.sh (sourced).

# fuzz_signature LOG: one line naming what went wrong in a report of the
# fuzzer binary: oxidec's internal-error message with its source line, the
# sanitizer's report line, or libFuzzer's; then " | in FUNC FILE:LINE", the
# first frame in src/ outside util.c and ir.c (who called die or ir_build).
fuzz_signature() {
	fs_sig=$(grep -m1 -o 'internal error at [^:]*:[0-9]*: .*' "$1" |
		sed 's/[0-9][0-9]* results, [0-9][0-9]* operands/N results, M operands/')
	[ -n "$fs_sig" ] || fs_sig=$(grep -m1 -o 'src/[^ ]*:[0-9]*:[0-9]*: runtime error: .*' "$1" |
		sed 's/error: -\{0,1\}[0-9][0-9.e+-]*/error: N/; s/ of type .*//')
	[ -n "$fs_sig" ] || fs_sig=$(grep -m1 -o 'ERROR: [A-Za-z]*Sanitizer: [a-z -]*' "$1")
	[ -n "$fs_sig" ] || fs_sig=$(grep -m1 -o 'ERROR: libFuzzer: [a-z-]*' "$1")
	fs_at=$(grep -o ' in [a-z_0-9]* [^ ]*/src/[^ ]*' "$1" | grep -v '/util.c\|/ir/ir.c' | head -n 1 |
		sed 's/:[0-9]*$//; s| [^ ]*/src/| src/|')
	printf '%s%s\n' "${fs_sig:-unknown}" "${fs_at:+ |$fs_at}"
}

# fuzz_known SIGNATURE: the line of tests/fuzz-json/known-open.txt whose
# first field (before a tab) occurs in SIGNATURE, if any.
fuzz_known() {
	while IFS='	' read -r pat note; do
		case $pat in '' | '#'*) continue ;; esac
		case $1 in *"$pat"*) printf '%s\t%s\n' "$pat" "$note"; return 0 ;; esac
	done <tests/fuzz-json/known-open.txt
	return 1
}
