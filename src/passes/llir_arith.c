/* llir_arith.c: Rust's operators and casts on scalars in llir terms —
 * masked shifts, wrapping arithmetic, overflow flags without LLVM's
 * aggregate-returning intrinsics, ordered/unordered float compares, and
 * saturating float -> int casts:
 *
 *   mir.shl %a, %n            ==>  llir.shl %a, (llir.and %n', bits-1)    (masked)
 *   mir.float_to_int %x       ==>  llir.fptosi.sat / llir.fptoui.sat      (saturating, NaN -> 0)
 *   mir.ne %x, %y (floats)    ==>  llir.fcmp une                          (others ordered)
 */
#include "llir.h"

Value *lower_shift(Lower *l, Op *op)
{
	Value *a = op->opd[0], *n = op->opd[1];
	Type *t = a->type;
	n = int_resize(l, n, false, t);
	n = emit2(l, OP_LLIR_AND, t, n, iconst(l, t, t->bits - 1u, 0));
	Opcode code = op->code == OP_MIR_SHL ? OP_LLIR_SHL : t->is_signed ? OP_LLIR_ASHR : OP_LLIR_LSHR;
	return emit2(l, code, t, a, n);
}

Value *lower_arith(Lower *l, Op *op)
{
	Value *a = op->opd[0], *b = op->opd[1];
	Type *t = op->res[0].type;
	bool fl = a->type->kind == TY_FLOAT, s = a->type->is_signed;
	Opcode code;
	switch (op->code) {
	case OP_MIR_ADD: code = fl ? OP_LLIR_FADD : OP_LLIR_ADD; break;
	case OP_MIR_SUB: code = fl ? OP_LLIR_FSUB : OP_LLIR_SUB; break;
	case OP_MIR_MUL: code = fl ? OP_LLIR_FMUL : OP_LLIR_MUL; break;
	case OP_MIR_DIV: code = fl ? OP_LLIR_FDIV : s ? OP_LLIR_SDIV : OP_LLIR_UDIV; break;
	case OP_MIR_REM:
		if (fl)   /* fmod, which not every backend's frem is */
			return l->hooks->float_rem(l, a, b, t);
		code = s ? OP_LLIR_SREM : OP_LLIR_UREM;
		break;
	case OP_MIR_AND: code = OP_LLIR_AND; break;
	case OP_MIR_OR: code = OP_LLIR_OR; break;
	case OP_MIR_XOR: code = OP_LLIR_XOR; break;
	default: unreachable();
	}
	return emit2(l, code, t, a, b);
}

/* (a op b, overflowed) without LLVM's aggregate-returning intrinsics. */
void lower_overflow(Lower *l, Op *op, Value **res)
{
	Value *a = op->opd[0], *b = op->opd[1];
	Type *t = a->type;
	bool s = t->is_signed;
	Value *zero = iconst(l, t, 0, 0);
	if (op->code == OP_MIR_ADD_OVF || op->code == OP_MIR_SUB_OVF) {
		bool add = op->code == OP_MIR_ADD_OVF;
		Value *r = emit2(l, add ? OP_LLIR_ADD : OP_LLIR_SUB, t, a, b);
		Value *o;
		if (!s) {
			o = add ? icmp(l, PRED_ULT, r, a) : icmp(l, PRED_ULT, a, b);
		} else {       /* sign of the result differs from what the operands allow */
			Value *x = emit2(l, OP_LLIR_XOR, t, a, r);
			Value *y = emit2(l, OP_LLIR_XOR, t, add ? b : a, add ? r : b);
			o = icmp(l, PRED_SLT, emit2(l, OP_LLIR_AND, t, x, y), zero);
		}
		res[0] = r;
		res[1] = o;
		return;
	}
	if (t->bits == 128) {     /* no 256-bit type: overflowed iff a != 0 && r / a != b */
		Type *i1 = ir_type_bool(l->m);
		Value *r = emit2(l, OP_LLIR_MUL, t, a, b);
		Value *nz = icmp(l, PRED_NE, a, zero);
		Value *min_neg1 = iconst(l, i1, 0, 0);
		if (s) {   /* a == -1 && b == MIN overflows, and MIN / -1 is UB in LLVM */
			Value *m1 = icmp(l, PRED_EQ, a, iconst(l, t, UINT64_MAX, UINT64_MAX));
			Value *mn = icmp(l, PRED_EQ, b, iconst(l, t, 0, 1ull << 63));
			min_neg1 = emit2(l, OP_LLIR_AND, i1, m1, mn);
		}
		Value *ok_div = emit2(l, OP_LLIR_AND, i1, nz, emit2(l, OP_LLIR_XOR, i1, min_neg1, iconst(l, i1, 1, 0)));
		Value *sel[3] = { ok_div, a, iconst(l, t, 1, 0) };
		Value *q = emit2(l, s ? OP_LLIR_SDIV : OP_LLIR_UDIV, t, r, emit(l, OP_LLIR_SELECT, t, 3, sel));
		Value *o = emit2(l, OP_LLIR_AND, i1, ok_div, icmp(l, PRED_NE, q, b));
		res[0] = r;
		res[1] = emit2(l, OP_LLIR_OR, i1, o, min_neg1);
		return;
	}
	/* multiply in twice the width and check the result fits */
	Type *w = ir_type_int(l->m, t->bits * 2u, false);
	Value *wa = int_resize(l, a, s, w), *wb = int_resize(l, b, s, w);
	Value *wr = emit2(l, OP_LLIR_MUL, w, wa, wb);
	Value *r = emit1(l, OP_LLIR_TRUNC, t, wr);
	Value *back = int_resize(l, r, s, w);
	res[0] = r;
	res[1] = icmp(l, PRED_NE, back, wr);
}

