/* nvvm.c: stage 4 — GPU semantics.
 *
 *   mir.device @__oxide_tid_x        ==>  nvvm.tid.x (and the other special registers)
 *   mir.device @__oxide_barrier_sync ==>  nvvm.barrier0 (convergent)
 *   mir.device @__oxide_trap, mir.panic  ==>  nvvm.trap; mir.unreachable
 *   mir.device @__oxide_assertfail(...)  ==>  mir.call @__assertfail(..., 1); nvvm.trap
 *   mir.device @__nv_sinf(%x)    ==>  nvvm.libdevice @__nv_sinf(%x)   (libdevice math)
 *   mir.device @__oxide_shfl_down(...)  ==>  nvvm.prim @__oxide_shfl_down(...)  (warp, sync,
 *                                    timers: llir.c's prims table)
 *   mir.assert %c == E ^ok           ==>  mir.switch %c [!E: ^trap, otherwise: ^ok]
 *                                         ^trap: nvvm.trap; mir.unreachable
 *   kernel parameter of type ptr     ==>  ptr<1> (global) + nvvm.addrspace_cast to generic
 *
 * Host target (m->target == TARGET_HOST): the same nvvm ops (llir.c turns
 * them into calls to the emulator), but no address spaces: kernel pointer
 * parameters stay generic and every global moves to address space 0.
 *
 * A failed assert or panic must trap, never become `unreachable`: LLVM
 * would delete the check and a bounds violation would go silently wrong.
 *
 * Requires: mir dialect (stage 2 or 3).  Preserves: everything else.
 */
#include "passes.h"

#include <string.h>

static const struct { const char *sym; Opcode code; } sregs[] = {
	{ "__oxide_tid_x", OP_NVVM_TID_X }, { "__oxide_tid_y", OP_NVVM_TID_Y }, { "__oxide_tid_z", OP_NVVM_TID_Z },
	{ "__oxide_ntid_x", OP_NVVM_NTID_X }, { "__oxide_ntid_y", OP_NVVM_NTID_Y }, { "__oxide_ntid_z", OP_NVVM_NTID_Z },
	{ "__oxide_ctaid_x", OP_NVVM_CTAID_X }, { "__oxide_ctaid_y", OP_NVVM_CTAID_Y },
	{ "__oxide_ctaid_z", OP_NVVM_CTAID_Z }, { "__oxide_nctaid_x", OP_NVVM_NCTAID_X },
	{ "__oxide_nctaid_y", OP_NVVM_NCTAID_Y }, { "__oxide_nctaid_z", OP_NVVM_NCTAID_Z },
	{ "__oxide_barrier_sync", OP_NVVM_BARRIER0 }, { "__oxide_trap", OP_NVVM_TRAP },
};

