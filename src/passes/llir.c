/* llir.c: stage 5 — mir and nvvm ops to the LLVM-shaped llir dialect.
 * Layouts are applied here: fields become byte offsets, enum
 * discriminants become tag loads and stores following rustc's encoding,
 * and Rust's operator semantics become explicit:
 *
 *   mir.shl %a, %n            ==>  llir.shl %a, (llir.and %n', bits-1)    (masked)
 *   mir.float_to_int %x       ==>  llir.fptosi.sat / llir.fptoui.sat      (saturating, NaN -> 0)
 *   mir.ne %x, %y (floats)    ==>  llir.fcmp une                          (others ordered)
 *   mir.load %p : bool        ==>  llir.trunc (llir.load i8)
 *
 * nvvm ops become NVVM intrinsics, or on the host target (m->target ==
 * TARGET_HOST) calls to the emulator's functions, declared once per module
 * as extern Funcs (no blocks; the emitter declares them, a host program
 * linking src/runtime/oxemu.c defines them):
 *
 *   nvvm.tid.x                ==>  llir.call @__oxide_host_tid_x() : i32   (every index register)
 *   nvvm.barrier0             ==>  llir.call @__oxide_host_barrier()
 *   nvvm.trap                 ==>  llir.call @__oxide_host_trap()         (never returns)
 *
 * Requires: nvvm stage (no mir.device, mir.assert, mir.panic left).
 * Produces: only llir ops; value types are signless.
 */
#include "passes.h"

#include <string.h>

typedef struct {
	Module *m;
	Func *f;
	Builder b;         /* inserts before the op being lowered */
} Lower;

/* ------------------------------------------------------------ helpers */

static Value *extern_call(Lower *l, const char *sym, Type *rt, uint32_t n, Value **args);

static Type *signless(Lower *l, Type *t)
{
	if (t->kind == TY_INT)
		return ir_type_int(l->m, t->bits, false);
	return t;
}

/* New values keep the mir types (with signedness) until make_signless at
 * the end of the function: later mir ops still read is_signed. */
static Value *emit(Lower *l, Opcode code, Type *t, uint32_t n, Value **opd)
{
	return ir_build1(&l->b, code, t, n, opd);
}

static Value *emit1(Lower *l, Opcode code, Type *t, Value *a)
{
	return emit(l, code, t, 1, &a);
}

static Value *emit2(Lower *l, Opcode code, Type *t, Value *a, Value *b)
{
	Value *opd[2] = { a, b };
	return emit(l, code, t, 2, opd);
}

static Value *iconst(Lower *l, Type *t, uint64_t lo, uint64_t hi)
{
	return ir_build_const(&l->b, OP_LLIR_CONST, t, lo, hi);
}

static Value *icmp(Lower *l, Pred p, Value *a, Value *b)
{
	Value *r = emit2(l, OP_LLIR_ICMP, ir_type_bool(l->m), a, b);
	r->def->attr.cmp.pred = p;
	return r;
}

static Value *gep_bytes(Lower *l, Value *p, uint64_t off)
{
	if (!off)
		return p;
	Value *r = emit2(l, OP_LLIR_GEP, p->type, p, iconst(l, ir_type_int(l->m, 64, false), off, 0));
	r->def->attr.gep.stride = 1;
	return r;
}

static unsigned type_bytes(Type *t)
{
	if (t->kind == TY_BOOL)
		return 1;
	return t->kind == TY_PTR ? 8 : t->bits / 8;
}

/* Alignment we may claim for a scalar access: its size up to 8.  Places
 * of Rust types are at least this aligned (packed types are rejected). */
static uint32_t natural_align(Type *t)
{
	unsigned n = type_bytes(t);
	return n > 8 ? 8 : n;
}

/* A mir.load / mir.store's alignment: the type's, or the place's when the
 * front end says it is smaller (a transmute between a scalar and a byte
 * array: `store i32 ..., align 4` into an `[4 x i8]` faults on the GPU). */
static uint32_t access_align(Type *t, uint32_t place_align)
{
	uint32_t a = natural_align(t);
	return place_align > 0 && place_align < a ? place_align : a;
}

static Value *load_aligned(Lower *l, Value *p, Type *t, uint32_t place_align)
{
	Type *mem = t->kind == TY_BOOL ? ir_type_int(l->m, 8, false) : t;
	Value *v = emit1(l, OP_LLIR_LOAD, mem, p);
	v->def->attr.access.align = access_align(mem, place_align);
	if (t->kind == TY_BOOL)
		v = emit1(l, OP_LLIR_TRUNC, t, v);
	return v;
}

static void store_aligned(Lower *l, Value *v, Value *p, uint32_t place_align)
{
	if (v->type->kind == TY_BOOL)
		v = emit1(l, OP_LLIR_ZEXT, ir_type_int(l->m, 8, false), v);
	Value *opd[2] = { v, p };
	Op *op = ir_build(&l->b, OP_LLIR_STORE, 0, NULL, 2, opd, 0);
	op->attr.access.align = access_align(v->type, place_align);
}

static Value *load(Lower *l, Value *p, Type *t)
{
	return load_aligned(l, p, t, 0);
}

static void store(Lower *l, Value *v, Value *p)
{
	store_aligned(l, v, p, 0);
}

/* Integer conversion between widths by the source's signedness. */
static Value *int_resize(Lower *l, Value *v, bool is_signed, Type *to)
{
	unsigned from = v->type->kind == TY_BOOL ? 1 : v->type->bits, tb = to->kind == TY_BOOL ? 1 : to->bits;
	if (from == tb)
		return v;
	if (from > tb)
		return emit1(l, OP_LLIR_TRUNC, to, v);
	return emit1(l, is_signed && v->type->kind != TY_BOOL ? OP_LLIR_SEXT : OP_LLIR_ZEXT, to, v);
}

/* -------------------------------------------------------- enum layout */

static Value *tag_as_int(Lower *l, Value *tag)
{
	if (tag->type->kind == TY_PTR)
		return emit1(l, OP_LLIR_PTRTOINT, ir_type_int(l->m, 64, false), tag);
	return tag;
}

/* Variant index -> discriminant value, as a chain of selects unless every
 * variant's discriminant equals its index (the common case). */
static Value *index_to_discr(Lower *l, RType *t, Value *idx, Type *rt)
{
	bool identity = true;
	for (uint32_t i = 0; i < t->nvariant; i++)
		identity &= t->variants[i].discr.lo == i && t->variants[i].discr.hi == 0;
	if (identity)
		return int_resize(l, idx, false, rt);
	Value *r = iconst(l, rt, t->variants[0].discr.lo, t->variants[0].discr.hi);
	for (uint32_t i = 1; i < t->nvariant; i++) {
		Value *is = icmp(l, PRED_EQ, idx, iconst(l, idx->type, i, 0));
		Value *d = iconst(l, rt, t->variants[i].discr.lo, t->variants[i].discr.hi);
		Value *opd[3] = { is, d, r };
		r = emit(l, OP_LLIR_SELECT, rt, 3, opd);
	}
	return r;
}

static Value *lower_discr(Lower *l, Op *op)
{
	RType *t = op->rty;
	Type *rt = op->res[0].type;
	if (!t->has_variants) {
		bool e = t->kind == RT_ADT && t->adt_kind == ADT_ENUM && t->single_variant < t->nvariant;
		U128 d = e ? t->variants[t->single_variant].discr : (U128){ 0, 0 };
		return iconst(l, rt, d.lo, d.hi);
	}
	Value *tag = tag_as_int(l, load(l, gep_bytes(l, op->opd[0], t->tag_offset), t->tag.type));
	if (!t->niche)   /* direct: the tag is the discriminant, in the tag's signedness */
		return int_resize(l, tag, t->tag.type->is_signed, rt);
	Type *tt = tag->type;
	Value *rel = emit2(l, OP_LLIR_SUB, tt, tag, iconst(l, tt, t->niche_start.lo, t->niche_start.hi));
	uint64_t span = t->niche_last - t->niche_first;
	Value *in = icmp(l, PRED_ULE, rel, iconst(l, tt, span, 0));
	Value *idx = emit2(l, OP_LLIR_ADD, tt, rel, iconst(l, tt, t->niche_first, 0));
	Value *opd[3] = { in, idx, iconst(l, tt, t->untagged_variant, 0) };
	idx = emit(l, OP_LLIR_SELECT, tt, 3, opd);
	return index_to_discr(l, t, idx, rt);
}

