/* target.c: the target machine and everything done to a finished LLVM
 * module — optimization with the new pass manager, the textual IR of stage
 * "ll", PTX of stage "ptx" (NVPTX) or the object file of stage "obj" (the
 * host target) — plus the lifetime of an EmitCtx.
 *
 * Host target: LLVM's default triple, CPU "generic" (the baseline ISA, so
 * the object runs on any machine of that architecture and no FMA
 * instruction is even available), PIC (the object goes into a shared
 * object).  The same rule as below keeps a*b+c rounding twice.
 *
 * Floating point: Rust forbids contracting a*b+c into an fma.  The C API
 * cannot set TargetOptions::AllowFPOpFusion, but its default (Standard)
 * only fuses operations that carry the `contract` fast-math flag, which
 * instr.c never sets.  NVPTX then prints mul.rn.f32 / add.rn.f32: the
 * explicit rounding mode is what stops ptxas from contracting on its own.
 * We do not pass -nvptx-fma-level=0 through LLVMParseCommandLineOptions:
 * it is process-global, can be parsed once only, and would rule out an
 * opt-in contraction flag later.  tests/unit/test_emit.c checks the .rn. */
#include "emit_impl.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Error.h>
#include <llvm-c/ErrorHandling.h>
#include <llvm-c/Support.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include <stdlib.h>
#include <string.h>

static const char nvptx_triple[] = "nvptx64-nvidia-cuda";

/* Each processor LLVM 22 NVPTX knows, with the lowest PTX ISA version
 * that supports it (what LLVM itself would pick; measured with llc-22),
 * except sm_90: PTX ISA 8.0 rather than 7.8, since sm_90's own
 * instructions (cp.async.bulk and its tensor form, mbarrier expect_tx,
 * fence.proxy.async: the registry's REQUIRES "sm_90" rows) need 8.0 in
 * ptxas (CUDA 12.0 and later).  Naming the version explicitly keeps the
 * PTX header stable. */
static const struct {
	const char *arch;
	const char *ptx;
} arch_table[] = {
	{"sm_20", "+ptx32"}, {"sm_21", "+ptx32"}, {"sm_30", "+ptx32"}, {"sm_32", "+ptx40"},
	{"sm_35", "+ptx32"}, {"sm_37", "+ptx41"}, {"sm_50", "+ptx40"}, {"sm_52", "+ptx41"},
	{"sm_53", "+ptx42"}, {"sm_60", "+ptx50"}, {"sm_61", "+ptx50"}, {"sm_62", "+ptx50"},
	{"sm_70", "+ptx60"}, {"sm_72", "+ptx61"}, {"sm_75", "+ptx63"}, {"sm_80", "+ptx70"},
	{"sm_86", "+ptx71"}, {"sm_87", "+ptx74"}, {"sm_88", "+ptx90"}, {"sm_89", "+ptx78"},
	{"sm_90", "+ptx80"}, {"sm_90a", "+ptx80"},
	{"sm_100", "+ptx86"}, {"sm_100a", "+ptx86"}, {"sm_100f", "+ptx88"},
	{"sm_101", "+ptx86"}, {"sm_101a", "+ptx86"}, {"sm_101f", "+ptx88"},
	{"sm_103", "+ptx88"}, {"sm_103a", "+ptx88"}, {"sm_103f", "+ptx88"},
	{"sm_110", "+ptx90"}, {"sm_110a", "+ptx90"}, {"sm_110f", "+ptx90"},
	{"sm_120", "+ptx87"}, {"sm_120a", "+ptx87"}, {"sm_120f", "+ptx88"},
	{"sm_121", "+ptx88"}, {"sm_121a", "+ptx88"}, {"sm_121f", "+ptx88"},
};

static const char *arch_features(const char *arch)
{
	for (size_t i = 0; i < countof(arch_table); i++)
		if (!strcmp(arch_table[i].arch, arch))
			return arch_table[i].ptx;
	return NULL;
}

/* LLVM exits after a fatal error; say it in our format before it does. */
static void on_llvm_fatal(const char *reason)
{
	diag_error(OX_BACKEND, "oxidec", "LLVM: %s", reason);
}

