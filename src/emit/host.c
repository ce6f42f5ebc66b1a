/* host.c: what the host target adds to the LLVM module so the emulator
 * (src/runtime/oxemu.c) can run its kernels without knowing their
 * signatures:
 *
 *   void __oxide_launch_K(void **args)   for each kernel K: args[i] points
 *       at the value of K's i-th parameter exactly as cuLaunchKernel reads
 *       them (a byval parameter: at its bytes); loads each value and calls K
 *   const char __oxide_kernels[]         "K1\0K2\0...\0": the kernel names,
 *       so the runtime can list them when a name is not found
 *   const unsigned __oxide_cluster_K[3]  for a kernel with #[kernel(cluster(..))]:
 *       its blocks per cluster, which every launch of K uses
 *   const unsigned __oxide_static_shared_bytes[1]  the size of the block's
 *       static shared memory, which the emulator allocates per block (stage
 *       4, nvvm_host.c, made the Shared<T> statics offsets in it)
 *
 * The call of K is marked alwaysinline: the kernel's body ends up in its
 * trampoline, so no call goes through the PLT, where a same-named symbol
 * of the host program (exported by -rdynamic) could interpose.  K itself
 * stays an exported C function a debugger or a C test can call.
 *
 * Runs after every body is emitted, before the module is verified. */
#include "emit_impl.h"

#include <stdlib.h>
#include <string.h>

static bool symbol_is_free(EmitCtx *e, const char *name, const char *why)
{
	if (!LLVMGetNamedFunction(e->mod, name) && !LLVMGetNamedGlobal(e->mod, name))
		return true;
	diag_error(OX_INPUT, "oxidec", "symbol %s (%s) is already defined by the input", name, why);
	return false;
}

/* The value of parameter i, read through args[i]. */
static LLVMValueRef load_param(EmitCtx *e, LLVMBuilderRef b, LLVMValueRef args, uint32_t i, const Param *p)
{
	LLVMTypeRef ptr = LLVMPointerTypeInContext(e->ctx, 0);
	LLVMValueRef idx = LLVMConstInt(LLVMInt64TypeInContext(e->ctx), i, 0);
	LLVMValueRef at = LLVMBuildLoad2(b, ptr, LLVMBuildInBoundsGEP2(b, ptr, args, &idx, 1, ""), "");
	if (p->byval_size)
		return at;
	bool is_bool = p->type->kind == TY_BOOL;   /* a byte in memory, like Rust's bool */
	LLVMTypeRef t = is_bool ? LLVMInt8TypeInContext(e->ctx) : emit_type(e, p->type);
	LLVMValueRef v = LLVMBuildLoad2(b, t, at, "");
	LLVMSetAlignment(v, 1);     /* the host program's variable: make no claim */
	return is_bool ? LLVMBuildTrunc(b, v, LLVMInt1TypeInContext(e->ctx), "") : v;
}

/* The call must pass byval arguments the way the kernel expects them. */
static void add_call_attrs(EmitCtx *e, LLVMValueRef call, const Func *f)
{
	unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
	unsigned align = LLVMGetEnumAttributeKindForName("align", 5);
	unsigned inl = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
	LLVMTypeRef i8 = LLVMInt8TypeInContext(e->ctx);
	for (uint32_t i = 0; i < f->nparam; i++) {
		const Param *p = &f->params[i];
		if (!p->byval_size)
			continue;
		LLVMAddCallSiteAttribute(call, i + 1,
		                         LLVMCreateTypeAttribute(e->ctx, byval, LLVMArrayType2(i8, p->byval_size)));
		if (p->byval_align)
			LLVMAddCallSiteAttribute(call, i + 1, LLVMCreateEnumAttribute(e->ctx, align, p->byval_align));
	}
	LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(e->ctx, inl, 0));
}

