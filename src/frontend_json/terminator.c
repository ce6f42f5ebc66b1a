/* terminator.c: stage 2 — MIR terminators (control flow, calls, asserts) and the
 * function ABI shared by definitions and calls. */
#include "build.h"
#include "../ir/prims.h"

#include <string.h>

/* Parameters for one Rust argument type; see the ABI note in build.c. */
static uint64_t pair_offset(RType *t);

/* One parameter of type ty holding the value's bytes from offset on. */
static Param param_at(Type *ty, uint64_t offset)
{
	return (Param){ .type = ty, .offset = offset };
}

void abi_lower(Fb *fb, RType *t, bool kernel, Param *out, uint32_t *n)
{
	Module *m = fb->m;
	*n = 0;
	switch (val_kind(t)) {
	case VK_ZST:
		return;
	case VK_SCALAR:
		out[(*n)++] = param_at(scalar_type_of(fb, t), 0);
		return;
	case VK_FAT:
		out[(*n)++] = param_at(ir_type_ptr(m, 0), 0);
		out[(*n)++] = param_at(usize_type(fb), pair_offset(t));
		return;
	case VK_MEM:
		break;
	}
	if (t->abi == ABI_SCALAR) {
		out[(*n)++] = param_at(t->scalars[0].type, 0);
	} else if (t->abi == ABI_SCALAR_PAIR) {
		out[(*n)++] = param_at(t->scalars[0].type, 0);
		out[(*n)++] = param_at(t->scalars[1].type, pair_offset(t));
	} else {
		out[*n] = param_at(ir_type_ptr(m, 0), 0);
		out[*n].byval_size = kernel ? t->size : 0;
		out[(*n)++].byval_align = kernel ? t->align : 0;
	}
}

/* Offset of the second half of a ScalarPair layout. */
static uint64_t pair_offset(RType *t)
{
	if (val_kind(t) == VK_FAT)
		return 8;
	uint64_t a = t->scalars[1].type->bits / 8, s = t->scalars[0].type->bits / 8;
	if (t->scalars[0].type->kind == TY_PTR)
		s = 8;
	if (t->scalars[1].type->kind == TY_PTR)
		a = 8;
	return (s + a - 1) / a * a;
}

Type *abi_return(Fb *fb, RType *t, bool *sret)
{
	*sret = false;
	if (t->kind == RT_NEVER || rtype_is_zst(t))
		return ir_type_void(fb->m);
	Type *s = scalar_type_of(fb, t);
	if (s && (val_kind(t) == VK_SCALAR || t->abi == ABI_SCALAR))
		return s;
	*sret = true;
	return ir_type_void(fb->m);
}

/* Argument values of one Rust value, following abi_lower. */
static void abi_args(Fb *fb, Val v, Value **out, uint32_t *n)
{
	*n = 0;
	switch (val_kind(v.ty)) {
	case VK_ZST:
		return;
	case VK_SCALAR:
		out[(*n)++] = v.v[0];
		return;
	case VK_FAT:
		out[(*n)++] = v.v[0];
		out[(*n)++] = v.v[1];
		return;
	case VK_MEM:
		break;
	}
	RType *t = v.ty;
	if (t->abi == ABI_SCALAR) {
		out[(*n)++] = build_load(fb, v.addr, t->scalars[0].type);
	} else if (t->abi == ABI_SCALAR_PAIR) {
		out[(*n)++] = build_load(fb, v.addr, t->scalars[0].type);
		out[(*n)++] = build_load(fb, ptr_add(fb, v.addr, pair_offset(t)), t->scalars[1].type);
	} else {
		Value *copy = temp_slot(fb, t);  /* the callee may write its argument */
		build_copy(fb, copy, v.addr, t);
		out[(*n)++] = copy;
	}
}

/* Store incoming parameters into the argument's slot (function entry). */
void abi_store_params(Fb *fb, RType *t, Value **params, Value *slot)
{
	switch (val_kind(t)) {
	case VK_ZST:
		return;
	case VK_SCALAR:
		build_store(fb, params[0], slot);
		return;
	case VK_FAT:
		build_store(fb, params[0], slot);
		build_store(fb, params[1], ptr_add(fb, slot, 8));
		return;
	case VK_MEM:
		break;
	}
	if (t->abi == ABI_SCALAR) {
		build_store(fb, params[0], slot);
	} else if (t->abi == ABI_SCALAR_PAIR) {
		build_store(fb, params[0], slot);
		build_store(fb, params[1], ptr_add(fb, slot, pair_offset(t)));
	} else {
		build_copy(fb, slot, params[0], t);
	}
}


static void build_goto(Fb *fb, Block *target)
{
	Op *op = ir_build(&fb->b, OP_MIR_GOTO, 0, NULL, 0, NULL, 1);
	ir_op_set_succ(fb->m, op, 0, target, 0, NULL);
}

static bool term_switch(Fb *fb, JPath jp, const OxTerm *t)
{
	Val d;
	if (!build_operand(fb, jpath_field(fb->a, jp, "discr"), &t->op, &d))
		return false;
	if (val_kind(d.ty) != VK_SCALAR || val_type(d)->kind == TY_PTR || val_type(d)->kind == TY_FLOAT)
		return fb_error(fb, OX_INPUT, "switchInt on `%s`", d.ty->name), false;
	uint32_t n = t->ntarget;
	Op *op = ir_build(&fb->b, OP_MIR_SWITCH, 0, NULL, 1, d.v, n + 1);
	U128 *vals = arena_new_array(fb->a, U128, n);
	for (uint32_t i = 0; i < n; i++) {
		vals[i] = t->targets[i].value;
		ir_op_set_succ(fb->m, op, i, fb->blocks[t->targets[i].target], 0, NULL);
	}
	ir_op_set_vals(fb->m, op, n, vals);
	ir_op_set_succ(fb->m, op, n, fb->blocks[t->otherwise], 0, NULL);
	return true;
}