static void init_llvm_once(void)
{
	static bool done;
	if (done)
		return;
	done = true;
	LLVMInitializeNVPTXTargetInfo();
	LLVMInitializeNVPTXTarget();
	LLVMInitializeNVPTXTargetMC();
	LLVMInitializeNVPTXAsmPrinter();
	LLVMInstallFatalErrorHandler(on_llvm_fatal);
	/* 32-bit pointers into shared, const and local memory, as nvcc makes
	 * them: shared-memory addresses are 32-bit registers and their
	 * arithmetic 32-bit instructions (the data layout's p3:32:32).  The
	 * option is process-global and read once, here; it only changes the
	 * NVPTX data layout. */
	const char *args[] = { "oxidec", "-nvptx-short-ptr" };
	LLVMParseCommandLineOptions(2, args, NULL);
}

static bool init_host_once(void)
{
	static int state;     /* 0: not yet, 1: ready, -1: no native target */
	if (!state)
		state = LLVMInitializeNativeTarget() || LLVMInitializeNativeAsmPrinter() ? -1 : 1;
	return state > 0;
}

/* Back-end diagnostics (e.g. an unsupported construct found during
 * instruction selection) become ours, so callers see them counted. */
static void on_llvm_diag(LLVMDiagnosticInfoRef di, void *unused)
{
	(void)unused;
	LLVMDiagnosticSeverity sev = LLVMGetDiagInfoSeverity(di);
	if (sev != LLVMDSError && sev != LLVMDSWarning)
		return;
	char *msg = LLVMGetDiagInfoDescription(di);
	if (sev == LLVMDSError)
		diag_error(OX_BACKEND, "oxidec", "LLVM: %s", msg);
	else
		diag_warning("oxidec", "LLVM: %s", msg);
	LLVMDisposeMessage(msg);
}

/* Code generation's level for -O<level>.  NVPTX's -O3 generates code at
 * LLVM's Default level, not Aggressive: the NVPTX back end's own
 * difference is the IR pass before instruction selection, GVN at
 * Aggressive and EarlyCSE below (NVPTXPassConfig::addEarlyCSEOrGVNPass;
 * the generic machine passes have a few Aggressive-only thresholds), and
 * the module reaching it has already had O3's GVN.  That second GVN was 16 % of
 * wgmma_forms' whole compile (callgrind: 383 of 2,447 M instructions,
 * its memory-dependence walks over the fragments' loads); without it 25
 * of the 31 examples' PTX is byte-identical and the other 6 differ by a
 * few instructions (BENCHMARKS.md, "Compile time"). */
static LLVMCodeGenOptLevel codegen_level(const EmitCtx *e, int level)
{
	static const LLVMCodeGenOptLevel levels[] = {
		LLVMCodeGenLevelNone, LLVMCodeGenLevelLess, LLVMCodeGenLevelDefault, LLVMCodeGenLevelAggressive,
	};
	if (e->target->kind == TARGET_NVPTX && level == 3)
		return LLVMCodeGenLevelDefault;
	return levels[level];
}

static LLVMTargetMachineRef create_target_machine(const EmitCtx *e, const char *features)
{
	LLVMTargetRef target;
	char *err = NULL;
	bool host = e->target->kind == TARGET_HOST;
	if (LLVMGetTargetFromTriple(e->triple, &target, &err)) {
		diag_error(OX_ENV, "oxidec", "no %s target in this LLVM: %s", host ? e->triple : "NVPTX", err ? err : "?");
		LLVMDisposeMessage(err);
		return NULL;
	}
	return LLVMCreateTargetMachine(target, e->triple, e->arch, features, codegen_level(e, e->opt.opt_level),
	                               host ? LLVMRelocPIC : LLVMRelocDefault, LLVMCodeModelDefault);
}

