/* libdevice.c: link NVIDIA's libdevice (the CUDA toolkit's
 * nvvm/libdevice/libdevice.10.bc) into the module, in-process, when the
 * module calls any of its __nv_* functions (math; exact float remainder).
 * libdevice is read lazily and its functions made linkonce_odr, so the
 * linker reads and links only the functions the module calls and theirs
 * (a full parse of the 470 KB of bitcode took 45 ms, about twice the
 * whole compile of a kernel without math); what it links becomes
 * internal.  NVPTX's NVVMReflect pass resolves libdevice's __nvvm_reflect
 * queries (no flush-to-zero: "nvvm-reflect-ftz" is 0). */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "emit_impl.h"

#ifndef CUDA_HOME
#define CUDA_HOME "/usr/local/cuda"
#endif

static bool uses_libdevice(LLVMModuleRef mod)
{
	for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
		size_t n;
		const char *name = LLVMGetValueName2(f, &n);
		if (LLVMIsDeclaration(f) && n > 5 && !strncmp(name, "__nv_", 5))
			return true;
	}
	return false;
}

static const char *libdevice_path(char *buf, size_t n)
{
	const char *p = getenv("OXIDEC_LIBDEVICE");
	if (p && *p)
		return p;
	const char *home = getenv("CUDA_HOME");
	snprintf(buf, n, "%s/nvvm/libdevice/libdevice.10.bc", home && *home ? home : CUDA_HOME);
	return buf;
}

static LLVMModuleRef load_libdevice(EmitCtx *e)
{
	char buf[1024], *msg = NULL;
	const char *path = libdevice_path(buf, sizeof buf);
	LLVMMemoryBufferRef mb;
	if (LLVMCreateMemoryBufferWithContentsOfFile(path, &mb, &msg)) {
		diag_error(OX_ENV, "oxidec", "cannot read libdevice %s: %s (set CUDA_HOME or OXIDEC_LIBDEVICE)", path,
		           msg ? msg : "?");
		LLVMDisposeMessage(msg);
		return NULL;
	}
	LLVMModuleRef lib = NULL;
	bool bad = LLVMGetBitcodeModuleInContext2(e->ctx, mb, &lib);   /* lib owns mb */
	if (bad) {
		diag_error(OX_ENV, "oxidec", "%s is not valid LLVM bitcode", path);
		return NULL;
	}
	LLVMSetTarget(lib, LLVMGetTarget(e->mod));
	LLVMSetDataLayout(lib, LLVMGetDataLayoutStr(e->mod));
	/* linked only where referenced, their bodies read only then */
	for (LLVMValueRef f = LLVMGetFirstFunction(lib); f; f = LLVMGetNextFunction(f))
		if (!LLVMIsDeclaration(f) && LLVMGetLinkage(f) == LLVMExternalLinkage)
			LLVMSetLinkage(f, LLVMLinkOnceODRLinkage);
	return lib;
}

/* Everything libdevice brought in is internal to this module. */
static void internalize_libdevice(LLVMModuleRef mod)
{
	for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
		const char *name = LLVMGetValueName2(f, &(size_t){ 0 });
		if (!LLVMIsDeclaration(f) && !strncmp(name, "__nv_", 5))
			LLVMSetLinkage(f, LLVMInternalLinkage);
	}
	for (LLVMValueRef g = LLVMGetFirstGlobal(mod); g; g = LLVMGetNextGlobal(g)) {
		const char *name = LLVMGetValueName2(g, &(size_t){ 0 });
		if (!LLVMIsDeclaration(g) && !strncmp(name, "__nv_", 5))
			LLVMSetLinkage(g, LLVMInternalLinkage);
	}
}

bool emit_link_libdevice(EmitCtx *e)
{
	if (e->target->kind != TARGET_NVPTX || !uses_libdevice(e->mod))
		return true;
	LLVMModuleRef lib = load_libdevice(e);
	if (!lib)
		return false;
	if (LLVMLinkModules2(e->mod, lib)) {       /* consumes lib */
		diag_error(OX_BACKEND, "oxidec", "linking libdevice failed");
		return false;
	}
	internalize_libdevice(e->mod);
	LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
	LLVMErrorRef err = LLVMRunPasses(e->mod, "globaldce", e->tm, po);
	LLVMDisposePassBuilderOptions(po);
	if (err) {
		char *m = LLVMGetErrorMessage(err);
		diag_error(OX_BACKEND, "oxidec", "after linking libdevice: %s", m);
		LLVMDisposeErrorMessage(m);
		return false;
	}
	return true;
}
