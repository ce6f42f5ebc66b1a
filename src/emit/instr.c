/* instr.c: one llir op -> LLVM instructions at the builder's position.
 *
 * Reads llir ops only (see the llir section of ops.def for the attribute
 * fields each uses); anything else is reported, not guessed at.  Operand
 * types are checked here before an LLVM builder call sees them: the LLVM
 * C API asserts (or, in release builds, misbehaves) on mismatched types
 * instead of returning an error, and the verifier runs only afterwards.
 *
 * Rust semantics kept on purpose: no fast-math flags (no contraction, no
 * approximate division), no nsw/nuw (integer arithmetic wraps), float ->
 * int through llvm.fpto[su]i.sat (saturating, NaN -> 0). */
#include "emit_impl.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ helpers */

static bool is_int(const Type *t) { return t->kind == TY_INT || t->kind == TY_BOOL; }
static bool is_float(const Type *t) { return t->kind == TY_FLOAT; }
static bool is_ptr(const Type *t) { return t->kind == TY_PTR; }

static bool fail(FuncEmit *fe, Op *op, const char *msg)
{
	emit_op_error(fe, op, "%s", msg);
	return false;
}

static LLVMValueRef opd(Op *op, uint32_t i)
{
	return op->opd[i]->aux;
}

/* Every operand defined, and the expected number of results. */
static bool check_shape(FuncEmit *fe, Op *op, uint32_t nres)
{
	for (uint32_t i = 0; i < op->nopd; i++)
		if (!op->opd[i]->aux) {
			emit_op_error(fe, op, "operand %u is used before its definition", i);
			return false;
		}
	if (op->nres != nres) {
		emit_op_error(fe, op, "has %u results, expected %u", op->nres, nres);
		return false;
	}
	for (uint32_t i = 0; i < nres; i++)
		if (!emit_type(fe->e, op->res[i].type) || op->res[i].type->kind == TY_VOID) {
			emit_op_error(fe, op, "result %u has no LLVM type", i);
			return false;
		}
	return true;
}

static LLVMTypeRef res_type(FuncEmit *fe, Op *op)
{
	return emit_type(fe->e, op->res[0].type);
}

static bool set_res(Op *op, LLVMValueRef v)
{
	op->res[0].aux = v;
	return true;
}

/* An alignment attribute: 0 means "unknown, use the type's ABI alignment". */
static bool get_align(FuncEmit *fe, Op *op, uint32_t a, unsigned *out)
{
	if (a > (1u << 29) || (a & (a - 1))) {
		emit_op_error(fe, op, "alignment %" PRIu32 " is not a power of two", a);
		return false;
	}
	*out = (unsigned)a;
	return true;
}

/* ---------------------------------------------------------- constants */

static LLVMValueRef const_int(LLVMTypeRef ty, unsigned bits, U128 v)
{
	if (bits < 64)
		v.lo &= (UINT64_C(1) << bits) - 1;
	if (bits <= 64)
		return LLVMConstInt(ty, v.lo, 0);
	if (bits < 128)
		v.hi &= (UINT64_C(1) << (bits - 64)) - 1;
	uint64_t words[2] = {v.lo, v.hi};
	return LLVMConstIntOfArbitraryPrecision(ty, 2, words);
}

/* Floats from their exact bit pattern (an integer constant bitcast, folded
 * by LLVM), so NaN payloads and -0.0 survive unchanged. */
LLVMValueRef emit_const(EmitCtx *e, const Type *t, U128 v)
{
	LLVMTypeRef ty = emit_type(e, t);
	if (!ty)
		return NULL;
	switch (t->kind) {
	case TY_BOOL:
		return LLVMConstInt(ty, v.lo & 1, 0);
	case TY_INT:
		return const_int(ty, t->bits, v);
	case TY_FLOAT:
		return LLVMConstBitCast(const_int(LLVMIntTypeInContext(e->ctx, t->bits), t->bits, v), ty);
	case TY_PTR:
		if (!v.lo && !v.hi)
			return LLVMConstPointerNull(ty);
		return LLVMConstIntToPtr(LLVMConstInt(LLVMInt64TypeInContext(e->ctx), v.lo, 0), ty);
	case TY_VOID:
		break;
	}
	return NULL;
}

static bool emit_const_op(FuncEmit *fe, Op *op)
{
	if (!op->nval)
		return fail(fe, op, "has no value");
	LLVMValueRef c = emit_const(fe->e, op->res[0].type, op->vals[0]);
	return c ? set_res(op, c) : fail(fe, op, "constant of this type is not supported");
}

static bool emit_global_addr(FuncEmit *fe, Op *op)
{
	LLVMValueRef g = op->sym ? LLVMGetNamedGlobal(fe->e->mod, op->sym) : NULL;
	if (!g && op->sym)
		g = LLVMGetNamedFunction(fe->e->mod, op->sym);
	if (!g) {
		emit_op_error(fe, op, "unknown global '%s'", op->sym ? op->sym : "(null)");
		return false;
	}
	if (!is_ptr(op->res[0].type))
		return fail(fe, op, "result is not a pointer");
	LLVMTypeRef want = res_type(fe, op);
	if (LLVMTypeOf(g) != want)
		g = LLVMConstAddrSpaceCast(g, want);
	return set_res(op, g);
}

/* ------------------------------------------------------------- memory */

/* Allocas go to the prologue so they are static allocations whatever
 * block the llir put them in (mem2reg/SROA only promote those). */
