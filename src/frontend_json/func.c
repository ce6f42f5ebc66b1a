/* func.c: stage 2 driver — link the inputs into one Module (files, types,
 * allocations, function signatures) and build every body. */
#include "build.h"

#include <string.h>

static void import_files(Module *m, FeFile *f, Arena *a)
{
	cJSON *arr = cJSON_GetObjectItemCaseSensitive(f->root, "files"), *e;
	uint32_t n = (uint32_t)cJSON_GetArraySize(arr);
	const char **files = arena_new_array(a, const char *, m->nfile + n);
	if (m->nfile)
		memcpy(files, m->files, sizeof(char *) * m->nfile);
	f->file_base = m->nfile;
	cJSON_ArrayForEach(e, arr)
		files[m->nfile++] = arena_strdup(a, cJSON_IsString(e) ? e->valuestring : "?");
	m->files = files;
}

/* The function a symbol names, in any input. */
Func *fe_func(FeFile *f, const char *symbol)
{
	FuncDef *d = fe_map_get(f->in->syms, "", symbol);
	return d ? d->fn : NULL;
}

static void fb_init(Fb *fb, Module *m, Arena *a, FeFile *f, cJSON *jfn, JPath p)
{
	memset(fb, 0, sizeof *fb);
	fb->m = m;
	fb->a = a;
	fb->f = f;
	fb->path = p;
	fb->b.mod = m;
	fb_set_span(fb, json_get_opt(jfn, "span"));
	fb->fn_loc = fb->b.loc;
	snprintf(fb->fn_where, sizeof fb->fn_where, "%s", fb->where);
}

static bool read_locals(Fb *fb, cJSON *jfn)
{
	uint32_t nargs = json_u32(fb->path, jfn, "arg_count");
	cJSON *locals = json_get(fb->path, jfn, "locals", cJSON_Array), *l;
	if (!locals)
		return false;
	fb->nlocal = (uint32_t)cJSON_GetArraySize(locals);
	fb->lty = arena_new_array(fb->a, RType *, fb->nlocal);
	fb->slot = arena_new_array(fb->a, Value *, fb->nlocal);
	uint32_t i = 0;
	JPath lp = jpath_field(fb->a, fb->path, "locals");
	cJSON_ArrayForEach(l, locals) {
		fb->lty[i] = fe_type(jpath_index(fb->a, lp, (int)i), fb->f, l, "ty");
		if (!fb->lty[i])
			return false;
		/* the return place and the arguments need a layout now; other
		 * locals when a statement uses them (build_place): MIR keeps
		 * declarations of values optimised away (a closure never built) */
		if (!fb->lty[i]->has_layout && (i == 0 || i <= nargs)) {
			fb_set_span(fb, json_get_opt(l, "span"));
			fb_error(fb, "local _%u of type `%s` has no layout (unsized values and unnamed "
			         "types cannot be stored in a kernel's locals)", i, fb->lty[i]->name);
			return false;
		}
		i++;
	}
	if (fb->nlocal == 0)
		return fe_error(fb->path, "a body needs at least the return local _0"), false;
	return true;
}

/* A symbol defined by two inputs: one function when the bodies agree
 * (the crate linked twice, its allocations too), else an error naming
 * both. */
static bool same_function(JPath p, FeFile *f, cJSON *jfn, FuncDef *d)
{
	cJSON *a0 = json_get_opt(d->f->root, "allocs"), *a1 = json_get_opt(f->root, "allocs");
	bool allocs_same = (!a0 && !a1) || (a0 && a1 && cJSON_Compare(a0, a1, true));
	if (fe_same_json(d->f, d->j, f, jfn, false) && allocs_same && !strcmp(d->f->crate, f->crate))
		return true;
	fe_error(p, "function symbol `%s` is also defined, differently, in %s (%s)", d->fn->symbol, d->f->path,
	         d->path);
	return false;
}

