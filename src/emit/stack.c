/* stack.c: the compile-time stack warning — a kernel whose call graph is
 * recursive gets a warning with the stack each level of the recursion
 * needs, since CUDA gives every thread a fixed stack (1,024 bytes unless
 * raised) and an overflow is a fault, not an error a program can test.
 *
 * Reads the final PTX, not oxidec's IR: LLVM may have inlined a call or
 * turned tail recursion into a loop, and what runs is what the PTX calls.
 * Functions are the `.entry` / `.func` bodies, calls the `call` lines
 * naming a function (calls through a pointer name a register and are not
 * followed, except those ptxcalls.c made of direct calls: it names the
 * callee, PTX_REDIRECTED_CALL).  Frame sizes come from ptxas itself: the PTX is compiled
 * once more with -v, by the compiler that makes the cubin (cubin.c: the
 * toolkit's ptxas, else nvJitLink; only when something is recursive) and
 * its "N bytes stack frame" lines are read.  Without either the
 * frame is estimated from the PTX's `__local_depot` (LLVM's frame), which
 * lacks ptxas's spills and saved registers, and the warning says so.
 * The driver's JIT at load time may lay frames out a little differently
 * from the toolkit's ptxas; the figures are per thread. */
#include "emit.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

enum { CUDA_DEFAULT_STACK = 1024 };

typedef struct {
	const char *name;           /* PTX name */
	bool kernel;
	int64_t depot;              /* __local_depot bytes, 0 without */
	int64_t frame;              /* ptxas's stack frame, -1 unknown */
	const char **callee_names;
	uint32_t ncallee, capcallee;
	uint32_t *callees;          /* indices, resolved after parsing */
	uint32_t nresolved;
	Func *func;                 /* its function in the Module, or NULL */
	uint8_t state;              /* DFS: 0 new, 1 on the stack, 2 done */
} PtxFunc;

typedef struct {
	const char *name;
	uint32_t index;
} NameIndex;

typedef struct {
	Arena *a;
	PtxFunc *fn;
	uint32_t nfn, capfn;
	NameIndex *by_name;         /* fn sorted by name, for bsearch */
	bool measured;              /* frames from ptxas, not depots */
	/* the DFS of one kernel */
	uint32_t *path;
	uint32_t npath;
	int64_t best;               /* bytes per level of the costliest cycle */
	uint32_t *cycle, ncycle;
	int64_t before;             /* bytes of the path down to that cycle */
} Graph;

/* ------------------------------------------------------------ parsing */

static const char *skip_space(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static bool is_ident(int c)
{
	return isalnum(c) || c == '_' || c == '$' || c == '.' || c == '%';
}

/* Past a parenthesized group at s (return parameters), if there is one. */
static const char *skip_group(const char *s)
{
	s = skip_space(s);
	if (*s != '(')
		return s;
	const char *close = strchr(s, ')');
	return close ? skip_space(close + 1) : s + strlen(s);
}

static const char *ident_copy(Arena *a, const char *s)
{
	size_t n = 0;
	while (s[n] && s[n] != '\n' && is_ident((unsigned char)s[n]))
		n++;
	if (!n)
		return NULL;
	char *out = arena_alloc(a, n + 1);
	memcpy(out, s, n);
	return out;
}

/* ".visible .entry k(" or ".func (.param .b64 r) f(": the name, with
 * *kernel set; NULL for any other line. */
static const char *header_name(Arena *a, const char *line, bool *kernel)
{
	const char *p = line;
	if (!strncmp(p, ".visible ", 9) || !strncmp(p, ".weak ", 6) || !strncmp(p, ".extern ", 8))
		p = skip_space(strchr(p, ' '));
	*kernel = !strncmp(p, ".entry ", 7);
	if (!*kernel && strncmp(p, ".func ", 6) && strncmp(p, ".func\t", 6))
		return NULL;
	return ident_copy(a, skip_group(p + (*kernel ? 7 : 6)));
}

/* "call.uni (retval0), f, (param0);": f, or NULL for an indirect call. */
static const char *callee_name(Arena *a, const char *s)
{
	while (*s && *s != ' ' && *s != '\t')
		s++;
	const char *p = skip_group(s);
	if (p != skip_space(s) && *p == ',')     /* after return parameters */
		p = skip_space(p + 1);
	return *p == '%' ? NULL : ident_copy(a, p);
}

static int64_t depot_size(const char *line)
{
	const char *b = strchr(line, '[');
	return b ? strtoll(b + 1, NULL, 10) : 0;
}

static void body_line(Graph *g, PtxFunc *f, const char *s)
{
	size_t redirected = strlen(PTX_REDIRECTED_CALL);
	if (!strncmp(s, PTX_REDIRECTED_CALL, redirected)) {   /* ptxcalls.c's */
		const char *c = ident_copy(g->a, s + redirected);
		if (c)
			vec_push(g->a, &f->callee_names, &f->ncallee, &f->capcallee, c);
	} else if (!strncmp(s, "call", 4) && (s[4] == '.' || s[4] == ' ' || s[4] == '\t')) {
		const char *c = callee_name(g->a, s);
		if (c)
			vec_push(g->a, &f->callee_names, &f->ncallee, &f->capcallee, c);
	} else if (!strncmp(s, ".local", 6) && strstr(s, "__local_depot")) {
		f->depot += depot_size(s);
	}
}

static void parse_ptx(Graph *g, const char *ptx)
{
	const char *pending = NULL;
	bool kernel = false;
	PtxFunc *cur = NULL;
	for (const char *line = ptx; *line; ) {
		const char *eol = strchr(line, '\n');
		const char *next = eol ? eol + 1 : line + strlen(line);
		bool k;
		const char *name = cur ? NULL : header_name(g->a, line, &k);
		if (name) {
			pending = name, kernel = k;
		} else if (line[0] == '{' && !cur && pending) {
			PtxFunc f = {.name = pending, .kernel = kernel, .frame = -1};
			vec_push(g->a, &g->fn, &g->nfn, &g->capfn, f);
			cur = &g->fn[g->nfn - 1];
			pending = NULL;
		} else if (line[0] == '}' && cur) {
			cur = NULL;
		} else if (line[0] == ';') {
			pending = NULL;
		} else if (cur) {
			body_line(g, cur, skip_space(line));
		}
		line = next;
	}
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const NameIndex *)a)->name, ((const NameIndex *)b)->name);
}