static bool emit_alloca(FuncEmit *fe, Op *op)
{
	unsigned align;
	if (!get_align(fe, op, op->attr.mem.align, &align))
		return false;
	if (op->attr.mem.size > INT64_MAX || !is_ptr(op->res[0].type))
		return fail(fe, op, "needs a size >= 0 and a pointer result");
	LLVMTypeRef bytes = LLVMArrayType2(LLVMInt8TypeInContext(fe->e->ctx), op->attr.mem.size);
	LLVMValueRef a = LLVMBuildAlloca(fe->alloca_b, bytes, "");
	if (align)
		LLVMSetAlignment(a, align);
	LLVMTypeRef want = res_type(fe, op);
	if (LLVMTypeOf(a) != want)
		a = LLVMBuildAddrSpaceCast(fe->alloca_b, a, want, "");
	return set_res(op, a);
}

static bool emit_load(FuncEmit *fe, Op *op)
{
	unsigned align;
	if (!get_align(fe, op, op->attr.access.align, &align))
		return false;
	if (!is_ptr(op->opd[0]->type))
		return fail(fe, op, "address is not a pointer");
	LLVMValueRef v = LLVMBuildLoad2(fe->b, res_type(fe, op), opd(op, 0), "");
	if (align)
		LLVMSetAlignment(v, align);
	if (op->attr.access.is_volatile)
		LLVMSetVolatile(v, 1);
	return set_res(op, v);
}

static bool emit_store(FuncEmit *fe, Op *op)
{
	unsigned align;
	if (!get_align(fe, op, op->attr.access.align, &align))
		return false;
	if (!is_ptr(op->opd[1]->type) || op->opd[0]->type->kind == TY_VOID)
		return fail(fe, op, "needs a value and a pointer");
	LLVMValueRef s = LLVMBuildStore(fe->b, opd(op, 0), opd(op, 1));
	if (align)
		LLVMSetAlignment(s, align);
	if (op->attr.access.is_volatile)
		LLVMSetVolatile(s, 1);
	if (op->attr.access.nontemporal) {   /* LangRef: !nontemporal !{i32 1} */
		LLVMMetadataRef one = LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(fe->e->ctx), 1, 0));
		unsigned kind = LLVMGetMDKindIDInContext(fe->e->ctx, "nontemporal", 11);
		LLVMSetMetadata(s, kind, LLVMMetadataAsValue(fe->e->ctx, LLVMMDNodeInContext2(fe->e->ctx, &one, 1)));
	}
	return true;
}

static bool emit_memcpy(FuncEmit *fe, Op *op)
{
	unsigned align, src_align;
	if (!get_align(fe, op, op->attr.mem.align, &align) || !get_align(fe, op, op->attr.mem.src_align, &src_align))
		return false;
	if (!is_ptr(op->opd[0]->type) || !is_ptr(op->opd[1]->type) || op->attr.mem.size > INT64_MAX)
		return fail(fe, op, "needs two pointers and a size >= 0");
	LLVMValueRef size = LLVMConstInt(LLVMInt64TypeInContext(fe->e->ctx), op->attr.mem.size, 0);
	LLVMBuildMemCpy(fe->b, opd(op, 0), align, opd(op, 1), src_align, size);
	return true;
}

/* llir.gep %p, %i x N  ==>  getelementptr inbounds [N x i8], %p, %i
 * (the index is scaled by N bytes; LLVM sign-extends it to 64 bits). */
static bool emit_gep(FuncEmit *fe, Op *op)
{
	uint64_t stride = op->attr.gep.stride;
	if (!is_ptr(op->opd[0]->type) || !is_int(op->opd[1]->type) || stride > INT64_MAX)
		return fail(fe, op, "needs a pointer, an integer index and a size >= 0");
	if (op->res[0].type != op->opd[0]->type)
		return fail(fe, op, "result type differs from the pointer's");
	if (stride == 0)
		return set_res(op, opd(op, 0));
	LLVMTypeRef i8 = LLVMInt8TypeInContext(fe->e->ctx);
	LLVMTypeRef elem = stride == 1 ? i8 : LLVMArrayType2(i8, stride);
	LLVMValueRef idx = opd(op, 1);
	return set_res(op, LLVMBuildInBoundsGEP2(fe->b, elem, opd(op, 0), &idx, 1, ""));
}

/* --------------------------------------------------------- arithmetic */

static const struct {
	LLVMOpcode llvm;
	char kind;          /* 'i': integers and bools, 'f': floats */
} binops[OP_COUNT] = {
	[OP_LLIR_ADD] = {LLVMAdd, 'i'},   [OP_LLIR_SUB] = {LLVMSub, 'i'},   [OP_LLIR_MUL] = {LLVMMul, 'i'},
	[OP_LLIR_SDIV] = {LLVMSDiv, 'i'}, [OP_LLIR_UDIV] = {LLVMUDiv, 'i'}, [OP_LLIR_SREM] = {LLVMSRem, 'i'},
	[OP_LLIR_UREM] = {LLVMURem, 'i'}, [OP_LLIR_AND] = {LLVMAnd, 'i'},   [OP_LLIR_OR] = {LLVMOr, 'i'},
	[OP_LLIR_XOR] = {LLVMXor, 'i'},   [OP_LLIR_SHL] = {LLVMShl, 'i'},   [OP_LLIR_LSHR] = {LLVMLShr, 'i'},
	[OP_LLIR_ASHR] = {LLVMAShr, 'i'},
	[OP_LLIR_FADD] = {LLVMFAdd, 'f'}, [OP_LLIR_FSUB] = {LLVMFSub, 'f'}, [OP_LLIR_FMUL] = {LLVMFMul, 'f'},
	[OP_LLIR_FDIV] = {LLVMFDiv, 'f'}, [OP_LLIR_FREM] = {LLVMFRem, 'f'},
};

/* The fast-math flags of core's *_fast / *_algebraic (attr.fmf); and
 * #[kernel(contract)]: fmul/fadd/fsub may fuse into fma (LLVM needs the
 * flag on both the multiply and the add).  Rust-exact otherwise. */
