/* llir_intrinsic.c: the lowering of the core::intrinsics that oxidec
 * supports, each an INTRINSIC row of the registry (src/ir/prims.def: kind,
 * operand shape, LLVM intrinsic; the frontend has checked the shape);
 * atomics are llir_atomic.c's, the byte loops llir_byteloop.c's. */
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

/* copy_nonoverlapping / copy (src, dst, count), write_bytes (dst, byte,
 * count); the volatile ones: volatile_copy_nonoverlapping_memory /
 * volatile_copy_memory (dst, src, count), volatile_set_memory (dst, byte,
 * count).  count is in T's (generic_args[0]). */
static void mem_intrinsic(Lower *l, Op *op, IntrinsicKind k)
{
	Type *i64 = ir_type_int(l->m, 64, false);
	uint64_t size = op->rty ? op->rty->size : 1;
	Value *len = emit2(l, OP_LLIR_MUL, i64, op->opd[2], iconst(l, i64, size, 0));
	bool is_volatile = k == IK_VMEMCPY || k == IK_VMEMMOVE || k == IK_VMEMSET;
	Value *vol = iconst(l, ir_type_bool(l->m), is_volatile, 0);
	if (k == IK_MEMSET || k == IK_VMEMSET) {
		Value *args[4] = { op->opd[0], op->opd[1], len, vol };
		Op *c = ir_build(&l->b, OP_LLIR_INTRINSIC, 0, NULL, 4, args, 0);
		c->sym = "llvm.memset";
		c->attr.intrinsic.overload = OVL_OPD02;
		return;
	}
	bool dst_first = is_volatile;
	Value *args[4] = { op->opd[dst_first ? 0 : 1], op->opd[dst_first ? 1 : 0], len, vol };
	Op *c = ir_build(&l->b, OP_LLIR_INTRINSIC, 0, NULL, 4, args, 0);
	c->sym = k == IK_MEMCPY || k == IK_VMEMCPY ? "llvm.memcpy" : "llvm.memmove";
	c->attr.intrinsic.overload = OVL_OPD012;
}

/* sin::<f32> & co.: libdevice's __nv_sinf (f64: __nv_sin), an extern call
 * on both targets (NVPTX links libdevice, the host resolves it to
 * oxmath.c), as oxide_device::math's calls of it. */
static Value *libm_call(Lower *l, Op *op, const Intrinsic *in)
{
	Type *rt = op->res[0].type;
	const char *sym = rt->bits == 32 ? arena_printf(l->m->arena, "%sf", in->llvm) : in->llvm;
	return extern_call(l, sym, rt, op->nopd, op->opd);
}

/* fadd_fast (a, b) ==> llir.fadd %a, %b, fast (frem: the target's float
 * remainder, whose llir.frem on the host gets the flags; NVPTX's is
 * libdevice's exact fmod, which fast-math allows too). */
static Value *fast_math(Lower *l, Op *op, uint32_t flags)
{
	static const struct { const char *prefix; Opcode code; } ops[] = {
		{ "fadd", OP_LLIR_FADD }, { "fsub", OP_LLIR_FSUB }, { "fmul", OP_LLIR_FMUL }, { "fdiv", OP_LLIR_FDIV },
	};
	Value *a = op->opd[0], *b = op->opd[1], *r = NULL;
	for (size_t i = 0; i < countof(ops); i++)
		if (!strncmp(op->sym, ops[i].prefix, 4))
			r = emit2(l, ops[i].code, a->type, a, b);
	if (!r)
		r = l->hooks->float_rem(l, a, b, a->type);
	if (r->def && opinfo[r->def->code].attr == ATTR_FMF)
		r->def->attr.fmf.flags = flags;
	return r;
}

/* prefetch_{read,write}_{data,instruction}::<T, LOCALITY>(p) ==>
 * llvm.prefetch(p, rw, locality, cache type) as rustc; the locality is
 * the call's const argument (vals[0], 0..3), else 3 (keep in all caches) */