/* Lookups by name are a binary search: a module may have thousands of
 * functions and calls. */
static void sort_names(Graph *g)
{
	g->by_name = arena_new_array(g->a, NameIndex, g->nfn + 1);
	for (uint32_t i = 0; i < g->nfn; i++)
		g->by_name[i] = (NameIndex){g->fn[i].name, i};
	qsort(g->by_name, g->nfn, sizeof *g->by_name, cmp_name);
}

static int64_t find_func(const Graph *g, const char *name)
{
	NameIndex key = {name, 0};
	NameIndex *hit = g->nfn ? bsearch(&key, g->by_name, g->nfn, sizeof key, cmp_name) : NULL;
	return hit ? (int64_t)hit->index : -1;
}

static void resolve_calls(Graph *g)
{
	sort_names(g);
	for (uint32_t i = 0; i < g->nfn; i++) {
		PtxFunc *f = &g->fn[i];
		f->callees = arena_new_array(g->a, uint32_t, f->ncallee + 1);
		for (uint32_t k = 0; k < f->ncallee; k++) {
			int64_t j = find_func(g, f->callee_names[k]);
			if (j >= 0)
				f->callees[f->nresolved++] = (uint32_t)j;
		}
	}
}

/* ptxas -v: "Function properties for NAME" then "... N bytes stack frame". */
static void read_frames(Graph *g, const char *log)
{
	static const char key[] = "Function properties for ";
	for (const char *p = strstr(log, key); p; p = strstr(p + 1, key)) {
		const char *name = ident_copy(g->a, p + sizeof key - 1);
		const char *eol = strchr(p, '\n');
		const char *frame = eol ? strstr(eol, "bytes stack frame") : NULL;
		int64_t i = name ? find_func(g, name) : -1;
		if (i < 0 || !frame)
			continue;
		const char *num = frame;
		while (num > eol && (num[-1] == ' ' || isdigit((unsigned char)num[-1])))
			num--;
		g->fn[i].frame = strtoll(num, NULL, 10);
	}
}

/* --------------------------------------------------------- recursion */

static int64_t frame_of(const Graph *g, uint32_t i)
{
	const PtxFunc *f = &g->fn[i];
	return f->frame >= 0 ? f->frame : f->depot;
}

/* A call back to path[from]: the cycle path[from..] costs the sum of its
 * frames per level; keep the costliest. */
static void note_cycle(Graph *g, uint32_t from)
{
	int64_t level = 0, before = 0;
	for (uint32_t k = 0; k < g->npath; k++)
		*(k < from ? &before : &level) += frame_of(g, g->path[k]);
	if (g->ncycle && level <= g->best)
		return;
	g->best = level, g->before = before;
	g->ncycle = g->npath - from;
	g->cycle = arena_new_array(g->a, uint32_t, g->ncycle);
	memcpy(g->cycle, g->path + from, sizeof *g->cycle * g->ncycle);
}

static void dfs(Graph *g, uint32_t i)
{
	PtxFunc *f = &g->fn[i];
	f->state = 1;
	g->path[g->npath++] = i;
	for (uint32_t k = 0; k < f->nresolved; k++) {
		uint32_t c = f->callees[k];
		if (g->fn[c].state == 0) {
			dfs(g, c);
		} else if (g->fn[c].state == 1) {
			uint32_t from = g->npath;
			while (g->path[from - 1] != c)
				from--;
			note_cycle(g, from - 1);
		}
	}
	g->npath--;
	f->state = 2;
}

static void search_kernel(Graph *g, uint32_t k)
{
	for (uint32_t i = 0; i < g->nfn; i++)
		g->fn[i].state = 0;
	g->npath = 0, g->ncycle = 0, g->best = 0, g->before = 0;
	dfs(g, k);
}

