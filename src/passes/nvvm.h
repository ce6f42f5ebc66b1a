/* nvvm.h: what the files of stage 4 (nvvm.c and its per-target hooks,
 * nvvm_nvptx.c and nvvm_host.c) share.  Only src/passes/ includes it. */
#ifndef OXIDEC_NVVM_H
#define OXIDEC_NVVM_H

#include "passes.h"

/* Stage 4's target hooks (Target.nvvm).  The mir.device hooks build,
 * with b before op, what replaces op and return the op whose result
 * replaces op's (when both have one); nvvm.c unlinks op. */
struct NvvmHooks {
	void (*kernel_params)(Module *m, Func *f);   /* a kernel's parameters at its entry */
	void (*globals)(Module *m);                  /* the module's globals, once */
	Op *(*vprintf)(Module *m, Builder *b, Op *op);          /* __oxide_vprintf(fmt, args) */
	Op *(*assertfail)(Module *m, Builder *b, Op *op);       /* __oxide_assertfail(msg, file, line, func) */
	Op *(*dynamic_shared)(Module *m, Builder *b, Op *op);   /* __oxide_dynamic_shared() */
	Op *(*grid_barrier)(Module *m, Builder *b, Op *op);     /* __oxide_grid_barrier_word() */
	const char *heap_prefix;   /* __oxide_malloc / __oxide_free call PREFIX malloc / free:
	                              "" CUDA's device heap, "__oxide_host_" the emulator's */
};

extern const NvvmHooks nvvm_nvptx, nvvm_host;

/* nvvm.c: an external function (vprintf, the emulator's helpers),
 * declared once per module. */
Func *nvvm_extern_func(Module *m, const char *sym, Type *ret, uint32_t n, Type **params);

#endif
