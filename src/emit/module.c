/* module.c: llir-dialect Module -> LLVM module (stage "ll").
 *
 * Reads: a Module whose functions use only llir ops (nvvm ops were turned
 * into llir.intrinsic calls, or on the host target into calls of extern
 * functions, by the llir lowering).  Makes: one LLVM module with the
 * target's triple and data layout, verified.  On the host target kernels
 * keep the C calling convention, and host.c adds the launch trampolines.
 *
 * Order: every global is declared, then initialized (initializers may point
 * at each other); every function is declared, then given a body (calls may
 * point forward).  A body is translated in reverse postorder so each value
 * is defined before its uses; blocks no path reaches are dropped.  Block
 * arguments become phis, created for every block before any op, and
 * filled by the branches as they are built (emit_succ_dest).
 *
 * Conventions read from the IR: the entry block's arguments are the
 * function's parameters, in order.  Allocas go into a prologue block ahead
 * of the entry block, so they are static wherever the llir put them; the
 * prologue is dropped again when it stays empty. */
#include "emit_impl.h"

#include <llvm-c/Analysis.h>

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

LLVMTypeRef emit_type(EmitCtx *e, const Type *t)
{
	switch (t->kind) {
	case TY_VOID: return LLVMVoidTypeInContext(e->ctx);
	case TY_BOOL: return LLVMInt1TypeInContext(e->ctx);
	case TY_INT: return t->bits ? LLVMIntTypeInContext(e->ctx, t->bits) : NULL;
	case TY_PTR: return LLVMPointerTypeInContext(e->ctx, t->addrspace);
	case TY_FLOAT:
		if (t->bits == 16)
			return LLVMHalfTypeInContext(e->ctx);
		if (t->bits == 32)
			return LLVMFloatTypeInContext(e->ctx);
		if (t->bits == 64)
			return LLVMDoubleTypeInContext(e->ctx);
		return NULL;
	}
	return NULL;
}

void emit_op_error(FuncEmit *fe, const Op *op, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	Module *m = fe->m;
	if (op && op->loc.file >= 0 && (uint32_t)op->loc.file < m->nfile)
		diag_error(OX_INTERNAL, "oxidec", "%s:%u:%u: in %s: %s: %s", m->files[op->loc.file], op->loc.line, op->loc.col,
		           fe->f->symbol, opinfo[op->code].name, msg);
	else if (op)
		diag_error(OX_INTERNAL, "oxidec", "in %s: %s: %s", fe->f->symbol, opinfo[op->code].name, msg);
	else
		diag_error(OX_INTERNAL, "oxidec", "in %s: %s", fe->f->symbol, msg);
	fe->failed = true;
}

/* ------------------------------------------------------------ globals */

/* A global's bytes with relocations: a packed struct of byte runs and
 * 8-byte pointers, so the pointers stay symbolic for the PTX assembler. */
static LLVMTypeRef global_type(EmitCtx *e, Module *m, const Global *g)
{
	LLVMTypeRef i8 = LLVMInt8TypeInContext(e->ctx);
	if (!g->nreloc)
		return LLVMArrayType2(i8, g->size);
	LLVMTypeRef *fields = xmalloc(sizeof *fields * (2 * g->nreloc + 1));
	unsigned n = 0;
	uint64_t at = 0;
	for (uint32_t i = 0; i < g->nreloc; i++) {
		const Reloc *r = &g->relocs[i];
		Global *target = ir_global_find(m, r->target);
		if (r->offset > at)
			fields[n++] = LLVMArrayType2(i8, r->offset - at);
		fields[n++] = LLVMPointerTypeInContext(e->ctx, target ? target->addrspace : 0);
		at = r->offset + 8;
	}
	if (g->size > at)
		fields[n++] = LLVMArrayType2(i8, g->size - at);
	LLVMTypeRef t = LLVMStructTypeInContext(e->ctx, fields, n, 1);
	free(fields);
	return t;
}