static bool emit_trampoline(EmitCtx *e, Func *f)
{
	char *name = xmalloc(strlen(f->symbol) + sizeof "__oxide_launch_");
	sprintf(name, "__oxide_launch_%s", f->symbol);
	bool ok = symbol_is_free(e, name, "a kernel's launch trampoline");
	if (ok) {
		LLVMTypeRef ptr = LLVMPointerTypeInContext(e->ctx, 0);
		LLVMValueRef fn = LLVMAddFunction(e->mod, name, LLVMFunctionType(LLVMVoidTypeInContext(e->ctx), &ptr, 1, 0));
		LLVMValueRef kernel = LLVMGetNamedFunction(e->mod, f->symbol);
		LLVMValueRef *vals = xmalloc(sizeof *vals * (f->nparam + 1));
		LLVMBuilderRef b = LLVMCreateBuilderInContext(e->ctx);
		LLVMSetValueName2(LLVMGetParam(fn, 0), "args", 4);
		LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(e->ctx, fn, "entry"));
		emit_debug_trampoline(e, fn, b, f);
		for (uint32_t i = 0; i < f->nparam; i++)
			vals[i] = load_param(e, b, LLVMGetParam(fn, 0), i, &f->params[i]);
		LLVMValueRef call = LLVMBuildCall2(b, LLVMGlobalGetValueType(kernel), kernel, vals, f->nparam, "");
		add_call_attrs(e, call, f);
		LLVMBuildRetVoid(b);
		LLVMDisposeBuilder(b);
		free(vals);
	}
	free(name);
	return ok;
}

static bool emit_kernel_names(EmitCtx *e, Module *m)
{
	size_t n = 1;
	for (Func *f = m->funcs; f; f = f->next)
		if (f->is_kernel)
			n += strlen(f->symbol) + 1;
	char *names = xmalloc(n), *p = names;
	for (Func *f = m->funcs; f; f = f->next)
		if (f->is_kernel)
			p = stpcpy(p, f->symbol) + 1;
	*p = 0;
	bool ok = symbol_is_free(e, "__oxide_kernels", "the kernel name list");
	if (ok) {
		LLVMValueRef init = LLVMConstStringInContext2(e->ctx, names, n, 1);
		LLVMValueRef g = LLVMAddGlobal(e->mod, LLVMTypeOf(init), "__oxide_kernels");
		LLVMSetInitializer(g, init);
		LLVMSetGlobalConstant(g, 1);
	}
	free(names);
	return ok;
}

/* A global constant of n u32 values, exported under name. */
static bool emit_u32s(EmitCtx *e, const char *name, const char *why, const uint32_t *v, unsigned n)
{
	if (!symbol_is_free(e, name, why))
		return false;
	LLVMTypeRef i32 = LLVMInt32TypeInContext(e->ctx);
	LLVMValueRef vals[3];
	for (unsigned i = 0; i < n; i++)
		vals[i] = LLVMConstInt(i32, v[i], 0);
	LLVMValueRef init = LLVMConstArray2(i32, vals, n);
	LLVMValueRef g = LLVMAddGlobal(e->mod, LLVMTypeOf(init), name);
	LLVMSetInitializer(g, init);
	LLVMSetGlobalConstant(g, 1);
	return true;
}

/* const unsigned __oxide_cluster_K[3]: kernel K's blocks per cluster */
static bool emit_cluster_dims(EmitCtx *e, Func *f)
{
	if (!f->cluster[0])
		return true;
	char *name = xmalloc(strlen(f->symbol) + sizeof "__oxide_cluster_");
	sprintf(name, "__oxide_cluster_%s", f->symbol);
	bool ok = emit_u32s(e, name, "a kernel's cluster dimensions", f->cluster, 3);
	free(name);
	return ok;
}

bool emit_host_entries(EmitCtx *e, Module *m)
{
	bool ok = true;
	for (Func *f = m->funcs; f && ok; f = f->next)
		if (f->is_kernel)
			ok = emit_trampoline(e, f) && emit_cluster_dims(e, f);
	uint32_t bytes = m->static_shared_bytes;
	return ok && emit_kernel_names(e, m) &&
	       emit_u32s(e, "__oxide_static_shared_bytes", "the size of the static shared memory", &bytes, 1);
}
