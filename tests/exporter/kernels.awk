# tests/exporter/kernels.awk: the PTX entry names of the #[kernel] fns of a
# lib.rs, one a line: NAME, or for #[kernel(instances(A, (B, C)))] on a
# generic kernel its instances NAME_A, NAME_B_C (oxide-macros' scheme: each
# type's last path segment, generic arguments' words appended, `_`-joined).
# A kernel a macro defines (`fn $name`) prints as `$name`.
# split s at the commas outside () and <>: into arr, returns the count
function split_top(s, arr,   n, i, c, d, cur) {
	n = 0; d = 0; cur = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "(" || c == "<") d++
		else if (c == ")" || c == ">") d--
		else if (c == "," && d == 0) { if (cur ~ /[^ ]/) arr[++n] = cur; cur = ""; continue }
		cur = cur c
	}
	if (cur ~ /[^ ]/) arr[++n] = cur
	return n
}
# a type's name part: last path segment outside <>, words joined by _
function tyname(t,   i, c, d, seg, w) {
	d = 0; seg = 1
	for (i = 1; i <= length(t); i++) {
		c = substr(t, i, 1)
		if (c == "<") d++
		else if (c == ">") d--
		else if (d == 0 && substr(t, i, 2) == "::") seg = i + 2
	}
	w = substr(t, seg)
	gsub(/[^A-Za-z0-9_]+/, "_", w); sub(/^_+/, "", w); sub(/_+$/, "", w)
	return w
}
# "f32, (f64, u64)" -> " _f32 _f64_u64"
function suffixes(list,   n, i, items, m, j, tys, s, out) {
	n = split_top(list, items); out = ""
	for (i = 1; i <= n; i++) {
		s = items[i]; sub(/^ +/, "", s); sub(/ +$/, "", s)
		if (s ~ /^\(/) { s = substr(s, 2, length(s) - 2) }
		m = split_top(s, tys); s = ""
		for (j = 1; j <= m; j++) s = s "_" tyname(tys[j])
		out = out " " s
	}
	return out
}
/^[ \t]*#\[kernel/ {
	k = 1; inst = ""
	if ((p = index($0, "instances(")) > 0) {
		rest = substr($0, p + 10); d = 1
		for (i = 1; i <= length(rest); i++) {
			c = substr(rest, i, 1)
			if (c == "(") d++; else if (c == ")" && --d == 0) break
		}
		inst = suffixes(substr(rest, 1, i - 1))
	}
	next
}
k && /fn / {
	sub(/.*fn /, ""); sub(/[(<].*/, "")
	if (inst == "") print
	else { n = split(inst, ss, " "); for (i = 1; i <= n; i++) print $0 ss[i] }
	k = 0
}
