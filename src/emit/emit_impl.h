/* emit_impl.h: state shared by the files of src/emit/ — the EmitCtx and
 * the per-function translation state of module.c and instr.c.  Only
 * src/emit/ includes this header (it pulls in llvm-c). */
#ifndef OXIDEC_EMIT_IMPL_H
#define OXIDEC_EMIT_IMPL_H

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#include "emit.h"

struct EmitCtx {
	EmitOptions opt;
	const Target *target;      /* the modules' (emit_new) */
	char arch[16];             /* CPU of the target machine: sm_XX, or "generic" on the host */
	char triple[128];          /* nvptx64-nvidia-cuda, or LLVM's default (host) triple */
	LLVMContextRef ctx;
	LLVMTargetMachineRef tm;
	LLVMModuleRef mod;         /* NULL until emit_module */
	/* debug.c, while emit_module runs (NULL with EMIT_DEBUG_NONE) */
	LLVMDIBuilderRef dib;
	LLVMMetadataRef cu, *files;     /* files: one per Module.files */
	uint32_t nfile;
};

/* One function being translated.  Value.aux holds each value's
 * LLVMValueRef, Block.aux each reachable block's LLVMBasicBlockRef. */
typedef struct {
	EmitCtx *e;
	Module *m;
	Func *f;
	LLVMValueRef fn;
	LLVMBuilderRef b;
	LLVMBuilderRef alloca_b;   /* at the end of the prologue block */
	LLVMBasicBlockRef prologue;
	bool entry_phis;           /* something branches back to the entry */
	bool failed;
	struct LoopHint {          /* llir.loop_hint: where, and the op */
		LLVMBasicBlockRef at;
		const Op *op;
	} *hints;
	uint32_t nhint;
	LLVMMetadataRef sp;                   /* DISubprogram (debug.c), or NULL */
	LLVMMetadataRef *scopes;              /* per file: sp or a DILexicalBlockFile of it */
	uint32_t sp_file;
} FuncEmit;

/* instr.c: LLVM's atomicrmw operation for rmw (RMW_XCHG .. RMW_UDEC_WRAP) */
LLVMAtomicRMWBinOp emit_rmw_op(AtomicRmw rmw);

/* atomics.c: after the pass pipeline, each NVPTX atomicrmw whose ordering
 * or scope LLVM's back end would drop as PTX's own `atom`; false after a
 * diag_error */
bool emit_nvptx_atomics(EmitCtx *e);

/* loops.c: the loop hints of fe (llir.loop_hint) as llvm.loop metadata on
 * the latches of the innermost loop around each, once the body is built */
bool emit_loop_hints(FuncEmit *fe);

/* debug.c: debug metadata (EmitOptions.debug).  begin/end bracket the
 * module; func before a body is built, func_end after it; loc before each
 * op, for the instructions the builder makes of it. */
void emit_debug_begin(EmitCtx *e, Module *m);
void emit_debug_end(EmitCtx *e);
void emit_debug_func(FuncEmit *fe);
void emit_debug_func_end(FuncEmit *fe, bool ok);
void emit_debug_loc(FuncEmit *fe, const Op *op);
void emit_debug_trampoline(EmitCtx *e, LLVMValueRef fn, LLVMBuilderRef b, const Func *k);

/* module.c */
LLVMTypeRef emit_type(EmitCtx *e, const Type *t);
void emit_op_error(FuncEmit *fe, const Op *op, const char *fmt, ...) PRINTF(3, 4);
LLVMBasicBlockRef emit_succ_dest(FuncEmit *fe, Op *op, uint32_t i);

/* host.c: host target only, after every body: __oxide_launch_<kernel>
 * trampolines and the __oxide_kernels name list. */
bool emit_host_entries(EmitCtx *e, Module *m);

/* libdevice.c: link libdevice when the module calls __nv_* functions
 * (nvptx target; a no-op otherwise). */
bool emit_link_libdevice(EmitCtx *e);

/* ptxfix.c: rewrites of the PTX text around ptxas miscompilations; takes
 * ownership of ptx, returns the new text (NUL-terminated) and its length. */
char *emit_fix_ptx(char *ptx, size_t *len);

/* ptxcalls.c: direct calls from non-recursive .func bodies to recursive
 * functions made indirect, around a ptxas crash; the same ownership as
 * emit_fix_ptx. */
char *emit_redirect_recursion(char *ptx, size_t *len);

/* traps.c: in kernels with warp-collective instructions, each bounds
 * test's trap placed at the test (outside loops), for ptxas; the same
 * ownership as emit_fix_ptx. */
char *emit_inline_traps(char *ptx, size_t *len);

/* instr.c: one llir op at the builder's position; false after an error. */
bool emit_op(FuncEmit *fe, Op *op);
LLVMValueRef emit_const(EmitCtx *e, const Type *t, U128 v);

#endif
