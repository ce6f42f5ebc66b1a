/* llir.c: stage 5 — the pass that turns mir and nvvm ops into the
 * LLVM-shaped llir dialect, op by op, with rustc's layouts applied and
 * Rust's operator semantics made explicit.  This file is the walk, the
 * dispatch by op kind, constants, calls and terminators; each other
 * concern has its file (llir.h lists them).
 *
 *   mir.goto ^bb1(%x)         ==>  llir.br ^bb1(%x)
 *   mir.switch %b : bool [0: ^a, otherwise: ^b]  ==>  llir.condbr %b, ^b, ^a
 *   mir.const 7 : ptr         ==>  llir.inttoptr (llir.const 7 : i64)
 *
 * Requires: nvvm stage (no mir.device, mir.assert, mir.panic left).
 * Produces: only llir ops; value types are signless.
 */
#include "llir.h"

static Value *lower_const(Lower *l, Op *op)
{
	Type *t = op->res[0].type;
	if (t->kind == TY_PTR) {
		Value *i = iconst(l, ir_type_int(l->m, 64, false), op->vals[0].lo, 0);
		return emit1(l, OP_LLIR_INTTOPTR, t, i);
	}
	return iconst(l, t, op->vals[0].lo, op->vals[0].hi);
}

/* oxide_device::hint::unroll(count): llir.loop_hint, which the emitter
 * turns into metadata on the loop's latches; the count must be a
 * constant (rustc folds the wrapper's argument when it inlines it). */
static void lower_loop_hint(Lower *l, Op *op)
{
	Op *c = op->opd[0]->def;
	if (!c || (c->code != OP_LLIR_CONST && c->code != OP_MIR_CONST)) {
		char where[512];
		diag_error(OX_UNSUPPORTED, ir_loc_string(l->m, op->loc, where, sizeof where),
		           "the count of oxide_device::hint::unroll is not a constant");
		return;
	}
	Op *h = ir_build(&l->b, OP_LLIR_LOOP_HINT, 0, NULL, 0, NULL, 0);
	h->attr.hint.unroll = c->vals[0].lo > UINT32_MAX ? UINT32_MAX : (uint32_t)c->vals[0].lo;
}

/* nvvm ops: the target's hooks (llir_nvptx.c, llir_host.c), but for the
 * address-space cast and the loop hint */
static Value *lower_nvvm(Lower *l, Op *op)
{
	const LlirHooks *h = l->hooks;
	switch (op->code) {
	case OP_NVVM_LIBDEVICE: return h->libdevice(l, op);
	case OP_NVVM_PRIM: return lower_prim(l, op);
	case OP_NVVM_BARRIER0: h->barrier(l); return NULL;
	case OP_NVVM_TRAP: h->trap(l); return NULL;
	case OP_NVVM_LOOP_HINT: lower_loop_hint(l, op); return NULL;
	case OP_NVVM_ADDRSPACE_CAST: return emit1(l, OP_LLIR_ADDRSPACECAST, op->res[0].type, op->opd[0]);
	default: return h->sreg(l, op);
	}
}

/* -------------------------------------------------------- terminators */

static void copy_succ(Lower *l, Op *to, Op *from, uint32_t ti, uint32_t fi)
{
	ir_op_set_succ(l->m, to, ti, from->succ[fi].block, from->succ[fi].nargs, from->succ[fi].args);
}

static void lower_switch(Lower *l, Op *op)
{
	Value *v = op->opd[0];
	if (v->type->kind == TY_BOOL && op->nval == 1) {
		Op *br = ir_build(&l->b, OP_LLIR_CONDBR, 0, NULL, 1, &v, 2);
		bool zero_case = op->vals[0].lo == 0;   /* [0: a, otherwise: b] */
		copy_succ(l, br, op, 0, zero_case ? 1 : 0);
		copy_succ(l, br, op, 1, zero_case ? 0 : 1);
		return;
	}
	Op *sw = ir_build(&l->b, OP_LLIR_SWITCH, 0, NULL, 1, &v, op->nsucc);
	ir_op_set_vals(l->m, sw, op->nval, op->vals);
	for (uint32_t i = 0; i < op->nsucc; i++)
		copy_succ(l, sw, op, i, i);
}

static void lower_term(Lower *l, Op *op)
{
	switch (op->code) {
	case OP_MIR_GOTO: {
		Op *br = ir_build(&l->b, OP_LLIR_BR, 0, NULL, 0, NULL, 1);
		copy_succ(l, br, op, 0, 0);
		break;
	}
	case OP_MIR_SWITCH:
		lower_switch(l, op);
		break;
	case OP_MIR_RETURN:
		ir_build(&l->b, OP_LLIR_RET, 0, NULL, op->nopd, op->opd, 0);
		break;
	case OP_MIR_UNREACHABLE:
		ir_build(&l->b, OP_LLIR_UNREACHABLE, 0, NULL, 0, NULL, 0);
		break;
	default:
		die("%s reached the llir lowering", opinfo[op->code].name);
	}
}