static bool term_return(Fb *fb)
{
	Type *ret = fb->fn->ret;
	if (ret->kind == TY_VOID) {
		ir_build(&fb->b, OP_MIR_RETURN, 0, NULL, 0, NULL, 0);
		return true;
	}
	Value *v = build_load(fb, fb->slot[0], ret);
	ir_build(&fb->b, OP_MIR_RETURN, 0, NULL, 1, &v, 0);
	return true;
}

/* Optional overflow asserts (parse_body.c says which) vanish when
 * overflow checks are off, exactly as rustc's own codegen does
 * (MIR-EXPORT.md); bounds, division by zero and division overflow
 * asserts always stay. */
static bool term_assert(Fb *fb, JPath jp, const OxTerm *t)
{
	Block *target = fb->blocks[t->target];
	if (t->optional) {
		build_goto(fb, target);
		return true;
	}
	Val c;
	if (!build_operand(fb, jpath_field(fb->a, jp, "cond"), &t->op, &c))
		return false;
	if (!val_type(c) || val_type(c)->kind != TY_BOOL)
		return fb_error(fb, OX_INPUT, "assert on a `%s`, not a bool", c.ty->name), false;
	Op *op = ir_build(&fb->b, OP_MIR_ASSERT, 0, NULL, 1, c.v, 1);
	op->attr.expect.value = t->expected;
	op->sym = t->text;
	ir_op_set_succ(fb->m, op, 0, target, 0, NULL);
	return true;
}

static bool call_args(Fb *fb, JPath jp, const OxTerm *t, Value ***out, uint32_t *n, Value *sret)
{
	uint32_t cap = 2 * t->nargs + 1;
	Value **vs = arena_new_array(fb->a, Value *, cap);
	*n = 0;
	if (sret)
		vs[(*n)++] = sret;
	for (uint32_t i = 0; i < t->nargs; i++) {
		Val v;
		uint32_t k;
		if (!build_operand(fb, jpath_index(fb->a, jpath_field(fb->a, jp, "args"), (int)i), &t->args[i], &v))
			return false;
		abi_args(fb, v, vs + *n, &k);
		*n += k;
	}
	*out = vs;
	return true;
}

static void finish_call(Fb *fb, const OxTerm *t)
{
	if (t->has_target) {
		build_goto(fb, fb->blocks[t->target]);
	} else {
		ir_build(&fb->b, OP_MIR_UNREACHABLE, 0, NULL, 0, NULL, 0);
	}
}

static bool call_function(Fb *fb, JPath jp, const OxTerm *t, PlaceV *dst)
{
	Func *f = fb->funcs[t->callee.fn->id];     /* resolved by parse_body.c */
	bool sret = func_returns_by_pointer(f);   /* memory values, fat pointers */
	Value **args;
	uint32_t n;
	if (!call_args(fb, jp, t, &args, &n, sret ? dst->addr : NULL))
		return false;
	if (n != f->nparam)
		return fb_error(fb, OX_INPUT, "call to `%s` with %u ABI arguments, expected %u", f->name, n, f->nparam), false;
	Type *rt = f->ret;
	Op *op = ir_build(&fb->b, OP_MIR_CALL, rt->kind == TY_VOID ? 0 : 1, &rt, n, args, 0);
	op->sym = f->symbol;
	if (op->nres)
		build_store(fb, &op->res[0], dst->addr);
	finish_call(fb, t);
	return true;
}

/* A call through a function pointer (`_0 = copy _1(move _2)`): the ABI of
 * the signature follows from the argument and destination types, which
 * are those of the callee's own locals (every body is monomorphic), so
 * it agrees with declare_func's for whichever function the pointer holds.
 *   mir.call_indirect %fnptr, args...  (an LLVM indirect call) */
static bool call_pointer(Fb *fb, JPath jp, const OxTerm *t, PlaceV *dst)
{
	Val f;
	if (!build_operand(fb, jpath_field(fb->a, jpath_field(fb->a, jp, "callee"), "operand"), t->callee.pointer, &f))
		return false;
	if (val_kind(f.ty) != VK_SCALAR || !val_type(f) || val_type(f)->kind != TY_PTR)
		return fb_error(fb, OX_INPUT, "call through a `%s`, not a function pointer", f.ty->name), false;
	bool sret;
	Type *rt = abi_return(fb, dst->ty, &sret);
	Value **args;
	uint32_t n;
	if (!call_args(fb, jp, t, &args, &n, sret ? dst->addr : NULL))
		return false;
	Value **opd = arena_new_array(fb->a, Value *, n + 1);
	opd[0] = f.v[0];
	memcpy(opd + 1, args, sizeof *args * n);
	Op *op = ir_build(&fb->b, OP_MIR_CALL_INDIRECT, rt->kind == TY_VOID ? 0 : 1, &rt, n + 1, opd, 0);
	if (op->nres)
		build_store(fb, &op->res[0], dst->addr);
	finish_call(fb, t);
	return true;
}

/* Whether a trait object of type `obj` may hold vtable `vt`: one made as
 * `obj`, or as a subtrait object that upcasts turned into `obj`. */
static bool vtable_reaches(Fb *fb, const OxVtable *vt, RType *obj)
{
	if (!vt->made)
		return false;
	if (fb_rtype(fb, vt->dyn_) == obj)
		return true;
	for (uint32_t i = 0; i < vt->nalso; i++)
		if (fb_rtype(fb, vt->also[i]) == obj)
			return true;
	return false;
}

