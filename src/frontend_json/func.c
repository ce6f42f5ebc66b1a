/* func.c: stage 2 driver — the linked model (oxmir.h) into one Module:
 * files, types, allocations, function signatures, then every body. */
#include "build.h"

#include <string.h>

static void fb_init(Fb *fb, Module *m, Arena *a, OxFunc *ox, Func **funcs)
{
	memset(fb, 0, sizeof *fb);
	fb->m = m;
	fb->a = a;
	fb->in = ox->input;
	fb->funcs = funcs;
	fb->path = jpath_root(a, ox->input->path, ox->jpath);
	fb->b.mod = m;
	fb_set_span(fb, ox->span);
	fb->fn_loc = fb->b.loc;
	snprintf(fb->fn_where, sizeof fb->fn_where, "%s", fb->where);
}

/* The return place and the arguments need a layout now; other locals
 * when a statement uses them (build_place): MIR keeps declarations of
 * values optimised away (a closure never built). */
static bool read_locals(Fb *fb, OxFunc *ox)
{
	fb->nlocal = ox->nlocal;
	fb->lty = arena_new_array(fb->a, RType *, fb->nlocal);
	fb->slot = arena_new_array(fb->a, Value *, fb->nlocal);
	for (uint32_t i = 0; i < fb->nlocal; i++) {
		fb->lty[i] = fb_rtype(fb, ox->locals[i].ty);
		if (!fb->lty[i]->has_layout && (i == 0 || i <= ox->arg_count)) {
			fb_set_span(fb, ox->locals[i].span);
			fb_error_no_layout(fb, i, fb->lty[i]);
			return false;
		}
	}
	return true;
}

/* The Rust argument's name on its k ABI parameters, for debug info. */
static void param_vars(Arena *a, const char *name, const RType *t, Param *ps, uint32_t k)
{
	if (!name)
		return;
	bool fat = rtype_is_fat_ptr(t);
	for (uint32_t j = 0; j < k; j++)
		ps[j].var = k == 1 ? name : arena_printf(a, "%s.%s", name, fat ? (j ? "len" : "ptr") : (j ? "1" : "0"));
}

bool func_returns_by_pointer(const Func *f)
{
	return f->nparam && f->params[0].name && !strcmp(f->params[0].name, "ret");
}

/* Signature from the argument and return locals (no body yet). */
static bool declare_func(Module *m, Arena *a, OxFunc *ox, Func **funcs)
{
	Fb fb;
	fb_init(&fb, m, a, ox, funcs);
	Func *fn = ir_func_new(m, ox->name, ox->symbol);
	funcs[ox->id] = fn;
	fn->is_kernel = ox->kind == OX_FN_KERNEL;
	fn->noinline = ox->noinline;
	fn->maxntid = ox->maxntid;
	fn->minnctapersm = ox->minnctapersm;
	fn->reqntid = ox->reqntid;
	memcpy(fn->cluster, ox->cluster, sizeof fn->cluster);
	fn->contract = ox->contract;
	fn->loc = fb.b.loc;
	if (!read_locals(&fb, ox))
		return false;
	uint32_t nargs = ox->arg_count;
	bool sret;
	fb.fn = fn;
	fn->ret = abi_return(&fb, fb.lty[0], &sret);
	if (fn->is_kernel && (sret || fn->ret->kind != TY_VOID))
		return fb_error(&fb, OX_UNSUPPORTED, "kernel `%s` must return `()`, not `%s`", fn->name, fb.lty[0]->name), false;
	Param *ps = arena_new_array(a, Param, 2 * nargs + 1);
	uint32_t np = 0;
	if (sret)
		ps[np++] = (Param){ .type = ir_type_ptr(m, 0), .name = "ret" };
	fn->args = arena_new_array(a, FuncArg, nargs + 1);
	fn->nargs = fn->is_kernel ? nargs : 0;
	for (uint32_t i = 1; i <= nargs; i++) {
		uint32_t k;
		abi_lower(&fb, fb.lty[i], fn->is_kernel, ps + np, &k);
		fb_set_span(&fb, ox->locals[i].span);
		fn->args[i - 1] = (FuncArg){ ox->locals[i].name, fb.lty[i], np, k, fb.b.loc };
		if (k == 1 && ps[np].byval_size)
			ps[np].grid_constant = fb_param_is_grid_constant(ox, i);
		if (fn->is_kernel)
			fb_param_facts(ox, fb.lty[i], i, ps + np, k);
		param_vars(a, ox->locals[i].name, fb.lty[i], ps + np, k);
		np += k;
	}
	fn->params = ps;
	fn->nparam = np;
	return true;
}