Value *lower_compare(Lower *l, Op *op)
{
	static const Pred ipred[][2] = {   /* [op][signed] */
		{ PRED_EQ, PRED_EQ }, { PRED_NE, PRED_NE }, { PRED_ULT, PRED_SLT },
		{ PRED_ULE, PRED_SLE }, { PRED_UGT, PRED_SGT }, { PRED_UGE, PRED_SGE },
	};
	static const Pred fpred[] = { PRED_OEQ, PRED_UNE, PRED_OLT, PRED_OLE, PRED_OGT, PRED_OGE };
	int k = op->code - OP_MIR_EQ;
	Value *a = op->opd[0], *b = op->opd[1];
	if (a->type->kind == TY_FLOAT) {
		Value *r = emit2(l, OP_LLIR_FCMP, ir_type_bool(l->m), a, b);
		r->def->attr.cmp.pred = fpred[k];
		return r;
	}
	return icmp(l, ipred[k][a->type->is_signed], a, b);
}

/* Ordering as i8: -1, 0, 1. */
Value *lower_cmp3(Lower *l, Op *op)
{
	Value *a = op->opd[0], *b = op->opd[1];
	Type *t = op->res[0].type;
	bool fl = a->type->kind == TY_FLOAT, s = a->type->is_signed;
	Value *lt, *gt;
	if (fl) {
		lt = emit2(l, OP_LLIR_FCMP, ir_type_bool(l->m), a, b);
		lt->def->attr.cmp.pred = PRED_OLT;
		gt = emit2(l, OP_LLIR_FCMP, ir_type_bool(l->m), a, b);
		gt->def->attr.cmp.pred = PRED_OGT;
	} else {
		lt = icmp(l, s ? PRED_SLT : PRED_ULT, a, b);
		gt = icmp(l, s ? PRED_SGT : PRED_UGT, a, b);
	}
	Value *o1[3] = { gt, iconst(l, t, 1, 0), iconst(l, t, 0, 0) };
	Value *r = emit(l, OP_LLIR_SELECT, t, 3, o1);
	Value *o2[3] = { lt, iconst(l, t, UINT64_MAX, UINT64_MAX), r };
	return emit(l, OP_LLIR_SELECT, t, 3, o2);
}

Value *lower_unary(Lower *l, Op *op)
{
	Value *a = op->opd[0];
	Type *t = a->type;
	if (op->code == OP_MIR_NOT)
		return emit2(l, OP_LLIR_XOR, t, a, iconst(l, t, t->kind == TY_BOOL ? 1 : UINT64_MAX,
		                                           t->kind == TY_BOOL ? 0 : UINT64_MAX));
	if (t->kind == TY_FLOAT)
		return emit1(l, OP_LLIR_FNEG, t, a);
	return emit2(l, OP_LLIR_SUB, t, iconst(l, t, 0, 0), a);
}

Value *lower_cast(Lower *l, Op *op)
{
	Value *a = op->opd[0];
	Type *to = op->res[0].type;
	if (op->code == OP_MIR_INT_TO_FLOAT && a->type->bits == 128)
		return int128_to_float(l, a, to);
	if (op->code == OP_MIR_FLOAT_TO_INT && to->bits == 128)
		return float_to_int128(l, a, to);
	switch (op->code) {
	case OP_MIR_INT_CAST: {
		Value *r = int_resize(l, a, a->type->is_signed, to);
		/* u64 as i64: same bits, but later ops read the signedness from
		 * the value's type, so it needs a value of the new type. */
		return r == a && a->type != to ? emit1(l, OP_LLIR_BITCAST, to, a) : r;
	}
	case OP_MIR_INT_TO_FLOAT:
		return emit1(l, a->type->is_signed ? OP_LLIR_SITOFP : OP_LLIR_UITOFP, to, a);
	case OP_MIR_FLOAT_TO_INT:
		return emit1(l, to->is_signed ? OP_LLIR_FPTOSI_SAT : OP_LLIR_FPTOUI_SAT, to, a);
	case OP_MIR_FLOAT_CAST:
		if (a->type->bits == to->bits)
			return a;
		return emit1(l, a->type->bits < to->bits ? OP_LLIR_FPEXT : OP_LLIR_FPTRUNC, to, a);
	case OP_MIR_PTR_TO_INT:
		return emit1(l, OP_LLIR_PTRTOINT, to, a);
	case OP_MIR_INT_TO_PTR:
		return emit1(l, OP_LLIR_INTTOPTR, to, a);
	case OP_MIR_BITCAST:
		return emit1(l, OP_LLIR_BITCAST, to, a);
	default:
		unreachable();
	}
}