/* `<dyn T as Tr>::m(self, args..)` (callee kind virtual): the function in
 * word `slot` of the trait object's vtable, called with the data pointer
 * as `&self` / `&mut self` (the thin pointer the method's body takes) and
 * the other arguments as call_pointer passes them.
 *   %vt = mir.int_to_ptr %meta
 *   %f  = mir.load (%vt + 8 slot) : ptr
 *   mir.call_indirect %f, %data, args... */
static bool call_virtual(Fb *fb, JPath jp, const OxTerm *t, PlaceV *dst)
{
	Val self;
	if (!t->nargs || !build_operand(fb, jpath_index(fb->a, jpath_field(fb->a, jp, "args"), 0), &t->args[0], &self))
		return t->nargs ? false : (fb_error(fb, OX_INPUT, "call of `%s` without its self", t->callee.name), false);
	if (val_kind(self.ty) != VK_FAT || !self.ty->pointee || self.ty->pointee->kind != RT_OPAQUE)
		return fb_error(fb, OX_INPUT, "call of `%s` through a `%s`, not a pointer to a trait object",
		                t->callee.name, self.ty->name), false;
	/* every vtable of this trait object type must hold a function in
	 * the slot (mir-export refuses the call otherwise) */
	uint32_t nvt = 0;
	for (uint32_t k = 0; k < fb->in->nvtable; k++) {
		const OxVtable *vt = &fb->in->vtables[k];
		if (!vtable_reaches(fb, vt, self.ty->pointee))
			continue;
		nvt++;
		if (t->callee.slot >= vt->nentry || !vt->entries[t->callee.slot])
			return fb_error(fb, OX_INPUT, "call of `%s` through word %u of the vtables of `%s`, which the "
			                "vtable of `%s` has no function in", t->callee.name, t->callee.slot,
			                self.ty->pointee->name, vt->ty->name), false;
	}
	if (!nvt)
		return fb_error(fb, OX_INPUT, "call of `%s` through `%s`, which no vtable of the input is of",
		                t->callee.name, self.ty->pointee->name), false;
	bool sret;
	Type *rt = abi_return(fb, dst->ty, &sret);
	Value **args;
	uint32_t n;
	if (!call_args(fb, jp, t, &args, &n, sret ? dst->addr : NULL))
		return false;
	uint32_t at = sret ? 1 : 0;      /* the trait object: data pointer, vtable address */
	Value *vt = ir_build1(&fb->b, OP_MIR_INT_TO_PTR, ir_type_ptr(fb->m, 0), 1, &args[at + 1]);
	Value *f = build_load(fb, ptr_add(fb, vt, 8 * (uint64_t)t->callee.slot), ir_type_ptr(fb->m, 0));
	Value **opd = arena_new_array(fb->a, Value *, n);
	opd[0] = f;
	memcpy(opd + 1, args, sizeof *args * (at + 1));
	memcpy(opd + 2 + at, args + at + 2, sizeof *args * (n - at - 2));
	Op *op = ir_build(&fb->b, OP_MIR_CALL_INDIRECT, rt->kind == TY_VOID ? 0 : 1, &rt, n, opd, 0);
	if (op->nres)
		build_store(fb, &op->res[0], dst->addr);
	finish_call(fb, t);
	return true;
}

static bool call_prim(Fb *fb, JPath jp, const OxTerm *t, Opcode code, const char *sym, PlaceV *dst)
{
	Value **args;
	uint32_t n;
	if (!call_args(fb, jp, t, &args, &n, NULL))
		return false;
	Type *rt = NULL;
	if (dst->ty && (val_kind(dst->ty) == VK_SCALAR || dst->ty->abi == ABI_SCALAR))
		rt = scalar_type_of(fb, dst->ty);
	Op *op = ir_build(&fb->b, code, rt ? 1 : 0, &rt, n, args, 0);
	op->sym = sym;
	if (op->nres)
		build_store(fb, &op->res[0], dst->addr);
	finish_call(fb, t);
	return true;
}

/* ---------------------------------------------------------- atomics
 *
 * core::intrinsics::atomic_* (orderings in "const_args"), the
 * core::sync::atomic functions mir-export maps to them, and oxide-device's
 * scoped atomics `__oxide_atomic_<op>_<ty>_<scope>` become one
 * mir.intrinsic: sym = the registry's intrinsic name, attr.atomic = the
 * orderings and the scope (llir_atomic.c). */

/* Rust's rule: failure is success without its release part. */
static int default_failure(int ord)
{
	return ord == AO_RELEASE ? AO_RELAXED : ord == AO_ACQ_REL ? AO_ACQUIRE : ord;
}

/* The last op of `code` in the block being built: the one a call just
 * made (a call's stores and its goto follow it). */
static Op *last_op(Fb *fb, Opcode code)
{
	for (Op *o = fb->b.block->last; o; o = o->prev)
		if (o->code == code)
			return o;
	return NULL;
}

/* atomic_cxchg: (old, ok) into a (T, bool), a Result<T, T> (the
 * core::sync::atomic functions: Ok(old) on success, else Err(old)), or
 * just old into a T (oxide-device's atomic_cas). */