static void set_fast_math(FuncEmit *fe, Op *op, LLVMValueRef v)
{
	static const struct { uint32_t fmf; LLVMFastMathFlags llvm; } bits[] = {
		{ FMF_REASSOC, LLVMFastMathAllowReassoc }, { FMF_CONTRACT, LLVMFastMathAllowContract },
		{ FMF_ARCP, LLVMFastMathAllowReciprocal }, { FMF_NSZ, LLVMFastMathNoSignedZeros },
		{ FMF_NNAN, LLVMFastMathNoNaNs }, { FMF_NINF, LLVMFastMathNoInfs }, { FMF_AFN, LLVMFastMathApproxFunc },
	};
	bool fusable = op->code == OP_LLIR_FADD || op->code == OP_LLIR_FSUB || op->code == OP_LLIR_FMUL;
	uint32_t f = op->attr.fmf.flags | (fe->f->contract && fusable ? FMF_CONTRACT : 0);
	LLVMFastMathFlags flags = LLVMFastMathNone;
	for (size_t i = 0; i < countof(bits); i++)
		if (f & bits[i].fmf)
			flags |= bits[i].llvm;
	if (flags != LLVMFastMathNone)
		LLVMSetFastMathFlags(v, flags);
}

static bool emit_binop(FuncEmit *fe, Op *op)
{
	const Type *t = op->res[0].type;
	if (op->opd[0]->type != t || op->opd[1]->type != t)
		return fail(fe, op, "operand and result types differ");
	if (binops[op->code].kind == 'i' ? !is_int(t) : !is_float(t))
		return fail(fe, op, "operand type does not suit the operation");
	LLVMValueRef v = LLVMBuildBinOp(fe->b, binops[op->code].llvm, opd(op, 0), opd(op, 1), "");
	if (binops[op->code].kind == 'f')
		set_fast_math(fe, op, v);
	return set_res(op, v);
}

static bool emit_fneg(FuncEmit *fe, Op *op)
{
	if (!is_float(op->opd[0]->type) || op->res[0].type != op->opd[0]->type)
		return fail(fe, op, "needs a float operand of the result's type");
	return set_res(op, LLVMBuildFNeg(fe->b, opd(op, 0), ""));
}

static const LLVMIntPredicate int_preds[] = {
	[PRED_EQ] = LLVMIntEQ,   [PRED_NE] = LLVMIntNE,   [PRED_ULT] = LLVMIntULT, [PRED_ULE] = LLVMIntULE,
	[PRED_UGT] = LLVMIntUGT, [PRED_UGE] = LLVMIntUGE, [PRED_SLT] = LLVMIntSLT, [PRED_SLE] = LLVMIntSLE,
	[PRED_SGT] = LLVMIntSGT, [PRED_SGE] = LLVMIntSGE,
};

static const LLVMRealPredicate real_preds[] = {
	[PRED_OEQ] = LLVMRealOEQ,  [PRED_ONE] = LLVMRealONE,  [PRED_OLT] = LLVMRealOLT,  [PRED_OLE] = LLVMRealOLE,
	[PRED_OGT] = LLVMRealOGT,  [PRED_OGE] = LLVMRealOGE,  [PRED_UEQ] = LLVMRealUEQ,  [PRED_UNE] = LLVMRealUNE,
	[PRED_FULT] = LLVMRealULT, [PRED_FULE] = LLVMRealULE, [PRED_FUGT] = LLVMRealUGT, [PRED_FUGE] = LLVMRealUGE,
	[PRED_ORD] = LLVMRealORD,  [PRED_UNO] = LLVMRealUNO,
};

static bool emit_cmp(FuncEmit *fe, Op *op)
{
	const Type *t = op->opd[0]->type;
	if (op->opd[1]->type != t || op->res[0].type->kind != TY_BOOL)
		return fail(fe, op, "operands differ in type or the result is not a bool");
	unsigned p = op->attr.cmp.pred;
	if (op->code == OP_LLIR_ICMP) {
		if (p > PRED_SGE || !(is_int(t) || is_ptr(t)))
			return fail(fe, op, "needs an integer predicate and integer or pointer operands");
		return set_res(op, LLVMBuildICmp(fe->b, int_preds[p], opd(op, 0), opd(op, 1), ""));
	}
	if (p < PRED_OEQ || p > PRED_UNO || !is_float(t))
		return fail(fe, op, "needs a float predicate and float operands");
	return set_res(op, LLVMBuildFCmp(fe->b, real_preds[p], opd(op, 0), opd(op, 1), ""));
}

static bool emit_select(FuncEmit *fe, Op *op)
{
	if (op->opd[0]->type->kind != TY_BOOL || op->opd[1]->type != op->res[0].type ||
	    op->opd[2]->type != op->res[0].type)
		return fail(fe, op, "needs a bool condition and arms of the result's type");
	return set_res(op, LLVMBuildSelect(fe->b, opd(op, 0), opd(op, 1), opd(op, 2), ""));
}

/* -------------------------------------------------------------- casts */

static const LLVMOpcode cast_ops[OP_COUNT] = {
	[OP_LLIR_TRUNC] = LLVMTrunc,       [OP_LLIR_ZEXT] = LLVMZExt,         [OP_LLIR_SEXT] = LLVMSExt,
	[OP_LLIR_FPTRUNC] = LLVMFPTrunc,   [OP_LLIR_FPEXT] = LLVMFPExt,       [OP_LLIR_UITOFP] = LLVMUIToFP,
	[OP_LLIR_SITOFP] = LLVMSIToFP,     [OP_LLIR_PTRTOINT] = LLVMPtrToInt, [OP_LLIR_INTTOPTR] = LLVMIntToPtr,
	[OP_LLIR_BITCAST] = LLVMBitCast,   [OP_LLIR_ADDRSPACECAST] = LLVMAddrSpaceCast,
};