static void lower_set_discr(Lower *l, Op *op)
{
	RType *t = op->rty;
	uint32_t v = op->attr.variant.index;
	if (!t->has_variants || (t->niche && v == t->untagged_variant))
		return;
	Type *tt = t->tag.type->kind == TY_PTR ? ir_type_int(l->m, 64, false) : t->tag.type;
	Value *val;
	if (t->niche) {
		uint128 x = ((uint128)t->niche_start.hi << 64 | t->niche_start.lo) + (v - t->niche_first);
		val = iconst(l, tt, (uint64_t)x, (uint64_t)(x >> 64));
	} else {
		val = iconst(l, tt, t->variants[v].discr.lo, t->variants[v].discr.hi);
	}
	if (t->tag.type->kind == TY_PTR)
		val = emit1(l, OP_LLIR_INTTOPTR, t->tag.type, val);
	store(l, val, gep_bytes(l, op->opd[0], t->tag_offset));
}

/* -------------------------------------------------------- arithmetic */

static Value *lower_shift(Lower *l, Op *op)
{
	Value *a = op->opd[0], *n = op->opd[1];
	Type *t = a->type;
	n = int_resize(l, n, false, t);
	n = emit2(l, OP_LLIR_AND, t, n, iconst(l, t, t->bits - 1u, 0));
	Opcode code = op->code == OP_MIR_SHL ? OP_LLIR_SHL : t->is_signed ? OP_LLIR_ASHR : OP_LLIR_LSHR;
	return emit2(l, code, t, a, n);
}

static Value *lower_arith(Lower *l, Op *op)
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
		/* NVPTX expands frem as x - trunc(x/y)*y, which is not fmod: use
		 * libdevice's exact one.  x86 lowers frem to fmod itself. */
		if (fl && l->m->target != TARGET_HOST) {
			Value *args[2] = { a, b };
			return extern_call(l, a->type->bits == 32 ? "__nv_fmodf" : "__nv_fmod", t, 2, args);
		}
		code = fl ? OP_LLIR_FREM : s ? OP_LLIR_SREM : OP_LLIR_UREM;
		break;
	case OP_MIR_AND: code = OP_LLIR_AND; break;
	case OP_MIR_OR: code = OP_LLIR_OR; break;
	case OP_MIR_XOR: code = OP_LLIR_XOR; break;
	default: unreachable();
	}
	return emit2(l, code, t, a, b);
}

/* (a op b, overflowed) without LLVM's aggregate-returning intrinsics. */
static void lower_overflow(Lower *l, Op *op, Value **res)
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

static Value *lower_compare(Lower *l, Op *op)
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
static Value *lower_cmp3(Lower *l, Op *op)
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

static Value *lower_unary(Lower *l, Op *op)
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

static Value *llvm_intrinsic(Lower *l, const char *name, Overload ovl, Type *rt, uint32_t n, Value **opd)
{
	Type *t = rt;
	Op *op = ir_build(&l->b, OP_LLIR_INTRINSIC, t ? 1 : 0, &t, n, opd, 0);
	op->sym = name;
	op->attr.intrinsic.overload = ovl;
	return t ? &op->res[0] : NULL;
}

/* ---- 128-bit integer <-> float conversions and the integer square
 * root, from 64-bit operations: NVPTX has no i128 conversions (LLVM would
 * need compiler-rt's __floattidf and friends), and core keeps isqrt's
 * stages out of line. The host target uses the same code, so that host
 * emulation checks it against rustc's CPU results. */

static Value *select3(Lower *l, Value *c, Value *a, Value *b)
{
	Value *o[3] = { c, a, b };
	return emit(l, OP_LLIR_SELECT, a->type, 3, o);
}

/* 2^e as a float of type t (e within t's normal range) */
static Value *fpow2(Lower *l, Type *t, int e)
{
	int mant = t->bits == 32 ? 23 : 52, bias = t->bits == 32 ? 127 : 1023;
	return iconst(l, t, (uint64_t)(bias + e) << mant, 0);
}

static Value *fcmp(Lower *l, Pred p, Value *a, Value *b)
{
	Value *r = emit2(l, OP_LLIR_FCMP, ir_type_bool(l->m), a, b);
	r->def->attr.cmp.pred = p;
	return r;
}

static Value *u128_halves(Lower *l, Value *x, Value **lo)
{
	Type *u64 = ir_type_int(l->m, 64, false);
	*lo = emit1(l, OP_LLIR_TRUNC, u64, x);
	return emit1(l, OP_LLIR_TRUNC, u64, emit2(l, OP_LLIR_LSHR, x->type, x, iconst(l, x->type, 64, 0)));
}

/* u128 -> f32/f64, rounded to nearest: normalise so that the top bit is
 * set, convert the high 64 bits with a sticky bit for everything below
 * (one rounding), scale by a power of two (exact, or inf past the top). */
static Value *u128_to_float(Lower *l, Value *x, Type *to)
{
	Type *u64 = ir_type_int(l->m, 64, false), *u128 = x->type;
	Value *lo, *hi = u128_halves(l, x, &lo);
	Value *args[2] = { hi, iconst(l, ir_type_bool(l->m), 0, 0) };
	Value *n = llvm_intrinsic(l, "llvm.ctlz", OVL_OPD0, u64, 2, args);   /* 64 when hi == 0 */
	Value *n63 = emit2(l, OP_LLIR_AND, u64, n, iconst(l, u64, 63, 0));
	Value *y = emit2(l, OP_LLIR_SHL, u128, x, emit1(l, OP_LLIR_ZEXT, u128, n63));
	Value *ylo, *yhi = u128_halves(l, y, &ylo);
	Value *sticky = emit1(l, OP_LLIR_ZEXT, u64, icmp(l, PRED_NE, ylo, iconst(l, u64, 0, 0)));
	Value *big = emit1(l, OP_LLIR_UITOFP, to, emit2(l, OP_LLIR_OR, u64, yhi, sticky));
	/* scale 2^(64 - n): built from the exponent bits */
	int mant = to->bits == 32 ? 23 : 52, bias = to->bits == 32 ? 127 : 1023;
	Type *ut = ir_type_int(l->m, to->bits, false);
	Value *e = emit2(l, OP_LLIR_SUB, u64, iconst(l, u64, (uint64_t)bias + 64, 0), n63);
	Value *scale = emit1(l, OP_LLIR_BITCAST, to,
	                     emit2(l, OP_LLIR_SHL, ut, int_resize(l, e, false, ut), iconst(l, ut, (uint64_t)mant, 0)));
	big = emit2(l, OP_LLIR_FMUL, to, big, scale);
	Value *small = emit1(l, OP_LLIR_UITOFP, to, lo);
	return select3(l, icmp(l, PRED_EQ, hi, iconst(l, u64, 0, 0)), small, big);
}

static Value *int128_to_float(Lower *l, Value *x, Type *to)
{
	if (!x->type->is_signed)
		return u128_to_float(l, x, to);
	Type *u128 = ir_type_int(l->m, 128, false);
	Value *neg = icmp(l, PRED_SLT, x, iconst(l, x->type, 0, 0));
	Value *abs = select3(l, neg, emit2(l, OP_LLIR_SUB, x->type, iconst(l, x->type, 0, 0), x), x);
	Value *v = u128_to_float(l, emit1(l, OP_LLIR_BITCAST, u128, abs), to);
	return select3(l, neg, emit1(l, OP_LLIR_FNEG, to, v), v);
}

/* f64 a in [0, 2^128) (or NaN/negative: 0) -> u128, truncating */
static Value *f64_to_u128(Lower *l, Value *a, Type *u128)
{
	Type *u64 = ir_type_int(l->m, 64, false), *f64 = a->type;
	Value *hi = emit1(l, OP_LLIR_FPTOUI_SAT, u64, emit2(l, OP_LLIR_FMUL, f64, a, fpow2(l, f64, -64)));
	/* a - hi * 2^64 is a multiple of a's ulp below 2^64: exact */
	Value *rest = emit2(l, OP_LLIR_FSUB, f64, a,
	                    emit2(l, OP_LLIR_FMUL, f64, emit1(l, OP_LLIR_UITOFP, f64, hi), fpow2(l, f64, 64)));
	Value *lo = emit1(l, OP_LLIR_FPTOUI_SAT, u64, rest);
	Value *wide = emit2(l, OP_LLIR_OR, u128, emit2(l, OP_LLIR_SHL, u128, emit1(l, OP_LLIR_ZEXT, u128, hi), iconst(l, u128, 64, 0)),
	                    emit1(l, OP_LLIR_ZEXT, u128, lo));
	/* below 2^64 one conversion is exact */
	Value *narrow = emit1(l, OP_LLIR_ZEXT, u128, emit1(l, OP_LLIR_FPTOUI_SAT, u64, a));
	return select3(l, fcmp(l, PRED_OLT, a, fpow2(l, f64, 64)), narrow, wide);
}