static bool build_cxchg(Fb *fb, JPath jp, const OxTerm *t, const char *name, PlaceV *dst, Op **out)
{
	Value **args;
	uint32_t n;
	if (!call_args(fb, jp, t, &args, &n, NULL))
		return false;
	if (n != 3)
		return fb_error(fb, OX_INPUT, "%s with %u arguments, expected 3", name, n), false;
	Type *ts[2] = { args[1]->type, ir_type_bool(fb->m) };
	Op *op = ir_build(&fb->b, OP_MIR_INTRINSIC, 2, ts, 3, args, 0);
	op->sym = name;
	*out = op;
	RType *d = dst->ty;
	if (!d)
		return fb_error(fb, OX_INPUT, "%s without a destination", name), false;
	if (val_kind(d) == VK_SCALAR) {
		build_store(fb, &op->res[0], dst->addr);
	} else if (d->kind == RT_TUPLE && field_has_offset(d, 0, 1)) {
		build_store(fb, &op->res[0], ptr_add(fb, dst->addr, rtype_field_offset(d, 0, 0)));
		build_store(fb, &op->res[1], ptr_add(fb, dst->addr, rtype_field_offset(d, 0, 1)));
	} else if (d->kind == RT_ADT && d->adt_kind == ADT_ENUM && d->nvariant == 2 && d->has_variants &&
	           !d->niche && d->variants[0].discr.lo == 0 && d->variants[1].discr.lo == 1 &&
	           field_has_offset(d, 0, 0) && field_has_offset(d, 1, 0) && d->tag.type) {
		build_store(fb, &op->res[0], ptr_add(fb, dst->addr, rtype_field_offset(d, 0, 0)));
		if (rtype_field_offset(d, 1, 0) != rtype_field_offset(d, 0, 0))
			build_store(fb, &op->res[0], ptr_add(fb, dst->addr, rtype_field_offset(d, 1, 0)));
		Value *ok = &op->res[1];
		Value *err = ir_build1(&fb->b, OP_MIR_NOT, ir_type_bool(fb->m), 1, &ok);
		Value *tag = ir_build1(&fb->b, OP_MIR_INT_CAST, d->tag.type, 1, &err);
		build_store(fb, tag, ptr_add(fb, dst->addr, d->tag_offset));
	} else {
		return fb_error(fb, OX_INPUT, "%s into a `%s`: expected (T, bool) or Result<T, T>", name, d->name), false;
	}
	finish_call(fb, t);
	return true;
}

static bool build_atomic(Fb *fb, JPath jp, const OxTerm *t, const Intrinsic *in, int ord, int fail, int scope,
                         RType *g0, PlaceV *dst)
{
	Op *op = NULL;
	if (in->kind == AK_CXCHG) {
		if (!build_cxchg(fb, jp, t, in->name, dst, &op))
			return false;
	} else {
		if (!call_prim(fb, jp, t, OP_MIR_INTRINSIC, in->name, dst))
			return false;
		op = last_op(fb, OP_MIR_INTRINSIC);
	}
	if (op) {
		op->attr.atomic.order = (AtomicOrd)ord;
		op->attr.atomic.fail_order = (AtomicOrd)fail;
		op->attr.atomic.scope = (AtomicScope)scope;
		op->rty = g0;
	}
	return true;
}

/* core intrinsics: `atomic_xadd` with its orderings in const_args (the
 * registry's ATOMIC_INTRINSIC rows; mir-export spells every rustc's the
 * same); without them, SeqCst like Rust's oldest atomics. */
static bool call_atomic_intrinsic(Fb *fb, JPath jp, const OxTerm *t, const Intrinsic *in, RType *g0,
                                  PlaceV *dst)
{
	int ord = t->callee.nord > 0 ? t->callee.ords[0] : AO_SEQ_CST;
	int fail = t->callee.nord > 1 ? t->callee.ords[1] : default_failure(ord);
	return build_atomic(fb, jp, t, in, ord, fail, ATOMIC_SCOPE_DEFAULT, g0, dst);
}

/* oxide-device's atomic types: `__oxide_atomic_<op>_<ty>(.., scope,
 * order[, failure])`, whose last p->lower arguments are constants in the
 * MIR (one call per ordering, as core::sync::atomic writes them); they
 * become attr.atomic, the leading arguments the row's core atomic.  The
 * codes: prims.def, ATOMIC_ORD. */
static const AtomicScope ord_scopes[] = { ATOMIC_SCOPE_BLOCK, ATOMIC_SCOPE_DEVICE, ATOMIC_SCOPE_SYSTEM };
static const AtomicOrd ord_orders[] = { AO_RELAXED, AO_ACQUIRE, AO_RELEASE, AO_ACQ_REL, AO_SEQ_CST };

static bool ordered_const(Fb *fb, const OxTerm *t, const DevicePrim *p, uint32_t i, uint32_t n, uint32_t *out)
{
	const OxOperand *a = &t->args[i];
	size_t tlen, len;
	const char *name = prim_arg(p, i, &tlen, &len) + tlen + 1;
	int nlen = (int)(len - tlen - 1);
	if (a->kind != OX_OPERAND_CONSTANT || a->c.kind != OX_CONST_SCALAR)
		return fb_error(fb, OX_UNSUPPORTED, "the %.*s of GPU primitive `%s` is not a constant (oxide-device "
		                "passes one per call)", nlen, name, p->sym), false;
	if (a->c.bits.hi || a->c.bits.lo >= n)
		return fb_error(fb, OX_INPUT, "the %.*s of GPU primitive `%s` is %llu, not one of 0..%u", nlen, name,
		                p->sym, (unsigned long long)a->c.bits.lo, n - 1), false;
	*out = (uint32_t)a->c.bits.lo;
	return true;
}

