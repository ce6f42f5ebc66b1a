/* traps.c: where the bounds tests' traps go in kernels with warp-collective
 * instructions — a layout rewrite of LLVM's PTX text, for ptxas's sake
 * (BENCHMARKS.md, issue 11: warp scan; docs/DESIGN.md, "Trap layout").
 *
 * A failed Rust check (index out of bounds, overflow, unwrap of None)
 * branches to a block of its own, `trap; exit;`, which LLVM's block
 * placement puts after the function's `ret` (the branch is cold):
 *
 *       @%p1 bra $L__BB1_8;          @!%p1 bra $L__oxok1;
 *       ...hot path...        ==>    .loc (the trap's lines)
 *       ret;                         trap; exit;
 *   $L__BB1_8:                   $L__oxok1:
 *       .loc ...                     .loc (the line before, again)
 *       trap; exit;                  ...hot path...
 *
 * the trap at the test, falling through to the hot path otherwise, as
 * nvcc's PTX has its __trap() checks.  In a kernel with a shuffle, vote,
 * match, redux or warp barrier, ptxas (CUDA 13.0, sm_90) compiles LLVM's
 * layout with 2 more registers and, in warp_sum_scan, the global memory
 * descriptor in a vector register (LDC.64) copied to a uniform one (R2UR)
 * before each load and store — 7 instructions of the warp's 69 — where
 * the rewritten layout keeps it in a uniform register from the start, as
 * nvcc's twin does (measured on every example module: 6 such kernels, 5 to
 * 38 instructions and 2 registers fewer each, none worse).  Elsewhere the
 * same rewrite is no gain (vecadd: 6 instructions more; softmax_rows's
 * max loop: one more per iteration when its tests are split), so it is
 * done only in .entry bodies with such an instruction, and only for
 * branches outside loops (a backward branch's range).
 *
 * The program is the same: the branch is inverted and the trap copied
 * after it; the original block stays where it is (another branch may
 * use it; ptxas drops it when none does).  Any line that does not fit the
 * patterns exactly is left as it is. */
#include "emit_impl.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
	const char *s;
	size_t n;
} Line;

static void text_line(Buf *t, const char *s, size_t n)
{
	buf_add(t, s, n);
	buf_add(t, "\n", 1);
}

/* l without its indentation, *n its length. */
static const char *trimmed(Line l, size_t *n)
{
	size_t i = strspn(l.s, " \t");
	*n = i < l.n ? l.n - i : 0;
	return l.s + (i < l.n ? i : l.n);
}

static bool is(Line l, const char *what)
{
	size_t n;
	const char *s = trimmed(l, &n);
	return n == strlen(what) && !memcmp(s, what, n);
}

static bool is_loc(Line l)
{
	size_t n;
	const char *s = trimmed(l, &n);
	return n > 5 && !memcmp(s, ".loc", 4) && (s[4] == ' ' || s[4] == '\t');
}

/* A label line "$L__NAME:" at column 0: the name's length, else 0. */
static size_t label_of(Line l)
{
	if (l.n < 3 || l.s[0] != '$' || l.s[l.n - 1] != ':')
		return 0;
	for (size_t i = 1; i + 1 < l.n; i++)
		if (!(l.s[i] == '_' || (l.s[i] >= '0' && l.s[i] <= '9') || (l.s[i] >= 'a' && l.s[i] <= 'z') ||
		      (l.s[i] >= 'A' && l.s[i] <= 'Z')))
			return 0;
	return l.n - 1;
}

/* The label a line branches to ("[@[!]%pN ]bra[.uni] LABEL;"), its
 * length in *n; NULL for any other line. *pred and *pn get the guard's
 * predicate (without the '!'), *neg whether it is negated; *pn = 0
 * without a guard. */
static const char *branch_of(Line l, size_t *n, const char **pred, size_t *pn, bool *neg)
{
	size_t m;
	const char *s = trimmed(l, &m), *end = s + m;
	*pn = 0;
	*neg = false;
	if (s < end && *s == '@') {
		s++;
		if (s < end && *s == '!')
			*neg = true, s++;
		*pred = s;
		while (s < end && *s != ' ' && *s != '\t')
			s++;
		*pn = (size_t)(s - *pred);
		if (*pn < 3 || memcmp(*pred, "%p", 2))
			return NULL;
		s += strspn(s, " \t");
	}
	if (end - s < 4 || memcmp(s, "bra", 3))
		return NULL;
	s += 3;
	if (end - s >= 4 && !memcmp(s, ".uni", 4))
		s += 4;
	if (s >= end || (*s != ' ' && *s != '\t'))
		return NULL;
	s += strspn(s, " \t");
	const char *lab = s;
	while (s < end && *s != ';')
		s++;
	if (s + 1 != end || s == lab || *lab != '$')
		return NULL;
	*n = (size_t)(s - lab);
	return lab;
}

/* Whether the n bytes at s contain w. */
static bool contains(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w);
	for (size_t i = 0; i + k <= n; i++)
		if (!memcmp(s + i, w, k))
			return true;
	return false;
}