/* Signature from the argument and return locals (no body yet). */
static bool declare_func(Module *m, Arena *a, FeFile *f, cJSON *jfn, JPath p)
{
	Fb fb;
	fb_init(&fb, m, a, f, jfn, p);
	const char *sym = json_str(p, jfn, "symbol"), *name = json_str(p, jfn, "name");
	FuncDef *d = fe_map_get(f->in->syms, "", sym);
	if (d)
		return same_function(p, f, jfn, d);
	Func *fn = ir_func_new(m, name, sym);
	d = arena_alloc(a, sizeof *d);
	*d = (FuncDef){ fn, f, jfn, p.path };
	fe_map_put(f->in->syms, "", sym, d);
	if (!fe_map_get(f->in->funcs, f->crate, name))
		fe_map_put(f->in->funcs, f->crate, name, fn);
	fn->is_kernel = !strcmp(json_str(p, jfn, "kind"), "kernel");
	cJSON *inl = json_get_opt(jfn, "inline");
	fn->noinline = cJSON_IsString(inl) && !strcmp(inl->valuestring, "never");
	if (fn->is_kernel) {   /* launch attributes: "kernel": {"attrs": {"maxntid": "256", ...}} */
		cJSON *kj = json_get_opt(jfn, "kernel");
		cJSON *attrs = kj ? json_get_opt(kj, "attrs") : NULL, *at;
		cJSON_ArrayForEach(at, attrs) {
			const char *v = cJSON_IsString(at) ? at->valuestring : NULL;
			if (!v || !*v || strspn(v, "0123456789,") != strlen(v))
				return fb_error(&fb, "kernel attribute \"%s\" must be a string of numbers like \"256\" "
				                "or \"16,16,1\"", at->string), false;
			if (!strcmp(at->string, "maxntid"))
				fn->maxntid = arena_strdup(fb.a, v);
			else if (!strcmp(at->string, "minnctapersm"))
				fn->minnctapersm = arena_strdup(fb.a, v);
			else if (!strcmp(at->string, "reqntid"))
				fn->reqntid = arena_strdup(fb.a, v);
			else
				return fb_error(&fb, "unknown kernel attribute \"%s\" (maxntid, minnctapersm, reqntid)",
				                at->string), false;
		}
	}
	fn->loc = fb.b.loc;
	if (!read_locals(&fb, jfn))
		return false;
	uint32_t nargs = json_u32(p, jfn, "arg_count");
	if (nargs >= fb.nlocal)
		return fe_error(p, "arg_count %u but only %u locals", nargs, fb.nlocal), false;
	bool sret;
	fb.fn = fn;
	fn->ret = abi_return(&fb, fb.lty[0], &sret);
	if (fn->is_kernel && (sret || fn->ret->kind != TY_VOID))
		return fb_error(&fb, "kernel `%s` must return `()`, not `%s`", fn->name, fb.lty[0]->name), false;
	Param *ps = arena_new_array(a, Param, 2 * nargs + 1);
	uint32_t np = 0;
	if (sret)
		ps[np++] = (Param){ ir_type_ptr(m, 0), 0, 0, "ret" };
	for (uint32_t i = 1; i <= nargs; i++) {
		uint32_t k;
		abi_lower(&fb, fb.lty[i], fn->is_kernel, ps + np, &k);
		np += k;
	}
	fn->params = ps;
	fn->nparam = np;
	return true;
}

/* Entry block: one slot per local, then the parameters stored into the
 * argument slots; it falls through to MIR's bb0. */
/* A constant's body that returns a reference (a promoted `&[2, 3, 5]`)
 * hands out the address of one of its own locals: those locals live in
 * static storage, not on the stack.  Every evaluation writes the same
 * bytes, so concurrent evaluations by many threads agree. */
static bool const_returns_ref(Fb *fb, cJSON *jfn)
{
	RType *r = fb->lty[0];
	return !strcmp(json_str(fb->path, jfn, "kind"), "const") && (r->kind == RT_REF || r->kind == RT_PTR);
}

static Value *static_slot(Fb *fb, uint32_t l)
{
	Global *g = ir_global_new(fb->m, arena_printf(fb->a, "__oxide_const_%s_local%u", fb->fn->symbol, l));
	RType *t = fb->lty[l];
	if (t->size > (256u << 20)) {   /* its bytes are allocated here */
		fb_error(fb, "a constant's local of %llu bytes (at most 256 MiB)", (unsigned long long)t->size);
		t = fb->lty[0];
	}
	g->size = t->size;
	g->align = t->align ? t->align : 1;
	g->is_mut = true;
	g->addrspace = AS_GLOBAL;
	g->bytes = arena_alloc(fb->a, t->size ? t->size : 1);
	Value *a = ir_build1(&fb->b, OP_MIR_GLOBAL_ADDR, ir_type_ptr(fb->m, 0), 0, NULL);
	a->def->sym = g->name;
	return a;
}

static void build_entry(Fb *fb, uint32_t nargs, bool static_locals)
{
	Func *fn = fb->fn;
	Module *m = fb->m;
	fb->entry = ir_block_new(fn);
	fb->b.block = fb->entry;
	fb->b.loc = fb->fn_loc;
	Value **params = arena_new_array(fb->a, Value *, fn->nparam + 1);
	for (uint32_t i = 0; i < fn->nparam; i++)
		params[i] = ir_block_add_arg(fb->entry, fn->params[i].type);
	uint32_t pi = 0;
	bool sret = fn->nparam && fn->params[0].name && !strcmp(fn->params[0].name, "ret");
	for (uint32_t l = 0; l < fb->nlocal; l++) {
		if (l == 0 && sret) {
			fb->slot[0] = params[pi++];
			continue;
		}
		if (!fb->lty[l]->has_layout) {
			fb->slot[l] = NULL;    /* never used, or build_place reports it */
			continue;
		}
		if (static_locals && l > 0) {
			fb->slot[l] = static_slot(fb, l);
			continue;
		}
		Value *s = ir_build1(&fb->b, OP_MIR_SLOT, ir_type_ptr(m, 0), 0, NULL);
		s->def->rty = fb->lty[l];
		fb->slot[l] = s;
	}
	for (uint32_t l = 1; l <= nargs; l++) {
		Param tmp[2];
		uint32_t k;
		abi_lower(fb, fb->lty[l], fn->is_kernel, tmp, &k);
		abi_store_params(fb, fb->lty[l], params + pi, fb->slot[l]);
		pi += k;
	}
	fb->entry_term = ir_build(&fb->b, OP_MIR_GOTO, 0, NULL, 0, NULL, 1);
}