/* Entry block: one slot per local, then the parameters stored into the
 * argument slots (a grid constant's local is its parameter: no slot);
 * it falls through to MIR's bb0. */
/* A constant's body that returns a reference (a promoted `&[2, 3, 5]`)
 * hands out the address of one of its own locals: those locals live in
 * static storage, not on the stack.  Every evaluation writes the same
 * bytes, so concurrent evaluations by many threads agree. */
static bool const_returns_ref(Fb *fb, OxFunc *ox)
{
	RType *r = fb->lty[0];
	return ox->kind == OX_FN_CONST && (r->kind == RT_REF || r->kind == RT_PTR);
}

static Value *static_slot(Fb *fb, uint32_t l)
{
	Global *g = ir_global_new(fb->m, arena_printf(fb->a, "__oxide_const_%s_local%u", fb->fn->symbol, l));
	RType *t = fb->lty[l];
	if (t->size > (256u << 20)) {   /* its bytes are allocated here */
		fb_error(fb, OX_UNSUPPORTED, "a constant's local of %llu bytes (at most 256 MiB)", (unsigned long long)t->size);
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

/* The index of each argument local's first parameter: first[l] for
 * local l (1 .. nargs), first[nargs + 1] the end. */
static uint32_t *arg_params(Fb *fb, uint32_t nargs, bool sret)
{
	uint32_t *first = arena_new_array(fb->a, uint32_t, nargs + 2);
	first[1] = sret ? 1 : 0;
	for (uint32_t l = 1; l <= nargs; l++) {
		Param tmp[2];
		uint32_t k;
		abi_lower(fb, fb->lty[l], fb->fn->is_kernel, tmp, &k);
		first[l + 1] = first[l] + k;
	}
	return first;
}

static bool is_grid_constant(const Func *fn, const uint32_t *first, uint32_t l)
{
	return first[l + 1] > first[l] && fn->params[first[l]].grid_constant;
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
	bool sret = func_returns_by_pointer(fn);
	uint32_t *first = arg_params(fb, nargs, sret);
	for (uint32_t l = 0; l < fb->nlocal; l++) {
		if (l == 0 && sret) {
			fb->slot[0] = params[0];
			continue;
		}
		if (!fb->lty[l]->has_layout) {
			fb->slot[l] = NULL;    /* never used, or build_place reports it */
			continue;
		}
		if (l >= 1 && l <= nargs && is_grid_constant(fn, first, l)) {
			fb->slot[l] = params[first[l]];   /* the parameter's own memory (gridconst.c) */
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
	for (uint32_t l = 1; l <= nargs; l++)
		if (!is_grid_constant(fn, first, l))
			abi_store_params(fb, fb->lty[l], params + first[l], fb->slot[l]);
	fb->entry_term = ir_build(&fb->b, OP_MIR_GOTO, 0, NULL, 0, NULL, 1);
}

/* The first error ends the function: what follows could build on a
 * value that is not there. */
static bool build_block(Fb *fb, JPath bp, const OxBlock *ob, uint32_t i)
{
	fb->b.block = fb->blocks[i];
	int errs = diag_errors();
	for (uint32_t k = 0; k < ob->nstmt; k++)
		if (!build_statement(fb, jpath_index(fb->a, jpath_field(fb->a, bp, "statements"), (int)k), &ob->stmts[k]) ||
		    diag_errors() > errs)
			return false;
	return build_terminator(fb, jpath_field(fb->a, bp, "terminator"), &ob->term) && diag_errors() == errs;
}

static bool build_body(Module *m, Arena *a, OxFunc *ox, Func **funcs)
{
	Fb fb;
	fb_init(&fb, m, a, ox, funcs);
	fb.fn = funcs[ox->id];
	if (!read_locals(&fb, ox))
		return false;
	build_entry(&fb, ox->arg_count, const_returns_ref(&fb, ox));
	fb.nblock = ox->nblock;
	fb.blocks = arena_new_array(a, Block *, fb.nblock);
	for (uint32_t i = 0; i < fb.nblock; i++)
		fb.blocks[i] = ir_block_new(fb.fn);
	ir_op_set_succ(m, fb.entry_term, 0, fb.blocks[0], 0, NULL);
	JPath bp = jpath_field(a, fb.path, "blocks");
	for (uint32_t i = 0; i < fb.nblock; i++)
		if (!build_block(&fb, jpath_index(a, bp, (int)i), &ox->blocks[i], i))
			return false;
	return true;
}

/* The PTX name of each kernel: its Rust name when no other kernel of the
 * inputs has it (`mod kernels { #[kernel] fn vecadd }` is `vecadd`), else
 * its path with `::` as `__` (`a__k`, `b__k`); a name another function
 * already has is an error. */
static bool kernel_symbols(OxModule *ox, Arena *a)
{
	bool ok = true;
	for (uint32_t i = 0; i < ox->nfunc; i++) {
		OxFunc *f = ox->funcs[i];
		const char *plain = strrchr(f->symbol, ':');
		if (f->kind != OX_FN_KERNEL || plain == NULL)
			continue;
		plain++;
		bool unique = true;
		for (uint32_t j = 0; j < ox->nfunc; j++) {
			const char *o = ox->funcs[j]->kind == OX_FN_KERNEL ? strrchr(ox->funcs[j]->symbol, ':') : NULL;
			const char *oplain = o ? o + 1 : ox->funcs[j]->symbol;
			if (j != i && ox->funcs[j]->kind == OX_FN_KERNEL && !strcmp(oplain, plain))
				unique = false;
		}
		char *s = arena_printf(a, "%s", unique ? plain : f->symbol);
		for (char *p = s; *p; p++)      /* "::" -> "__" */
			if (*p == ':')
				*p = '_';
		for (uint32_t j = 0; j < ox->nfunc; j++)
			if (j != i && !strcmp(ox->funcs[j]->symbol, s)) {
				diag_error(OX_UNSUPPORTED, f->jpath, "kernel `%s` would be `%s` in the PTX, which `%s` is already",
				           f->symbol, s, ox->funcs[j]->name);
				ok = false;
			}
		f->symbol = s;
	}
	return ok;
}

Module *fe_build_module(FeInput *in, Arena *a, const Target *target)
{
	OxModule *ox = fe_model(in);
	Module *m = ir_module_new(a);
	m->target = target;
	m->stage = DIALECT_MIR;
	m->files = ox->files;
	m->nfile = ox->nfile;
	m->crates = arena_new_array(a, const char *, ox->ninput + 1);
	for (uint32_t i = 0; i < ox->ninput; i++)
		m->crates[m->ncrate++] = ox->inputs[i].crate;
	fe_import_types(m, ox);
	fe_import_allocs(m, ox);
	Func **funcs = arena_new_array(a, Func *, ox->nfunc);
	bool ok = kernel_symbols(ox, a);
	for (uint32_t i = 0; i < ox->nfunc; i++)
		ok &= declare_func(m, a, ox->funcs[i], funcs);
	for (uint32_t i = 0; ok && i < ox->nfunc; i++)
		ok &= build_body(m, a, ox->funcs[i], funcs);
	if (ok && !m->funcs) {
		diag_error(OX_INPUT, ox->inputs[0].path, "no functions to compile");
		ok = false;
	}
	return ok && !diag_errors() ? m : NULL;
}