static bool check_relocs(const Module *m, const Global *g)
{
	uint64_t at = 0;
	for (uint32_t i = 0; i < g->nreloc; i++) {
		const Reloc *r = &g->relocs[i];
		if (r->offset < at || r->offset + 8 > g->size) {
			diag_error(OX_INPUT, "oxidec", "global %s: relocation at offset %" PRIu64 " is out of order, overlaps or is out of bounds",
			           g->name, r->offset);
			return false;
		}
		if (!ir_global_find((Module *)m, r->target) && !ir_func_find((Module *)m, r->target)) {
			diag_error(OX_INPUT, "oxidec", "global %s: relocation to unknown symbol '%s'", g->name, r->target);
			return false;
		}
		at = r->offset + 8;
	}
	return true;
}

static bool declare_global(EmitCtx *e, Module *m, Global *g)
{
	if (!check_relocs(m, g))
		return false;
	if (LLVMGetNamedGlobal(e->mod, g->name)) {
		diag_error(OX_INPUT, "oxidec", "global %s defined twice", g->name);
		return false;
	}
	LLVMTypeRef gt = g->is_extern ? LLVMArrayType2(LLVMInt8TypeInContext(e->ctx), 0) : global_type(e, m, g);
	LLVMValueRef gv = LLVMAddGlobalInAddressSpace(e->mod, gt, g->name, g->addrspace);
	/* exported (constant memory, set by the host by name) and extern
	 * (dynamic shared memory) globals keep external linkage */
	LLVMSetLinkage(gv, g->is_exported || g->is_extern ? LLVMExternalLinkage : LLVMInternalLinkage);
	LLVMSetGlobalConstant(gv, !g->is_mut);
	if (g->align)
		LLVMSetAlignment(gv, g->align);
	return true;
}

static uint64_t read_u64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The pointer a relocation stores: the target's address (in the target's
 * own address space, as LLVM types it) plus the addend rustc left in the
 * bytes at the relocation's offset. */
static LLVMValueRef reloc_value(EmitCtx *e, const Global *g, const Reloc *r)
{
	LLVMValueRef target = LLVMGetNamedGlobal(e->mod, r->target);
	if (!target)
		target = LLVMGetNamedFunction(e->mod, r->target);
	uint64_t addend = g->bytes ? read_u64(g->bytes + r->offset) : 0;
	if (!addend)
		return target;
	LLVMTypeRef i8 = LLVMInt8TypeInContext(e->ctx);
	LLVMValueRef idx = LLVMConstInt(LLVMInt64TypeInContext(e->ctx), addend, 0);
	return LLVMConstGEP2(i8, target, &idx, 1);
}

static LLVMValueRef byte_run(EmitCtx *e, const Global *g, uint64_t from, uint64_t to)
{
	if (g->bytes)
		return LLVMConstStringInContext2(e->ctx, (const char *)g->bytes + from, to - from, 1);
	return LLVMConstNull(LLVMArrayType2(LLVMInt8TypeInContext(e->ctx), to - from));
}

static LLVMValueRef global_init(EmitCtx *e, const Global *g, LLVMTypeRef t)
{
	if (!g->nreloc)
		return byte_run(e, g, 0, g->size);
	LLVMValueRef *fields = xmalloc(sizeof *fields * (2 * g->nreloc + 1));
	unsigned n = 0;
	uint64_t at = 0;
	for (uint32_t i = 0; i < g->nreloc; i++) {
		const Reloc *r = &g->relocs[i];
		if (r->offset > at)
			fields[n++] = byte_run(e, g, at, r->offset);
		fields[n++] = reloc_value(e, g, r);
		at = r->offset + 8;
	}
	if (g->size > at)
		fields[n++] = byte_run(e, g, at, g->size);
	LLVMValueRef init = LLVMConstNamedStruct(t, fields, n);
	free(fields);
	return init;
}

/* Shared memory cannot be initialized in PTX: it starts undefined. */
static void define_global(EmitCtx *e, Global *g)
{
	LLVMValueRef gv = LLVMGetNamedGlobal(e->mod, g->name);
	LLVMTypeRef t = LLVMGlobalGetValueType(gv);
	if (g->is_extern)
		return;
	if (g->addrspace == AS_SHARED)
		LLVMSetInitializer(gv, LLVMGetUndef(t));
	else
		LLVMSetInitializer(gv, global_init(e, g, t));
}

/* ---------------------------------------------------------- functions */