static bool build_block(Fb *fb, JPath bp, cJSON *jb, uint32_t i)
{
	fb->b.block = fb->blocks[i];
	cJSON *stmts = json_get(bp, jb, "statements", cJSON_Array), *s;
	int k = 0, errs = diag_errors();
	if (!stmts)
		return false;
	/* the first error ends the function: what follows could build on a
	 * value that is not there */
	cJSON_ArrayForEach(s, stmts)
		if (!build_statement(fb, jpath_index(fb->a, jpath_field(fb->a, bp, "statements"), k++), s) ||
		    diag_errors() > errs)
			return false;
	cJSON *t = json_get(bp, jb, "terminator", cJSON_Object);
	return t && build_terminator(fb, jpath_field(fb->a, bp, "terminator"), t) && diag_errors() == errs;
}

static bool build_body(Module *m, Arena *a, FeFile *f, cJSON *jfn, JPath p)
{
	Fb fb;
	fb_init(&fb, m, a, f, jfn, p);
	FuncDef *d = fe_map_get(f->in->syms, "", json_str(p, jfn, "symbol"));
	if (!d)
		return false;
	if (d->j != jfn)
		return true;         /* the same body from another input */
	fb.fn = d->fn;
	if (!read_locals(&fb, jfn))
		return false;
	cJSON *blocks = json_get(p, jfn, "blocks", cJSON_Array), *jb;
	if (!blocks || cJSON_GetArraySize(blocks) == 0)
		return fe_error(p, "a body needs at least one block"), false;
	build_entry(&fb, json_u32(p, jfn, "arg_count"), const_returns_ref(&fb, jfn));
	fb.nblock = (uint32_t)cJSON_GetArraySize(blocks);
	fb.blocks = arena_new_array(a, Block *, fb.nblock);
	for (uint32_t i = 0; i < fb.nblock; i++)
		fb.blocks[i] = ir_block_new(fb.fn);
	ir_op_set_succ(m, fb.entry_term, 0, fb.blocks[0], 0, NULL);
	uint32_t i = 0;
	JPath bp = jpath_field(a, p, "blocks");
	cJSON_ArrayForEach(jb, blocks) {
		if (!build_block(&fb, jpath_index(a, bp, (int)i), jb, i))
			return false;
		i++;
	}
	return true;
}

static bool for_each_function(Module *m, Arena *a, FeInput *in,
                              bool (*fn)(Module *, Arena *, FeFile *, cJSON *, JPath))
{
	bool ok = true;
	for (int k = 0; k < in->nfile; k++) {
		FeFile *f = &in->files[k];
		JPath root = { f, "$.functions" };
		cJSON *j;
		int i = 0;
		cJSON_ArrayForEach(j, cJSON_GetObjectItemCaseSensitive(f->root, "functions"))
			ok &= fn(m, a, f, j, jpath_index(a, root, i++));
	}
	return ok;
}

/* An input identical to an earlier one (the same crate named twice on the
 * command line) adds nothing: it is left out, Constant statics and all. */
static void drop_repeated_inputs(FeInput *in)
{
	int n = 0;
	for (int k = 0; k < in->nfile; k++) {
		bool seen = false;
		for (int j = 0; j < n && !seen; j++)
			seen = cJSON_Compare(in->files[j].root, in->files[k].root, true);
		if (seen)
			cJSON_Delete(in->files[k].root);
		else
			in->files[n++] = in->files[k];
	}
	in->nfile = n;
}

Module *fe_build_module(FeInput *in, Arena *a, const Target *target)
{
	Module *m = ir_module_new(a);
	m->target = target;
	in->types = fe_map_new(a);
	in->funcs = fe_map_new(a);
	in->syms = fe_map_new(a);
	in->statics = fe_map_new(a);
	m->stage = DIALECT_MIR;
	bool ok = true;
	drop_repeated_inputs(in);
	for (int k = 0; k < in->nfile; k++)
		import_files(m, &in->files[k], a);
	for (int k = 0; k < in->nfile && ok; k++)
		ok = fe_import_types(m, &in->files[k], a) && fe_import_allocs(m, &in->files[k], a);
	ok = ok && for_each_function(m, a, in, declare_func);
	ok = ok && for_each_function(m, a, in, build_body);
	if (ok && !m->funcs) {
		diag_error(in->files[0].path, "no functions to compile");
		ok = false;
	}
	return ok && !diag_errors() ? m : NULL;
}
