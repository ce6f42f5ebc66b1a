/* ir.c: construction and mutation of the IR (modules, functions, blocks,
 * ops, values) and the opcode table generated from ops.def. */
#include "ir.h"

#include <stdio.h>
#include <string.h>

const OpInfo opinfo[OP_COUNT] = {
#define OP(d, name, text, nres, nopd, traits, attr) \
	[OP_##d##_##name] = { DIALECT_##d, text, nres, nopd, traits, ATTR_##attr },
#include "ops.def"
#undef OP
};

Module *ir_module_new(Arena *a)
{
	Module *m = arena_alloc(a, sizeof *m);
	m->arena = a;
	return m;
}

Type *ir_type(Module *m, TypeKind k, unsigned bits, bool is_signed, unsigned as)
{
	for (uint32_t i = 0; i < m->ninterned; i++) {
		Type *t = m->interned[i];
		if (t->kind == k && t->bits == bits && t->is_signed == is_signed && t->addrspace == as)
			return t;
	}
	if (m->ninterned == countof(m->interned))
		die("too many distinct value types");
	Type *t = arena_alloc(m->arena, sizeof *t);
	t->kind = k;
	t->bits = (uint8_t)bits;
	t->is_signed = is_signed;
	t->addrspace = (uint8_t)as;
	m->interned[m->ninterned++] = t;
	return t;
}

Type *ir_type_void(Module *m) { return ir_type(m, TY_VOID, 0, false, 0); }
Type *ir_type_bool(Module *m) { return ir_type(m, TY_BOOL, 1, false, 0); }
Type *ir_type_int(Module *m, unsigned bits, bool s) { return ir_type(m, TY_INT, bits, s, 0); }
Type *ir_type_float(Module *m, unsigned bits) { return ir_type(m, TY_FLOAT, bits, false, 0); }
Type *ir_type_ptr(Module *m, unsigned as) { return ir_type(m, TY_PTR, 64, false, as); }

Func *ir_func_new(Module *m, const char *name, const char *symbol)
{
	Func *f = arena_alloc(m->arena, sizeof *f);
	f->mod = m;
	f->name = arena_strdup(m->arena, name);
	f->symbol = arena_strdup(m->arena, symbol);
	f->ret = ir_type_void(m);
	f->loc.file = -1;
	if (m->last_func)
		m->last_func->next = f;
	else
		m->funcs = f;
	m->last_func = f;
	return f;
}

Func *ir_func_find(Module *m, const char *symbol)
{
	for (Func *f = m->funcs; f; f = f->next)
		if (!strcmp(f->symbol, symbol))
			return f;
	return NULL;
}

Global *ir_global_new(Module *m, const char *name)
{
	Global *g = arena_alloc(m->arena, sizeof *g);
	g->name = arena_strdup(m->arena, name);
	if (m->last_global)
		m->last_global->next = g;
	else
		m->globals = g;
	m->last_global = g;
	return g;
}

Global *ir_global_find(Module *m, const char *name)
{
	for (Global *g = m->globals; g; g = g->next)
		if (!strcmp(g->name, name) || (g->alias && !strcmp(g->alias, name)))
			return g;
	return NULL;
}

Block *ir_block_new(Func *f)
{
	Block *b = arena_alloc(f->mod->arena, sizeof *b);
	b->func = f;
	b->prev = f->last;
	if (f->last)
		f->last->next = b;
	else
		f->first = b;
	f->last = b;
	return b;
}

void ir_block_unlink(Block *b)
{
	Func *f = b->func;
	if (b->prev)
		b->prev->next = b->next;
	else
		f->first = b->next;
	if (b->next)
		b->next->prev = b->prev;
	else
		f->last = b->prev;
	b->prev = b->next = NULL;
}

Value *ir_block_add_arg(Block *b, Type *t)
{
	Arena *a = b->func->mod->arena;
	Value *v = arena_alloc(a, sizeof *v);
	v->type = t;
	v->block = b;
	v->index = b->nargs;
	vec_push(a, &b->args, &b->nargs, &b->cap_args, v);
	return v;
}

void ir_block_remove_arg(Block *b, uint32_t i)
{
	memmove(&b->args[i], &b->args[i + 1], sizeof(Value *) * (b->nargs - i - 1));
	b->nargs--;
	for (uint32_t k = i; k < b->nargs; k++)
		b->args[k]->index = k;
}

Op *ir_op_new(Module *m, Opcode code, uint32_t nres, Type **rtys, uint32_t nopd, Value **opd, uint32_t nsucc)
{
	const OpInfo *info = &opinfo[code];
	if ((info->nres != VAR && (uint32_t)info->nres != nres) ||
	    (info->nopd != VAR && (uint32_t)info->nopd != nopd))
		die("%s built with %u results, %u operands", info->name, nres, nopd);
	Op *op = arena_alloc(m->arena, sizeof *op);
	op->code = code;
	op->loc.file = -1;
	op->nres = nres;
	op->nopd = nopd;
	op->nsucc = nsucc;
	op->opd = arena_new_array(m->arena, Value *, nopd);
	for (uint32_t i = 0; i < nopd; i++) {
		if (!opd[i])
			die("%s: operand %u is null", info->name, i);
		op->opd[i] = opd[i];
	}
	op->res = arena_new_array(m->arena, Value, nres);
	for (uint32_t i = 0; i < nres; i++) {
		op->res[i].type = rtys[i];
		op->res[i].def = op;
		op->res[i].index = i;
	}
	op->succ = arena_new_array(m->arena, Succ, nsucc);
	return op;
}

void ir_op_append(Block *b, Op *op)
{
	op->parent = b;
	op->prev = b->last;
	op->next = NULL;
	if (b->last)
		b->last->next = op;
	else
		b->first = op;
	b->last = op;
}

void ir_op_insert_before(Op *before, Op *op)
{
	Block *b = before->parent;
	op->parent = b;
	op->next = before;
	op->prev = before->prev;
	if (before->prev)
		before->prev->next = op;
	else
		b->first = op;
	before->prev = op;
}

void ir_op_unlink(Op *op)
{
	Block *b = op->parent;
	if (op->prev)
		op->prev->next = op->next;
	else
		b->first = op->next;
	if (op->next)
		op->next->prev = op->prev;
	else
		b->last = op->prev;
	op->prev = op->next = NULL;
	op->parent = NULL;
}

void ir_op_set_succ(Module *m, Op *op, uint32_t i, Block *target, uint32_t nargs, Value **args)
{
	Succ *s = &op->succ[i];
	s->block = target;
	s->nargs = nargs;
	s->args = arena_new_array(m->arena, Value *, nargs);
	if (nargs)
		memcpy(s->args, args, sizeof(Value *) * nargs);
}

void ir_op_set_vals(Module *m, Op *op, uint32_t n, const U128 *vals)
{
	op->nval = n;
	op->vals = arena_new_array(m->arena, U128, n);
	if (n)
		memcpy(op->vals, vals, sizeof(U128) * n);
}

Op *ir_block_terminator(Block *b)
{
	return b->last && op_is_terminator(b->last) ? b->last : NULL;
}

bool op_has_trait(const Op *op, unsigned trait)
{
	return (opinfo[op->code].traits & trait) != 0;
}

bool op_is_terminator(const Op *op)
{
	return op_has_trait(op, TERM);
}

/* Forwarding: a pass that replaces the results of most ops (stage 5
 * lowers every op) would walk the function once per replacement with
 * ir_replace_all_uses, quadratic in the function's size (5.7 % of
 * hopper_gemm's whole compile).  Instead it clears the forwards
 * (ir_forward_begin), records each replacement in the value's aux
 * (ir_forward), resolves the operands of an op before it reads them
 * (ir_forward_op) and every use once at the end (ir_forward_end), which
 * also reaches uses laid out before their definition. */
void ir_forward_begin(Func *f)
{
	for (Block *b = f->first; b; b = b->next) {
		for (uint32_t i = 0; i < b->nargs; i++)
			b->args[i]->aux = NULL;
		for (Op *op = b->first; op; op = op->next)
			for (uint32_t i = 0; i < op->nres; i++)
				op->res[i].aux = NULL;
	}
}

void ir_forward(Value *from, Value *to)
{
	from->aux = to;
}

static Value *forwarded(Value *v)
{
	while (v && v->aux)
		v = v->aux;
	return v;
}

void ir_forward_op(Op *op)
{
	for (uint32_t i = 0; i < op->nopd; i++)
		op->opd[i] = forwarded(op->opd[i]);
	for (uint32_t s = 0; s < op->nsucc; s++)
		for (uint32_t i = 0; i < op->succ[s].nargs; i++)
			op->succ[s].args[i] = forwarded(op->succ[s].args[i]);
}

void ir_forward_end(Func *f)
{
	for (Block *b = f->first; b; b = b->next)
		for (Op *op = b->first; op; op = op->next)
			ir_forward_op(op);
}

/* Replace every use of `from` (operands and successor arguments). */
void ir_replace_all_uses(Func *f, Value *from, Value *to)
{
	for (Block *b = f->first; b; b = b->next)
		for (Op *op = b->first; op; op = op->next) {
			for (uint32_t i = 0; i < op->nopd; i++)
				if (op->opd[i] == from)
					op->opd[i] = to;
			for (uint32_t s = 0; s < op->nsucc; s++)
				for (uint32_t i = 0; i < op->succ[s].nargs; i++)
					if (op->succ[s].args[i] == from)
						op->succ[s].args[i] = to;
		}
}

Op *ir_build(Builder *b, Opcode code, uint32_t nres, Type **rtys, uint32_t nopd, Value **opd, uint32_t nsucc)
{
	Op *op = ir_op_new(b->mod, code, nres, rtys, nopd, opd, nsucc);
	op->loc = b->loc;
	if (b->before)
		ir_op_insert_before(b->before, op);
	else
		ir_op_append(b->block, op);
	return op;
}

Value *ir_build1(Builder *b, Opcode code, Type *rty, uint32_t nopd, Value **opd)
{
	Op *op = ir_build(b, code, rty ? 1 : 0, &rty, nopd, opd, 0);
	return rty ? &op->res[0] : NULL;
}

Value *ir_build_const(Builder *b, Opcode code, Type *t, uint64_t lo, uint64_t hi)
{
	Op *op = ir_build(b, code, 1, &t, 0, NULL, 0);
	U128 v = { lo, hi };
	ir_op_set_vals(b->mod, op, 1, &v);
	return &op->res[0];
}

const char *ir_type_str(Type *t, char *buf, size_t n)
{
	switch (t->kind) {
	case TY_VOID: snprintf(buf, n, "void"); break;
	case TY_BOOL: snprintf(buf, n, "i1"); break;
	case TY_INT:
		snprintf(buf, n, "%s%u", t->is_char ? "char" : t->is_signed ? "i" : "u", t->bits);
		if (t->is_char)
			snprintf(buf, n, "char");
		break;
	case TY_FLOAT: snprintf(buf, n, "f%u", t->bits); break;
	case TY_PTR:
		if (t->addrspace)
			snprintf(buf, n, "ptr<%u>", t->addrspace);
		else
			snprintf(buf, n, "ptr");
		break;
	}
	return buf;
}

const char *ir_pred_name(Pred p)
{
	static const char *names[] = {
		"eq", "ne", "ult", "ule", "ugt", "uge", "slt", "sle", "sgt", "sge",
		"oeq", "one", "olt", "ole", "ogt", "oge", "ueq", "une", "ult", "ule", "ugt", "uge",
		"ord", "uno",
	};
	return (unsigned)p < countof(names) ? names[p] : "?";
}

/* Alignment a scalar access may claim: its size up to 8.  Places of Rust
 * types are at least this aligned; the fields of packed structs, which
 * are not, are accessed through copies that claim their place's
 * alignment (src/frontend_json/packed.c). */
uint32_t ir_type_natural_align(Type *t)
{
	unsigned n = t->kind == TY_BOOL ? 1 : t->kind == TY_PTR ? 8 : t->bits / 8;
	return n > 8 ? 8 : n;
}

const char *ir_loc_string(const Module *m, Loc loc, char *buf, size_t n)
{
	if (loc.file >= 0 && (uint32_t)loc.file < m->nfile)
		snprintf(buf, n, "%s:%u:%u", m->files[loc.file], loc.line, loc.col);
	else if (n)
		buf[0] = 0;
	return buf;
}