static bool call_atomic_ordered(Fb *fb, JPath jp, const OxTerm *t, const DevicePrim *p, PlaceV *dst)
{
	uint32_t k = (uint32_t)p->lower, c[3] = { 0, 0, 0 };
	if (t->nargs != p->nargs)
		return fb_error(fb, OX_INPUT, "GPU primitive `%s` takes %u arguments (%s), not %u", p->sym, p->nargs,
		                p->args, t->nargs), false;
	for (uint32_t i = 0; i < k; i++)
		if (!ordered_const(fb, t, p, p->nargs - k + i, i ? countof(ord_orders) : countof(ord_scopes), &c[i]))
			return false;
	AtomicOrd ord = ord_orders[c[1]], fail = k > 2 ? ord_orders[c[2]] : (AtomicOrd)default_failure(ord);
	if (k > 2 && (fail == AO_RELEASE || fail == AO_ACQ_REL))
		return fb_error(fb, OX_INPUT, "GPU primitive `%s`: a failure ordering cannot be Release or AcqRel",
		                p->sym), false;
	const Intrinsic *in = intrinsic_find(p->nvvm);
	AtomicOrd no1 = in->kind == AK_LOAD ? AO_RELEASE : AO_ACQUIRE;
	if ((in->kind == AK_LOAD || in->kind == AK_STORE) && (ord == no1 || ord == AO_ACQ_REL))
		return fb_error(fb, OX_INPUT, "GPU primitive `%s`: an atomic %s cannot be %s", p->sym,
		                in->kind == AK_LOAD ? "load" : "store", ord == AO_ACQ_REL ? "AcqRel" :
		                in->kind == AK_LOAD ? "Release" : "Acquire"), false;
	OxTerm lead = *t;
	lead.nargs -= k;
	if (!build_atomic(fb, jp, &lead, in, ord, fail, ord_scopes[c[0]], NULL, dst))
		return false;
	Op *op = last_op(fb, OP_MIR_INTRINSIC);
	DevicePrim q = *p;
	q.nargs -= k;
	char why[128];
	const char *bad = op ? prim_check(&q, op->nopd, op->opd, op->nres ? op->res[0].type : NULL, why, sizeof why)
	                     : NULL;
	return bad ? fb_error(fb, OX_INPUT, "GPU primitive `%s` %s", p->sym, bad), false : true;
}

/* __oxide_* GPU primitives and __nv_* libdevice math, by their registry
 * rows (src/ir/prims.def); oxide-device's scoped atomics
 * (__oxide_atomic_<op>_<ty>_<scope>, relaxed like CUDA's atomicAdd_block
 * & co.; cas returns the old value only) become the row's core atomic. */
static bool call_device(Fb *fb, JPath jp, const OxTerm *t, PlaceV *dst)
{
	const char *sym = t->callee.symbol;
	const DevicePrim *p = prim_find(sym);
	if (!p)
		return fb_error(fb, OX_INPUT, "unknown GPU primitive `%s` (oxide-device and oxidec versions differ?)", sym), false;
	if (p->cls == PC_ATOMIC_ORD)
		return call_atomic_ordered(fb, jp, t, p, dst);
	if (p->cls == PC_ATOMIC) {
		const Intrinsic *in = intrinsic_find(p->nvvm);
		if (!build_atomic(fb, jp, t, in, AO_RELAXED, AO_RELAXED, p->lower, NULL, dst))
			return false;
		Op *op = last_op(fb, OP_MIR_INTRINSIC);
		char why[128];
		const char *bad = op ? prim_check(p, op->nopd, op->opd, op->nres ? op->res[0].type : NULL, why,
		                                  sizeof why) : NULL;
		return bad ? fb_error(fb, OX_INPUT, "GPU primitive `%s` %s", sym, bad), false : true;
	}
	if (!call_prim(fb, jp, t, OP_MIR_DEVICE, sym, dst))
		return false;
	Op *op = last_op(fb, OP_MIR_DEVICE);
	char why[128];
	const char *bad = prim_check(p, op->nopd, op->opd, op->nres ? op->res[0].type : NULL, why, sizeof why);
	if (bad)
		return fb_error(fb, OX_INPUT, "GPU primitive `%s` %s", sym, bad), false;
	return true;
}

static Value *op2(Fb *fb, Opcode code, Type *t, Value *a, Value *b)
{
	Value *ab[2] = { a, b };
	return ir_build1(&fb->b, code, t, 2, ab);
}

/* *lo += y (u128), its carry into *hi */
static void add_carry(Fb *fb, Type *u, Value **lo, Value **hi, Value *y)
{
	Value *s = op2(fb, OP_MIR_ADD, u, *lo, y);
	Value *c = op2(fb, OP_MIR_LT, ir_type_bool(fb->m), s, y);
	*hi = op2(fb, OP_MIR_ADD, u, *hi, ir_build1(&fb->b, OP_MIR_INT_CAST, u, 1, &c));
	*lo = s;
}

/* carrying_mul_add of u128 / i128: the 256-bit a * b + c + d as (hi, lo)
 * u128 from the four 64 x 64 -> 128-bit products of the halves; signed,
 * the two's complement corrections: minus b << 128 when a < 0 (and a when
 * b < 0), plus the sign extensions of c and d. */
static void mul_add_128(Fb *fb, Value **args, Value **lo_out, Value **hi_out)
{
	Type *u = ir_type_int(fb->m, 128, false), *u32 = ir_type_int(fb->m, 32, false);
	Value *x[4], *m64 = const_int(fb, u, UINT64_MAX), *k64 = const_int(fb, u32, 64);
	for (int i = 0; i < 4; i++)
		x[i] = ir_build1(&fb->b, OP_MIR_INT_CAST, u, 1, &args[i]);
	Value *a0 = op2(fb, OP_MIR_AND, u, x[0], m64), *a1 = op2(fb, OP_MIR_SHR, u, x[0], k64);
	Value *b0 = op2(fb, OP_MIR_AND, u, x[1], m64), *b1 = op2(fb, OP_MIR_SHR, u, x[1], k64);
	Value *lo = op2(fb, OP_MIR_MUL, u, a0, b0), *hi = op2(fb, OP_MIR_MUL, u, a1, b1);
	Value *mid = op2(fb, OP_MIR_MUL, u, a0, b1), *mid_hi = const_int(fb, u, 0);
	add_carry(fb, u, &mid, &mid_hi, op2(fb, OP_MIR_MUL, u, a1, b0));       /* mid: 129 bits */
	hi = op2(fb, OP_MIR_ADD, u, hi, op2(fb, OP_MIR_SHL, u, mid_hi, k64));
	hi = op2(fb, OP_MIR_ADD, u, hi, op2(fb, OP_MIR_SHR, u, mid, k64));
	add_carry(fb, u, &lo, &hi, op2(fb, OP_MIR_SHL, u, mid, k64));
	add_carry(fb, u, &lo, &hi, x[2]);
	add_carry(fb, u, &lo, &hi, x[3]);
	if (args[0]->type->is_signed) {
		Value *sign[4], *k127 = const_int(fb, u32, 127);
		for (int i = 0; i < 4; i++) {     /* all ones when negative (an arithmetic shift) */
			Value *s = op2(fb, OP_MIR_SHR, args[i]->type, args[i], k127);
			sign[i] = ir_build1(&fb->b, OP_MIR_INT_CAST, u, 1, &s);
		}
		hi = op2(fb, OP_MIR_SUB, u, hi, op2(fb, OP_MIR_AND, u, x[1], sign[0]));
		hi = op2(fb, OP_MIR_SUB, u, hi, op2(fb, OP_MIR_AND, u, x[0], sign[1]));
		hi = op2(fb, OP_MIR_ADD, u, op2(fb, OP_MIR_ADD, u, hi, sign[2]), sign[3]);
	}
	*lo_out = lo;
	*hi_out = ir_build1(&fb->b, OP_MIR_INT_CAST, args[0]->type, 1, &hi);
}