/* The triple and CPU of o's target into e; false after a diag_error. */
static bool choose_target(EmitCtx *e, const EmitOptions *o)
{
	if (e->target->kind != TARGET_HOST) {
		snprintf(e->triple, sizeof e->triple, "%s", nvptx_triple);
		snprintf(e->arch, sizeof e->arch, "%s", o->arch ? o->arch : "sm_90");
		return true;
	}
	if (!init_host_once()) {
		diag_error(OX_ENV, "oxidec", "this LLVM cannot generate code for the host it runs on");
		return false;
	}
	char *t = LLVMGetDefaultTargetTriple();
	snprintf(e->triple, sizeof e->triple, "%s", t);
	LLVMDisposeMessage(t);
	snprintf(e->arch, sizeof e->arch, "generic");
	return true;
}

EmitCtx *emit_new(const EmitOptions *o, const Target *t)
{
	const char *arch = o->arch ? o->arch : "sm_90";
	const char *features = t->kind == TARGET_HOST ? "" : arch_features(arch);
	if (!features) {
		diag_error(OX_USAGE, "oxidec", "unknown GPU architecture '%s' (LLVM 22 NVPTX knows sm_20 to sm_121f, e.g. sm_90)", arch);
		return NULL;
	}
	if (o->opt_level < 0 || o->opt_level > 3) {
		diag_error(OX_USAGE, "oxidec", "optimization level %d out of range 0..3", o->opt_level);
		return NULL;
	}
	init_llvm_once();
	EmitCtx *e = xmalloc(sizeof *e);
	memset(e, 0, sizeof *e);
	e->opt = *o;
	e->target = t;
	if (!choose_target(e, o)) {
		free(e);
		return NULL;
	}
	e->opt.arch = e->arch;
	e->ctx = LLVMContextCreate();
	LLVMContextSetDiagnosticHandler(e->ctx, on_llvm_diag, NULL);
	e->tm = create_target_machine(e, features);
	if (!e->tm) {
		emit_free(e);
		return NULL;
	}
	return e;
}

/* Module first, then target machine, then context: reverse of creation. */
void emit_free(EmitCtx *e)
{
	if (!e)
		return;
	if (e->mod)
		LLVMDisposeModule(e->mod);
	if (e->tm)
		LLVMDisposeTargetMachine(e->tm);
	if (e->ctx)
		LLVMContextDispose(e->ctx);
	free(e);
}

static bool has_module(EmitCtx *e, const char *what)
{
	if (e->mod)
		return true;
	diag_error(OX_INTERNAL, "oxidec", "%s: no LLVM module (emit_module failed or was not called)", what);
	return false;
}

/* -O0 still runs SROA first.  Stage 2 gives every MIR local a slot and
 * our mem2reg promotes only scalars, so without it each slice, tuple,
 * Option and enum of a function stays an alloca, and a recursive
 * function's frame at -O0 was 2-3 times its -O3 size (ptxas 13.0, a tree
 * walk: kernel 104 + 280 per level, now 48 + 144; -O3: 48 + 112), too
 * much for CUDA's default stack of 1,024 bytes per thread.
 * SROA only moves values from memory to registers; oxidec's debug info
 * (debug.c) describes no variable in memory that it could lose, and every
 * other -O0 property (no inlining, no loop or instruction rewriting) stays.
 * InstSimplify then folds what has become constant: the CUDA driver's
 * JIT (580.159.04) folds an f32 add of two constants with the wrong
 * rounding at a tie (-7.3333335 + 3.1415927: 0xC08622BD, IEEE and ptxas
 * 0xC08622BE; tests/fuzz/reproducers/jit_const_fadd.rs), and -O0 PTX
 * was the only PTX that still had such adds (-O1 and up fold them). */
static const char *pipeline_for(int level)
{
	static const char *const pipelines[] = {
		"function(sroa,instsimplify),default<O0>", "default<O1>", "default<O2>", "default<O3>",
	};
	return pipelines[level];
}

/* NVPTX: the loop and SLP vectorizers left every example's PTX the same,
 * byte for byte (NVPTX has no vector registers to vectorize for; its
 * load/store vectorizer, in code generation, makes the ld.v2/v4), and
 * took 6 % of the O3 pipeline's time over the examples. */
static void no_vectorizers(LLVMPassBuilderOptionsRef pbo)
{
	LLVMPassBuilderOptionsSetLoopVectorization(pbo, 0);
	LLVMPassBuilderOptionsSetSLPVectorization(pbo, 0);
	LLVMPassBuilderOptionsSetLoopInterleaving(pbo, 0);
}