static void prefetch(Lower *l, Op *op)
{
	Type *i32 = ir_type_int(l->m, 32, false);
	uint64_t locality = op->nval ? op->vals[0].lo : 3;
	Value *args[4] = { op->opd[0], iconst(l, i32, strstr(op->sym, "write") != NULL, 0), iconst(l, i32, locality, 0),
	                   iconst(l, i32, strstr(op->sym, "data") != NULL, 0) };
	llvm_intrinsic(l, "llvm.prefetch", OVL_OPD0, NULL, 4, args);
}

/* ptr_mask (p, mask) ==> inttoptr (ptrtoint p & mask), as arith_offset.
 * Not llvm.ptrmask, which rustc emits: LLVM 22.1's alias analysis takes
 * its result for p itself (BasicAA decomposes through it), so a load
 * through ptr_mask(p, !15) reads *p (opt -O2 folds `*ptrmask(p, -16)` to
 * `*p`).  The address is taken in the result's address space (a
 * shared-memory address is not its generic one). */
static Value *ptr_mask(Lower *l, Op *op, Type *rt)
{
	Type *i64 = ir_type_int(l->m, 64, false);
	Value *p = op->opd[0]->type == rt ? op->opd[0] : emit1(l, OP_LLIR_ADDRSPACECAST, rt, op->opd[0]);
	Value *a = emit1(l, OP_LLIR_PTRTOINT, i64, p);
	Value *m = emit2(l, OP_LLIR_AND, i64, a, int_resize(l, op->opd[1], false, i64));
	return emit1(l, OP_LLIR_INTTOPTR, rt, m);
}

/* ptr_guaranteed_cmp (a, b) ==> the addresses compared (in a's address
 * space): 1 equal, 0 not */
static Value *ptr_cmp(Lower *l, Op *op, Type *rt)
{
	Type *i64 = ir_type_int(l->m, 64, false);
	Value *p = op->opd[0], *q = op->opd[1];
	if (q->type != p->type)
		q = emit1(l, OP_LLIR_ADDRSPACECAST, p->type, q);
	Value *a = emit1(l, OP_LLIR_PTRTOINT, i64, p), *b = emit1(l, OP_LLIR_PTRTOINT, i64, q);
	return int_resize(l, icmp(l, PRED_EQ, a, b), false, rt);
}

/* Returns the replacement of op's result, or NULL when it has none. */
/* size_of_val / align_of_val of a trait object (`*const dyn T`: data
 * pointer, vtable address): the vtable's word 1 (size) or 2 (align). */
static Value *vtable_word(Lower *l, Op *op, unsigned word, Type *rt)
{
	Type *i64 = ir_type_int(l->m, 64, false);
	Value *vt = emit1(l, OP_LLIR_INTTOPTR, ir_type_ptr(l->m, 0), int_resize(l, op->opd[1], false, i64));
	return int_resize(l, load(l, gep_bytes(l, vt, 8 * word), i64), false, rt);
}