/* f32/f64 -> u128/i128 as Rust's `as`: truncating, saturating, NaN -> 0 */
static Value *float_to_int128(Lower *l, Value *x, Type *to)
{
	Type *f64 = ir_type_float(l->m, 64), *u128 = ir_type_int(l->m, 128, false);
	Value *a = x->type->bits == 64 ? x : emit1(l, OP_LLIR_FPEXT, f64, x);
	if (!to->is_signed) {
		Value *r = f64_to_u128(l, a, u128);
		r = select3(l, fcmp(l, PRED_OGE, a, fpow2(l, f64, 0)), r, iconst(l, u128, 0, 0));   /* NaN, < 1 */
		r = select3(l, fcmp(l, PRED_OGE, a, fpow2(l, f64, 128)), iconst(l, u128, UINT64_MAX, UINT64_MAX), r);
		return emit1(l, OP_LLIR_BITCAST, to, r);
	}
	Value *neg = fcmp(l, PRED_OLT, a, iconst(l, f64, 0, 0));
	Value *m = f64_to_u128(l, emit1(l, OP_LLIR_FNEG, f64, a), u128);
	Value *p = f64_to_u128(l, a, u128);
	Value *r = select3(l, neg, emit2(l, OP_LLIR_SUB, u128, iconst(l, u128, 0, 0), m), p);
	r = select3(l, fcmp(l, PRED_UNO, a, a), iconst(l, u128, 0, 0), r);
	r = select3(l, fcmp(l, PRED_OGE, a, fpow2(l, f64, 127)), iconst(l, u128, UINT64_MAX, UINT64_MAX >> 1), r);
	r = select3(l, fcmp(l, PRED_OLE, a, emit1(l, OP_LLIR_FNEG, f64, fpow2(l, f64, 127))), iconst(l, u128, 0, 1ull << 63), r);
	return emit1(l, OP_LLIR_BITCAST, to, r);
}

/* floor(sqrt(n)) for unsigned n: an f64 estimate, exact below 2^52;
 * corrected by one step for u64, by a Newton step and one correction
 * for u128 (the estimate is within a relative 2^-51 of sqrt(n), so one
 * Newton step lands on floor(sqrt(n)) or one above). */
static Value *lower_isqrt(Lower *l, Value *n)
{
	Type *t = n->type, *f64 = ir_type_float(l->m, 64), *u64 = ir_type_int(l->m, 64, false);
	if (t->bits <= 32) {
		Value *f = emit1(l, OP_LLIR_UITOFP, f64, n);
		Value *s = llvm_intrinsic(l, "llvm.sqrt", OVL_RES, f64, 1, &f);
		return emit1(l, OP_LLIR_FPTOUI_SAT, t, s);
	}
	if (t->bits == 64) {
		Value *f = emit1(l, OP_LLIR_UITOFP, f64, n);
		Value *s = llvm_intrinsic(l, "llvm.sqrt", OVL_RES, f64, 1, &f);
		Value *r = emit1(l, OP_LLIR_FPTOUI_SAT, t, s);
		Value *max = iconst(l, t, 0xffffffffu, 0);
		r = select3(l, icmp(l, PRED_UGT, r, max), max, r);
		Value *one = iconst(l, t, 1, 0);
		r = select3(l, icmp(l, PRED_UGT, emit2(l, OP_LLIR_MUL, t, r, r), n), emit2(l, OP_LLIR_SUB, t, r, one), r);
		Value *r1 = emit2(l, OP_LLIR_ADD, t, r, one);
		Value *up = emit2(l, OP_LLIR_AND, ir_type_bool(l->m), icmp(l, PRED_ULT, r, max),
		                  icmp(l, PRED_ULE, emit2(l, OP_LLIR_MUL, t, r1, r1), n));
		return select3(l, up, r1, r);
	}
	Value *lo, *hi = u128_halves(l, n, &lo);
	Value *f = emit2(l, OP_LLIR_FADD, f64, emit2(l, OP_LLIR_FMUL, f64, emit1(l, OP_LLIR_UITOFP, f64, hi), fpow2(l, f64, 64)),
	                 emit1(l, OP_LLIR_UITOFP, f64, lo));
	Value *s = llvm_intrinsic(l, "llvm.sqrt", OVL_RES, f64, 1, &f);
	Value *r0 = emit1(l, OP_LLIR_FPTOUI_SAT, u64, s);
	r0 = select3(l, icmp(l, PRED_EQ, r0, iconst(l, u64, 0, 0)), iconst(l, u64, 1, 0), r0);
	Value *r = emit1(l, OP_LLIR_ZEXT, t, r0);
	r = emit2(l, OP_LLIR_LSHR, t, emit2(l, OP_LLIR_ADD, t, r, emit2(l, OP_LLIR_UDIV, t, n, r)), iconst(l, t, 1, 0));
	Value *max = iconst(l, t, UINT64_MAX, 0);
	r = select3(l, icmp(l, PRED_UGT, r, max), max, r);
	return select3(l, icmp(l, PRED_UGT, emit2(l, OP_LLIR_MUL, t, r, r), n), emit2(l, OP_LLIR_SUB, t, r, iconst(l, t, 1, 0)), r);
}

static Value *lower_cast(Lower *l, Op *op)
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

/* -------------------------------------------------------- intrinsics */


/* Bit counting returns T in LLVM and u32 in Rust. */
static Value *bit_count(Lower *l, Op *op, const char *name, bool zero_poison)
{
	Value *x = op->opd[0];
	Value *args[2] = { x, iconst(l, ir_type_bool(l->m), zero_poison, 0) };
	uint32_t n = strcmp(name, "llvm.ctpop") ? 2 : 1;
	Value *r = llvm_intrinsic(l, name, OVL_OPD0, x->type, n, args);
	return int_resize(l, r, false, op->res[0].type);
}

typedef enum {
	IK_ID, IK_NOP, IK_ASSUME, IK_TRAP, IK_CTPOP, IK_CTLZ, IK_CTTZ, IK_SAME, IK_SAT_ADD, IK_SAT_SUB,
	IK_ROTL, IK_ROTR, IK_ADD, IK_SUB, IK_MUL, IK_DIV, IK_REM, IK_SHL, IK_SHR, IK_OR, IK_CMP3,
	IK_OFFSET_FROM, IK_VLOAD, IK_VSTORE, IK_MEMCPY, IK_MEMMOVE, IK_MEMSET, IK_SIZE_OF, IK_ALIGN_OF,
	IK_FTOI, IK_FALSE, IK_ARITH_OFFSET, IK_SWAP, IK_ISQRT, IK_COMPARE_BYTES, IK_SWAP_BYTES,
	IK_SIZE_OF_VAL,
} IntrinsicKind;

/* core::intrinsics that oxidec lowers; float intrinsics are named without
 * their f16/f32/f64 suffix (rustc 1.95 spells fabsf32, 1.96 fabs::<f32>). */
