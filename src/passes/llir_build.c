/* llir_build.c: the building blocks of the llir lowering (llir.h) — new
 * llir ops before the op being lowered, constants, compares, loads and
 * stores with Rust's alignments, integer resizing, LLVM intrinsic calls
 * and calls of functions outside the module. */
#include "llir.h"

Type *signless(Lower *l, Type *t)
{
	if (t->kind == TY_INT)
		return ir_type_int(l->m, t->bits, false);
	return t;
}

/* New values keep the mir types (with signedness) until make_signless at
 * the end of the function: later mir ops still read is_signed. */
Value *emit(Lower *l, Opcode code, Type *t, uint32_t n, Value **opd)
{
	return ir_build1(&l->b, code, t, n, opd);
}

Value *emit1(Lower *l, Opcode code, Type *t, Value *a)
{
	return emit(l, code, t, 1, &a);
}

Value *emit2(Lower *l, Opcode code, Type *t, Value *a, Value *b)
{
	Value *opd[2] = { a, b };
	return emit(l, code, t, 2, opd);
}

Value *iconst(Lower *l, Type *t, uint64_t lo, uint64_t hi)
{
	return ir_build_const(&l->b, OP_LLIR_CONST, t, lo, hi);
}

Value *icmp(Lower *l, Pred p, Value *a, Value *b)
{
	Value *r = emit2(l, OP_LLIR_ICMP, ir_type_bool(l->m), a, b);
	r->def->attr.cmp.pred = p;
	return r;
}

Value *gep_bytes(Lower *l, Value *p, uint64_t off)
{
	if (!off)
		return p;
	Value *r = emit2(l, OP_LLIR_GEP, p->type, p, iconst(l, ir_type_int(l->m, 64, false), off, 0));
	r->def->attr.gep.stride = 1;
	return r;
}


/* A mir.load / mir.store's alignment: the place's, when the front end
 * gave it (what the place's projections prove, which lets LLVM merge
 * neighbouring accesses into vector ones; or a transmute's smaller one:
 * `store i32 ..., align 4` into an `[4 x i8]` faults on the GPU), else the
 * type's. */
static uint32_t access_align(Type *t, uint32_t place_align)
{
	return place_align > 0 ? place_align : ir_type_natural_align(t);
}

Value *load_aligned(Lower *l, Value *p, Type *t, uint32_t place_align)
{
	Type *mem = t->kind == TY_BOOL ? ir_type_int(l->m, 8, false) : t;
	Value *v = emit1(l, OP_LLIR_LOAD, mem, p);
	v->def->attr.access.align = access_align(mem, place_align);
	if (t->kind == TY_BOOL)
		v = emit1(l, OP_LLIR_TRUNC, t, v);
	return v;
}

void store_aligned(Lower *l, Value *v, Value *p, uint32_t place_align)
{
	if (v->type->kind == TY_BOOL)
		v = emit1(l, OP_LLIR_ZEXT, ir_type_int(l->m, 8, false), v);
	Value *opd[2] = { v, p };
	Op *op = ir_build(&l->b, OP_LLIR_STORE, 0, NULL, 2, opd, 0);
	op->attr.access.align = access_align(v->type, place_align);
}

Value *load(Lower *l, Value *p, Type *t)
{
	return load_aligned(l, p, t, 0);
}

void store(Lower *l, Value *v, Value *p)
{
	store_aligned(l, v, p, 0);
}

/* Integer conversion between widths by the source's signedness. */
Value *int_resize(Lower *l, Value *v, bool is_signed, Type *to)
{
	unsigned from = v->type->kind == TY_BOOL ? 1 : v->type->bits, tb = to->kind == TY_BOOL ? 1 : to->bits;
	if (from == tb)
		return v;
	if (from > tb)
		return emit1(l, OP_LLIR_TRUNC, to, v);
	return emit1(l, is_signed && v->type->kind != TY_BOOL ? OP_LLIR_SEXT : OP_LLIR_ZEXT, to, v);
}

Value *llvm_intrinsic(Lower *l, const char *name, Overload ovl, Type *rt, uint32_t n, Value **opd)
{
	Type *t = rt;
	Op *op = ir_build(&l->b, OP_LLIR_INTRINSIC, t ? 1 : 0, &t, n, opd, 0);
	op->sym = name;
	op->attr.intrinsic.overload = ovl;
	return t ? &op->res[0] : NULL;
}

Value *select3(Lower *l, Value *c, Value *a, Value *b)
{
	Value *o[3] = { c, a, b };
	return emit(l, OP_LLIR_SELECT, a->type, 3, o);
}


Value *fcmp(Lower *l, Pred p, Value *a, Value *b)
{
	Value *r = emit2(l, OP_LLIR_FCMP, ir_type_bool(l->m), a, b);
	r->def->attr.cmp.pred = p;
	return r;
}

/* llir.call of a function outside the module (an emulator function, or a
 * libdevice __nv_* function that emit links in), declared as an extern
 * Func the first time it is needed; rt NULL: returns nothing. */
Value *extern_call(Lower *l, const char *sym, Type *rt, uint32_t n, Value **args)
{
	Func *f = ir_func_find(l->m, sym);
	if (!f) {
		f = ir_func_new(l->m, sym, sym);
		f->is_extern = true;
		f->ret = rt ? signless(l, rt) : ir_type_void(l->m);
		f->nparam = n;
		f->params = arena_new_array(l->m->arena, Param, n);
		for (uint32_t i = 0; i < n; i++)
			f->params[i].type = signless(l, args[i]->type);
	} else if (!f->is_extern) {
		die("%s is both an external function and a function of the input", sym);
	}
	Type *t = rt ? f->ret : NULL;
	Op *c = ir_build(&l->b, OP_LLIR_CALL, rt ? 1 : 0, &t, n, args, 0);
	c->sym = f->symbol;
	return rt ? &c->res[0] : NULL;
}