/* carrying_mul_add of 8- to 64-bit T, in twice T's width:
 *   %w = mir.add (mir.add (mir.mul (int_cast %a), (int_cast %b)), ..c), ..d
 *   lo = mir.int_cast %w : uN;  hi = mir.int_cast (mir.shr %w, N) : T */
static void mul_add_wide(Fb *fb, Value **args, Value **lo_out, Value **hi_out)
{
	Type *ty = args[0]->type, *wide = ir_type_int(fb->m, 2 * ty->bits, ty->is_signed);
	Value *w[4];
	for (int i = 0; i < 4; i++)
		w[i] = ir_build1(&fb->b, OP_MIR_INT_CAST, wide, 1, &args[i]);
	Value *acc = op2(fb, OP_MIR_MUL, wide, w[0], w[1]);
	acc = op2(fb, OP_MIR_ADD, wide, op2(fb, OP_MIR_ADD, wide, acc, w[2]), w[3]);
	Value *hi = op2(fb, OP_MIR_SHR, wide, acc, const_int(fb, ir_type_int(fb->m, 32, false), ty->bits));
	*lo_out = ir_build1(&fb->b, OP_MIR_INT_CAST, ir_type_int(fb->m, ty->bits, false), 1, &acc);
	*hi_out = ir_build1(&fb->b, OP_MIR_INT_CAST, ty, 1, &hi);
}

/* carrying_mul_add(a, b, c, d): a * b + c + d, exact in twice T's width
 * (it cannot overflow), its low half (as the unsigned U) into the
 * (U, T)'s .0, its high half into .1, as rustc's codegen. */
static bool call_carrying_mul_add(Fb *fb, JPath jp, const OxTerm *t, PlaceV *dst)
{
	const char *name = "intrinsic `core::intrinsics::carrying_mul_add`";
	Value **args;
	uint32_t n;
	if (!call_args(fb, jp, t, &args, &n, NULL))
		return false;
	Type *ty = n ? args[0]->type : NULL;
	bool same = n == 4 && ty->kind == TY_INT;
	for (uint32_t i = 1; same && i < n; i++)
		same = args[i]->type->kind == TY_INT && args[i]->type->bits == ty->bits;
	if (!same)
		return fb_error(fb, OX_INPUT, "%s takes four integers of one type", name), false;
	RType *d = dst->ty;
	if (!d || d->kind != RT_TUPLE || !field_has_offset(d, 0, 0) || !field_has_offset(d, 0, 1))
		return fb_error(fb, OX_INPUT, "%s into a `%s`: expected a (U, T)", name, d ? d->name : "nothing"), false;
	Value *lo, *hi;
	if (ty->bits == 128)
		mul_add_128(fb, args, &lo, &hi);
	else
		mul_add_wide(fb, args, &lo, &hi);
	build_store(fb, lo, ptr_add(fb, dst->addr, rtype_field_offset(d, 0, 0)));
	build_store(fb, hi, ptr_add(fb, dst->addr, rtype_field_offset(d, 0, 1)));
	finish_call(fb, t);
	return true;
}

/* catch_unwind(try_fn, data, catch_fn): a kernel cannot unwind (panic =
 * abort: a panic traps), so catch_fn is never called; as rustc's codegen
 * without unwinding:  mir.call_indirect %try_fn, %data;  0 */
static bool call_catch_unwind(Fb *fb, JPath jp, const OxTerm *t, PlaceV *dst)
{
	Value **args;
	uint32_t n;
	if (!call_args(fb, jp, t, &args, &n, NULL))
		return false;
	bool ok = n == 3;
	for (uint32_t i = 0; ok && i < n; i++)
		ok = args[i]->type->kind == TY_PTR;
	Type *rt = dst->ty ? scalar_type_of(fb, dst->ty) : NULL;
	if (!ok || !rt || rt->kind != TY_INT || rt->bits != 32)
		return fb_error(fb, OX_INPUT, "intrinsic `core::intrinsics::catch_unwind` takes (fn(*mut u8), *mut u8, "
		                "fn(*mut u8, *mut u8)) and returns an i32"), false;
	ir_build(&fb->b, OP_MIR_CALL_INDIRECT, 0, NULL, 2, args, 0);
	build_store(fb, const_int(fb, rt, 0), dst->addr);
	finish_call(fb, t);
	return true;
}

