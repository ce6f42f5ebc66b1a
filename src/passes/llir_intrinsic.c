/* llir_intrinsic.c: the core::intrinsics that oxidec lowers, as one
 * table (name -> kind, LLVM intrinsic), and their lowering; atomics are
 * llir_atomic.c's, the byte loops llir_byteloop.c's. */
#include "llir.h"

#include <stdio.h>
#include <string.h>

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


bool llir_intrinsic_supported(const char *name)
{
	return find_intrinsic(name) >= 0 || llir_intrinsic_is_atomic(name);
}

/* The operand and result shapes the lowering of each kind relies on, as
 * "OPERANDS>RESULT": i integer, f float, p pointer, b bool, k integer or
 * bool, a any value, T the shape of operand 0 (kind and width); '*' any
 * operands, result '-' none, '?' any or none. */
static const char *intrinsic_shape(int i)
{
	switch (intrinsics[i].kind) {
	case IK_ID: return "a>T";
	case IK_NOP: case IK_TRAP: return "*>-";
	case IK_ASSUME: return "b>-";
	case IK_CTPOP: case IK_CTLZ: case IK_CTTZ: return "i>i";
	case IK_SAME: {
		const char *l = intrinsics[i].llvm;
		if (!strcmp(l, "llvm.bswap") || !strcmp(l, "llvm.bitreverse"))
			return "i>T";
		if (!strcmp(l, "llvm.fma") || !strcmp(l, "llvm.fmuladd"))
			return "fTT>T";
		if (!strcmp(l, "llvm.copysign") || strstr(l, "min") || strstr(l, "max"))
			return "fT>T";
		return "f>T";
	}
	case IK_SAT_ADD: case IK_SAT_SUB: case IK_ADD: case IK_SUB: case IK_MUL: case IK_DIV: case IK_REM:
	case IK_OR: return "iT>T";
	case IK_ROTL: case IK_ROTR: case IK_SHL: case IK_SHR: return "ii>T";
	case IK_CMP3: return "aT>i";
	case IK_OFFSET_FROM: return "pp>i";
	case IK_VLOAD: return "p>a";
	case IK_VSTORE: return "pa>-";
	case IK_MEMCPY: case IK_MEMMOVE: return "ppi>-";
	case IK_MEMSET: return "pii>-";
	case IK_SIZE_OF: case IK_ALIGN_OF: case IK_SIZE_OF_VAL: return "*>i";
	case IK_FTOI: return "f>i";
	case IK_FALSE: return "*>k";
	case IK_ARITH_OFFSET: return "pi>p";
	case IK_SWAP: return "pp>-";
	case IK_ISQRT: return "i>T";
	case IK_COMPARE_BYTES: return "ppi>i";
	case IK_SWAP_BYTES: return "ppi>-";
	}
	unreachable();
}

static bool shape_fits(char c, const Type *t, const Type *first)
{
	switch (c) {
	case 'i': return t->kind == TY_INT;
	case 'f': return t->kind == TY_FLOAT;
	case 'p': return t->kind == TY_PTR;
	case 'b': return t->kind == TY_BOOL;
	case 'k': return t->kind == TY_INT || t->kind == TY_BOOL;
	case 'T': return first && t->kind == first->kind && t->bits == first->bits;
	default: return t->kind != TY_VOID;
	}
}

static const char *type_word(const Type *t)
{
	switch (t->kind) {
	case TY_INT: return "an integer";
	case TY_FLOAT: return "a float";
	case TY_PTR: return "a pointer";
	case TY_BOOL: return "a bool";
	default: return "nothing";
	}
}

/* Whether a mir.intrinsic (built by the frontend) has the operands and
 * result its lowering needs; NULL when it has, else what is wrong, for
 * the frontend's error (the MIR is malformed or of another rustc). */
const char *llir_intrinsic_check(const Op *op, char *buf, size_t cap)
{
	int i = find_intrinsic(op->sym);
	if (i < 0)
		return NULL;          /* atomics: checked by the frontend as it builds them */
	const char *s = intrinsic_shape(i), *r = strchr(s, '>') + 1;
	const Type *first = op->nopd ? op->opd[0]->type : NULL;
	if (s[0] != '*') {
		uint32_t want = (uint32_t)(r - 1 - s);
		if (op->nopd != want) {
			snprintf(buf, cap, "takes %u argument%s, not %u", want, want == 1 ? "" : "s", op->nopd);
			return buf;
		}
		for (uint32_t k = 0; k < want; k++)
			if (!shape_fits(s[k], op->opd[k]->type, first)) {
				snprintf(buf, cap, "argument %u is %s, which it does not take", k + 1,
				         type_word(op->opd[k]->type));
				return buf;
			}
	}
	if (*r == '-' ? op->nres != 0 : op->nres != 1 || !shape_fits(*r, op->res[0].type, first)) {
		snprintf(buf, cap, "does not return %s", op->nres ? type_word(op->res[0].type) : "nothing");
		return buf;
	}
	if (intrinsics[i].kind == IK_SIZE_OF_VAL && op->rty &&
	    (op->rty->kind == RT_OPAQUE || ((op->rty->kind == RT_SLICE || op->rty->kind == RT_STR) &&
	                                    (op->nopd < 2 || op->opd[1]->type->kind != TY_INT)))) {
		snprintf(buf, cap, "of a `%s` needs its length", op->rty->name);
		return buf;
	}
	return NULL;
}

/* Intrinsics lowered to no value (hints, assume, abort): their MIR
 * destination must be zero-sized, or a use of it would see nothing. */
bool llir_intrinsic_returns_unit(const char *name)
{
	int k = find_intrinsic(name);
	return k >= 0 && (intrinsics[k].kind == IK_NOP || intrinsics[k].kind == IK_ASSUME ||
	                  intrinsics[k].kind == IK_TRAP);
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

/* Returns the replacement of op's result, or NULL when it has none. */
Value *lower_core_intrinsic(Lower *l, Op *op)
{
	if (llir_intrinsic_is_atomic(op->sym))
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
	case IK_TRAP: l->hooks->trap(l); return NULL;
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
