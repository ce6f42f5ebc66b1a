/* llir_i128.c: 128-bit integer <-> float conversions and the integer
 * square root, from 64-bit operations: NVPTX has no i128 conversions (LLVM
 * would need compiler-rt's __floattidf and friends), and core keeps
 * isqrt's stages out of line.  The host target uses the same code, so
 * that host emulation checks it against rustc's CPU results. */
#include "llir.h"

/* 2^e as a float of type t (e within t's normal range) */
static Value *fpow2(Lower *l, Type *t, int e)
{
	int mant = t->bits == 32 ? 23 : 52, bias = t->bits == 32 ? 127 : 1023;
	return iconst(l, t, (uint64_t)(bias + e) << mant, 0);
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

Value *int128_to_float(Lower *l, Value *x, Type *to)
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
Value *float_to_int128(Lower *l, Value *x, Type *to)
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
Value *lower_isqrt(Lower *l, Value *n)
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
