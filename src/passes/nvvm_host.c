/* nvvm_host.c: stage 4 on the host target — no address spaces, and the
 * runtime primitives call the emulator (src/runtime/oxemu.c):
 *
 *   every global                     ==>  address space 0
 *   mir.device @__oxide_vprintf(fmt, args)  ==>  mir.call @__oxide_host_vprintf(fmt, args)
 *   mir.device @__oxide_assertfail(msg, file, line, func)
 *                                    ==>  mir.call @__oxide_host_assertfail(msg, file, line, func)
 *                                         (reports and traps itself)
 *   mir.device @__oxide_dynamic_shared()    ==>  mir.call @__oxide_host_dynamic_shared()
 */
#include "nvvm.h"

/* Kernel parameters stay generic pointers. */
static void kernel_params(Module *m, Func *f)
{
	(void)m, (void)f;
}

static void globals(Module *m)
{
	for (Global *g = m->globals; g; g = g->next)
		g->addrspace = AS_GENERIC;
}

static Op *build_vprintf(Module *m, Builder *b, Op *op)
{
	Type *ptr = ir_type_ptr(m, 0), *ps[2] = { ptr, ptr };
	Func *f = nvvm_extern_func(m, "__oxide_host_vprintf", ir_type_int(m, 32, true), 2, ps);
	Type *rt = f->ret;
	Op *n = ir_build(b, OP_MIR_CALL, op->nres ? 1 : 0, &rt, op->nopd, op->opd, 0);
	n->sym = f->symbol;
	return n;
}

static Op *build_assertfail(Module *m, Builder *b, Op *op)
{
	Type *ptr = ir_type_ptr(m, 0), *u32 = ir_type_int(m, 32, false);
	Type *ps[4] = { ptr, ptr, u32, ptr };
	Func *f = nvvm_extern_func(m, "__oxide_host_assertfail", ir_type_void(m), 4, ps);
	Op *c = ir_build(b, OP_MIR_CALL, 0, NULL, 4, op->opd, 0);
	c->sym = f->symbol;
	return c;
}

static Op *build_dynamic_shared(Module *m, Builder *b, Op *op)
{
	(void)op;
	Type *ptr = ir_type_ptr(m, 0);
	Func *f = nvvm_extern_func(m, "__oxide_host_dynamic_shared", ptr, 0, NULL);
	Op *n = ir_build(b, OP_MIR_CALL, 1, &ptr, 0, NULL, 0);
	n->sym = f->symbol;
	return n;
}

const NvvmHooks nvvm_host = { kernel_params, globals, build_vprintf, build_assertfail, build_dynamic_shared };
