/* emit.h: the back end of oxidec — llir-dialect IR to an LLVM module
 * (stage "ll"), optimized with LLVM's new pass manager, then PTX from the
 * NVPTX target machine in-process (stage "ptx"), and cubin from PTX through
 * nvJitLink loaded at run time.  The host target (the module's Target of
 * kind TARGET_HOST) makes a native object file instead (stage "obj"), with a
 * launch trampoline per kernel for the emulator in src/runtime/oxemu.c.
 *
 * This header is free of LLVM types so the driver need not see llvm-c; the
 * files of src/emit/ share their LLVM-typed state through emit_impl.h. */
#ifndef OXIDEC_EMIT_H
#define OXIDEC_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../ir/ir.h"

/* Debug information: what -g0, the default and -g ask for (debug.c). */
typedef enum {
	EMIT_DEBUG_NONE,     /* -g0 */
	EMIT_DEBUG_LINES,    /* default: .loc per PTX instruction, line tables on the host */
	EMIT_DEBUG_FULL,     /* -g: full DWARF */
} EmitDebug;

typedef struct {
	const char *arch;      /* "sm_90" (default when NULL), any sm_XX LLVM 22 NVPTX knows;
	                          ignored for TARGET_HOST */
	int opt_level;         /* 0..3: middle-end pipeline and codegen level */
	bool verify_each;      /* run LLVMVerifyModule also after optimization */
	EmitDebug debug;
} EmitOptions;

typedef struct EmitCtx EmitCtx;

/* target.c: an emitter for the modules of target t (Module.target: the
 * emitter reads the kind of the one the module has); NULL after a
 * diag_error (unknown arch, bad level). */
EmitCtx *emit_new(const EmitOptions *o, const Target *t);
bool emit_optimize(EmitCtx *e);
char *emit_llvm_text(EmitCtx *e);                 /* malloc'd, NUL-terminated */
/* The last use of the module (code generation changes it): after either,
 * only emit_free. */
char *emit_ptx(EmitCtx *e, size_t *len);          /* malloc'd, NUL-terminated; nvptx only */
uint8_t *emit_object(EmitCtx *e, size_t *len);    /* malloc'd ELF object; host only */
void emit_free(EmitCtx *e);

/* module.c: translate the llir-dialect module and verify the result; m's
 * target must be emit_new's.  Uses Value.aux and Block.aux of m as
 * scratch. */
bool emit_module(EmitCtx *e, Module *m);

/* header.c: --emit=header, the C header of m's kernels (typed launchers,
 * their repr(C) structs, parameter lists) for the output file out (its
 * name makes the include guard); false after a diag_error naming each
 * argument C cannot describe. Reads the module after stage 2. */
bool emit_header(FILE *f, Module *m, const char *out);
/* header.c: --emit=rust, the same launchers as Rust source for a crate
 * that depends on tools/oxide-host; the same checks and errors. */
bool emit_rust(FILE *f, Module *m);

/* signature.c: --emit=signature, m's kernels as JSON for launch wrappers
 * in other languages (man oxidec, SIGNATURE): PTX entries, cooperative
 * launch, shared memory, each argument's PTX parameters, from the same
 * walk as the header (kabi.h); arch is written for the nvptx target.
 * false after the header's diag_errors. Reads the module after stage 2. */
bool emit_signature(FILE *f, Module *m, const char *arch);

/* cubin.c: PTX -> cubin with nvJitLink (dlopen'ed); NULL after a
 * diag_error carrying nvJitLink's log.  Result is malloc'd. */
uint8_t *cubin_from_ptx(const char *ptx, size_t len, const char *arch, size_t *out_len);
/* ptxas's -v report of the PTX (malloc'd), or NULL without nvJitLink; no
 * diagnostic either way. */
char *cubin_ptxas_log(const char *ptx, size_t len, const char *arch);

/* How ptxcalls.c begins a call it made indirect, the callee's name next:
 * stack.c follows it as the direct call it was. */
#define PTX_REDIRECTED_CALL "{ .reg .b64 %oxcallee; mov.u64 %oxcallee, "

/* stack.c: a warning (never an error) for each kernel whose calls in the
 * PTX are recursive, with the stack bytes each level needs; m gives the
 * Rust names and source lines. */
void stack_check(Module *m, const char *ptx, size_t len, const char *arch);
/* The same with ptxas's -v log given (NULL: frames estimated from the
 * PTX); returns the number of warnings. */
int stack_warn(Module *m, const char *ptx, const char *log, const char *arch);

#endif