static const struct {
	const char *name;
	IntrinsicKind kind;
	const char *llvm;     /* IK_SAME: the LLVM intrinsic, same type in and out */
} intrinsics[] = {
	{ "likely", IK_ID, 0 }, { "unlikely", IK_ID, 0 }, { "black_box", IK_ID, 0 },
	{ "cold_path", IK_NOP, 0 }, { "assert_inhabited", IK_NOP, 0 }, { "assert_zero_valid", IK_NOP, 0 },
	{ "assert_mem_uninitialized_valid", IK_NOP, 0 }, { "unreachable", IK_NOP, 0 },
	{ "assume", IK_ASSUME, 0 }, { "abort", IK_TRAP, 0 },
	{ "ctpop", IK_CTPOP, 0 }, { "ctlz", IK_CTLZ, 0 }, { "ctlz_nonzero", IK_CTLZ, 0 },
	{ "cttz", IK_CTTZ, 0 }, { "cttz_nonzero", IK_CTTZ, 0 },
	{ "bswap", IK_SAME, "llvm.bswap" }, { "bitreverse", IK_SAME, "llvm.bitreverse" },
	{ "fabs", IK_SAME, "llvm.fabs" }, { "sqrt", IK_SAME, "llvm.sqrt" }, { "floor", IK_SAME, "llvm.floor" },
	{ "ceil", IK_SAME, "llvm.ceil" }, { "trunc", IK_SAME, "llvm.trunc" }, { "round", IK_SAME, "llvm.round" },
	{ "rint", IK_SAME, "llvm.roundeven" }, { "round_ties_even", IK_SAME, "llvm.roundeven" },
	{ "nearbyint", IK_SAME, "llvm.nearbyint" },
	{ "copysign", IK_SAME, "llvm.copysign" }, { "minnum", IK_SAME, "llvm.minnum" },
	{ "maxnum", IK_SAME, "llvm.maxnum" }, { "minimum_number_nsz", IK_SAME, "llvm.minnum" },
	{ "maximum_number_nsz", IK_SAME, "llvm.maxnum" }, { "minimum", IK_SAME, "llvm.minimum" },
	{ "maximum", IK_SAME, "llvm.maximum" }, { "fma", IK_SAME, "llvm.fma" },
	{ "fmuladd", IK_SAME, "llvm.fmuladd" },
	{ "saturating_add", IK_SAT_ADD, 0 }, { "saturating_sub", IK_SAT_SUB, 0 },
	{ "rotate_left", IK_ROTL, 0 }, { "rotate_right", IK_ROTR, 0 },
	{ "unchecked_add", IK_ADD, 0 }, { "wrapping_add", IK_ADD, 0 },
	{ "unchecked_sub", IK_SUB, 0 }, { "wrapping_sub", IK_SUB, 0 },
	{ "unchecked_mul", IK_MUL, 0 }, { "wrapping_mul", IK_MUL, 0 },
	{ "unchecked_div", IK_DIV, 0 }, { "exact_div", IK_DIV, 0 }, { "unchecked_rem", IK_REM, 0 },
	{ "unchecked_shl", IK_SHL, 0 }, { "unchecked_shr", IK_SHR, 0 }, { "disjoint_bitor", IK_OR, 0 },
	{ "three_way_compare", IK_CMP3, 0 },
	{ "ptr_offset_from", IK_OFFSET_FROM, 0 }, { "ptr_offset_from_unsigned", IK_OFFSET_FROM, 0 },
	{ "volatile_load", IK_VLOAD, 0 }, { "unaligned_volatile_load", IK_VLOAD, 0 },
	{ "volatile_store", IK_VSTORE, 0 }, { "unaligned_volatile_store", IK_VSTORE, 0 },
	{ "copy_nonoverlapping", IK_MEMCPY, 0 }, { "copy", IK_MEMMOVE, 0 }, { "write_bytes", IK_MEMSET, 0 },
	{ "size_of", IK_SIZE_OF, 0 }, { "min_align_of", IK_ALIGN_OF, 0 }, { "align_of", IK_ALIGN_OF, 0 },
	{ "float_to_int_unchecked", IK_FTOI, 0 },
	{ "is_val_statically_known", IK_FALSE, 0 },
	{ "isqrt", IK_ISQRT, 0 },   /* core::num::int_sqrt::uN_stages (mir-export) */
	{ "compare_bytes", IK_COMPARE_BYTES, 0 },
	{ "size_of_val", IK_SIZE_OF_VAL, 0 }, { "min_align_of_val", IK_ALIGN_OF, 0 }, { "align_of_val", IK_ALIGN_OF, 0 },
	{ "swap_nonoverlapping_bytes", IK_SWAP_BYTES, 0 },   /* core::ptr's (mir-export) */
	{ "arith_offset", IK_ARITH_OFFSET, 0 }, { "typed_swap_nonoverlapping", IK_SWAP, 0 },   /* "not known" is always a valid answer */
};

static int find_intrinsic(const char *name)
{
	char base[64];
	size_t n = strlen(name);
	if (n >= sizeof base)
		return -1;
	memcpy(base, name, n + 1);
	static const char *sfx[] = { "f16", "f32", "f64", "f128" };
	for (size_t i = 0; i < countof(sfx); i++) {
		size_t k = strlen(sfx[i]);
		if (n > k && !strcmp(base + n - k, sfx[i])) {
			base[n - k] = 0;
			if (base[n - k - 1] == '_')
				base[n - k - 1] = 0;
			break;
		}
	}
	for (size_t i = 0; i < countof(intrinsics); i++)
		if (!strcmp(intrinsics[i].name, base))
			return (int)i;
	return -1;
}

/* ---- atomics: core::intrinsics::atomic_* (and the core::sync::atomic
 * functions mir-export maps to them) and oxide-device's scoped atomics.
 * The frontend puts the orderings and scope on the mir.intrinsic
 * (attr.atomic). */
typedef enum { AK_LOAD, AK_STORE, AK_RMW, AK_CXCHG, AK_FENCE, AK_SINGLE_FENCE } AtomicKind;

static const struct {
	const char *name;
	AtomicKind kind;
	AtomicRmw rmw;
} atomic_intrinsics[] = {
	{ "atomic_load", AK_LOAD, 0 }, { "atomic_store", AK_STORE, 0 },
	{ "atomic_xchg", AK_RMW, RMW_XCHG }, { "atomic_xadd", AK_RMW, RMW_ADD },
	{ "atomic_xsub", AK_RMW, RMW_SUB }, { "atomic_and", AK_RMW, RMW_AND },
	{ "atomic_nand", AK_RMW, RMW_NAND }, { "atomic_or", AK_RMW, RMW_OR },
	{ "atomic_xor", AK_RMW, RMW_XOR }, { "atomic_max", AK_RMW, RMW_MAX },
	{ "atomic_min", AK_RMW, RMW_MIN }, { "atomic_umax", AK_RMW, RMW_UMAX },
	{ "atomic_umin", AK_RMW, RMW_UMIN }, { "atomic_fadd", AK_RMW, RMW_FADD },
	{ "atomic_cxchg", AK_CXCHG, 0 }, { "atomic_cxchgweak", AK_CXCHG, 0 },
	{ "atomic_fence", AK_FENCE, 0 }, { "atomic_singlethreadfence", AK_SINGLE_FENCE, 0 },
};

static int find_atomic(const char *name)
{
	for (size_t i = 0; i < countof(atomic_intrinsics); i++)
		if (!strcmp(atomic_intrinsics[i].name, name))
			return (int)i;
	return -1;
}

bool llir_intrinsic_is_atomic(const char *name)
{
	return find_atomic(name) >= 0;
}

bool llir_intrinsic_supported(const char *name)
{
	return find_intrinsic(name) >= 0 || find_atomic(name) >= 0;
}

/* Intrinsics lowered to no value (hints, assume, abort): their MIR
 * destination must be zero-sized, or a use of it would see nothing. */
bool llir_intrinsic_returns_unit(const char *name)
{
	int k = find_intrinsic(name);
	return k >= 0 && (intrinsics[k].kind == IK_NOP || intrinsics[k].kind == IK_ASSUME ||
	                  intrinsics[k].kind == IK_TRAP);
}

/* LLVM syncscope of an AtomicScope on this target. Rust's own atomics
 * (ATOMIC_SCOPE_DEFAULT) are device-wide, like CUDA's atomicAdd; the
 * host target has only the system scope. */
static const char *atomic_scope_name(Lower *l, AtomicScope scope)
{
	if (l->m->target == TARGET_HOST)
		return NULL;
	switch (scope) {
	case ATOMIC_SCOPE_BLOCK: return "block";
	case ATOMIC_SCOPE_SYSTEM: return NULL;
	default: return "device";
	}
}

/* Returns the replacement of op's single result, NULL when it has none;
 * a compare-exchange's two results are replaced here. */