static bool param_types(EmitCtx *e, Func *f, LLVMTypeRef *out)
{
	for (uint32_t i = 0; i < f->nparam; i++) {
		const Param *p = &f->params[i];
		out[i] = emit_type(e, p->type);
		if (!out[i] || p->type->kind == TY_VOID) {
			diag_error(OX_INTERNAL, "oxidec", "function %s: parameter %u has no LLVM type", f->symbol, i);
			return false;
		}
		if (p->byval_size && p->type->kind != TY_PTR) {
			diag_error(OX_INTERNAL, "oxidec", "function %s: byval parameter %u is not a pointer", f->symbol, i);
			return false;
		}
	}
	return true;
}

/* ptr byval([size x i8]) align A: NVPTX passes it as a .param byte array.
 * A grid constant (Param.grid_constant) also gets LLVM 22's
 * "nvvm.grid_constant" attribute: NVPTXLowerArgs then gives its address
 * as cvta.param where it escapes (a TMA copy's tensor map) instead of
 * copying the parameter into local memory. */
static void add_byval(EmitCtx *e, LLVMValueRef fn, unsigned i, const Param *p)
{
	static const char gc[] = "nvvm.grid_constant";
	LLVMTypeRef bytes = LLVMArrayType2(LLVMInt8TypeInContext(e->ctx), p->byval_size);
	unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
	unsigned align = LLVMGetEnumAttributeKindForName("align", 5);
	LLVMAddAttributeAtIndex(fn, i + 1, LLVMCreateTypeAttribute(e->ctx, byval, bytes));
	if (p->byval_align)
		LLVMAddAttributeAtIndex(fn, i + 1, LLVMCreateEnumAttribute(e->ctx, align, p->byval_align));
	if (p->grid_constant && e->target->kind == TARGET_NVPTX)
		LLVMAddAttributeAtIndex(fn, i + 1, LLVMCreateStringAttribute(e->ctx, gc, sizeof gc - 1, "", 0));
}

/* What Rust promises of a pointer parameter (Param: noalias, readonly,
 * align, dereferenceable), as rustc's own LLVM backend says it. */
static void add_facts(EmitCtx *e, LLVMValueRef fn, unsigned i, const Param *p)
{
	static const char *names[] = { "noalias", "readonly", "nonnull", "align", "dereferenceable" };
	uint64_t vals[] = { p->noalias, p->readonly, p->nonnull, p->align > 1 ? p->align : 0, p->deref };
	for (unsigned k = 0; k < 5; k++)
		if (vals[k]) {
			unsigned kind = LLVMGetEnumAttributeKindForName(names[k], strlen(names[k]));
			LLVMAddAttributeAtIndex(fn, i + 1, LLVMCreateEnumAttribute(e->ctx, kind, k < 3 ? 0 : vals[k]));
		}
}

/* Kernels keep their names in PTX (the host looks them up); LLVM renames
 * internal symbols with characters PTX does not allow, but not these. */
static bool is_ptx_identifier(const char *s)
{
	if (!*s || isdigit((unsigned char)*s))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '$')
			return false;
	return true;
}