static Opcode device_op(const char *sym)
{
	for (size_t i = 0; i < countof(sregs); i++)
		if (!strcmp(sregs[i].sym, sym))
			return sregs[i].code;
	if (!strncmp(sym, "__nv_", 5))
		return OP_NVVM_LIBDEVICE;
	if (llir_prim_arity(sym) >= 0)
		return OP_NVVM_PRIM;
	die("unknown device primitive %s survived the frontend", sym);
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

/* Kernel pointer parameters point to global memory: say so, and convert
 * to generic once so the rest of the body is address-space agnostic
 * (LLVM's InferAddressSpaces then gives ld.global/st.global). */
static void kernel_params_global(Module *m, Func *f)
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

/* An external function (vprintf, the emulator's helpers), declared once. */
static Func *extern_func(Module *m, const char *sym, Type *ret, uint32_t n, Type **params)
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

/* mir.device @__oxide_assertfail(msg, file, line, func)  ==>
 *   mir.call @__assertfail(msg, file, line, func, 1 : i64); nvvm.trap
 * CUDA's device assert (the driver's __assertfail prints the message and
 * fails the launch with CUDA_ERROR_ASSERT; the trap stops the thread
 * should it return). Host: mir.call @__oxide_host_assertfail(msg, file,
 * line, func), which reports and traps itself; the nvvm.trap stays. */
static Op *build_assertfail(Module *m, Builder *b, Op *op)
{
	bool host = m->target == TARGET_HOST;
	Type *ptr = ir_type_ptr(m, 0), *u32 = ir_type_int(m, 32, false), *i64 = ir_type_int(m, 64, false);
	Type *ps[5] = { ptr, ptr, u32, ptr, i64 };
	Value *args[5] = { op->opd[0], op->opd[1], op->opd[2], op->opd[3], NULL };
	uint32_t n = host ? 4 : 5;
	if (op->nopd != 4)
		die("__oxide_assertfail with %u arguments", op->nopd);
	if (!host)
		args[4] = ir_build_const(b, OP_MIR_CONST, i64, 1, 0);   /* charSize: bytes */
	Func *f = extern_func(m, host ? "__oxide_host_assertfail" : "__assertfail", ir_type_void(m), n, ps);
	Op *c = ir_build(b, OP_MIR_CALL, 0, NULL, n, args, 0);
	c->sym = f->symbol;
	ir_build(b, OP_NVVM_TRAP, 0, NULL, 0, NULL, 0);
	return c;
}

/* Primitives that are not instructions:
 *   mir.device @__oxide_assertfail(...)     ==>  build_assertfail above
 *   mir.device @__oxide_vprintf(fmt, args)  ==>  mir.call @vprintf (CUDA's; host: @__oxide_host_vprintf)
 *   mir.device @__oxide_dynamic_shared()    ==>  mir.global_addr @__oxide_dynamic_shared
 *       (extern .shared .align 16 .b8 __oxide_dynamic_shared[]; host: mir.call @__oxide_host_dynamic_shared)
 * false when op is another primitive. */
static bool lower_runtime_prim(Module *m, Op *op)
{
	bool host = m->target == TARGET_HOST;
	Builder b = { m, op->parent, op, op->loc };
	Type *ptr = ir_type_ptr(m, 0);
	Op *n;
	if (!strcmp(op->sym, "__oxide_vprintf")) {
		Type *ps[2] = { ptr, ptr };
		Func *f = extern_func(m, host ? "__oxide_host_vprintf" : "vprintf", ir_type_int(m, 32, true), 2, ps);
		Type *rt = f->ret;
		n = ir_build(&b, OP_MIR_CALL, op->nres ? 1 : 0, &rt, op->nopd, op->opd, 0);
		n->sym = f->symbol;
	} else if (!strcmp(op->sym, "__oxide_assertfail")) {
		n = build_assertfail(m, &b, op);
	} else if (!strcmp(op->sym, "__oxide_dynamic_shared")) {
		if (host) {
			Func *f = extern_func(m, "__oxide_host_dynamic_shared", ptr, 0, NULL);
			n = ir_build(&b, OP_MIR_CALL, 1, &ptr, 0, NULL, 0);
			n->sym = f->symbol;
		} else {
			Global *g = ir_global_find(m, "__oxide_dynamic_shared");
			if (!g) {
				g = ir_global_new(m, "__oxide_dynamic_shared");
				g->addrspace = AS_SHARED;
				g->align = 16;
				g->is_mut = true;
				g->is_extern = true;
			}
			n = ir_build(&b, OP_MIR_GLOBAL_ADDR, 1, &ptr, 0, NULL, 0);
			n->sym = g->name;
		}
	} else {
		return false;
	}
	if (op->nres && n->nres)
		ir_replace_all_uses(op->parent->func, &op->res[0], &n->res[0]);
	ir_op_unlink(op);
	return true;
}

static void lower_func(Module *m, Func *f)
{
	if (f->is_kernel && m->target == TARGET_NVPTX)
		kernel_params_global(m, f);
	Block *last = f->last;     /* trap blocks are appended after it */
	for (Block *b = f->first; b; b = b->next) {
		Op *next;
		for (Op *op = b->first; op; op = next) {
			next = op->next;
			if (op->code == OP_MIR_DEVICE && lower_runtime_prim(m, op))
				continue;
			if (op->code == OP_MIR_DEVICE)
				replace_op(m, op, device_op(op->sym));
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
	if (m->target == TARGET_HOST)
		for (Global *g = m->globals; g; g = g->next)
			g->addrspace = AS_GENERIC;
	for (Func *f = m->funcs; f; f = f->next)
		lower_func(m, f);
	m->stage = DIALECT_NVVM;
}