/* prefetch_*::<T, LOCALITY>: the locality (const_args) as vals[0] */
static bool prefetch_locality(Fb *fb, const OxTerm *t, Op *op)
{
	if (!t->callee.nint)
		return true;
	if (t->callee.ints[0] < 0 || t->callee.ints[0] > 3)
		return fb_error(fb, OX_INPUT, "intrinsic `core::intrinsics::%s` with locality %lld, not 0..3", op->sym,
		                (long long)t->callee.ints[0]), false;
	U128 v = { (uint64_t)t->callee.ints[0], 0 };
	ir_op_set_vals(fb->m, op, 1, &v);
	return true;
}

static bool call_intrinsic(Fb *fb, JPath jp, const OxTerm *t, PlaceV *dst)
{
	const char *name = t->callee.name;
	RType *g0 = t->callee.generic0 ? fb_rtype(fb, t->callee.generic0) : NULL;
	const Intrinsic *in = intrinsic_find(name);
	if (!in)
		return fb_error(fb, OX_UNSUPPORTED, "%sintrinsic `core::intrinsics::%s` is not supported by oxidec yet",
		                !strncmp(name, "atomic_", 7) ? "atomic " : "", name), false;
	if (in->kind == IK_SELECT && !in->atomic && dst->ty && val_kind(dst->ty) != VK_SCALAR &&
	    dst->ty->abi != ABI_SCALAR)
		return fb_error(fb, OX_UNSUPPORTED, "intrinsic `core::intrinsics::%s` of a `%s` is not supported yet (only "
		                "of values of one scalar: integers, floats, bool, char, thin pointers)", name, dst->ty->name), false;
	if (!in->atomic && in->kind == IK_MUL_ADD)
		return call_carrying_mul_add(fb, jp, t, dst);
	if (!in->atomic && in->kind == IK_CATCH_UNWIND)
		return call_catch_unwind(fb, jp, t, dst);
	bool returns_unit = !strcmp(strchr(in->shape, '>'), ">-");
	if (returns_unit && dst->ty && dst->ty->kind != RT_NEVER && !rtype_is_zst(dst->ty))
		return fb_error(fb, OX_INPUT, "intrinsic `core::intrinsics::%s` returns nothing, not a `%s`", name,
		                dst->ty->name), false;
	if (in->atomic) {
		if (!call_atomic_intrinsic(fb, jp, t, in, g0, dst))
			return false;
	} else {
		if (!call_prim(fb, jp, t, OP_MIR_INTRINSIC, name, dst))
			return false;
		last_op(fb, OP_MIR_INTRINSIC)->rty = g0;
		if (in->kind == IK_PREFETCH && !prefetch_locality(fb, t, last_op(fb, OP_MIR_INTRINSIC)))
			return false;
	}
	char why[96];
	Op *op = last_op(fb, OP_MIR_INTRINSIC);
	const char *bad = intrinsic_check(in, op, why, sizeof why);
	if (bad)
		return fb_error(fb, OX_INPUT, "intrinsic `core::intrinsics::%s` %s", name, bad), false;
	/* libdevice has f32 and f64 functions only; the fast-math rows are
	 * checked on those alone */
	bool f32_f64 = in->atomic || (in->kind != IK_LIBM && in->kind != IK_FAST && in->kind != IK_ALGEBRAIC) ||
	               op->opd[0]->type->bits == 32 || op->opd[0]->type->bits == 64;
	if (!f32_f64)
		return fb_error(fb, OX_UNSUPPORTED, "intrinsic `core::intrinsics::%s` of an f%u is not supported yet (only "
		                "of f32 and f64)", name, op->opd[0]->type->bits), false;
	return true;
}

static bool call_into(Fb *fb, JPath jp, const OxTerm *t, PlaceV *dst)
{
	switch (t->callee.kind) {
	case OX_CALLEE_FUNCTION:
		return call_function(fb, jp, t, dst);
	case OX_CALLEE_PANIC: {
		Op *op = ir_build(&fb->b, OP_MIR_PANIC, 0, NULL, 0, NULL, 0);
		op->sym = t->callee.name;
		return true;
	}
	case OX_CALLEE_DEVICE:
		return call_device(fb, jp, t, dst);
	case OX_CALLEE_INTRINSIC:
		return call_intrinsic(fb, jp, t, dst);
	case OX_CALLEE_POINTER:
		return call_pointer(fb, jp, t, dst);
	case OX_CALLEE_VIRTUAL:
		return call_virtual(fb, jp, t, dst);
	}
	unreachable();
}

/* A call whose destination is under-aligned (a field of a packed struct)
 * wrote an aligned temporary: the call's goto to its target goes through
 * a block that copies it into the destination first. */
static bool call_write_back(Fb *fb, const OxTerm *t, const PlaceV *tmp, const PlaceV *back)
{
	Op *term = ir_block_terminator(fb->b.block);
	if (!t->has_target || tmp->addr == back->addr)
		return true;
	if (!term || term->code != OP_MIR_GOTO || term->succ[0].block != fb->blocks[t->target])
		return fb_error(fb, OX_UNSUPPORTED, "the result of `%s` written into a field of a #[repr(packed)] struct "
		                "is not supported", t->callee.name ? t->callee.name : "this call"), false;
	Block *copy = ir_block_new(fb->fn);
	ir_op_set_succ(fb->m, term, 0, copy, 0, NULL);
	fb->b.block = copy;
	place_write_back(fb, tmp, back);
	build_goto(fb, fb->blocks[t->target]);
	return true;
}

static bool term_call(Fb *fb, JPath jp, const OxTerm *t)
{
	PlaceV dst = { NULL, NULL, NULL, -1, 0 }, back;
	if (!build_place(fb, jpath_field(fb->a, jp, "dest"), &t->place, &dst) ||
	    !place_write_target(fb, &dst, &back))
		return false;
	return call_into(fb, jp, t, &dst) && call_write_back(fb, t, &dst, &back);
}

