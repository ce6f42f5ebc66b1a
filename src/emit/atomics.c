/* atomics.c: NVPTX read-modify-writes written as PTX's own `atom`, after
 * LLVM's pass pipeline and before code generation.
 *
 * LLVM 22's NVPTX back end emits every atomicrmw as a relaxed `atom` at
 * PTX's default scope (.gpu), whatever its ordering and syncscope.  Stage 5
 * (llir_nvptx.c, atomicrmw_ordered) leaves the ordering and scope on each
 * atomicrmw that one `atom` can do (ptx_atom_op); here, where the back end
 * would drop them, it becomes that `atom` as inline PTX:
 *   ordered          atom.acq_rel.gpu.global.add.u32 (seq_cst: fence.sc,
 *                    then an acquire atom, as nvcc's <cuda/atomic> and
 *                    LLVM's own cmpxchg write it)
 *   relaxed .sys     atom.sys.add.u32: the back end's .gpu would not be
 *                    atomic with the host's and other GPUs' accesses
 *   relaxed .cta     atom.cta.shared.add.u32, as nvcc's atomicAdd_block
 * Relaxed device-scope ones stay atomicrmw (the back end's own `atom`).
 * Doing it after the pipeline, not in stage 5, is for the state space:
 * LLVM's address-space inference has run, so a `&AtomicU32` that reached
 * stage 5 as a generic pointer (a kernel parameter, shared memory through
 * a function) is `atom.global` / `atom.shared` here, where inline PTX
 * written earlier hid the access from the inference and stayed generic. */
#include "emit_impl.h"

#include <llvm-c/DebugInfo.h>
#include <llvm-c/Error.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include <stdio.h>
#include <string.h>

#include "../ir/prims.h"

/* LLVM's atomicrmw operation as ours (ptx_atom_op's argument): instr.c's
 * table read backwards; false for one oxidec never emits */
static bool rmw_of(LLVMAtomicRMWBinOp op, AtomicRmw *out)
{
	for (AtomicRmw r = RMW_XCHG; r <= RMW_UDEC_WRAP; r++)
		if (emit_rmw_op(r) == op) {
			*out = r;
			return true;
		}
	return false;
}

/* PTX's scope of an LLVM syncscope (stage 5's names: llir_nvptx.c's
 * syncscope), NULL for another */
static const char *ptx_scope(EmitCtx *e, unsigned id)
{
	static const char *const names[][2] = { { "block", ".cta" }, { "device", ".gpu" }, { "", ".sys" } };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (id == LLVMGetSyncScopeID(e->ctx, names[i][0], strlen(names[i][0])))
			return names[i][1];
	return NULL;
}

/* PTX's semantics of an ordering; seq_cst's atom is an acquire one after
 * fence.sc */
static const char *ptx_sem(LLVMAtomicOrdering o)
{
	switch (o) {
	case LLVMAtomicOrderingAcquire: case LLVMAtomicOrderingSequentiallyConsistent: return ".acquire";
	case LLVMAtomicOrderingRelease: return ".release";
	case LLVMAtomicOrderingAcquireRelease: return ".acq_rel";
	default: return "";
	}
}

/* inline asm's register letter of a value type or pointer type (a shared
 * pointer is 32-bit: the data layout's p3:32) */
static char reg_letter(LLVMTypeRef t)
{
	switch (LLVMGetTypeKind(t)) {
	case LLVMFloatTypeKind: return 'f';
	case LLVMDoubleTypeKind: return 'd';
	case LLVMPointerTypeKind: return LLVMGetPointerAddressSpace(t) == 3 ? 'r' : 'l';
	default: return LLVMGetIntTypeWidth(t) == 64 ? 'l' : 'r';
	}
}

static unsigned value_bits(LLVMTypeRef t)
{
	switch (LLVMGetTypeKind(t)) {
	case LLVMFloatTypeKind: return 32;
	case LLVMDoubleTypeKind: case LLVMPointerTypeKind: return 64;
	case LLVMIntegerTypeKind: return LLVMGetIntTypeWidth(t);
	default: return 0;
	}
}

static bool fail(const char *what, LLVMValueRef inst)
{
	LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst));
	size_t n;
	const char *name = LLVMGetValueName2(fn, &n);
	diag_error(OX_BACKEND, "oxidec", "atomic read-modify-write in `%.*s`: %s", (int)n, name, what);
	return false;
}

/* The `atom` that does atomicrmw inst, in place of it; inst itself when
 * the back end's own code is right for it. */