static bool declare_func(EmitCtx *e, Func *f)
{
	LLVMTypeRef ret = emit_type(e, f->ret);
	LLVMTypeRef *params = xmalloc(sizeof *params * (f->nparam + 1));
	bool ok = ret && param_types(e, f, params);
	if (ok && f->is_kernel && f->ret->kind != TY_VOID) {
		diag_error(OX_INPUT, "oxidec", "kernel %s must return ()", f->symbol);
		ok = false;
	}
	if (ok && f->is_kernel && !is_ptx_identifier(f->symbol)) {
		diag_error(OX_INPUT, "oxidec", "kernel name '%s' is not a valid PTX identifier", f->symbol);
		ok = false;
	}
	if (ok && (LLVMGetNamedFunction(e->mod, f->symbol) || LLVMGetNamedGlobal(e->mod, f->symbol))) {
		diag_error(OX_INPUT, "oxidec", "function %s defined twice", f->symbol);
		ok = false;
	}
	if (ok) {
		LLVMValueRef fn = LLVMAddFunction(e->mod, f->symbol, LLVMFunctionType(ret, params, f->nparam, 0));
		for (uint32_t i = 0; i < f->nparam; i++) {
			if (f->params[i].byval_size)
				add_byval(e, fn, i, &f->params[i]);
			else
				add_facts(e, fn, i, &f->params[i]);
			if (f->params[i].name && *f->params[i].name)
				LLVMSetValueName2(LLVMGetParam(fn, i), f->params[i].name, strlen(f->params[i].name));
		}
		/* Kernels are entry points found by name; device functions stay
		 * internal so LLVM may inline and drop them.  A function without
		 * blocks is a declaration and must stay external. */
		LLVMSetLinkage(fn, f->is_kernel || !f->first ? LLVMExternalLinkage : LLVMInternalLinkage);
		if (f->noinline && f->first) {
			unsigned k = LLVMGetEnumAttributeKindForName("noinline", 8);
			LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(e->ctx, k, 0));
		}
		if (f->is_kernel && e->target->kind == TARGET_NVPTX) {
			LLVMSetFunctionCallConv(fn, LLVMPTXKernelCallConv);
			/* launch attributes: LLVM 22's NVPTX reads these string
			 * attributes and prints .maxntid / .minnctapersm / .reqntid,
			 * and for nvvm.cluster_dim ("x,y,z") .explicitcluster and
			 * .reqnctapercluster */
			char cluster[40];
			snprintf(cluster, sizeof cluster, "%u,%u,%u", f->cluster[0], f->cluster[1], f->cluster[2]);
			const char *kv[4][2] = { { "nvvm.maxntid", f->maxntid }, { "nvvm.minctasm", f->minnctapersm },
			                         { "nvvm.reqntid", f->reqntid },
			                         { "nvvm.cluster_dim", f->cluster[0] ? cluster : NULL } };
			for (int k = 0; k < 4; k++)
				if (kv[k][1])
					LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
					                        LLVMCreateStringAttribute(e->ctx, kv[k][0], (unsigned)strlen(kv[k][0]),
					                                                  kv[k][1], (unsigned)strlen(kv[k][1])));
		}
	}
	free(params);
	return ok;
}

/* ------------------------------------------------------------- bodies */

static uint32_t number_blocks(Func *f)
{
	uint32_t n = 0;
	for (Block *b = f->first; b; b = b->next) {
		b->num = n++;
		b->aux = NULL;
		for (uint32_t i = 0; i < b->nargs; i++)
			b->args[i]->aux = NULL;
		for (Op *op = b->first; op; op = op->next)
			for (uint32_t i = 0; i < op->nres; i++)
				op->res[i].aux = NULL;
	}
	return n;
}

/* Reverse postorder of the blocks reachable from the entry; returns how
 * many and marks them in seen[num].  Iterative DFS: a stack of (block,
 * next successor index). */
static uint32_t compute_rpo(Func *f, uint32_t nblock, Block **rpo, bool *seen)
{
	memset(seen, 0, nblock);
	Block **stack = xmalloc(sizeof *stack * (nblock + 1));
	uint32_t *next = xmalloc(sizeof *next * (nblock + 1));
	uint32_t sp = 0, npost = 0;
	stack[sp] = f->first, next[sp++] = 0, seen[f->first->num] = true;
	while (sp) {
		Block *b = stack[sp - 1];
		Op *t = ir_block_terminator(b);
		uint32_t nsucc = t ? t->nsucc : 0;
		if (next[sp - 1] < nsucc) {
			Block *s = t->succ[next[sp - 1]++].block;
			if (s && s->func == f && !seen[s->num]) {
				seen[s->num] = true;
				stack[sp] = s, next[sp++] = 0;
			}
			continue;
		}
		rpo[npost++] = b;
		sp--;
	}
	for (uint32_t i = 0; i < npost / 2; i++) {
		Block *tmp = rpo[i];
		rpo[i] = rpo[npost - 1 - i];
		rpo[npost - 1 - i] = tmp;
	}
	free(stack);
	free(next);
	return npost;
}

static bool entry_has_preds(Func *f)
{
	for (Block *b = f->first; b; b = b->next) {
		Op *t = ir_block_terminator(b);
		for (uint32_t i = 0; t && i < t->nsucc; i++)
			if (t->succ[i].block == f->first)
				return true;
	}
	return false;
}

