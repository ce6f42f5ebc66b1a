/* emit.h: the back end of oxidec — llir-dialect IR to an LLVM module
 * (stage "ll"), optimized with LLVM's new pass manager, then PTX from the
 * NVPTX target machine in-process (stage "ptx"), and cubin from PTX through
 * nvJitLink loaded at run time.
 *
 * This header is free of LLVM types so the driver need not see llvm-c; the
 * files of src/emit/ share their LLVM-typed state through emit_impl.h. */
#ifndef OXIDEC_EMIT_H
#define OXIDEC_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../ir/ir.h"

typedef struct {
	const char *arch;      /* "sm_90" (default when NULL), any sm_XX LLVM 22 NVPTX knows */
	int opt_level;         /* 0..3: middle-end pipeline and codegen level */
	bool verify_each;      /* run LLVMVerifyModule also after optimization */
} EmitOptions;

typedef struct EmitCtx EmitCtx;

/* target.c: returns NULL after a diag_error (unknown arch, bad level). */
EmitCtx *emit_new(const EmitOptions *o);
bool emit_optimize(EmitCtx *e);
char *emit_llvm_text(EmitCtx *e);                 /* malloc'd, NUL-terminated */
char *emit_ptx(EmitCtx *e, size_t *len);          /* malloc'd, NUL-terminated */
void emit_free(EmitCtx *e);

/* module.c: translate the llir-dialect module and verify the result.
 * Uses Value.aux and Block.aux of m as scratch. */
bool emit_module(EmitCtx *e, Module *m);

/* cubin.c: PTX -> cubin with nvJitLink (dlopen'ed); NULL after a
 * diag_error carrying nvJitLink's log.  Result is malloc'd. */
uint8_t *cubin_from_ptx(const char *ptx, size_t len, const char *arch, size_t *out_len);

#endif