/* One DFS from all kernels together (a node done is done for all): a
 * cycle any kernel reaches shows as a call back onto the stack. */
static bool any_recursion(Graph *g)
{
	for (uint32_t i = 0; i < g->nfn; i++)
		g->fn[i].state = 0;
	g->npath = 0, g->ncycle = 0, g->best = 0, g->before = 0;
	for (uint32_t k = 0; k < g->nfn && !g->ncycle; k++)
		if (g->fn[k].kernel && g->fn[k].state == 0)
			dfs(g, k);
	return g->ncycle != 0;
}

/* ---------------------------------------------------------- warnings */

/* The PTX name LLVM gives a symbol (NVPTXAssignValidGlobalNames). */
static char *ptx_name(Arena *a, const char *sym)
{
	char *out = arena_alloc(a, strlen(sym) * 3 + 1), *o = out;
	for (; *sym; sym++) {
		if (isalnum((unsigned char)*sym) || *sym == '_' || *sym == '$')
			*o++ = *sym;
		else
			memcpy(o, "_$_", 3), o += 3;
	}
	return out;
}

/* Each PTX function's Func, for Rust names and source lines. */
static void link_funcs(Graph *g, Module *m)
{
	for (Func *f = m ? m->funcs : NULL; f; f = f->next) {
		int64_t i = find_func(g, ptx_name(g->a, f->symbol));
		if (i >= 0)
			g->fn[i].func = f;
	}
}

static const char *rust_name(Graph *g, uint32_t i)
{
	Func *f = g->fn[i].func;
	return f && f->name && *f->name ? f->name : g->fn[i].name;
}

/* "file:line:col" of the recursive function, else of the kernel. */
static const char *where_of(Graph *g, Module *m, uint32_t k)
{
	uint32_t cand[2] = {g->cycle[0], k};
	for (int i = 0; i < 2; i++) {
		Func *f = g->fn[cand[i]].func;
		if (f && f->loc.file >= 0 && (uint32_t)f->loc.file < m->nfile)
			return arena_printf(g->a, "%s:%u:%u", m->files[f->loc.file], f->loc.line, f->loc.col);
	}
	return "oxidec";
}

static const char *cycle_text(Graph *g)
{
	char *s = "";
	for (uint32_t i = 0; i < g->ncycle; i++)
		s = arena_printf(g->a, "%s%s -> ", s, rust_name(g, g->cycle[i]));
	return arena_printf(g->a, "%s%s", s, rust_name(g, g->cycle[0]));
}

static void warn_kernel(Graph *g, Module *m, uint32_t k, const char *arch)
{
	const char *kname = rust_name(g, k);
	diag_warning(where_of(g, m, k),
	             "kernel '%s' is recursive (%s): each level needs %s%lld bytes of stack; CUDA's default limit is "
	             "%d bytes per thread; raise it with ox_set_stack_size or cuCtxSetLimit(CU_LIMIT_STACK_SIZE)",
	             kname, cycle_text(g), g->measured ? "" : "at least ", (long long)g->best, CUDA_DEFAULT_STACK);
	int64_t fit = g->best > 0 && g->before < CUDA_DEFAULT_STACK ? (CUDA_DEFAULT_STACK - g->before) / g->best : 0;
	if (g->measured)
		diag_note("oxidec", "'%s' needs about %lld + %lld x depth bytes (ptxas's frames, %s); "
		          "%lld levels fit in %d", kname, (long long)g->before, (long long)g->best, arch, (long long)fit,
		          CUDA_DEFAULT_STACK);
	else
		diag_note("oxidec", "estimated from the PTX's local depots (neither ptxas nor nvJitLink found, or it failed on this PTX): ptxas adds spills and "
		          "saved registers to each level");
}

int stack_warn(Module *m, const char *ptx, const char *log, const char *arch)
{
	Graph g = {.a = arena_new(), .measured = log != NULL};
	int nwarn = 0;
	parse_ptx(&g, ptx);
	resolve_calls(&g);
	if (log)
		read_frames(&g, log);
	link_funcs(&g, m);
	g.path = arena_new_array(g.a, uint32_t, g.nfn + 1);
	for (uint32_t k = 0; k < g.nfn; k++) {
		if (!g.fn[k].kernel)
			continue;
		search_kernel(&g, k);
		if (g.ncycle) {
			warn_kernel(&g, m, k, arch ? arch : "sm_90");
			nwarn++;
		}
	}
	arena_free(g.a);
	return nwarn;
}

/* ptxas runs only when something is recursive: most modules are not. */
void stack_check(Module *m, const char *ptx, size_t len, const char *arch)
{
	Graph g = {.a = arena_new()};
	parse_ptx(&g, ptx);
	resolve_calls(&g);
	g.path = arena_new_array(g.a, uint32_t, g.nfn + 1);
	bool recursive = any_recursion(&g);
	arena_free(g.a);
	if (!recursive)
		return;
	char *log = cubin_ptxas_log(ptx, len, arch);
	stack_warn(m, ptx, log, arch);
	free(log);
}