static bool check_entry_args(FuncEmit *fe)
{
	Func *f = fe->f;
	if (f->first->nargs != f->nparam) {
		emit_op_error(fe, NULL, "entry block has %u arguments for %u parameters", f->first->nargs, f->nparam);
		return false;
	}
	for (uint32_t i = 0; i < f->nparam; i++)
		if (f->first->args[i]->type != f->params[i].type) {
			emit_op_error(fe, NULL, "entry block argument %u differs in type from its parameter", i);
			return false;
		}
	return true;
}

static bool make_phis(FuncEmit *fe, Block *b)
{
	LLVMPositionBuilderAtEnd(fe->b, b->aux);
	for (uint32_t i = 0; i < b->nargs; i++) {
		LLVMTypeRef t = emit_type(fe->e, b->args[i]->type);
		if (!t || b->args[i]->type->kind == TY_VOID) {
			emit_op_error(fe, NULL, "block argument %u of block %u has no LLVM type", i, b->num);
			return false;
		}
		b->args[i]->aux = LLVMBuildPhi(fe->b, t, "");
	}
	return true;
}

/* Blocks in IR order (so the PTX follows the IR), a phi per argument.
 * The entry's arguments are the parameters themselves unless something
 * branches back to the entry: then they are phis fed by the prologue. */
static bool make_blocks(FuncEmit *fe, const bool *reachable)
{
	bool entry_phis = fe->entry_phis;
	for (Block *b = fe->f->first; b; b = b->next)
		if (reachable[b->num])
			b->aux = LLVMAppendBasicBlockInContext(fe->e->ctx, fe->fn, "");
	for (Block *b = fe->f->first; b; b = b->next) {
		if (!b->aux)
			continue;
		if (b == fe->f->first && !entry_phis)
			for (uint32_t i = 0; i < b->nargs; i++)
				b->args[i]->aux = LLVMGetParam(fe->fn, i);
		else if (!make_phis(fe, b))
			return false;
	}
	if (entry_phis)
		for (uint32_t i = 0; i < fe->f->first->nargs; i++) {
			LLVMValueRef param = LLVMGetParam(fe->fn, i);
			LLVMAddIncoming(fe->f->first->args[i]->aux, &param, &fe->prologue, 1);
		}
	return true;
}

static bool emit_block(FuncEmit *fe, Block *b)
{
	LLVMPositionBuilderAtEnd(fe->b, b->aux);
	if (!ir_block_terminator(b)) {
		emit_op_error(fe, NULL, "block %u has no terminator", b->num);
		return false;
	}
	for (Op *op = b->first; op; op = op->next) {
		if (op_is_terminator(op) && op != b->last) {
			emit_op_error(fe, op, "terminator in the middle of block %u", b->num);
			return false;
		}
		emit_debug_loc(fe, op);
		if (!emit_op(fe, op))
			return false;
	}
	return true;
}

static bool emit_body_blocks(FuncEmit *fe)
{
	Func *f = fe->f;
	uint32_t nblock = number_blocks(f);
	Block **rpo = xmalloc(sizeof *rpo * nblock);
	bool *reachable = xmalloc(nblock);
	uint32_t nrpo = compute_rpo(f, nblock, rpo, reachable);
	fe->entry_phis = entry_has_preds(f);
	bool ok = check_entry_args(fe) && make_blocks(fe, reachable);
	for (uint32_t i = 0; ok && i < nrpo; i++)
		ok = emit_block(fe, rpo[i]);
	free(reachable);
	free(rpo);
	return ok;
}

static bool emit_body(EmitCtx *e, Module *m, Func *f)
{
	FuncEmit fe = {.e = e, .m = m, .f = f};
	fe.fn = LLVMGetNamedFunction(e->mod, f->symbol);
	fe.b = LLVMCreateBuilderInContext(e->ctx);
	fe.alloca_b = LLVMCreateBuilderInContext(e->ctx);
	fe.prologue = LLVMAppendBasicBlockInContext(e->ctx, fe.fn, "prologue");
	LLVMPositionBuilderAtEnd(fe.alloca_b, fe.prologue);
	emit_debug_func(&fe);
	bool ok = emit_body_blocks(&fe);
	/* Without allocas the prologue would only cost a branch at -O0. */
	if (ok && !LLVMGetFirstInstruction(fe.prologue) && !fe.entry_phis)
		LLVMDeleteBasicBlock(fe.prologue);
	else if (ok)
		LLVMBuildBr(fe.alloca_b, f->first->aux);
	ok = ok && emit_loop_hints(&fe);   /* on the whole CFG, prologue included */
	emit_debug_func_end(&fe, ok);
	free(fe.hints);
	LLVMDisposeBuilder(fe.alloca_b);
	LLVMDisposeBuilder(fe.b);
	return ok && !fe.failed;
}

