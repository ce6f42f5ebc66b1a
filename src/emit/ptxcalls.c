/* ptxcalls.c: calls into recursion made indirect — a rewrite of LLVM's
 * PTX text around a ptxas crash (docs/DESIGN.md, "ptxas hazards";
 * tests/gpu/hazards/crash_inline_recursion.ptx).
 *
 * ptxas 13.0 at -O1 and above (and the driver's JIT) dies of SIGSEGV when
 * a .func that is not recursive, which it inlines, calls a function on a
 * call-graph cycle and that call becomes dead once the caller's arguments
 * are known (select_nth_unstable at oxidec -O0: partition_at_index_loop,
 * called once with len 15, calls the recursive median3_rec only when
 * len > 16).  Which calls ptxas inlines and what it then finds constant
 * cannot be told from the PTX, so every direct call from a non-recursive
 * .func to a recursive function goes through a register:
 *
 *   call.uni (retval0), f, (param0, param1);
 *     ==>
 *   { .reg .b64 %oxcallee; mov.u64 %oxcallee, f;
 *     __oxide_protoN : .callprototype (.param .b64 _) _ (.param .b64 _, .param .b64 _);
 *     call.uni (retval0), %oxcallee, (param0, param1), __oxide_protoN; }
 *
 * (one line; the prototype's types are the call sequence's own .param
 * declarations).  The same function is called with the same parameters.
 * Calls from an .entry, and calls inside a recursive function (ptxas does
 * not inline those), stay direct, so a recursion's own calls and a
 * kernel's are unchanged; only the way into a recursion from a helper is
 * one indirect call.  stack.c reads the rewritten line as the call it was
 * (PTX_REDIRECTED_CALL), so the recursion warning still sees the edge. */
#include "emit_impl.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	const char *name;   /* into the PTX text, name_len bytes */
	size_t name_len;
	bool kernel;
	bool recursive;     /* on a call-graph cycle */
	uint32_t first, ncalls;  /* its direct calls, in Graph.calls */
	/* Tarjan's strongly connected components */
	int32_t index, low;
	bool on_stack;
} Fn;

typedef struct {
	const char *line;   /* the call line's first byte */
	const char *callee;
	size_t callee_len;
	int32_t target;     /* index in Graph.fns, -1 when not defined here */
} Call;

typedef struct {
	Arena *a;
	Fn *fns;
	uint32_t nfns, capfns;
	Call *calls;
	uint32_t ncalls, capcalls;
	uint32_t *stack, nstack;
	int32_t next_index;
} Graph;

static bool is_name_char(int c)
{
	return isalnum(c) || c == '_' || c == '$';
}

static const char *skip_blank(const char *s)
{
	return s + strspn(s, " \t");
}

/* Past "(...)" at s and the blanks after it, or s when there is none. */
static const char *skip_parens(const char *s)
{
	s = skip_blank(s);
	if (*s != '(')
		return s;
	const char *close = strpbrk(s, ")\n");
	return close && *close == ')' ? skip_blank(close + 1) : s;
}

/* ".visible .entry k(" or ".func (.param .b64 r) f(": the name and kind;
 * false for any other line. */
static bool header_of(const char *line, Fn *f)
{
	const char *p = line;
	if (!strncmp(p, ".visible ", 9) || !strncmp(p, ".weak ", 6))
		p = skip_blank(strchr(p, ' '));
	f->kernel = !strncmp(p, ".entry", 6);
	if (!f->kernel && strncmp(p, ".func", 5))
		return false;
	p = skip_parens(p + (f->kernel ? 6 : 5));
	f->name = p;
	f->name_len = 0;
	while (is_name_char((unsigned char)p[f->name_len]))
		f->name_len++;
	return f->name_len > 0;
}

/* "[@%p ]call[.uni] [(ret), ]f, ...": f; false for an indirect call or
 * any other line.  s is past the indentation. */
static bool direct_callee(const char *s, Call *c)
{
	if (*s == '@')
		s = skip_blank(s + strcspn(s, " \t"));
	if (strncmp(s, "call", 4) || (s[4] != '.' && s[4] != ' ' && s[4] != '\t'))
		return false;
	const char *p = s + strcspn(s, " \t\n");
	const char *q = skip_parens(p);
	if (q != skip_blank(p) && *q == ',')
		q = skip_blank(q + 1);
	c->callee = q;
	c->callee_len = 0;
	while (is_name_char((unsigned char)q[c->callee_len]))
		c->callee_len++;
	return c->callee_len > 0 && !isdigit((unsigned char)*q);
}

