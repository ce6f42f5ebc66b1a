/* llir_atomic.c: atomics — core::intrinsics::atomic_* (and the
 * core::sync::atomic functions mir-export maps to them) and oxide-device's
 * scoped atomics, ATOMIC_INTRINSIC rows of the registry (src/ir/prims.def),
 * lowered to llir atomics with the target's LLVM syncscope.  The frontend
 * puts the orderings and scope on the mir.intrinsic (attr.atomic). */
#include "llir.h"

#include <string.h>

/* a fence of ordering o at the LLVM syncscope (NULL: system) */
void llir_fence(Lower *l, AtomicOrd o, const char *syncscope)
{
	Op *f = ir_build(&l->b, OP_LLIR_FENCE, 0, NULL, 0, NULL, 0);
	f->attr.atomic.order = o;
	f->sym = syncscope;
}

/* The read-modify-write of op as an atomicrmw of ordering ord at op's
 * scope; where the target's atomicrmw would not keep the ordering, a
 * relaxed one between fences: before it unless acquire, after it unless
 * release. */
static Value *rmw(Lower *l, Op *op, const Intrinsic *in, AtomicOrd ord, Type *t)
{
	const char *scope = l->hooks->syncscope(op->attr.atomic.scope);
	bool fenced = !l->hooks->atomicrmw_ordered(l, in->rmw, ord, t);
	if (fenced && ord != AO_ACQUIRE)
		llir_fence(l, ord == AO_SEQ_CST ? AO_SEQ_CST : AO_RELEASE, scope);
	Value *r = emit2(l, OP_LLIR_ATOMICRMW, t, op->opd[0], op->opd[1]);
	r->def->attr.atomic.rmw = in->rmw;
	r->def->attr.atomic.order = fenced ? AO_RELAXED : ord;
	r->def->sym = scope;
	if (fenced && ord != AO_RELEASE)
		llir_fence(l, AO_ACQUIRE, scope);
	return r;
}

/* Returns the replacement of op's single result, NULL when it has none;
 * a compare-exchange's two results are replaced here. */
Value *lower_atomic(Lower *l, Op *op, const Intrinsic *in)
{
	AtomicKind k = (AtomicKind)in->kind;
	AtomicOrd ord = op->attr.atomic.order;
	const char *scope = l->hooks->syncscope(op->attr.atomic.scope);
	Type *rt = op->nres ? op->res[0].type : NULL;
	Value *r = NULL;
	switch (k) {
	case AK_LOAD:
		r = emit1(l, OP_LLIR_ATOMIC_LOAD, rt, op->opd[0]);
		r->def->attr.atomic.align = ir_type_natural_align(rt);
		r->def->attr.atomic.order = ord;
		r->def->sym = scope;
		return r;
	case AK_STORE: {
		Value *opd[2] = { op->opd[1], op->opd[0] };
		Op *st = ir_build(&l->b, OP_LLIR_ATOMIC_STORE, 0, NULL, 2, opd, 0);
		st->attr.atomic.align = ir_type_natural_align(op->opd[1]->type);
		st->attr.atomic.order = ord;
		st->sym = scope;
		return NULL;
	}
	case AK_RMW:
		r = rmw(l, op, in, ord, rt ? rt : op->opd[1]->type);
		return op->nres ? r : NULL;
	case AK_CXCHG: {
		Type *ts[2] = { op->res[0].type, ir_type_bool(l->m) };
		Op *x = ir_build(&l->b, OP_LLIR_CMPXCHG, 2, ts, 3, op->opd, 0);
		x->attr.atomic.order = ord;
		x->attr.atomic.fail_order = op->attr.atomic.fail_order;
		x->attr.atomic.weak = strstr(op->sym, "weak") != NULL;
		x->sym = scope;
		ir_forward(&op->res[0], &x->res[0]);
		ir_forward(&op->res[1], &x->res[1]);
		return NULL;
	}
	case AK_FENCE: case AK_SINGLE_FENCE:
		llir_fence(l, ord, k == AK_SINGLE_FENCE ? "singlethread" : scope);
		return NULL;
	}
	unreachable();
}