/* LLVM's CastInst::castIsValid, which the C API does not offer. */
static bool cast_is_valid(Opcode code, const Type *from, const Type *to)
{
	switch (code) {
	case OP_LLIR_TRUNC: return is_int(from) && is_int(to) && to->bits < from->bits;
	case OP_LLIR_ZEXT:
	case OP_LLIR_SEXT: return is_int(from) && is_int(to) && to->bits > from->bits;
	case OP_LLIR_FPTRUNC: return is_float(from) && is_float(to) && to->bits < from->bits;
	case OP_LLIR_FPEXT: return is_float(from) && is_float(to) && to->bits > from->bits;
	case OP_LLIR_UITOFP:
	case OP_LLIR_SITOFP: return is_int(from) && is_float(to);
	case OP_LLIR_FPTOUI_SAT:
	case OP_LLIR_FPTOSI_SAT: return is_float(from) && is_int(to);
	case OP_LLIR_PTRTOINT: return is_ptr(from) && is_int(to);
	case OP_LLIR_INTTOPTR: return is_int(from) && is_ptr(to);
	case OP_LLIR_ADDRSPACECAST: return is_ptr(from) && is_ptr(to);
	case OP_LLIR_BITCAST:
		if (is_ptr(from) || is_ptr(to))
			return from == to;
		return from->kind != TY_VOID && to->kind != TY_VOID && from->bits == to->bits;
	default: return false;
	}
}

static bool emit_cast(FuncEmit *fe, Op *op)
{
	const Type *from = op->opd[0]->type, *to = op->res[0].type;
	if (!cast_is_valid(op->code, from, to))
		return fail(fe, op, "invalid cast between these types");
	if (from == to)       /* no-op bitcast, addrspacecast within one space */
		return set_res(op, opd(op, 0));
	LLVMValueRef v = LLVMBuildCast(fe->b, cast_ops[op->code], opd(op, 0), res_type(fe, op), "");
	/* a nonnull kernel parameter (Param.nonnull) made generic at entry is
	 * still non-null: LLVM cannot tell through the cast, so say it (the
	 * Option of DisjointSlice::get_mut then needs no null test) */
	Value *a = op->opd[0];
	if (op->code == OP_LLIR_ADDRSPACECAST && a->def == NULL && a->block == fe->f->first &&
	    a->index < fe->f->nparam && fe->f->params[a->index].nonnull) {
		unsigned id = LLVMLookupIntrinsicID("llvm.assume", 11);
		LLVMValueRef assume = LLVMGetIntrinsicDeclaration(fe->e->mod, id, NULL, 0);
		LLVMValueRef ne = LLVMBuildICmp(fe->b, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
		LLVMBuildCall2(fe->b, LLVMGlobalGetValueType(assume), assume, &ne, 1, "");
	}
	return set_res(op, v);
}

/* ---------------------------------------------------- calls, intrinsics */

static bool check_args(FuncEmit *fe, Op *op, LLVMTypeRef fnty)
{
	unsigned n = LLVMCountParamTypes(fnty);
	if (op->nopd != n && !(LLVMIsFunctionVarArg(fnty) && op->nopd > n)) {
		emit_op_error(fe, op, "passes %u arguments, callee takes %u", op->nopd, n);
		return false;
	}
	LLVMTypeRef *params = xmalloc(sizeof *params * (n + 1));
	LLVMGetParamTypes(fnty, params);
	unsigned bad = n;
	for (unsigned i = 0; i < n && bad == n; i++)
		if (LLVMTypeOf(opd(op, i)) != params[i])
			bad = i;
	free(params);
	if (bad < n)
		emit_op_error(fe, op, "argument %u differs in type from the callee's parameter", bad);
	return bad == n;
}

/* Results: none, the return value, or the fields of a returned struct
 * (e.g. llvm.sadd.with.overflow's {value, overflowed}). */
static bool bind_results(FuncEmit *fe, Op *op, LLVMValueRef call, LLVMTypeRef ret)
{
	if (op->nres == 0)
		return true;
	if (op->nres == 1 && LLVMGetTypeKind(ret) != LLVMVoidTypeKind && res_type(fe, op) == ret)
		return set_res(op, call);
	if (LLVMGetTypeKind(ret) == LLVMStructTypeKind && LLVMCountStructElementTypes(ret) == op->nres) {
		for (uint32_t i = 0; i < op->nres; i++) {
			if (emit_type(fe->e, op->res[i].type) != LLVMStructGetTypeAtIndex(ret, i))
				return fail(fe, op, "result types differ from the callee's return type");
			op->res[i].aux = LLVMBuildExtractValue(fe->b, call, i, "");
		}
		return true;
	}
	return fail(fe, op, "results differ from the callee's return type");
}

static bool build_call(FuncEmit *fe, Op *op, LLVMValueRef callee)
{
	LLVMTypeRef fnty = LLVMGlobalGetValueType(callee);
	if (!check_args(fe, op, fnty))
		return false;
	LLVMValueRef *args = op->nopd ? (LLVMValueRef *)xmalloc(sizeof *args * op->nopd) : NULL;
	for (uint32_t i = 0; i < op->nopd; i++)
		args[i] = opd(op, i);
	LLVMValueRef call = LLVMBuildCall2(fe->b, fnty, callee, args, op->nopd, "");
	free(args);
	LLVMSetInstructionCallConv(call, LLVMGetFunctionCallConv(callee));
	return bind_results(fe, op, call, LLVMGetReturnType(fnty));
}

static bool emit_call(FuncEmit *fe, Op *op)
{
	Func *f = op->sym ? ir_func_find(fe->m, op->sym) : NULL;
	if (!f) {
		emit_op_error(fe, op, "call to unknown function '%s'", op->sym ? op->sym : "(null)");
		return false;
	}
	if (f->is_kernel) {
		emit_op_error(fe, op, "kernel %s cannot be called from device code", f->symbol);
		return false;
	}
	return build_call(fe, op, LLVMGetNamedFunction(fe->e->mod, f->symbol));
}

/* llir.call_indirect %f, args...  ==>  call TYPE %f(args): the function
 * type is the operands' and the result's (NVPTX prints a `.callprototype`
 * and `call (...), %rd, (...), prototype`).  A device function's calling
 * convention is the default one on both targets. */
static bool emit_call_indirect(FuncEmit *fe, Op *op)
{
	if (op->nopd < 1 || !is_ptr(op->opd[0]->type) || op->nres > 1)
		return fail(fe, op, "needs a function pointer operand and at most one result");
	unsigned n = op->nopd - 1;
	LLVMTypeRef *pts = n ? (LLVMTypeRef *)xmalloc(sizeof *pts * n) : NULL;
	LLVMValueRef *args = n ? (LLVMValueRef *)xmalloc(sizeof *args * n) : NULL;
	for (unsigned i = 0; i < n; i++) {
		args[i] = opd(op, i + 1);
		pts[i] = LLVMTypeOf(args[i]);
	}
	LLVMTypeRef ret = op->nres ? res_type(fe, op) : LLVMVoidTypeInContext(fe->e->ctx);
	LLVMTypeRef fnty = LLVMFunctionType(ret, pts, n, 0);
	LLVMValueRef call = LLVMBuildCall2(fe->b, fnty, opd(op, 0), args, n, "");
	free(pts);
	free(args);
	return bind_results(fe, op, call, ret);
}

/* llir.asm "TEMPLATE" (args), constraints "..."  ==>  call asm sideeffect
 * convergent (pure: call asm, which LLVM may hoist, merge or drop): the
 * results are one value, a struct of several (taken apart here), or none.
 * Side effects and convergence keep LLVM from moving, merging or deleting
 * the others: the templates are warp-collective (mma, ldmatrix) or touch
 * shared memory. */
static bool emit_asm(FuncEmit *fe, Op *op)
{
	const char *tmpl = op->sym, *cons = op->attr.inline_asm.constraints;
	if (!tmpl || !cons)
		return fail(fe, op, "has no template or constraints");
	LLVMTypeRef *rts = op->nres ? (LLVMTypeRef *)xmalloc(sizeof *rts * op->nres) : NULL;
	LLVMTypeRef *pts = op->nopd ? (LLVMTypeRef *)xmalloc(sizeof *pts * op->nopd) : NULL;
	LLVMValueRef *args = op->nopd ? (LLVMValueRef *)xmalloc(sizeof *args * op->nopd) : NULL;
	for (uint32_t i = 0; i < op->nres; i++)
		rts[i] = emit_type(fe->e, op->res[i].type);
	for (uint32_t i = 0; i < op->nopd; i++) {
		pts[i] = emit_type(fe->e, op->opd[i]->type);
		args[i] = opd(op, i);
	}
	LLVMTypeRef ret = op->nres == 0 ? LLVMVoidTypeInContext(fe->e->ctx)
	                : op->nres == 1 ? rts[0] : LLVMStructTypeInContext(fe->e->ctx, rts, op->nres, 0);
	LLVMTypeRef fnty = LLVMFunctionType(ret, pts, op->nopd, 0);
	bool pure = op->attr.inline_asm.pure;
	LLVMValueRef fn = LLVMGetInlineAsm(fnty, (char *)tmpl, strlen(tmpl), (char *)cons, strlen(cons), !pure, 0,
	                                   LLVMInlineAsmDialectATT, 0);
	LLVMValueRef call = LLVMBuildCall2(fe->b, fnty, fn, args, op->nopd, "");
	unsigned conv = LLVMGetEnumAttributeKindForName("convergent", strlen("convergent"));
	if (!pure)
		LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(fe->e->ctx, conv, 0));
	free(rts);
	free(pts);
	free(args);
	return bind_results(fe, op, call, ret);
}