static Value *lower_atomic(Lower *l, Op *op)
{
	int i = find_atomic(op->sym);
	AtomicKind k = atomic_intrinsics[i].kind;
	AtomicOrd ord = op->attr.atomic.order;
	const char *scope = atomic_scope_name(l, op->attr.atomic.scope);
	Type *rt = op->nres ? op->res[0].type : NULL;
	Value *r = NULL;
	switch (k) {
	case AK_LOAD:
		r = emit1(l, OP_LLIR_ATOMIC_LOAD, rt, op->opd[0]);
		r->def->attr.atomic.align = natural_align(rt);
		r->def->attr.atomic.order = ord;
		r->def->sym = scope;
		return r;
	case AK_STORE: {
		Value *opd[2] = { op->opd[1], op->opd[0] };
		Op *st = ir_build(&l->b, OP_LLIR_ATOMIC_STORE, 0, NULL, 2, opd, 0);
		st->attr.atomic.align = natural_align(op->opd[1]->type);
		st->attr.atomic.order = ord;
		st->sym = scope;
		return NULL;
	}
	case AK_RMW: {
		Value *v = op->opd[1];
		/* LLVM 22's NVPTX backend emits every atomicrmw as a relaxed
		 * `atom` whatever its ordering (cmpxchg, loads and stores keep
		 * theirs): give it fences instead, the PTX memory model's mapping
		 * (fence.sc / fence.acq_rel around a relaxed atom). */
		bool fenced = l->m->target != TARGET_HOST && ord != AO_RELAXED;
		if (fenced && ord != AO_ACQUIRE) {
			Op *f = ir_build(&l->b, OP_LLIR_FENCE, 0, NULL, 0, NULL, 0);
			f->attr.atomic.order = ord == AO_SEQ_CST ? AO_SEQ_CST : AO_RELEASE;
			f->sym = scope;
		}
		r = emit2(l, OP_LLIR_ATOMICRMW, rt ? rt : v->type, op->opd[0], v);
		r->def->attr.atomic.rmw = atomic_intrinsics[i].rmw;
		r->def->attr.atomic.order = fenced ? AO_RELAXED : ord;
		r->def->sym = scope;
		if (fenced && ord != AO_RELEASE) {
			Op *f = ir_build(&l->b, OP_LLIR_FENCE, 0, NULL, 0, NULL, 0);
			f->attr.atomic.order = AO_ACQUIRE;
			f->sym = scope;
		}
		return op->nres ? r : NULL;
	}
	case AK_CXCHG: {
		Type *ts[2] = { op->res[0].type, ir_type_bool(l->m) };
		Op *x = ir_build(&l->b, OP_LLIR_CMPXCHG, 2, ts, 3, op->opd, 0);
		x->attr.atomic.order = ord;
		x->attr.atomic.fail_order = op->attr.atomic.fail_order;
		x->attr.atomic.weak = strstr(op->sym, "weak") != NULL;
		x->sym = scope;
		ir_replace_all_uses(l->f, &op->res[0], &x->res[0]);
		ir_replace_all_uses(l->f, &op->res[1], &x->res[1]);
		return NULL;
	}
	case AK_FENCE: case AK_SINGLE_FENCE: {
		Op *f = ir_build(&l->b, OP_LLIR_FENCE, 0, NULL, 0, NULL, 0);
		f->attr.atomic.order = ord;
		f->sym = k == AK_SINGLE_FENCE ? "singlethread" : scope;
		return NULL;
	}
	}
	unreachable();
}

static Value *int_op(Lower *l, Op *op, IntrinsicKind k)
{
	Value *a = op->opd[0], *b = op->opd[1];
	Type *t = a->type;
	bool s = t->is_signed;
	Opcode code;
	switch (k) {
	case IK_ADD: code = OP_LLIR_ADD; break;
	case IK_SUB: code = OP_LLIR_SUB; break;
	case IK_MUL: code = OP_LLIR_MUL; break;
	case IK_DIV: code = s ? OP_LLIR_SDIV : OP_LLIR_UDIV; break;
	case IK_REM: code = s ? OP_LLIR_SREM : OP_LLIR_UREM; break;
	case IK_OR: code = OP_LLIR_OR; break;
	case IK_SHL: code = OP_LLIR_SHL; b = int_resize(l, b, false, t); break;
	case IK_SHR: code = s ? OP_LLIR_ASHR : OP_LLIR_LSHR; b = int_resize(l, b, false, t); break;
	default: unreachable();
	}
	return emit2(l, code, t, a, b);
}

/* copy_nonoverlapping / copy (src, dst, count), write_bytes (dst, byte, count) */
static void mem_intrinsic(Lower *l, Op *op, IntrinsicKind k)
{
	Type *i64 = ir_type_int(l->m, 64, false);
	uint64_t size = op->rty ? op->rty->size : 1;
	Value *len = emit2(l, OP_LLIR_MUL, i64, op->opd[2], iconst(l, i64, size, 0));
	Value *vol = iconst(l, ir_type_bool(l->m), 0, 0);
	if (k == IK_MEMSET) {
		Value *args[4] = { op->opd[0], op->opd[1], len, vol };
		Op *c = ir_build(&l->b, OP_LLIR_INTRINSIC, 0, NULL, 4, args, 0);
		c->sym = "llvm.memset";
		c->attr.intrinsic.overload = OVL_OPD02;
		return;
	}
	Value *args[4] = { op->opd[1], op->opd[0], len, vol };
	Op *c = ir_build(&l->b, OP_LLIR_INTRINSIC, 0, NULL, 4, args, 0);
	c->sym = k == IK_MEMCPY ? "llvm.memcpy" : "llvm.memmove";
	c->attr.intrinsic.overload = OVL_OPD012;
}

/* ------------------------------------------------- host-target calls */

/* llir.call of a function outside the module (an emulator function, or a
 * libdevice __nv_* function that emit links in), declared as an extern
 * Func the first time it is needed; rt NULL: returns nothing. */
static Value *extern_call(Lower *l, const char *sym, Type *rt, uint32_t n, Value **args)
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

static Value *host_call(Lower *l, const char *sym, Type *rt)
{
	return extern_call(l, sym, rt, 0, NULL);
}

static const char *host_name(Opcode code)
{
	static const char *names[] = {
		"__oxide_host_tid_x", "__oxide_host_tid_y", "__oxide_host_tid_z",
		"__oxide_host_ntid_x", "__oxide_host_ntid_y", "__oxide_host_ntid_z",
		"__oxide_host_ctaid_x", "__oxide_host_ctaid_y", "__oxide_host_ctaid_z",
		"__oxide_host_nctaid_x", "__oxide_host_nctaid_y", "__oxide_host_nctaid_z",
		"__oxide_host_barrier", "__oxide_host_trap",
	};
	if (code < OP_NVVM_TID_X || code > OP_NVVM_TRAP)
		die("%s has no host-target lowering", opinfo[code].name);
	return names[code - OP_NVVM_TID_X];
}

/* nvvm.trap and core::intrinsics::abort */
static void build_trap(Lower *l)
{
	if (l->m->target == TARGET_HOST)
		host_call(l, host_name(OP_NVVM_TRAP), NULL);
	else
		llvm_intrinsic(l, "llvm.trap", OVL_NONE, NULL, 0, NULL);
}

/* ---- byte loops: compare_bytes (`==` on &str and [u8]) and
 * swap_nonoverlapping_bytes (slice rotate/swap) are loops, which this
 * op-at-a-time lowering cannot build in place: they call a function of
 * the module made here once, in LLIR:
 *   __oxide_compare_bytes(a, b, n) -> i32   the first byte difference
 *                                           a[i] - b[i] (memcmp's sign), or 0
 *   __oxide_swap_bytes(a, b, n)             swaps n bytes */