/* ---------------------------------------------------------- the pass */

static void lower_op(Lower *l, Op *op)
{
	Value *r = NULL, *pair[2] = { NULL, NULL };
	ir_forward_op(op);
	l->b.block = op->parent;
	l->b.before = op;
	l->b.loc = op->loc;
	switch (op->code) {
	case OP_MIR_CONST: r = lower_const(l, op); break;
	case OP_MIR_UNDEF: r = emit(l, OP_LLIR_UNDEF, op->res[0].type, 0, NULL); break;
	case OP_MIR_SLOT: case OP_MIR_LOAD: case OP_MIR_STORE: case OP_MIR_COPY: case OP_MIR_FIELD:
	case OP_MIR_VFIELD: case OP_MIR_PTR_ADD: case OP_MIR_INDEX: case OP_MIR_GLOBAL_ADDR:
	case OP_MIR_DISCR: case OP_MIR_SET_DISCR:
		r = lower_memory(l, op);
		break;
	case OP_MIR_ADD: case OP_MIR_SUB: case OP_MIR_MUL: case OP_MIR_DIV: case OP_MIR_REM:
	case OP_MIR_AND: case OP_MIR_OR: case OP_MIR_XOR:
		r = lower_arith(l, op);
		break;
	case OP_MIR_SHL: case OP_MIR_SHR: r = lower_shift(l, op); break;
	case OP_MIR_ADD_OVF: case OP_MIR_SUB_OVF: case OP_MIR_MUL_OVF: lower_overflow(l, op, pair); break;
	case OP_MIR_EQ: case OP_MIR_NE: case OP_MIR_LT: case OP_MIR_LE: case OP_MIR_GT: case OP_MIR_GE:
		r = lower_compare(l, op);
		break;
	case OP_MIR_CMP: r = lower_cmp3(l, op); break;
	case OP_MIR_NOT: case OP_MIR_NEG: r = lower_unary(l, op); break;
	case OP_MIR_INT_CAST: case OP_MIR_INT_TO_FLOAT: case OP_MIR_FLOAT_TO_INT: case OP_MIR_FLOAT_CAST:
	case OP_MIR_PTR_TO_INT: case OP_MIR_INT_TO_PTR: case OP_MIR_BITCAST:
		r = lower_cast(l, op);
		break;
	case OP_MIR_CALL: {
		Type *rt = op->nres ? op->res[0].type : NULL;
		Op *c = ir_build(&l->b, OP_LLIR_CALL, op->nres, &rt, op->nopd, op->opd, 0);
		c->sym = op->sym;
		r = op->nres ? &c->res[0] : NULL;
		break;
	}
	case OP_MIR_CALL_INDIRECT: {
		Type *rt = op->nres ? op->res[0].type : NULL;
		Op *c = ir_build(&l->b, OP_LLIR_CALL_INDIRECT, op->nres, &rt, op->nopd, op->opd, 0);
		r = op->nres ? &c->res[0] : NULL;
		break;
	}
	case OP_MIR_INTRINSIC: r = lower_core_intrinsic(l, op); break;
	case OP_MIR_ASSUME: llvm_intrinsic(l, "llvm.assume", OVL_NONE, NULL, 1, op->opd); break;
	default:
		if (opinfo[op->code].dialect == DIALECT_NVVM) {
			r = lower_nvvm(l, op);
			break;
		}
		lower_term(l, op);
		break;
	}
	if (op->nres == 1 && r)
		ir_forward(&op->res[0], r);
	for (uint32_t i = 0; op->nres == 2 && i < 2; i++)
		if (pair[i])    /* else the lowering forwarded them itself (cmpxchg) */
			ir_forward(&op->res[i], pair[i]);
	ir_op_unlink(op);
}

static void make_signless(Lower *l)
{
	for (uint32_t i = 0; i < l->f->nparam; i++)
		l->f->params[i].type = signless(l, l->f->params[i].type);
	l->f->ret = signless(l, l->f->ret);
	for (Block *b = l->f->first; b; b = b->next) {
		for (uint32_t i = 0; i < b->nargs; i++)
			b->args[i]->type = signless(l, b->args[i]->type);
		for (Op *op = b->first; op; op = op->next)
			for (uint32_t i = 0; i < op->nres; i++)
				op->res[i].type = signless(l, op->res[i].type);
	}
}

void pass_llir(Module *m)
{
	for (Func *f = m->funcs; f; f = f->next) {
		if (f->is_extern)     /* host_call's declarations, appended as we go */
			continue;
		Lower l = { m, f, { m, NULL, NULL, { -1, 0, 0 } }, m->target->llir };
		ir_forward_begin(f);
		for (Block *b = f->first; b; b = b->next) {
			Op *next;
			for (Op *op = b->first; op; op = next) {
				next = op->next;
				if (opinfo[op->code].dialect != DIALECT_LLIR)
					lower_op(&l, op);
			}
		}
		ir_forward_end(f);
		make_signless(&l);
	}
	m->stage = DIALECT_LLIR;
}