/* The declaration comes from LLVM itself (LLVMGetIntrinsicDeclaration),
 * so the intrinsic's attributes — convergent on barriers and shuffles,
 * noreturn on llvm.trap — come with it. */
static LLVMValueRef intrinsic_decl(FuncEmit *fe, Op *op, const char *name, int64_t ovl)
{
	unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
	if (!id) {
		emit_op_error(fe, op, "'%s' is not an LLVM 22 intrinsic", name);
		return NULL;
	}
	LLVMTypeRef tys[3];
	size_t n = 0;
	bool want_res = ovl == OVL_RES || ovl == OVL_RES_OPD0, want_opd = ovl == OVL_OPD0 || ovl == OVL_RES_OPD0;
	bool want_opd3 = ovl == OVL_OPD012 || ovl == OVL_OPD02;
	if (ovl < OVL_NONE || ovl > OVL_OPD02 || (want_res && op->nres < 1) || (want_opd && op->nopd < 1) ||
	    (want_opd3 && op->nopd < 3)) {
		emit_op_error(fe, op, "overload rule %" PRId64 " does not fit %s", ovl, name);
		return NULL;
	}
	if (want_res)
		tys[n++] = res_type(fe, op);
	if (want_opd)
		tys[n++] = LLVMTypeOf(opd(op, 0));
	for (unsigned i = 0; want_opd3 && i < 3; i++)
		if (i != 1 || ovl == OVL_OPD012)
			tys[n++] = LLVMTypeOf(opd(op, i));
	if ((n > 0) != (bool)LLVMIntrinsicIsOverloaded(id)) {
		emit_op_error(fe, op, "%s is %soverloaded", name, n ? "not " : "");
		return NULL;
	}
	return LLVMGetIntrinsicDeclaration(fe->e->mod, id, tys, n);
}

/* The block's shape a kernel's .reqntid fixes, dimension by dimension:
 * "X[,Y[,Z]]" (the launch fails for any other shape, so tid.x < X and
 * ntid.x == X hold in its body).  False for any other kernel and for a
 * device function (it may be inlined into kernels of other shapes). */