static Func *byte_loop_func(Lower *l, bool compare)
{
	const char *sym = compare ? "__oxide_compare_bytes" : "__oxide_swap_bytes";
	Func *f = ir_func_find(l->m, sym);
	if (f)
		return f;
	Module *m = l->m;
	Type *ptr = ir_type_ptr(m, 0), *i64 = ir_type_int(m, 64, false), *i8 = ir_type_int(m, 8, false);
	Type *i32 = ir_type_int(m, 32, false), *bool_t = ir_type_bool(m);
	f = ir_func_new(m, sym, sym);
	f->loc = l->f->loc;
	f->ret = compare ? i32 : ir_type_void(m);
	f->nparam = 3;
	f->params = arena_new_array(m->arena, Param, 3);
	Type *pts[3] = { ptr, ptr, i64 };
	Block *entry = ir_block_new(f), *head = ir_block_new(f), *body = ir_block_new(f);
	Block *next = compare ? ir_block_new(f) : NULL, *diff = compare ? ir_block_new(f) : NULL, *done = ir_block_new(f);
	Value *p[3];
	for (int i = 0; i < 3; i++) {
		f->params[i].type = pts[i];
		p[i] = ir_block_add_arg(entry, pts[i]);
	}
	Loc loc = l->f->loc;
	Builder b = { m, entry, NULL, loc };
	Value *zero = ir_build_const(&b, OP_LLIR_CONST, i64, 0, 0);
	ir_op_set_succ(m, ir_build(&b, OP_LLIR_BR, 0, NULL, 0, NULL, 1), 0, head, 1, &zero);
	/* head(i): i < n ? body : done */
	Value *i = ir_block_add_arg(head, i64);
	b = (Builder){ m, head, NULL, loc };
	Value *cmp[2] = { i, p[2] };
	Value *more = ir_build1(&b, OP_LLIR_ICMP, bool_t, 2, cmp);
	more->def->attr.cmp.pred = PRED_ULT;
	Op *br = ir_build(&b, OP_LLIR_CONDBR, 0, NULL, 1, &more, 2);
	ir_op_set_succ(m, br, 0, body, 0, NULL);
	ir_op_set_succ(m, br, 1, done, 0, NULL);
	/* body: the bytes at i */
	b = (Builder){ m, body, NULL, loc };
	Value *addr[2], *byte[2];
	for (int k = 0; k < 2; k++) {
		Value *g[2] = { p[k], i };
		addr[k] = ir_build1(&b, OP_LLIR_GEP, ptr, 2, g);
		addr[k]->def->attr.gep.stride = 1;
		byte[k] = ir_build1(&b, OP_LLIR_LOAD, i8, 1, &addr[k]);
		byte[k]->def->attr.access.align = 1;
	}
	Value *one = ir_build_const(&b, OP_LLIR_CONST, i64, 1, 0);
	Value *inc[2] = { i, one };
	if (compare) {
		Value *ne = ir_build1(&b, OP_LLIR_ICMP, bool_t, 2, byte);
		ne->def->attr.cmp.pred = PRED_NE;
		Op *c = ir_build(&b, OP_LLIR_CONDBR, 0, NULL, 1, &ne, 2);
		ir_op_set_succ(m, c, 0, diff, 0, NULL);
		ir_op_set_succ(m, c, 1, next, 0, NULL);
		b = (Builder){ m, next, NULL, loc };
		Value *i1 = ir_build1(&b, OP_LLIR_ADD, i64, 2, inc);
		ir_op_set_succ(m, ir_build(&b, OP_LLIR_BR, 0, NULL, 0, NULL, 1), 0, head, 1, &i1);
		b = (Builder){ m, diff, NULL, loc };
		Value *w[2];
		for (int k = 0; k < 2; k++)
			w[k] = ir_build1(&b, OP_LLIR_ZEXT, i32, 1, &byte[k]);
		Value *d = ir_build1(&b, OP_LLIR_SUB, i32, 2, w);
		ir_build(&b, OP_LLIR_RET, 0, NULL, 1, &d, 0);
		b = (Builder){ m, done, NULL, loc };
		Value *z = ir_build_const(&b, OP_LLIR_CONST, i32, 0, 0);
		ir_build(&b, OP_LLIR_RET, 0, NULL, 1, &z, 0);
	} else {
		for (int k = 0; k < 2; k++) {
			Value *st[2] = { byte[1 - k], addr[k] };
			ir_build(&b, OP_LLIR_STORE, 0, NULL, 2, st, 0)->attr.access.align = 1;
		}
		Value *i1 = ir_build1(&b, OP_LLIR_ADD, i64, 2, inc);
		ir_op_set_succ(m, ir_build(&b, OP_LLIR_BR, 0, NULL, 0, NULL, 1), 0, head, 1, &i1);
		b = (Builder){ m, done, NULL, loc };
		ir_build(&b, OP_LLIR_RET, 0, NULL, 0, NULL, 0);
	}
	return f;
}

static Value *byte_loop_call(Lower *l, Op *op, bool compare)
{
	Func *f = byte_loop_func(l, compare);
	Type *i64 = ir_type_int(l->m, 64, false);
	Value *n = int_resize(l, op->opd[2], false, i64);
	/* swap_nonoverlapping_chunks::<N> counts chunks of N bytes, given as
	 * the generic argument [u8; N] */
	if (!compare && op->rty && op->rty->size > 1)
		n = emit2(l, OP_LLIR_MUL, i64, n, iconst(l, i64, op->rty->size, 0));
	Value *args[3] = { op->opd[0], op->opd[1], n };
	Type *t = compare ? f->ret : NULL;
	Op *c = ir_build(&l->b, OP_LLIR_CALL, compare ? 1 : 0, &t, 3, args, 0);
	c->sym = f->symbol;
	if (!compare)
		return NULL;
	/* i32 in the helper; Rust's compare_bytes returns i32 too */
	return op->nres ? int_resize(l, &c->res[0], true, op->res[0].type) : NULL;
}

/* Returns the replacement of op's result, or NULL when it has none. */
static Value *lower_core_intrinsic(Lower *l, Op *op)
{
	if (find_atomic(op->sym) >= 0)
		return lower_atomic(l, op);
	int i = find_intrinsic(op->sym);
	if (i < 0)
		die("intrinsic %s accepted by the frontend but not lowered", op->sym);
	IntrinsicKind k = intrinsics[i].kind;
	Type *rt = op->nres ? op->res[0].type : NULL;
	switch (k) {
	case IK_ID: return op->nres ? op->opd[0] : NULL;
	case IK_NOP: return NULL;
	case IK_ASSUME: llvm_intrinsic(l, "llvm.assume", OVL_NONE, NULL, 1, op->opd); return NULL;
	case IK_TRAP: build_trap(l); return NULL;
	case IK_CTPOP: return bit_count(l, op, "llvm.ctpop", false);
	case IK_CTLZ: return bit_count(l, op, "llvm.ctlz", strstr(op->sym, "nonzero") != NULL);
	case IK_CTTZ: return bit_count(l, op, "llvm.cttz", strstr(op->sym, "nonzero") != NULL);
	case IK_SAME:
		if (!strcmp(intrinsics[i].llvm, "llvm.bswap") && rt->bits == 8)
			return op->opd[0];        /* one byte: nothing to swap (llvm.bswap.i8 is invalid) */
		return llvm_intrinsic(l, intrinsics[i].llvm, OVL_RES, rt, op->nopd, op->opd);
	case IK_SAT_ADD: case IK_SAT_SUB: {
		bool s = op->opd[0]->type->is_signed;
		const char *name = k == IK_SAT_ADD ? (s ? "llvm.sadd.sat" : "llvm.uadd.sat")
		                                   : (s ? "llvm.ssub.sat" : "llvm.usub.sat");
		return llvm_intrinsic(l, name, OVL_RES, rt, 2, op->opd);
	}
	case IK_ROTL: case IK_ROTR: {
		Value *x = op->opd[0];
		Value *args[3] = { x, x, int_resize(l, op->opd[1], false, x->type) };
		return llvm_intrinsic(l, k == IK_ROTL ? "llvm.fshl" : "llvm.fshr", OVL_RES, x->type, 3, args);
	}
	case IK_ADD: case IK_SUB: case IK_MUL: case IK_DIV: case IK_REM: case IK_SHL: case IK_SHR: case IK_OR:
		return int_op(l, op, k);
	case IK_CMP3: return lower_cmp3(l, op);
	case IK_OFFSET_FROM: {
		Type *i64 = ir_type_int(l->m, 64, true);
		Value *a = emit1(l, OP_LLIR_PTRTOINT, i64, op->opd[0]), *b = emit1(l, OP_LLIR_PTRTOINT, i64, op->opd[1]);
		Value *d = emit2(l, OP_LLIR_SUB, i64, a, b);
		uint64_t size = op->rty && op->rty->size ? op->rty->size : 1;
		bool u = strstr(op->sym, "unsigned") != NULL;
		return emit2(l, u ? OP_LLIR_UDIV : OP_LLIR_SDIV, rt, d, iconst(l, i64, size, 0));
	}
	case IK_VLOAD: {
		Value *v = load(l, op->opd[0], rt);
		Op *ld = v->def->code == OP_LLIR_LOAD ? v->def : v->def->opd[0]->def;
		ld->attr.access.is_volatile = true;
		if (strstr(op->sym, "unaligned"))
			ld->attr.access.align = 1;
		return v;
	}
	case IK_VSTORE: {
		store(l, op->opd[1], op->opd[0]);
		Op *st = op->prev;
		st->attr.access.is_volatile = true;
		if (strstr(op->sym, "unaligned"))
			st->attr.access.align = 1;
		return NULL;
	}
	case IK_MEMCPY: case IK_MEMMOVE: case IK_MEMSET:
		mem_intrinsic(l, op, k);
		return NULL;
	case IK_SIZE_OF: return iconst(l, rt, op->rty ? op->rty->size : 0, 0);
	case IK_SIZE_OF_VAL:
		/* of a slice or str: its length (the fat pointer's second part)
		 * times the element's size; of a sized value: its type's size */
		if (op->rty && (op->rty->kind == RT_SLICE || op->rty->kind == RT_STR) && op->nopd >= 2) {
			uint64_t es = op->rty->kind == RT_STR ? 1 : op->rty->elem ? op->rty->elem->size : 0;
			return emit2(l, OP_LLIR_MUL, rt, int_resize(l, op->opd[1], false, rt), iconst(l, rt, es, 0));
		}
		if (op->rty && (op->rty->kind == RT_SLICE || op->rty->kind == RT_STR || op->rty->kind == RT_OPAQUE))
			die("size_of_val of `%s` without a length", op->rty->name);
		return iconst(l, rt, op->rty ? op->rty->size : 0, 0);
	case IK_ALIGN_OF: return iconst(l, rt, op->rty ? op->rty->align : 1, 0);
	case IK_FALSE: return iconst(l, rt, 0, 0);
	case IK_ARITH_OFFSET: {   /* wrapping: no inbounds gep */
		Type *i64 = ir_type_int(l->m, 64, false);
		Value *p = emit1(l, OP_LLIR_PTRTOINT, i64, op->opd[0]);
		Value *off = emit2(l, OP_LLIR_MUL, i64, op->opd[1], iconst(l, i64, op->rty ? op->rty->size : 1, 0));
		return emit1(l, OP_LLIR_INTTOPTR, rt, emit2(l, OP_LLIR_ADD, i64, p, off));
	}
	case IK_SWAP: {           /* typed_swap_nonoverlapping(x, y): through a temporary */
		uint64_t size = op->rty ? op->rty->size : 0;
		uint32_t align = op->rty && op->rty->align ? op->rty->align : 1;
		if (!size)
			return NULL;
		Value *tmp = emit(l, OP_LLIR_ALLOCA, ir_type_ptr(l->m, 0), 0, NULL);
		tmp->def->attr.mem.align = align;
		tmp->def->attr.mem.size = size;
		Value *pairs[3][2] = { { tmp, op->opd[0] }, { op->opd[0], op->opd[1] }, { op->opd[1], tmp } };
		for (int j = 0; j < 3; j++) {
			Op *c = ir_build(&l->b, OP_LLIR_MEMCPY, 0, NULL, 2, pairs[j], 0);
			c->attr.mem.align = align;
			c->attr.mem.size = size;
		}
		return NULL;
	}
	case IK_ISQRT:
		return lower_isqrt(l, op->opd[0]);
	case IK_COMPARE_BYTES:
		return byte_loop_call(l, op, true);
	case IK_SWAP_BYTES:
		return byte_loop_call(l, op, false);
	case IK_FTOI:
		return emit1(l, rt->is_signed ? OP_LLIR_FPTOSI_SAT : OP_LLIR_FPTOUI_SAT, rt, op->opd[0]);
	}
	unreachable();
}