static bool has_collective(const Line *ls, size_t a, size_t b)
{
	static const char *const ops[] = { "shfl.sync", "vote.sync", "match.any.sync", "match.all.sync",
	                                   "redux.sync", "bar.warp.sync", "activemask" };
	for (size_t i = a; i < b; i++)
		for (size_t k = 0; k < countof(ops); k++)
			if (contains(ls[i].s, ls[i].n, ops[k]))
				return true;
	return false;
}

/* The line index of label lab (n bytes) in [a, b), or b. */
static size_t find_label(const Line *ls, size_t a, size_t b, const char *lab, size_t n)
{
	for (size_t i = a; i < b; i++)
		if (label_of(ls[i]) == n && !memcmp(ls[i].s, lab, n))
			return i;
	return b;
}

/* The .loc lines of a trap block whose label is at line t, and the index
 * of its "trap; exit;" line; 0 when the block is not just that. */
static size_t trap_block(const Line *ls, size_t t, size_t b)
{
	size_t i = t + 1;
	while (i < b && is_loc(ls[i]))
		i++;
	return i < b && is(ls[i], "trap; exit;") ? i : 0;
}

/* loop[i - a] for the lines of [a, b) inside a loop: between a label and
 * a later branch back to it. */
static bool *loop_lines(const Line *ls, size_t a, size_t b)
{
	bool *loop = xmalloc((b - a + 1) * sizeof *loop);
	memset(loop, 0, (b - a + 1) * sizeof *loop);
	for (size_t i = a; i < b; i++) {
		size_t n, pn;
		const char *pred;
		bool neg;
		const char *lab = branch_of(ls[i], &n, &pred, &pn, &neg);
		size_t t = lab ? find_label(ls, a, i, lab, n) : i;
		for (size_t j = t; j < i; j++)
			loop[j - a] = true;
		if (t < i)
			loop[i - a] = true;
	}
	return loop;
}

/* The body [a, b) (the lines between "{" and "}") of an .entry with a
 * warp-collective instruction, rewritten into out. */
static void rewrite_body(Buf *out, const Line *ls, size_t a, size_t b, unsigned *id)
{
	const Line *loc = NULL;      /* the last .loc line before the current one */
	bool *loop = loop_lines(ls, a, b);
	for (size_t i = a; i < b; i++) {
		size_t n, pn;
		const char *pred;
		bool neg;
		const char *lab = branch_of(ls[i], &n, &pred, &pn, &neg);
		size_t t = lab && pn ? find_label(ls, a, b, lab, n) : b, x = t < b ? trap_block(ls, t, b) : 0;
		if (!x || t < i || loop[i - a]) {
			if (is_loc(ls[i]))
				loc = &ls[i];
			text_line(out, ls[i].s, ls[i].n);
			continue;
		}
		char head[96];
		unsigned k = (*id)++;
		size_t ind = strspn(ls[i].s, " \t");
		int hn = snprintf(head, sizeof head, "@%s%.*s bra \t$L__oxok%u;", neg ? "" : "!", (int)pn, pred, k);
		buf_add(out, ls[i].s, ind);
		text_line(out, head, (size_t)hn);
		for (size_t j = t + 1; j <= x; j++)
			text_line(out, ls[j].s, ls[j].n);
		hn = snprintf(head, sizeof head, "$L__oxok%u:", k);
		text_line(out, head, (size_t)hn);
		if (loc)
			text_line(out, loc->s, loc->n);
	}
	free(loop);
}

char *emit_inline_traps(char *ptx, size_t *len)
{
	size_t nl = 0, cap = 1024;
	Line *ls = xmalloc(cap * sizeof *ls);
	for (const char *p = ptx; *p;) {
		const char *eol = strchr(p, '\n');
		size_t n = eol ? (size_t)(eol - p) : strlen(p);
		if (nl == cap)
			ls = xrealloc(ls, (cap *= 2) * sizeof *ls);
		ls[nl++] = (Line){p, n};
		p += n + (eol != NULL);
	}
	bool newline_at_end = *ptx && ptx[strlen(ptx) - 1] == '\n';
	Buf out = {NULL, 0, 0};
	buf_add(&out, "", 0);
	unsigned id = 0;
	bool entry = false;          /* the last function header seen is an .entry */
	for (size_t i = 0; i < nl;) {
		if (ls[i].n && ls[i].s[0] == '.' && (contains(ls[i].s, ls[i].n, ".entry ") ||
		                                     contains(ls[i].s, ls[i].n, ".func ")))
			entry = contains(ls[i].s, ls[i].n, ".entry ");
		if (!(ls[i].n == 1 && ls[i].s[0] == '{')) {
			text_line(&out, ls[i].s, ls[i].n);
			i++;
			continue;
		}
		size_t b = i + 1;
		while (b < nl && !(ls[b].n == 1 && ls[b].s[0] == '}'))
			b++;
		text_line(&out, ls[i].s, ls[i].n);
		if (entry && b < nl && has_collective(ls, i + 1, b))
			rewrite_body(&out, ls, i + 1, b, &id);
		else
			for (size_t j = i + 1; j < b; j++)
				text_line(&out, ls[j].s, ls[j].n);
		i = b;
		entry = false;
	}
	if (!newline_at_end && out.len && out.s[out.len - 1] == '\n')
		out.s[--out.len] = 0;
	free(ls);
	free(ptx);
	if (len)
		*len = out.len;
	return out.s;
}