static bool reqntid_dims(const Func *f, unsigned d[3])
{
	d[0] = d[1] = d[2] = 1;
	if (!f->is_kernel || !f->reqntid)
		return false;
	const char *p = f->reqntid;
	for (int i = 0; i < 3; i++) {      /* 1 to 3 numbers, each 1..1024, nothing else */
		char *end;
		unsigned long v = strtoul(p, &end, 10);
		if (end == p || v < 1 || v > 1024)
			return false;
		d[i] = (unsigned)v;
		if (!*end)
			return true;
		if (*end != ',')
			return false;
		p = end + 1;
	}
	return false;
}

/* call i32 @llvm.nvvm.read.ptx.sreg.{tid,ntid}.{x,y,z}() in a kernel with
 * .reqntid  ==>  the same call with range(i32 0, X) (tid) or range(i32 X,
 * X + 1) (ntid) on its result.  LLVM's NVVMIntrRange bounds every
 * dimension by the product X Y Z only (it reads .maxntid the same way,
 * whose dimensions the hardware does not enforce), which leaves the bounds
 * checks of 2-D indexing such as sgemm_rb's sb[kk][2 tx + 1] in the loop. */
static void add_reqntid_range(FuncEmit *fe, const char *name, LLVMValueRef call)
{
	static const char tid[] = "llvm.nvvm.read.ptx.sreg.tid.", ntid[] = "llvm.nvvm.read.ptx.sreg.ntid.";
	unsigned d[3];
	bool is_tid = !strncmp(name, tid, sizeof tid - 1), is_ntid = !strncmp(name, ntid, sizeof ntid - 1);
	const char *dim = is_tid ? name + sizeof tid - 1 : name + sizeof ntid - 1;
	if (fe->e->target->kind != TARGET_NVPTX || !(is_tid || is_ntid) || !reqntid_dims(fe->f, d) ||
	    (*dim != 'x' && *dim != 'y' && *dim != 'z') || dim[1])
		return;
	uint64_t x = d[*dim - 'x'], lo = is_tid ? 0 : x, hi = is_tid ? x : x + 1;
	unsigned kind = LLVMGetEnumAttributeKindForName("range", 5);
	LLVMAddCallSiteAttribute(call, LLVMAttributeReturnIndex,
	                         LLVMCreateConstantRangeAttribute(fe->e->ctx, kind, 32, &lo, &hi));
}

/* call i32 @llvm.nvvm.read.ptx.sreg.laneid() in a kernel with .reqntid
 * X, 1, 1  ==>  (tid.x, with its range) & 31.  The same value: warps are
 * made of consecutive linear thread indices, the first warp holding
 * thread 0 (CUDA C++ Programming Guide, "SIMT Architecture"; the PTX
 * ISA's %laneid is the thread's lane in its warp, WARP_SZ = 32), and in a
 * one-dimensional block the linear index is tid.x; .reqntid makes every
 * launch of another shape fail (see add_reqntid_range).  %laneid is an
 * S2R, a read of the special register with its latency, where tid & 31 is
 * one LOP3 on the tid.x the kernel has read anyway (nvcc's threadIdx.x %
 * 32), whose predicate output also gives lane == 0.  Kernels of other
 * shapes, device functions and the host keep %laneid.  false: not such a
 * read, nothing built. */
static bool emit_laneid_1d(FuncEmit *fe, Op *op, const char *name)
{
	static const char tid_x[] = "llvm.nvvm.read.ptx.sreg.tid.x";
	unsigned d[3];
	if (strcmp(name, "llvm.nvvm.read.ptx.sreg.laneid") || fe->e->target->kind != TARGET_NVPTX ||
	    !reqntid_dims(fe->f, d) || d[1] != 1 || d[2] != 1 || op->nres != 1 || op->nopd != 0)
		return false;
	LLVMValueRef decl = intrinsic_decl(fe, op, tid_x, OVL_NONE);
	LLVMTypeRef i32 = LLVMInt32TypeInContext(fe->e->ctx);
	if (!decl || res_type(fe, op) != i32)
		return false;
	LLVMValueRef tid = LLVMBuildCall2(fe->b, LLVMGlobalGetValueType(decl), decl, NULL, 0, "");
	add_reqntid_range(fe, tid_x, tid);
	return set_res(op, LLVMBuildAnd(fe->b, tid, LLVMConstInt(i32, 31, false), ""));
}

static bool emit_intrinsic(FuncEmit *fe, Op *op, const char *name, int64_t ovl)
{
	if (!name)
		return fail(fe, op, "has no intrinsic name");
	if (emit_laneid_1d(fe, op, name))
		return true;
	LLVMValueRef decl = intrinsic_decl(fe, op, name, ovl);
	if (!decl || !build_call(fe, op, decl))
		return false;
	if (op->nres == 1 && op->res[0].aux)
		add_reqntid_range(fe, name, (LLVMValueRef)op->res[0].aux);
	return true;
}

/* llir.fpto[su]i.sat %x : iN  ==>  call iN @llvm.fpto[su]i.sat.iN.fM(%x) */
static bool emit_fpto_sat(FuncEmit *fe, Op *op)
{
	if (!cast_is_valid(op->code, op->opd[0]->type, op->res[0].type))
		return fail(fe, op, "needs a float operand and an integer result");
	const char *name = op->code == OP_LLIR_FPTOSI_SAT ? "llvm.fptosi.sat" : "llvm.fptoui.sat";
	return emit_intrinsic(fe, op, name, OVL_RES_OPD0);
}

/* -------------------------------------------------------- terminators */

static bool emit_br(FuncEmit *fe, Op *op)
{
	if (op->nsucc != 1)
		return fail(fe, op, "needs one successor");
	LLVMBasicBlockRef d = emit_succ_dest(fe, op, 0);
	return d && LLVMBuildBr(fe->b, d);
}