static const char *sreg_name(Opcode code)
{
	static const char *names[] = {
		"llvm.nvvm.read.ptx.sreg.tid.x", "llvm.nvvm.read.ptx.sreg.tid.y", "llvm.nvvm.read.ptx.sreg.tid.z",
		"llvm.nvvm.read.ptx.sreg.ntid.x", "llvm.nvvm.read.ptx.sreg.ntid.y", "llvm.nvvm.read.ptx.sreg.ntid.z",
		"llvm.nvvm.read.ptx.sreg.ctaid.x", "llvm.nvvm.read.ptx.sreg.ctaid.y", "llvm.nvvm.read.ptx.sreg.ctaid.z",
		"llvm.nvvm.read.ptx.sreg.nctaid.x", "llvm.nvvm.read.ptx.sreg.nctaid.y", "llvm.nvvm.read.ptx.sreg.nctaid.z",
	};
	return names[code - OP_NVVM_TID_X];
}

/* ------------------------------------- warp, sync and timer primitives */

/* The __oxide_* primitives that become nvvm.prim (nvvm.c): each is one
 * NVVM intrinsic on nvptx, and on the host target a call of the
 * emulator's __oxide_host_<name> (src/runtime/oxemu.c) with the same
 * arguments.  Predicates and bool results are u32 (0 / 1) at this level,
 * so the host functions need no _Bool ABI. */
typedef enum {
	PK_SAME,      /* arguments and result as the intrinsic's */
	PK_VOTE,      /* (mask, pred u32) -> u32: intrinsic (mask, i1) -> i1 */
	PK_BALLOT,    /* (mask, pred u32) -> u32: intrinsic (mask, i1) -> i32 */
	PK_REDUX,     /* (mask, v) -> v: intrinsic (v, mask) */
	PK_BAR_POPC,  /* (pred u32) -> u32: intrinsic (i32 0, i1) -> i32 */
	PK_BAR_BOOL,  /* (pred u32) -> u32: intrinsic (i32 0, i1) -> i1 */
	PK_PAIR0,     /* (mask, v) -> u32: intrinsic -> {i32, i1}, its i32 */
} PrimKind;

static const struct {
	const char *sym;
	PrimKind kind;
	const char *llvm;
	int nargs;
} prims[] = {
	{ "__oxide_laneid", PK_SAME, "llvm.nvvm.read.ptx.sreg.laneid", 0 },
	{ "__oxide_warpid", PK_SAME, "llvm.nvvm.read.ptx.sreg.warpid", 0 },
	{ "__oxide_smid", PK_SAME, "llvm.nvvm.read.ptx.sreg.smid", 0 },
	{ "__oxide_activemask", PK_SAME, "llvm.nvvm.activemask", 0 },
	{ "__oxide_clock", PK_SAME, "llvm.nvvm.read.ptx.sreg.clock", 0 },
	{ "__oxide_clock64", PK_SAME, "llvm.nvvm.read.ptx.sreg.clock64", 0 },
	{ "__oxide_globaltimer", PK_SAME, "llvm.nvvm.read.ptx.sreg.globaltimer", 0 },
	{ "__oxide_nanosleep", PK_SAME, "llvm.nvvm.nanosleep", 1 },
	{ "__oxide_fence_block", PK_SAME, "llvm.nvvm.membar.cta", 0 },
	{ "__oxide_fence_device", PK_SAME, "llvm.nvvm.membar.gl", 0 },
	{ "__oxide_fence_system", PK_SAME, "llvm.nvvm.membar.sys", 0 },
	/* (mask, value, b, c) as shfl.sync's operands */
	{ "__oxide_shfl_idx", PK_SAME, "llvm.nvvm.shfl.sync.idx.i32", 4 },
	{ "__oxide_shfl_up", PK_SAME, "llvm.nvvm.shfl.sync.up.i32", 4 },
	{ "__oxide_shfl_down", PK_SAME, "llvm.nvvm.shfl.sync.down.i32", 4 },
	{ "__oxide_shfl_bfly", PK_SAME, "llvm.nvvm.shfl.sync.bfly.i32", 4 },
	{ "__oxide_vote_all", PK_VOTE, "llvm.nvvm.vote.all.sync", 2 },
	{ "__oxide_vote_any", PK_VOTE, "llvm.nvvm.vote.any.sync", 2 },
	{ "__oxide_vote_ballot", PK_BALLOT, "llvm.nvvm.vote.ballot.sync", 2 },
	{ "__oxide_match_any_b32", PK_SAME, "llvm.nvvm.match.any.sync.i32", 2 },
	{ "__oxide_match_any_b64", PK_SAME, "llvm.nvvm.match.any.sync.i64", 2 },
	/* match.all.sync d|p: d is the mask when all agree, else 0 */
	{ "__oxide_match_all_b32", PK_PAIR0, "llvm.nvvm.match.all.sync.i32p", 2 },
	{ "__oxide_match_all_b64", PK_PAIR0, "llvm.nvvm.match.all.sync.i64p", 2 },
	{ "__oxide_syncwarp", PK_SAME, "llvm.nvvm.bar.warp.sync", 1 },
	{ "__oxide_redux_add", PK_REDUX, "llvm.nvvm.redux.sync.add", 2 },
	{ "__oxide_redux_umin", PK_REDUX, "llvm.nvvm.redux.sync.umin", 2 },
	{ "__oxide_redux_umax", PK_REDUX, "llvm.nvvm.redux.sync.umax", 2 },
	{ "__oxide_redux_min", PK_REDUX, "llvm.nvvm.redux.sync.min", 2 },
	{ "__oxide_redux_max", PK_REDUX, "llvm.nvvm.redux.sync.max", 2 },
	{ "__oxide_redux_and", PK_REDUX, "llvm.nvvm.redux.sync.and", 2 },
	{ "__oxide_redux_or", PK_REDUX, "llvm.nvvm.redux.sync.or", 2 },
	{ "__oxide_redux_xor", PK_REDUX, "llvm.nvvm.redux.sync.xor", 2 },
	{ "__oxide_barrier_popc", PK_BAR_POPC, "llvm.nvvm.barrier.cta.red.popc.aligned.all", 1 },
	{ "__oxide_barrier_and", PK_BAR_BOOL, "llvm.nvvm.barrier.cta.red.and.aligned.all", 1 },
	{ "__oxide_barrier_or", PK_BAR_BOOL, "llvm.nvvm.barrier.cta.red.or.aligned.all", 1 },
	/* (id, threads): barrier.sync / barrier.arrive a, b (not .aligned:
	 * the lanes of a warp may arrive from different places, sm_70+) */
	{ "__oxide_barrier_sync_count", PK_SAME, "llvm.nvvm.barrier.cta.sync.count", 2 },
	{ "__oxide_barrier_arrive_count", PK_SAME, "llvm.nvvm.barrier.cta.arrive.count", 2 },
};