static bool rewrite_rmw(EmitCtx *e, LLVMBuilderRef b, LLVMValueRef inst)
{
	LLVMAtomicOrdering o = LLVMGetOrdering(inst);
	const char *scope = ptx_scope(e, LLVMGetAtomicSyncScopeID(inst));
	if (!scope)
		return fail("a syncscope oxidec does not write", inst);
	bool relaxed = o == LLVMAtomicOrderingMonotonic;
	if (relaxed && (strcmp(scope, ".gpu") == 0 || !prim_arch_fits("sm_60", e->arch)))
		return true;     /* before sm_60 `atom` has no scope: the back end's is all there is */
	LLVMValueRef ptr = LLVMGetOperand(inst, 0), val = LLVMGetOperand(inst, 1);
	LLVMTypeRef vt = LLVMTypeOf(val), pt = LLVMTypeOf(ptr);
	AtomicRmw rmw;
	char ty;
	const char *name = rmw_of(LLVMGetAtomicRMWBinOp(inst), &rmw) ?
		ptx_atom_op(rmw, value_bits(vt), LLVMGetTypeKind(vt) == LLVMPointerTypeKind, &ty) : NULL;
	if (!name)     /* stage 5 fenced every ordered one of these */
		return relaxed ? true : fail("an ordered one that no `atom` does", inst);
	unsigned as = LLVMGetPointerAddressSpace(pt);
	if (as != 0 && as != 1 && as != 3)
		return fail("a pointer in an address space `atom` cannot reach", inst);
	LLVMPositionBuilderBefore(b, inst);     /* and at its debug location */
	if (o == LLVMAtomicOrderingSequentiallyConsistent)
		LLVMBuildFenceSyncScope(b, o, LLVMGetAtomicSyncScopeID(inst), "");
	if (rmw == RMW_SUB)
		val = LLVMBuildNeg(b, val, "");
	char tmpl[96], cons[32];
	snprintf(tmpl, sizeof tmpl, "atom%s%s%s.%s.%c%u $0, [$1], $2;", ptx_sem(o), scope,
	         as == 1 ? ".global" : as == 3 ? ".shared" : "", name, ty, value_bits(vt));
	char v = LLVMIsAConstantInt(val) ? 'n' : reg_letter(vt);     /* an immediate, as the back end writes it */
	snprintf(cons, sizeof cons, "=%c,%c,%c,~{memory}", reg_letter(vt), reg_letter(pt), v);
	LLVMTypeRef params[2] = { pt, vt };
	LLVMTypeRef fnty = LLVMFunctionType(vt, params, 2, 0);
	LLVMValueRef fn = LLVMGetInlineAsm(fnty, tmpl, strlen(tmpl), cons, strlen(cons), 1, 0, LLVMInlineAsmDialectATT, 0);
	LLVMValueRef args[2] = { ptr, val };
	LLVMValueRef call = LLVMBuildCall2(b, fnty, fn, args, 2, "");
	LLVMReplaceAllUsesWith(inst, call);
	LLVMInstructionEraseFromParent(inst);
	return true;
}

/* NVPTX's address-space inference, which LLVM's pipeline leaves to code
 * generation (from -O1 on): the state space of each atomic's pointer */
static bool infer_address_spaces(EmitCtx *e)
{
	LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
	LLVMErrorRef err = LLVMRunPasses(e->mod, "function(infer-address-spaces)", e->tm, po);
	LLVMDisposePassBuilderOptions(po);
	if (!err)
		return true;
	char *msg = LLVMGetErrorMessage(err);
	diag_error(OX_BACKEND, "oxidec", "LLVM pass infer-address-spaces: %s", msg);
	LLVMDisposeErrorMessage(msg);
	return false;
}

bool emit_nvptx_atomics(EmitCtx *e)
{
	if (e->target->kind != TARGET_NVPTX)
		return true;
	if (e->opt.opt_level > 0 && !infer_address_spaces(e))     /* -O0: generic, as everything else */
		return false;
	LLVMBuilderRef b = LLVMCreateBuilderInContext(e->ctx);
	bool ok = true;
	for (LLVMValueRef f = LLVMGetFirstFunction(e->mod); f; f = LLVMGetNextFunction(f))
		for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
			for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
				next = LLVMGetNextInstruction(i);
				if (LLVMGetInstructionOpcode(i) == LLVMAtomicRMW)
					ok = rewrite_rmw(e, b, i) && ok;
			}
	LLVMDisposeBuilder(b);
	return ok;
}