static bool emit_condbr(FuncEmit *fe, Op *op)
{
	if (op->nsucc != 2 || op->opd[0]->type->kind != TY_BOOL)
		return fail(fe, op, "needs a bool condition and two successors");
	LLVMBasicBlockRef t = emit_succ_dest(fe, op, 0);
	LLVMBasicBlockRef f = t ? emit_succ_dest(fe, op, 1) : NULL;
	return f && LLVMBuildCondBr(fe->b, opd(op, 0), t, f);
}

/* Successors are computed first: edge blocks they may need must exist
 * before the switch that jumps to them. */
static bool emit_switch(FuncEmit *fe, Op *op)
{
	const Type *t = op->opd[0]->type;
	if (!is_int(t) || op->nsucc != op->nval + 1)
		return fail(fe, op, "needs an integer operand and one successor per value plus a default");
	LLVMBasicBlockRef *dests = xmalloc(sizeof *dests * op->nsucc);
	bool ok = true;
	for (uint32_t i = 0; i < op->nsucc && ok; i++)
		ok = (dests[i] = emit_succ_dest(fe, op, i)) != NULL;
	if (ok) {
		LLVMValueRef sw = LLVMBuildSwitch(fe->b, opd(op, 0), dests[op->nval], op->nval);
		for (uint32_t i = 0; i < op->nval; i++)
			LLVMAddCase(sw, emit_const(fe->e, t, op->vals[i]), dests[i]);
	}
	free(dests);
	return ok;
}

static bool emit_ret(FuncEmit *fe, Op *op)
{
	Type *ret = fe->f->ret;
	if (op->nopd == 0 && ret->kind == TY_VOID)
		return LLVMBuildRetVoid(fe->b);
	if (op->nopd == 1 && op->opd[0]->type == ret)
		return LLVMBuildRet(fe->b, opd(op, 0));
	return fail(fe, op, "returned values differ from the function's return type");
}

/* ------------------------------------------------------------ atomics */

static LLVMAtomicOrdering llvm_ordering(AtomicOrd o)
{
	static const LLVMAtomicOrdering t[] = {
		[AO_RELAXED] = LLVMAtomicOrderingMonotonic, [AO_ACQUIRE] = LLVMAtomicOrderingAcquire,
		[AO_RELEASE] = LLVMAtomicOrderingRelease, [AO_ACQ_REL] = LLVMAtomicOrderingAcquireRelease,
		[AO_SEQ_CST] = LLVMAtomicOrderingSequentiallyConsistent,
	};
	return (unsigned)o <= AO_SEQ_CST ? t[o] : LLVMAtomicOrderingSequentiallyConsistent;
}

/* sym: an LLVM syncscope name; NULL or "" is the system scope. */
static unsigned sync_scope(FuncEmit *fe, const char *sym)
{
	const char *s = sym ? sym : "";
	return LLVMGetSyncScopeID(fe->e->ctx, s, strlen(s));
}

/* LLVM's atomicrmw operation of ours (atomics.c reads it backwards) */
LLVMAtomicRMWBinOp emit_rmw_op(AtomicRmw rmw)
{
	static const LLVMAtomicRMWBinOp ops[] = {
		[RMW_XCHG] = LLVMAtomicRMWBinOpXchg, [RMW_ADD] = LLVMAtomicRMWBinOpAdd,
		[RMW_SUB] = LLVMAtomicRMWBinOpSub, [RMW_AND] = LLVMAtomicRMWBinOpAnd,
		[RMW_NAND] = LLVMAtomicRMWBinOpNand, [RMW_OR] = LLVMAtomicRMWBinOpOr,
		[RMW_XOR] = LLVMAtomicRMWBinOpXor, [RMW_MAX] = LLVMAtomicRMWBinOpMax,
		[RMW_MIN] = LLVMAtomicRMWBinOpMin, [RMW_UMAX] = LLVMAtomicRMWBinOpUMax,
		[RMW_UMIN] = LLVMAtomicRMWBinOpUMin, [RMW_FADD] = LLVMAtomicRMWBinOpFAdd,
		[RMW_UINC_WRAP] = LLVMAtomicRMWBinOpUIncWrap, [RMW_UDEC_WRAP] = LLVMAtomicRMWBinOpUDecWrap,
	};
	return ops[rmw];
}

static bool emit_atomicrmw(FuncEmit *fe, Op *op)
{
	if (!is_ptr(op->opd[0]->type) || op->opd[1]->type != op->res[0].type)
		return fail(fe, op, "needs a pointer and a value of the result's type");
	AtomicRmw rmw = op->attr.atomic.rmw;
	if ((unsigned)rmw > RMW_UDEC_WRAP)
		return fail(fe, op, "unknown atomicrmw operation");
	if ((rmw == RMW_FADD) != is_float(op->res[0].type) && rmw != RMW_XCHG)
		return fail(fe, op, "operation does not suit the value type");
	LLVMValueRef v = LLVMBuildAtomicRMWSyncScope(fe->b, emit_rmw_op(rmw), opd(op, 0), opd(op, 1),
	                                             llvm_ordering(op->attr.atomic.order), sync_scope(fe, op->sym));
	return set_res(op, v);
}

static bool emit_cmpxchg(FuncEmit *fe, Op *op)
{
	if (!is_ptr(op->opd[0]->type) || op->opd[1]->type != op->res[0].type ||
	    op->opd[2]->type != op->res[0].type || op->res[1].type->kind != TY_BOOL)
		return fail(fe, op, "needs a pointer, two values of the result's type and a bool result");
	LLVMValueRef x = LLVMBuildAtomicCmpXchgSyncScope(fe->b, opd(op, 0), opd(op, 1), opd(op, 2),
	                                                 llvm_ordering(op->attr.atomic.order),
	                                                 llvm_ordering(op->attr.atomic.fail_order), sync_scope(fe, op->sym));
	if (op->attr.atomic.weak)
		LLVMSetWeak(x, 1);
	op->res[0].aux = LLVMBuildExtractValue(fe->b, x, 0, "");
	op->res[1].aux = LLVMBuildExtractValue(fe->b, x, 1, "");
	return true;
}