static int find_prim(const char *sym)
{
	for (size_t i = 0; i < countof(prims); i++)
		if (!strcmp(prims[i].sym, sym))
			return (int)i;
	return -1;
}

int llir_prim_arity(const char *sym)
{
	int i = find_prim(sym);
	return i < 0 ? -1 : prims[i].nargs;
}

static Value *lower_prim(Lower *l, Op *op)
{
	int i = find_prim(op->sym);
	if (i < 0 || (uint32_t)prims[i].nargs != op->nopd)
		die("nvvm.prim @%s: unknown primitive or wrong argument count", op->sym);
	Type *rt = op->nres ? op->res[0].type : NULL;
	if (l->m->target == TARGET_HOST) {
		char name[96];
		snprintf(name, sizeof name, "__oxide_host_%s", op->sym + strlen("__oxide_"));
		return extern_call(l, arena_strdup(l->m->arena, name), rt, op->nopd, op->opd);
	}
	Type *i1 = ir_type_bool(l->m), *i32 = ir_type_int(l->m, 32, false);
	const char *name = prims[i].llvm;
	switch (prims[i].kind) {
	case PK_SAME:
		return llvm_intrinsic(l, name, OVL_NONE, rt, op->nopd, op->opd);
	case PK_VOTE: case PK_BALLOT: {
		Value *args[2] = { op->opd[0], icmp(l, PRED_NE, op->opd[1], iconst(l, op->opd[1]->type, 0, 0)) };
		if (prims[i].kind == PK_BALLOT)
			return llvm_intrinsic(l, name, OVL_NONE, rt, 2, args);
		return int_resize(l, llvm_intrinsic(l, name, OVL_NONE, i1, 2, args), false, rt);
	}
	case PK_REDUX: {
		Value *args[2] = { op->opd[1], op->opd[0] };
		return llvm_intrinsic(l, name, OVL_NONE, rt, 2, args);
	}
	case PK_BAR_POPC: case PK_BAR_BOOL: {
		Value *args[2] = { iconst(l, i32, 0, 0), icmp(l, PRED_NE, op->opd[0], iconst(l, op->opd[0]->type, 0, 0)) };
		if (prims[i].kind == PK_BAR_POPC)
			return llvm_intrinsic(l, name, OVL_NONE, rt, 2, args);
		return int_resize(l, llvm_intrinsic(l, name, OVL_NONE, i1, 2, args), false, rt);
	}
	case PK_PAIR0: {
		Type *rts[2] = { rt, i1 };
		Op *c = ir_build(&l->b, OP_LLIR_INTRINSIC, 2, rts, op->nopd, op->opd, 0);
		c->sym = name;
		c->attr.intrinsic.overload = OVL_NONE;
		return &c->res[0];
	}
	}
	unreachable();
}

static Value *lower_nvvm(Lower *l, Op *op)
{
	/* libdevice math: an extern call on both targets (emit links
	 * libdevice for nvptx; host programs link src/runtime/oxmath.c) */
	if (op->code == OP_NVVM_LIBDEVICE) {
		/* libdevice's sqrt is sqrt.approx.f32 unless __CUDA_PREC_SQRT,
		 * which NVVMReflect answers 0 here; llvm.sqrt is sqrt.rn (IEEE),
		 * what nvcc's default -prec-sqrt=true gives */
		if (l->m->target != TARGET_HOST && (!strcmp(op->sym, "__nv_sqrtf") || !strcmp(op->sym, "__nv_sqrt")))
			return llvm_intrinsic(l, "llvm.sqrt", OVL_RES, op->res[0].type, 1, op->opd);
		return extern_call(l, op->sym, op->nres ? op->res[0].type : NULL, op->nopd, op->opd);
	}
	if (op->code == OP_NVVM_PRIM)
		return lower_prim(l, op);
	if (l->m->target == TARGET_HOST && op->code != OP_NVVM_ADDRSPACE_CAST)
		return host_call(l, host_name(op->code), op->nres ? op->res[0].type : NULL);
	switch (op->code) {
	case OP_NVVM_BARRIER0: {
		Value *zero = iconst(l, ir_type_int(l->m, 32, false), 0, 0);
		llvm_intrinsic(l, "llvm.nvvm.barrier.cta.sync.aligned.all", OVL_NONE, NULL, 1, &zero);
		return NULL;
	}
	case OP_NVVM_TRAP:
		build_trap(l);
		return NULL;
	case OP_NVVM_ADDRSPACE_CAST:
		return emit1(l, OP_LLIR_ADDRSPACECAST, op->res[0].type, op->opd[0]);
	default:
		return llvm_intrinsic(l, sreg_name(op->code), OVL_NONE, op->res[0].type, 0, NULL);
	}
}

/* ------------------------------------------------------------- memory */

static Value *lower_memory(Lower *l, Op *op)
{
	RType *t = op->rty;
	switch (op->code) {
	case OP_MIR_SLOT: {
		Value *r = emit(l, OP_LLIR_ALLOCA, op->res[0].type, 0, NULL);
		r->def->attr.mem.align = t->align ? t->align : 1;
		r->def->attr.mem.size = t->size;
		return r;
	}
	case OP_MIR_LOAD:
		return load_aligned(l, op->opd[0], op->res[0].type, op->attr.access.align);
	case OP_MIR_STORE:
		store_aligned(l, op->opd[0], op->opd[1], op->attr.access.align);
		return NULL;
	case OP_MIR_COPY: {
		if (!t->size)
			return NULL;
		Value *opd[2] = { op->opd[0], op->opd[1] };
		Op *c = ir_build(&l->b, OP_LLIR_MEMCPY, 0, NULL, 2, opd, 0);
		uint32_t place = op->attr.access.align;
		c->attr.mem.align = t->align ? t->align : 1;
		if (place > 0 && place < c->attr.mem.align)   /* a transmute between arrays */
			c->attr.mem.align = place;
		c->attr.mem.size = t->size;
		return NULL;
	}
	case OP_MIR_FIELD:
		return gep_bytes(l, op->opd[0], rtype_field_offset(t, 0, op->attr.field.index));
	case OP_MIR_VFIELD:
		return gep_bytes(l, op->opd[0], rtype_field_offset(t, op->attr.vfield.variant, op->attr.vfield.field));
	case OP_MIR_PTR_ADD:
		return gep_bytes(l, op->opd[0], (uint64_t)op->attr.offset.bytes);
	case OP_MIR_INDEX: {
		if (!t->size)
			return op->opd[0];
		Value *r = emit2(l, OP_LLIR_GEP, op->res[0].type, op->opd[0], op->opd[1]);
		r->def->attr.gep.stride = t->size;
		return r;
	}
	case OP_MIR_GLOBAL_ADDR: {
		Value *r = emit(l, OP_LLIR_GLOBAL_ADDR, op->res[0].type, 0, NULL);
		r->def->sym = op->sym;
		return r;
	}
	case OP_MIR_DISCR:
		return lower_discr(l, op);
	case OP_MIR_SET_DISCR:
		lower_set_discr(l, op);
		return NULL;
	default:
		unreachable();
	}
}

static Value *lower_const(Lower *l, Op *op)
{
	Type *t = op->res[0].type;
	if (t->kind == TY_PTR) {
		Value *i = iconst(l, ir_type_int(l->m, 64, false), op->vals[0].lo, 0);
		return emit1(l, OP_LLIR_INTTOPTR, t, i);
	}
	return iconst(l, t, op->vals[0].lo, op->vals[0].hi);
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
		ir_replace_all_uses(l->f, &op->res[0], r);
	for (uint32_t i = 0; op->nres == 2 && i < 2; i++)
		ir_replace_all_uses(l->f, &op->res[i], pair[i]);
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
		Lower l = { m, f, { m, NULL, NULL, { -1, 0, 0 } } };
		for (Block *b = f->first; b; b = b->next) {
			Op *next;
			for (Op *op = b->first; op; op = next) {
				next = op->next;
				if (opinfo[op->code].dialect != DIALECT_LLIR)
					lower_op(&l, op);
			}
		}
		make_signless(&l);
	}
	m->stage = DIALECT_LLIR;
}
