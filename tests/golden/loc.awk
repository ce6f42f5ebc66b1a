# loc.awk: checks the line information of a PTX file against the Rust
# source (tests/golden/run.sh, NAME.loc).  Variables: src, the crate
# directory the .file paths are relative to; expfile, the NAME.loc file:
#   # comment lines (one of them "# source: DIR", read by run.sh)
#   PREFIX => TEXT    every instruction that starts with PREFIX (after its
#                     predicate; at least one does) is at a .loc where the
#                     Rust source, from that line and column, starts with TEXT
#   PREFIX -> TEXT    at least one of them is
# Also checked for the whole PTX: every instruction of a function comes
# after a .loc, and every .loc names a .file, a line of that file (or line
# 0, "no source line") and a column within the line.
# Prints the first problems and exits 1, or prints nothing.
function fail(msg) { print msg; bad++ }

function load(f,    path, line, n) {
	if (f in nlines)
		return
	path = src "/" file[f]
	n = 0
	while ((getline line < path) > 0)
		text[f, ++n] = line
	close(path)
	nlines[f] = n
	if (!n)
		fail("cannot read " path " (.file " f ")")
}

# "F L C" of a .loc, checked; returns the source text from its column, or
# "" for line 0.
function at(loc, where,    p) {
	split(loc, p, " ")
	if (!(p[1] in file)) {
		fail(where ": .loc " loc " names no .file")
		return ""
	}
	load(p[1])
	if (p[2] == 0)
		return ""
	if (p[2] > nlines[p[1]]) {
		fail(where ": .loc " loc ": " file[p[1]] " has " nlines[p[1]] " lines")
		return ""
	}
	if (p[3] > length(text[p[1], p[2]]) + 1)
		fail(where ": .loc " loc ": column past the end of line " p[2])
	return substr(text[p[1], p[2]], p[3] ? p[3] : 1)
}

BEGIN {
	n = 0
	while ((getline l < expfile) > 0) {
		if (l ~ /^#/ || l == "")
			continue
		k = index(l, " => ")
		every[n] = k > 0
		if (!k)
			k = index(l, " -> ")
		if (!k) {
			print expfile ": expected 'PREFIX => TEXT' or 'PREFIX -> TEXT': " l
			exit 1
		}
		pfx[n] = substr(l, 1, k - 1)
		want[n] = substr(l, k + 4)
		hits[n++] = 0
	}
	nloc = 0
}

/^[\t ]*\.file[\t ]/ {
	f = $2
	sub(/^[^"]*"/, "")
	sub(/".*$/, "")
	file[f] = $0
	next
}
/^[\t ]*\.loc[\t ]/ { cur = $2 " " $3 " " $4; locs[nloc++] = cur; next }
/^\.(visible|func|entry|weak)|^\.(visible \.)?(entry|func)/ { cur = ""; next }
/^\t[a-z@]/ {
	ins = $0
	sub(/^\t/, "", ins)
	sub(/^@!?%p[0-9]+[\t ]+/, "", ins)
	if (cur == "") {
		fail("line " NR ": an instruction without .loc: " ins)
		next
	}
	for (i = 0; i < n; i++)
		if (index(ins, pfx[i]) == 1)
			seen[i, hits[i]++] = cur
}

END {
	for (i = 0; i < nloc && bad < 10; i++)
		at(locs[i], ".loc #" i)
	for (i = 0; i < n && bad < 10; i++) {
		if (!hits[i])
			fail("no instruction starts with '" pfx[i] "'")
		found = 0
		for (j = 0; j < hits[i]; j++) {
			t = at(seen[i, j], pfx[i])
			if (index(t, want[i]) == 1)
				found++
			else if (every[i])
				fail("'" pfx[i] "' #" j " at .loc " seen[i, j] ": the source there reads '" t "', expected '" want[i] "'")
		}
		if (hits[i] && !every[i] && !found)
			fail("no '" pfx[i] "' is at '" want[i] "'")
	}
	exit bad > 0
}