static void parse_ptx(Graph *g, const char *ptx)
{
	Fn pending = {0};
	bool have_pending = false;
	Fn *cur = NULL;
	for (const char *line = ptx; *line;) {
		const char *eol = strchr(line, '\n');
		Call c;
		Fn head = {0};
		if (!cur && header_of(line, &head)) {
			pending = head;
			have_pending = true;
		} else if (line[0] == '{' && !cur && have_pending) {
			pending.first = g->ncalls;
			vec_push(g->a, &g->fns, &g->nfns, &g->capfns, pending);
			cur = &g->fns[g->nfns - 1];
			have_pending = false;
		} else if (line[0] == '}' && cur) {
			cur = NULL;
		} else if (line[0] == ';') {
			have_pending = false;
		} else if (cur && direct_callee(skip_blank(line), &c)) {
			c.line = line;
			c.target = -1;
			vec_push(g->a, &g->calls, &g->ncalls, &g->capcalls, c);
			cur->ncalls++;
		}
		line = eol ? eol + 1 : line + strlen(line);
	}
}

static int32_t find_fn(const Graph *g, const char *name, size_t n)
{
	for (uint32_t i = 0; i < g->nfns; i++)
		if (g->fns[i].name_len == n && !memcmp(g->fns[i].name, name, n))
			return (int32_t)i;
	return -1;
}

/* Each call's target; a call to itself marks a function recursive. */
static void resolve(Graph *g)
{
	for (uint32_t i = 0; i < g->nfns; i++)
		for (uint32_t k = g->fns[i].first; k < g->fns[i].first + g->fns[i].ncalls; k++) {
			Call *c = &g->calls[k];
			c->target = find_fn(g, c->callee, c->callee_len);
			if (c->target == (int32_t)i)
				g->fns[i].recursive = true;
		}
}

/* Tarjan: a component of two or more functions is recursive. */
static void strong_connect(Graph *g, uint32_t v)
{
	Fn *f = &g->fns[v];
	f->index = f->low = g->next_index++;
	g->stack[g->nstack++] = v;
	f->on_stack = true;
	for (uint32_t k = f->first; k < f->first + f->ncalls; k++) {
		int32_t w = g->calls[k].target;
		if (w < 0)
			continue;
		if (g->fns[w].index < 0) {
			strong_connect(g, (uint32_t)w);
			if (g->fns[w].low < g->fns[v].low)
				g->fns[v].low = g->fns[w].low;
		} else if (g->fns[w].on_stack && g->fns[w].index < g->fns[v].low) {
			g->fns[v].low = g->fns[w].index;
		}
	}
	f = &g->fns[v];
	if (f->low != f->index)
		return;
	uint32_t bottom = g->nstack;
	do
		g->fns[g->stack[--bottom]].on_stack = false;
	while (g->stack[bottom] != v);
	if (g->nstack - bottom > 1)
		for (uint32_t k = bottom; k < g->nstack; k++)
			g->fns[g->stack[k]].recursive = true;
	g->nstack = bottom;
}

static void mark_recursive(Graph *g)
{
	g->stack = arena_new_array(g->a, uint32_t, g->nfns + 1);
	for (uint32_t i = 0; i < g->nfns; i++)
		g->fns[i].index = -1;
	for (uint32_t i = 0; i < g->nfns; i++)
		if (g->fns[i].index < 0)
			strong_connect(g, i);
}

static bool needs_redirect(const Graph *g, const Fn *caller, const Call *c)
{
	return !caller->kernel && !caller->recursive && c->target >= 0 && g->fns[c->target].recursive;
}

/* ------------------------------------------------------------ rewrite */

/* The call sequence's ".param TYPE NAME[N];" lines, from its "{" line up
 * to the call. */
typedef struct {
	const char *decl[64];
	size_t n;
} Params;

/* NAME's declaration as a prototype entry, ".param TYPE _[N]", into out;
 * false when the call sequence does not declare it. */
static bool proto_entry(const Params *ps, const char *name, size_t len, Buf *out)
{
	for (size_t i = 0; i < ps->n; i++) {
		const char *d = ps->decl[i], *semi = strchr(d, ';');
		const char *end = semi ? semi : d;
		const char *arr = memchr(d, '[', (size_t)(end - d));
		const char *stop = arr ? arr : end;
		if ((size_t)(stop - d) < len || memcmp(stop - len, name, len) || is_name_char((unsigned char)stop[-(ptrdiff_t)len - 1]))
			continue;
		const char *type_end = stop - len;
		while (type_end > d && (type_end[-1] == ' ' || type_end[-1] == '\t'))
			type_end--;
		buf_add(out, d, (size_t)(type_end - d));
		buf_add(out, " _", 2);
		if (arr)
			buf_add(out, arr, (size_t)(end - arr));
		return true;
	}
	return false;
}

/* "(a, b)" at *s as prototype entries into out ("(" and ")" included);
 * *s moves past it.  False when it is not there or a name is undeclared. */
static bool proto_list(const Params *ps, const char **s, Buf *out)
{
	const char *p = skip_blank(*s);
	if (*p != '(')
		return false;
	buf_add(out, "(", 1);
	p = skip_blank(p + 1);
	for (bool first = true; *p != ')'; first = false) {
		size_t n = 0;
		while (is_name_char((unsigned char)p[n]))
			n++;
		if (!n)
			return false;
		if (!first)
			buf_add(out, ", ", 2);
		if (!proto_entry(ps, p, n, out))
			return false;
		p = skip_blank(p + n);
		if (*p == ',')
			p = skip_blank(p + 1);
	}
	buf_add(out, ")", 1);
	*s = p + 1;
	return true;
}