static bool emit_atomic_access(FuncEmit *fe, Op *op)
{
	unsigned align;
	if (!get_align(fe, op, op->attr.atomic.align, &align))
		return false;
	LLVMValueRef v;
	if (op->code == OP_LLIR_ATOMIC_LOAD) {
		if (!is_ptr(op->opd[0]->type))
			return fail(fe, op, "address is not a pointer");
		v = LLVMBuildLoad2(fe->b, res_type(fe, op), opd(op, 0), "");
	} else {
		if (!is_ptr(op->opd[1]->type))
			return fail(fe, op, "needs a value and a pointer");
		v = LLVMBuildStore(fe->b, opd(op, 0), opd(op, 1));
	}
	if (align)
		LLVMSetAlignment(v, align);
	LLVMSetOrdering(v, llvm_ordering(op->attr.atomic.order));
	LLVMSetAtomicSyncScopeID(v, sync_scope(fe, op->sym));
	return op->code == OP_LLIR_ATOMIC_LOAD ? set_res(op, v) : true;
}

/* ------------------------------------------------------------ dispatch */

static bool emit_op_checked(FuncEmit *fe, Op *op)
{
	switch (op->code) {
	case OP_LLIR_ALLOCA: return emit_alloca(fe, op);
	case OP_LLIR_CONST: return emit_const_op(fe, op);
	case OP_LLIR_UNDEF: return set_res(op, LLVMGetUndef(res_type(fe, op)));
	case OP_LLIR_GLOBAL_ADDR: return emit_global_addr(fe, op);
	case OP_LLIR_LOAD: return emit_load(fe, op);
	case OP_LLIR_STORE: return emit_store(fe, op);
	case OP_LLIR_MEMCPY: return emit_memcpy(fe, op);
	case OP_LLIR_LOOP_HINT: {
		struct LoopHint *h = xrealloc(fe->hints, sizeof *h * (fe->nhint + 1));
		fe->hints = h;
		h[fe->nhint++] = (struct LoopHint){ LLVMGetInsertBlock(fe->b), op };
		return true;
	}
	case OP_LLIR_GEP: return emit_gep(fe, op);
	case OP_LLIR_ADD: case OP_LLIR_SUB: case OP_LLIR_MUL: case OP_LLIR_SDIV: case OP_LLIR_UDIV:
	case OP_LLIR_SREM: case OP_LLIR_UREM: case OP_LLIR_AND: case OP_LLIR_OR: case OP_LLIR_XOR:
	case OP_LLIR_SHL: case OP_LLIR_LSHR: case OP_LLIR_ASHR:
	case OP_LLIR_FADD: case OP_LLIR_FSUB: case OP_LLIR_FMUL: case OP_LLIR_FDIV: case OP_LLIR_FREM:
		return emit_binop(fe, op);
	case OP_LLIR_FNEG: return emit_fneg(fe, op);
	case OP_LLIR_ICMP: case OP_LLIR_FCMP: return emit_cmp(fe, op);
	case OP_LLIR_SELECT: return emit_select(fe, op);
	case OP_LLIR_TRUNC: case OP_LLIR_ZEXT: case OP_LLIR_SEXT: case OP_LLIR_FPTRUNC: case OP_LLIR_FPEXT:
	case OP_LLIR_UITOFP: case OP_LLIR_SITOFP: case OP_LLIR_PTRTOINT: case OP_LLIR_INTTOPTR:
	case OP_LLIR_BITCAST: case OP_LLIR_ADDRSPACECAST:
		return emit_cast(fe, op);
	case OP_LLIR_FPTOUI_SAT: case OP_LLIR_FPTOSI_SAT: return emit_fpto_sat(fe, op);
	case OP_LLIR_CALL: return emit_call(fe, op);
	case OP_LLIR_CALL_INDIRECT: return emit_call_indirect(fe, op);
	case OP_LLIR_INTRINSIC: return emit_intrinsic(fe, op, op->sym, op->attr.intrinsic.overload);
	case OP_LLIR_ASM: return emit_asm(fe, op);
	case OP_LLIR_BR: return emit_br(fe, op);
	case OP_LLIR_CONDBR: return emit_condbr(fe, op);
	case OP_LLIR_SWITCH: return emit_switch(fe, op);
	case OP_LLIR_RET: return emit_ret(fe, op);
	case OP_LLIR_UNREACHABLE: return LLVMBuildUnreachable(fe->b);
	case OP_LLIR_ATOMICRMW: return emit_atomicrmw(fe, op);
	case OP_LLIR_CMPXCHG: return emit_cmpxchg(fe, op);
	case OP_LLIR_FENCE:
		return LLVMBuildFenceSyncScope(fe->b, llvm_ordering(op->attr.atomic.order), sync_scope(fe, op->sym), "") != NULL;
	case OP_LLIR_ATOMIC_LOAD: case OP_LLIR_ATOMIC_STORE: return emit_atomic_access(fe, op);
	default: return fail(fe, op, "is not an llir op (the llir lowering must run before emission)");
	}
}

bool emit_op(FuncEmit *fe, Op *op)
{
	if (opinfo[op->code].dialect != DIALECT_LLIR)
		return fail(fe, op, "is not an llir op (the llir lowering must run before emission)");
	bool var = opinfo[op->code].nres == VAR;
	if (!check_shape(fe, op, var ? op->nres : (uint32_t)opinfo[op->code].nres))
		return false;
	return emit_op_checked(fe, op);
}