/* ----------------------------------------------------------- branches */

/* The LLVM block a branch of `op` jumps to for successor i, after adding
 * the successor's arguments to its phis.  When a terminator reaches the
 * same block twice (a switch, a condbr with both arms alike) a phi could
 * not tell the edges apart, so each repeated edge goes through a block of
 * its own. */
LLVMBasicBlockRef emit_succ_dest(FuncEmit *fe, Op *op, uint32_t i)
{
	Succ *s = &op->succ[i];
	Block *target = s->block;
	if (!target || target->func != fe->f || !target->aux) {
		emit_op_error(fe, op, "successor %u is not a block of this function", i);
		return NULL;
	}
	if (s->nargs != target->nargs) {
		emit_op_error(fe, op, "successor %u passes %u arguments to a block of %u", i, s->nargs, target->nargs);
		return NULL;
	}
	LLVMBasicBlockRef from = LLVMGetInsertBlock(fe->b), dest = target->aux;
	bool repeated = false;
	for (uint32_t k = 0; k < i; k++)
		repeated |= op->succ[k].block == target;
	if (repeated && target->nargs) {
		dest = LLVMAppendBasicBlockInContext(fe->e->ctx, fe->fn, "edge");
		LLVMPositionBuilderAtEnd(fe->b, dest);
		LLVMBuildBr(fe->b, target->aux);
		LLVMPositionBuilderAtEnd(fe->b, from);
		from = dest;
	}
	for (uint32_t k = 0; k < s->nargs; k++) {
		LLVMValueRef v = s->args[k]->aux;
		if (!v || s->args[k]->type != target->args[k]->type) {
			emit_op_error(fe, op, "successor %u argument %u is %s", i, k, v ? "of the wrong type" : "undefined here");
			return NULL;
		}
		LLVMAddIncoming(target->args[k]->aux, &v, &from, 1);
	}
	return dest;
}

/* ------------------------------------------------------------- module */

static bool verify(EmitCtx *e)
{
	char *msg = NULL;
	if (LLVMVerifyModule(e->mod, LLVMReturnStatusAction, &msg)) {
		diag_error(OX_INTERNAL, "oxidec", "LLVM module is invalid (bug in oxidec's llir lowering?):\n%s", msg);
		LLVMDisposeMessage(msg);
		return false;
	}
	LLVMDisposeMessage(msg);
	return true;
}

static void new_llvm_module(EmitCtx *e)
{
	if (e->mod)
		LLVMDisposeModule(e->mod);
	e->mod = LLVMModuleCreateWithNameInContext("oxidec", e->ctx);
	LLVMSetTarget(e->mod, e->triple);
	LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(e->tm);
	LLVMSetModuleDataLayout(e->mod, dl);
	LLVMDisposeTargetData(dl);
}

bool emit_module(EmitCtx *e, Module *m)
{
	new_llvm_module(e);
	bool ok = m->target == e->target;
	if (!ok)
		diag_error(OX_INTERNAL, "oxidec", "a module for target %s given to the emitter of %s",
		           m->target ? m->target->name : "(none)", e->target->name);
	for (Global *g = m->globals; g && ok; g = g->next)
		ok = declare_global(e, m, g);
	for (Func *f = m->funcs; f && ok; f = f->next)
		ok = declare_func(e, f);
	for (Global *g = m->globals; g && ok; g = g->next)
		define_global(e, g);
	if (ok)
		emit_debug_begin(e, m);
	for (Func *f = m->funcs; f && ok; f = f->next)
		if (f->first)
			ok = emit_body(e, m, f);
	if (ok && e->target->kind == TARGET_HOST)
		ok = emit_host_entries(e, m);
	emit_debug_end(e);
	ok = ok && verify(e) && emit_link_libdevice(e);
	if (!ok) {
		LLVMDisposeModule(e->mod);
		e->mod = NULL;
	}
	return ok;
}
