/* nvvm_nvptx.c: stage 4 on NVPTX — kernel pointer parameters in the
 * global address space, CUDA's vprintf and __assertfail, dynamic shared
 * memory as an extern .shared array:
 *
 *   kernel parameter of type ptr     ==>  ptr<1> (global) + nvvm.addrspace_cast to generic
 *   mir.device @__oxide_vprintf(fmt, args)  ==>  mir.call @vprintf(fmt, args)
 *   mir.device @__oxide_assertfail(msg, file, line, func)
 *                                    ==>  mir.call @__assertfail(msg, file, line, func, 1 : i64)
 *   mir.device @__oxide_dynamic_shared()    ==>  mir.global_addr @__oxide_dynamic_shared
 *       (extern .shared .align 16 .b8 __oxide_dynamic_shared[])
 *   mir.device @__oxide_grid_barrier_word() ==>  mir.global_addr @__oxide_grid_barrier
 *       (.visible .global .align 4 .b8 __oxide_grid_barrier[4], zero at load)
 *   mir.device @__oxide_malloc(size) / @__oxide_free(p)
 *                                    ==>  mir.call @malloc(size) / @free(p): CUDA's device heap
 *       (.extern .func (.param .b64 r) malloc (.param .b64 size), like vprintf)
 */
#include "nvvm.h"

/* Kernel pointer parameters point to global memory: say so, and convert
 * to generic once so the rest of the body is address-space agnostic
 * (LLVM's InferAddressSpaces then gives ld.global/st.global). */
static void kernel_params(Module *m, Func *f)
{
	Block *entry = f->first;
	Type *gptr = ir_type_ptr(m, AS_GLOBAL);
	for (uint32_t i = 0; i < f->nparam; i++) {
		if (f->params[i].type->kind != TY_PTR || f->params[i].byval_size)
			continue;
		Value *arg = entry->args[i];
		f->params[i].type = gptr;
		Builder b = { m, entry, entry->first, f->loc };
		Value *tmp = ir_build1(&b, OP_NVVM_ADDRSPACE_CAST, arg->type, 1, &arg);
		ir_replace_all_uses(f, arg, tmp);
		tmp->def->opd[0] = arg;
		arg->type = gptr;
	}
}

/* Globals keep their address spaces. */
static void globals(Module *m)
{
	(void)m;
}

static Op *build_vprintf(Module *m, Builder *b, Op *op)
{
	Type *ptr = ir_type_ptr(m, 0), *ps[2] = { ptr, ptr };
	Func *f = nvvm_extern_func(m, "vprintf", ir_type_int(m, 32, true), 2, ps);
	Type *rt = f->ret;
	Op *n = ir_build(b, OP_MIR_CALL, op->nres ? 1 : 0, &rt, op->nopd, op->opd, 0);
	n->sym = f->symbol;
	return n;
}

/* CUDA's device assert: the driver's __assertfail prints the message and
 * fails the launch with CUDA_ERROR_ASSERT; charSize is 1 (bytes). */
static Op *build_assertfail(Module *m, Builder *b, Op *op)
{
	Type *ptr = ir_type_ptr(m, 0), *u32 = ir_type_int(m, 32, false), *i64 = ir_type_int(m, 64, false);
	Type *ps[5] = { ptr, ptr, u32, ptr, i64 };
	Value *args[5] = { op->opd[0], op->opd[1], op->opd[2], op->opd[3], NULL };
	args[4] = ir_build_const(b, OP_MIR_CONST, i64, 1, 0);
	Func *f = nvvm_extern_func(m, "__assertfail", ir_type_void(m), 5, ps);
	Op *c = ir_build(b, OP_MIR_CALL, 0, NULL, 5, args, 0);
	c->sym = f->symbol;
	return c;
}

static Op *build_dynamic_shared(Module *m, Builder *b, Op *op)
{
	(void)op;
	Type *ptr = ir_type_ptr(m, 0);
	Global *g = ir_global_find(m, "__oxide_dynamic_shared");
	if (!g) {
		g = ir_global_new(m, "__oxide_dynamic_shared");
		g->addrspace = AS_SHARED;
		g->align = 16;
		g->is_mut = true;
		g->is_extern = true;
	}
	Op *n = ir_build(b, OP_MIR_GLOBAL_ADDR, 1, &ptr, 0, NULL, 0);
	n->sym = g->name;
	return n;
}

/* The module's grid-barrier word: a visible .global u32, zero at load
 * (grid::sync's counter; prims.def's grid_sync says how it is used). */
static Op *build_grid_barrier(Module *m, Builder *b, Op *op)
{
	(void)op;
	Type *ptr = ir_type_ptr(m, 0);
	Global *g = ir_global_find(m, "__oxide_grid_barrier");
	if (!g) {
		g = ir_global_new(m, "__oxide_grid_barrier");
		g->addrspace = AS_GLOBAL;
		g->size = 4;
		g->align = 4;
		g->is_mut = true;
		g->is_exported = true;
	}
	Op *n = ir_build(b, OP_MIR_GLOBAL_ADDR, 1, &ptr, 0, NULL, 0);
	n->sym = g->name;
	return n;
}

const NvvmHooks nvvm_nvptx = { kernel_params, globals, build_vprintf, build_assertfail, build_dynamic_shared,
                               build_grid_barrier, "" };
