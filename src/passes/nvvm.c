/* nvvm.c: stage 4 — GPU semantics.
 *
 *   mir.device @__oxide_tid_x        ==>  nvvm.tid.x (and the other special registers)
 *   mir.device @__oxide_barrier_sync ==>  nvvm.barrier0 (convergent)
 *   mir.device @__oxide_trap, mir.panic  ==>  nvvm.trap; mir.unreachable
 *   mir.device @__oxide_assertfail(...)  ==>  mir.call @__assertfail(..., 1); nvvm.trap  (nvptx)
 *   mir.device @__nv_sinf(%x)    ==>  nvvm.libdevice @__nv_sinf(%x)   (libdevice math)
 *   mir.device @__oxide_shfl_down(...)  ==>  nvvm.prim @__oxide_shfl_down(...)  (warp, sync,
 *                                    timers: llir_prim.c)
 *
 * Each mir.device is one DEVICE or LIBDEVICE row of the registry
 * (src/ir/prims.def), whose class says which of these it becomes.
 *   mir.assert %c == E ^ok           ==>  mir.switch %c [!E: ^trap, otherwise: ^ok]
 *                                         ^trap: nvvm.trap; mir.unreachable
 *
 * What differs between targets is the target's NvvmHooks (nvvm.h):
 * nvvm_nvptx.c gives kernel pointer parameters the global address space
 * and calls CUDA's vprintf and __assertfail; nvvm_host.c keeps no address
 * spaces (every global moves to address space 0) and calls the emulator.
 * The nvvm ops are the same on both (llir_host.c turns them into calls to
 * the emulator).
 *
 * A failed assert or panic must trap, never become `unreachable`: LLVM
 * would delete the check and a bounds violation would go silently wrong.
 *
 * Requires: mir dialect (stage 2 or 3).  Preserves: everything else.
 */
#include <stdio.h>

#include "nvvm.h"
#include "../ir/prims.h"


/* The op a mir.device becomes, by its registry row (src/ir/prims.def). */
static Opcode device_op(const DevicePrim *p)
{
	switch (p->cls) {
	case PC_OP: return (Opcode)p->lower;
	case PC_LIBDEVICE: return OP_NVVM_LIBDEVICE;
	case PC_PRIM: case PC_ASM: return OP_NVVM_PRIM;
	default: die("device primitive %s of class %d at stage 4", p->sym, p->cls);
	}
}

/* Replace op by a new op of `code` with the same operands and results. */
static void replace_op(Module *m, Op *op, Opcode code)
{
	Builder b = { m, op->parent, op, op->loc };
	Type *rt = op->nres ? op->res[0].type : NULL;
	Op *n = ir_build(&b, code, op->nres, &rt, op->nopd, op->opd, 0);
	if (code == OP_NVVM_LIBDEVICE || code == OP_NVVM_PRIM)
		n->sym = op->sym;     /* which function / primitive */
	if (op->nres)
		ir_replace_all_uses(op->parent->func, &op->res[0], &n->res[0]);
	ir_op_unlink(op);
}

/* A block that traps, placed at the end of the function. */
static Block *trap_block(Module *m, Func *f, Loc loc)
{
	Block *t = ir_block_new(f);
	Builder b = { m, t, NULL, loc };
	ir_build(&b, OP_NVVM_TRAP, 0, NULL, 0, NULL, 0);
	ir_build(&b, OP_MIR_UNREACHABLE, 0, NULL, 0, NULL, 0);
	return t;
}

static void lower_assert(Module *m, Func *f, Op *op)
{
	Builder b = { m, op->parent, op, op->loc };
	Op *sw = ir_build(&b, OP_MIR_SWITCH, 0, NULL, 1, op->opd, 2);
	U128 fail = { op->attr.expect.value ? 0 : 1, 0 };
	ir_op_set_vals(m, sw, 1, &fail);
	ir_op_set_succ(m, sw, 0, trap_block(m, f, op->loc), 0, NULL);
	ir_op_set_succ(m, sw, 1, op->succ[0].block, op->succ[0].nargs, op->succ[0].args);
	ir_op_unlink(op);
}

static void lower_panic(Module *m, Op *op)
{
	Builder b = { m, op->parent, op, op->loc };
	ir_build(&b, OP_NVVM_TRAP, 0, NULL, 0, NULL, 0);
	ir_build(&b, OP_MIR_UNREACHABLE, 0, NULL, 0, NULL, 0);
	ir_op_unlink(op);
}