bool emit_optimize(EmitCtx *e)
{
	if (!has_module(e, "optimize"))
		return false;
	const char *pipeline = pipeline_for(e->opt.opt_level);
	LLVMPassBuilderOptionsRef pbo = LLVMCreatePassBuilderOptions();
	if (e->target->kind == TARGET_NVPTX)
		no_vectorizers(pbo);
	LLVMErrorRef err = LLVMRunPasses(e->mod, pipeline, e->tm, pbo);
	LLVMDisposePassBuilderOptions(pbo);
	if (err) {
		char *msg = LLVMGetErrorMessage(err);
		diag_error(OX_BACKEND, "oxidec", "LLVM pass pipeline %s: %s", pipeline, msg);
		LLVMDisposeErrorMessage(msg);
		return false;
	}
	if (!emit_nvptx_atomics(e))
		return false;
	char *vmsg = NULL;
	if (e->opt.verify_each && LLVMVerifyModule(e->mod, LLVMReturnStatusAction, &vmsg)) {
		diag_error(OX_BACKEND, "oxidec", "LLVM module invalid after %s (LLVM bug?): %s", pipeline, vmsg);
		LLVMDisposeMessage(vmsg);
		return false;
	}
	LLVMDisposeMessage(vmsg);
	return true;
}

static char *copy_text(const char *s, size_t n)
{
	char *out = xmalloc(n + 1);
	memcpy(out, s, n);
	out[n] = 0;
	return out;
}

char *emit_llvm_text(EmitCtx *e)
{
	if (!has_module(e, "emit ll"))
		return NULL;
	char *s = LLVMPrintModuleToString(e->mod);
	char *out = copy_text(s, strlen(s));
	LLVMDisposeMessage(s);
	return out;
}

/* Code generation runs IR passes over the module it is given and leaves
 * it changed, so it is the module's last use: e->mod is disposed after it
 * (callers want "ll" first; cloning the module for it took 8 ms of the
 * math example's compile).  The result is NUL-terminated (for PTX text;
 * an object ignores it). */
static char *emit_code(EmitCtx *e, LLVMCodeGenFileType kind, size_t *len)
{
	int errors = diag_errors();
	LLVMMemoryBufferRef buf = NULL;
	char *err = NULL;
	LLVMBool failed = LLVMTargetMachineEmitToMemoryBuffer(e->tm, e->mod, kind, &err, &buf);
	LLVMDisposeModule(e->mod);
	e->mod = NULL;
	if (failed || diag_errors() > errors) {
		if (failed)
			diag_error(OX_BACKEND, "oxidec", "%s code generation failed: %s",
			           e->target->kind == TARGET_HOST ? "host" : "NVPTX", err ? err : "?");
		LLVMDisposeMessage(err);
		if (buf)
			LLVMDisposeMemoryBuffer(buf);
		return NULL;
	}
	size_t n = LLVMGetBufferSize(buf);
	char *out = copy_text(LLVMGetBufferStart(buf), n);
	LLVMDisposeMemoryBuffer(buf);
	if (len)
		*len = n;
	return out;
}

static bool has_target(EmitCtx *e, TargetKind t, const char *what)
{
	if (e->target->kind == t)
		return true;
	diag_error(OX_INTERNAL, "oxidec", "%s needs --target=%s", what, t == TARGET_HOST ? "host" : "nvptx");
	return false;
}

char *emit_ptx(EmitCtx *e, size_t *len)
{
	if (!has_module(e, "emit ptx") || !has_target(e, TARGET_NVPTX, "PTX"))
		return NULL;
	char *ptx = emit_code(e, LLVMAssemblyFile, len);
	return ptx ? emit_inline_traps(emit_redirect_recursion(emit_fix_ptx(ptx, len), len), len) : NULL;
}

uint8_t *emit_object(EmitCtx *e, size_t *len)
{
	if (!has_module(e, "emit obj") || !has_target(e, TARGET_HOST, "an object file"))
		return NULL;
	return (uint8_t *)emit_code(e, LLVMObjectFile, len);
}