/* `for x in [a, b, c]` drops a core::array::IntoIter, whose Drop impl
 * drops the elements not yet taken: nothing to do when those have no drop
 * glue (mir-export's "drop_noop": scalars, and tuples, arrays and Copy
 * types of them; the type's name is read too, for older JSON), and arrays
 * and tuples of types without glue (a generic body's drop of its `T`,
 * instantiated).  Other
 * drops with glue are calls of rustc's drop_in_place shims by now
 * (mir-export's export/drops.rs); a drop left here has no glue body. */
static bool drop_is_noop(RType *t)
{
	if ((t->kind == RT_ADT || t->kind == RT_CLOSURE) && t->drop_noop)
		return true;        /* mir-export knows the elements (captures) have no drop glue */
	switch (t->kind) {      /* a generic instance drops its T: these have no drop glue */
	case RT_BOOL: case RT_CHAR: case RT_INT: case RT_FLOAT: case RT_REF: case RT_PTR: case RT_FNDEF: case RT_FNPTR:
		return true;
	case RT_ARRAY:          /* `[u8; 32]` once `<S as SeedableRng>::Seed` is put in */
		return t->elem && drop_is_noop(t->elem);
	case RT_TUPLE:
		if (!t->nvariant)
			return false;
		for (uint32_t i = 0; i < t->variants[0].nfield; i++)
			if (!t->variants[0].fields[i] || !drop_is_noop(t->variants[0].fields[i]))
				return false;
		return true;
	default:
		break;
	}
	static const char *const iters[] = { "core::array::IntoIter<", "core::array::iter::IntoIter<" };
	static const char *const prims[] = { "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32",
	                                     "i64", "i128", "isize", "f32", "f64", "bool", "char" };
	for (size_t i = 0; i < countof(iters); i++) {
		size_t n = strlen(iters[i]);
		if (strncmp(t->name, iters[i], n))
			continue;
		const char *elem = t->name + n, *comma = strchr(elem, ',');
		for (size_t k = 0; comma && k < countof(prims); k++)
			if ((size_t)(comma - elem) == strlen(prims[k]) && !strncmp(elem, prims[k], strlen(prims[k])))
				return true;
	}
	return false;
}

/* Dropping a trait object `dyn T` (the glue of `Box<dyn T>` drops `*p`):
 * word 0 of its vtable, the concrete type's drop_in_place (mir-export's
 * dyn_drop.rs fills it), called with the data pointer, as rustc's codegen
 * does; null for a type without drop glue: nothing to call.
 *   %vt = mir.int_to_ptr %meta;  %f = mir.load %vt : ptr
 *   switch (ptr_to_int %f) { 0: target; otherwise: call_indirect %f, %data; goto target } */
static bool drop_dyn(Fb *fb, const PlaceV *p, Block *target)
{
	if (!p->meta || p->meta->type->kind != TY_INT)
		return fb_error(fb, OX_INPUT, "drop of a `%s` without its vtable", p->ty->name), false;
	Type *ptr = ir_type_ptr(fb->m, 0), *u = usize_type(fb);
	Value *vt = ir_build1(&fb->b, OP_MIR_INT_TO_PTR, ptr, 1, (Value **)&p->meta);
	Value *f = build_load(fb, vt, ptr);
	Value *fi = ir_build1(&fb->b, OP_MIR_PTR_TO_INT, u, 1, &f);
	Block *call = ir_block_new(fb->fn);
	Op *sw = ir_build(&fb->b, OP_MIR_SWITCH, 0, NULL, 1, &fi, 2);
	U128 zero = { 0, 0 };
	ir_op_set_vals(fb->m, sw, 1, &zero);
	ir_op_set_succ(fb->m, sw, 0, target, 0, NULL);
	ir_op_set_succ(fb->m, sw, 1, call, 0, NULL);
	fb->b.block = call;
	Value *opd[2] = { f, p->addr };
	ir_build(&fb->b, OP_MIR_CALL_INDIRECT, 0, NULL, 2, opd, 0);
	build_goto(fb, target);
	return true;
}

static bool term_drop(Fb *fb, JPath jp, const OxTerm *t)
{
	PlaceV p;
	if (!build_place(fb, jpath_field(fb->a, jp, "place"), &t->place, &p))
		return false;
	if (p.ty->kind == RT_OPAQUE)
		return drop_dyn(fb, &p, fb->blocks[t->target]);
	if (!drop_is_noop(p.ty)) {
		fb_error(fb, OX_UNSUPPORTED, "dropping a `%s` runs drop glue that the exported MIR has no body for "
		         "(a `Drop` impl of core, such as `array::IntoIter`'s over elements with drop glue, is not in "
		         "the kernel crate's MIR); iterate by reference, or drop the elements explicitly", p.ty->name);
		return false;
	}
	build_goto(fb, fb->blocks[t->target]);
	return true;
}

bool build_terminator(Fb *fb, JPath jp, const OxTerm *t)
{
	fb_set_span(fb, t->span);
	switch (t->kind) {
	case OX_TERM_GOTO:
		build_goto(fb, fb->blocks[t->target]);
		return true;
	case OX_TERM_SWITCH_INT:
		return term_switch(fb, jp, t);
	case OX_TERM_RETURN:
		return term_return(fb);
	case OX_TERM_UNREACHABLE:
		/* unwinding never happens: kernels are built with panic=abort */
		ir_build(&fb->b, OP_MIR_UNREACHABLE, 0, NULL, 0, NULL, 0);
		return true;
	case OX_TERM_ASSERT:
		return term_assert(fb, jp, t);
	case OX_TERM_CALL:
		return term_call(fb, jp, t);
	case OX_TERM_DROP:
		return term_drop(fb, jp, t);
	}
	unreachable();
}