/* An external function (vprintf, the emulator's helpers), declared once. */
Func *nvvm_extern_func(Module *m, const char *sym, Type *ret, uint32_t n, Type **params)
{
	Func *f = ir_func_find(m, sym);
	if (f)
		return f;
	f = ir_func_new(m, sym, sym);
	f->is_extern = true;
	f->ret = ret;
	f->nparam = n;
	f->params = arena_new_array(m->arena, Param, n);
	for (uint32_t i = 0; i < n; i++)
		f->params[i].type = params[i];
	return f;
}

/* The device heap: `mir.call @PREFIX malloc(size)` / `free(p)`, PREFIX the
 * target's (CUDA's device-side functions, or the emulator's). */
static Op *build_heap_call(Module *m, Builder *b, Op *op, RuntimePrim which)
{
	char sym[64];
	const char *name = which == RT_MALLOC ? "malloc" : "free";
	snprintf(sym, sizeof sym, "%s%s", m->target->nvvm->heap_prefix, name);
	Type *ptr = ir_type_ptr(m, 0), *u64 = ir_type_int(m, 64, false);
	Type *param = which == RT_MALLOC ? u64 : ptr;
	Type *ret = which == RT_MALLOC ? ptr : ir_type_void(m);
	Func *f = nvvm_extern_func(m, sym, ret, 1, &param);
	Op *n = ir_build(b, OP_MIR_CALL, which == RT_MALLOC ? 1 : 0, &ret, op->nopd, op->opd, 0);
	n->sym = f->symbol;
	return n;
}

/* Primitives that are not instructions, each the target's hook:
 *   mir.device @__oxide_vprintf(fmt, args)  ==>  a call of the target's printf
 *   mir.device @__oxide_assertfail(...)     ==>  a call of the target's assert
 *                                                handler; nvvm.trap
 *   mir.device @__oxide_dynamic_shared()    ==>  the dynamic shared memory's address
 *   mir.device @__oxide_grid_barrier_word() ==>  the grid barrier's word (grid::sync)
 * false when op is another primitive. */
static void lower_runtime_prim(Module *m, Op *op, RuntimePrim which)
{
	const NvvmHooks *h = m->target->nvvm;
	Builder b = { m, op->parent, op, op->loc };
	Op *n = NULL;
	switch (which) {
	case RT_VPRINTF:
		n = h->vprintf(m, &b, op);
		break;
	case RT_ASSERTFAIL:
		n = h->assertfail(m, &b, op);
		ir_build(&b, OP_NVVM_TRAP, 0, NULL, 0, NULL, 0);   /* should it return */
		break;
	case RT_DYNAMIC_SHARED:
		n = h->dynamic_shared(m, &b, op);
		break;
	case RT_GRID_BARRIER_WORD:
		n = h->grid_barrier(m, &b, op);
		break;
	case RT_MALLOC:
	case RT_FREE:
		n = build_heap_call(m, &b, op, which);
		break;
	}
	if (op->nres && n->nres)
		ir_replace_all_uses(op->parent->func, &op->res[0], &n->res[0]);
	ir_op_unlink(op);
}

/* mir.device: by its registry row, checked by the frontend */
static void lower_device(Module *m, Op *op)
{
	const DevicePrim *p = prim_find(op->sym);
	if (!p || p->nargs != op->nopd)
		die("unknown device primitive %s, or wrong argument count, survived the frontend", op->sym);
	if (p->cls == PC_RUNTIME)
		lower_runtime_prim(m, op, (RuntimePrim)p->lower);
	else
		replace_op(m, op, device_op(p));
}

static void lower_func(Module *m, Func *f)
{
	if (f->is_kernel)
		m->target->nvvm->kernel_params(m, f);
	Block *last = f->last;     /* trap blocks are appended after it */
	for (Block *b = f->first; b; b = b->next) {
		Op *next;
		for (Op *op = b->first; op; op = next) {
			next = op->next;
			if (op->code == OP_MIR_DEVICE)
				lower_device(m, op);
			else if (op->code == OP_MIR_ASSERT)
				lower_assert(m, f, op);
			else if (op->code == OP_MIR_PANIC)
				lower_panic(m, op);
		}
		if (b == last)
			break;
	}
}

void pass_nvvm(Module *m)
{
	m->target->nvvm->globals(m);
	for (Func *f = m->funcs; f; f = f->next)
		lower_func(m, f);
	m->stage = DIALECT_NVVM;
}