/* The span of "(...)" at s, blanks before it skipped; 0 when none. */
static size_t group_len(const char *s)
{
	if (*s != '(')
		return 0;
	const char *close = strpbrk(s, ")\n");
	return close && *close == ')' ? (size_t)(close - s) + 1 : 0;
}

/* The call line (without indentation) as the indirect call of the file
 * comment, into out; false (out unchanged) when it does not fit. */
static bool redirect(Buf *out, const char *line, size_t n, const Call *c, const Params *ps, unsigned id)
{
	const char *guard_end = line[0] == '@' ? skip_blank(line + strcspn(line, " \t")) : line;
	const char *op_end = guard_end + strcspn(guard_end, " \t");
	const char *ret = skip_blank(op_end);
	size_t ret_len = ret < c->callee ? group_len(ret) : 0;
	const char *after = skip_blank(c->callee + c->callee_len);
	Buf proto = {NULL, 0, 0};
	buf_add(&proto, "", 0);
	const char *p = ret;
	bool ok = (!ret_len || proto_list(ps, &p, &proto));
	buf_add(&proto, ret_len ? " _ " : "_ ", ret_len ? 3 : 2);
	const char *args = after, *q = after;
	if (ok && *q == ',')
		q = skip_blank(q + 1), args = q, ok = proto_list(ps, &q, &proto);
	else if (ok)
		buf_add(&proto, "()", 2);
	ok = ok && *skip_blank(q) == ';' && (size_t)(skip_blank(q) - line) < n;
	if (ok) {
		char head[64];
		snprintf(head, sizeof head, "__oxide_proto%u", id);
		buf_add(out, PTX_REDIRECTED_CALL, strlen(PTX_REDIRECTED_CALL));
		buf_add(out, c->callee, c->callee_len);
		buf_add(out, "; ", 2);
		buf_add(out, head, strlen(head));
		buf_add(out, " : .callprototype ", 18);
		buf_add(out, proto.s, proto.len);
		buf_add(out, "; ", 2);
		buf_add(out, line, (size_t)(op_end - line));
		buf_add(out, " ", 1);
		if (ret_len) {
			buf_add(out, ret, ret_len);
			buf_add(out, ", ", 2);
		}
		buf_add(out, "%oxcallee, ", 11);
		buf_add(out, args == after ? "()" : args, args == after ? 2 : (size_t)(q - args));
		buf_add(out, ", ", 2);
		buf_add(out, head, strlen(head));
		buf_add(out, "; }", 3);
	}
	free(proto.s);
	return ok;
}

static void note_param(Params *ps, const char *s)
{
	if (!strncmp(s, ".param", 6) && (s[6] == ' ' || s[6] == '\t') && ps->n < countof(ps->decl))
		ps->decl[ps->n++] = s;
}

static char *rewrite(const Graph *g, char *ptx, size_t *len)
{
	Buf out = {NULL, 0, 0};
	buf_add(&out, "", 0);
	Params ps = {{0}, 0};
	uint32_t k = 0, fn = 0;
	unsigned id = 0;
	for (const char *line = ptx; *line;) {
		const char *eol = strchr(line, '\n');
		size_t n = eol ? (size_t)(eol - line) : strlen(line);
		const char *s = skip_blank(line);
		if (*s == '{')
			ps.n = 0;
		note_param(&ps, s);
		while (fn < g->nfns && k >= g->fns[fn].first + g->fns[fn].ncalls)
			fn++;
		bool done = false;
		if (k < g->ncalls && g->calls[k].line == line) {
			if (needs_redirect(g, &g->fns[fn], &g->calls[k])) {
				buf_add(&out, line, (size_t)(s - line));
				done = redirect(&out, s, n - (size_t)(s - line), &g->calls[k], &ps, id++);
				if (!done)
					out.len -= (size_t)(s - line), out.s[out.len] = 0;
			}
			k++;
		}
		if (!done)
			buf_add(&out, line, n);
		if (eol)
			buf_add(&out, "\n", 1);
		line = eol ? eol + 1 : line + n;
	}
	free(ptx);
	if (len)
		*len = out.len;
	return out.s;
}

char *emit_redirect_recursion(char *ptx, size_t *len)
{
	Graph g = {.a = arena_new()};
	parse_ptx(&g, ptx);
	resolve(&g);
	mark_recursive(&g);
	bool any = false;
	for (uint32_t i = 0; i < g.nfns && !any; i++)
		for (uint32_t k = g.fns[i].first; k < g.fns[i].first + g.fns[i].ncalls && !any; k++)
			any = needs_redirect(&g, &g.fns[i], &g.calls[k]);
	char *out = any ? rewrite(&g, ptx, len) : ptx;
	arena_free(g.a);
	return out;
}