Value *lower_core_intrinsic(Lower *l, Op *op)
{
	const Intrinsic *in = intrinsic_find(op->sym);
	if (!in)
		die("intrinsic %s accepted by the frontend but not lowered", op->sym);
	if (in->atomic)
		return lower_atomic(l, op, in);
	IntrinsicKind k = (IntrinsicKind)in->kind;
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
		if (!strcmp(in->llvm, "llvm.bswap") && rt->bits == 8)
			return op->opd[0];        /* one byte: nothing to swap (llvm.bswap.i8 is invalid) */
		return llvm_intrinsic(l, in->llvm, OVL_RES, rt, op->nopd, op->opd);
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
	case IK_SELECT: return select3(l, op->opd[0], op->opd[1], op->opd[2]);
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
	case IK_MEMCPY: case IK_MEMMOVE: case IK_MEMSET: case IK_VMEMCPY: case IK_VMEMMOVE: case IK_VMEMSET:
		mem_intrinsic(l, op, k);
		return NULL;
	case IK_LIBM: return libm_call(l, op, in);
	case IK_FAST: return fast_math(l, op, FMF_FAST);
	case IK_ALGEBRAIC: return fast_math(l, op, FMF_ALGEBRAIC);
	case IK_FSHL: case IK_FSHR: {   /* the shift is a u32, LLVM's of T's width (taken modulo it) */
		Value *a = op->opd[0];
		Value *args[3] = { a, op->opd[1], int_resize(l, op->opd[2], false, a->type) };
		return llvm_intrinsic(l, k == IK_FSHL ? "llvm.fshl" : "llvm.fshr", OVL_RES, a->type, 3, args);
	}
	case IK_PTR_MASK: return ptr_mask(l, op, rt);
	case IK_PREFETCH: prefetch(l, op); return NULL;
	case IK_NT_STORE: {
		store(l, op->opd[1], op->opd[0]);
		op->prev->attr.access.nontemporal = true;
		return NULL;
	}
	case IK_DEBUGTRAP: llvm_intrinsic(l, "llvm.debugtrap", OVL_NONE, NULL, 0, NULL); return NULL;
	case IK_PTR_CMP: return ptr_cmp(l, op, rt);
	case IK_VTABLE_SIZE: case IK_VTABLE_ALIGN: {
		Type *i64 = ir_type_int(l->m, 64, false);
		Value *w = load(l, gep_bytes(l, op->opd[0], k == IK_VTABLE_SIZE ? 8 : 16), i64);
		return int_resize(l, w, false, rt);
	}
	case IK_NULL_PTR: return emit1(l, OP_LLIR_INTTOPTR, rt, iconst(l, ir_type_int(l->m, 64, false), 0, 0));
	case IK_MUL_ADD: case IK_CATCH_UNWIND:
		die("intrinsic %s is built by the frontend, not a mir.intrinsic", op->sym);
	case IK_SIZE_OF: return iconst(l, rt, op->rty ? op->rty->size : 0, 0);
	case IK_SIZE_OF_VAL:
		/* of a slice or str: its length (the fat pointer's second part)
		 * times the element's size; of a sized value: its type's size */
		if (op->rty && (op->rty->kind == RT_SLICE || op->rty->kind == RT_STR) && op->nopd >= 2) {
			uint64_t es = op->rty->kind == RT_STR ? 1 : op->rty->elem ? op->rty->elem->size : 0;
			return emit2(l, OP_LLIR_MUL, rt, int_resize(l, op->opd[1], false, rt), iconst(l, rt, es, 0));
		}
		if (op->rty && op->rty->kind == RT_OPAQUE && op->nopd >= 2)
			return vtable_word(l, op, 1, rt);
		if (op->rty && (op->rty->kind == RT_SLICE || op->rty->kind == RT_STR || op->rty->kind == RT_OPAQUE))
			die("size_of_val of `%s` without a length", op->rty->name);
		return iconst(l, rt, op->rty ? op->rty->size : 0, 0);
	case IK_ALIGN_OF:
		if (op->rty && op->rty->kind == RT_OPAQUE && op->nopd >= 2)
			return vtable_word(l, op, 2, rt);
		if (op->rty && op->rty->kind == RT_OPAQUE)
			die("align_of_val of `%s` without its vtable", op->rty->name);
		return iconst(l, rt, op->rty ? op->rty->align : 1, 0);
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
			c->attr.mem.align = c->attr.mem.src_align = align;
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
	case IK_RAW_EQ:
		return raw_eq_call(l, op);
	case IK_FTOI:
		return emit1(l, rt->is_signed ? OP_LLIR_FPTOSI_SAT : OP_LLIR_FPTOUI_SAT, rt, op->opd[0]);
	}
	unreachable();
}
