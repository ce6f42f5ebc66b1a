/* nvvm_host.c: stage 4 on the host target — no address spaces, and the
 * runtime primitives call the emulator (src/runtime/oxemu.c):
 *
 *   every global                     ==>  address space 0
 *   mir.global_addr @S (a Shared<T> static)  ==>  __oxide_host_static_shared() + S's offset
 *                                         (one copy per block, the emulator's)
 *   mir.device @__oxide_vprintf(fmt, args)  ==>  mir.call @__oxide_host_vprintf(fmt, args)
 *   mir.device @__oxide_assertfail(msg, file, line, func)
 *                                    ==>  mir.call @__oxide_host_assertfail(msg, file, line, func)
 *                                         (reports and traps itself)
 *   mir.device @__oxide_dynamic_shared()    ==>  mir.call @__oxide_host_dynamic_shared()
 *   mir.device @__oxide_grid_barrier_word() ==>  mir.call @__oxide_host_grid_barrier_word()
 *   mir.device @__oxide_malloc(size) / @__oxide_free(p)
 *                                    ==>  mir.call @__oxide_host_malloc(size) / @__oxide_host_free(p)
 */
#include "nvvm.h"

/* Kernel parameters stay generic pointers. */
static void kernel_params(Module *m, Func *f)
{
	(void)m, (void)f;
}

/* The Shared<T> statics: offsets, each aligned, in the block's static
 * shared memory; its size in m->static_shared_bytes. */
static void layout_shared(Module *m)
{
	uint64_t off = 0;
	for (Global *g = m->globals; g; g = g->next) {
		if (g->addrspace != AS_SHARED || g->is_extern)
			continue;
		uint64_t align = g->align ? g->align : 1;
		off = (off + align - 1) / align * align;
		g->shared_offset = off;
		off += g->size;
	}
	if (off > UINT32_MAX)
		die("%llu bytes of static shared memory", (unsigned long long)off);
	m->static_shared_bytes = (uint32_t)off;
}

/* mir.global_addr @g (a Shared<T> static)
 *     ==>  %b = mir.call @__oxide_host_static_shared(); mir.ptr_add %b, offset(g) */
static void rewrite_shared_addrs(Module *m, Func *f)
{
	Type *ptr = ir_type_ptr(m, 0);
	for (Block *b = f->first; b; b = b->next)
		for (Op *op = b->first, *next; op; op = next) {
			next = op->next;
			Global *g = op->code == OP_MIR_GLOBAL_ADDR ? ir_global_find(m, op->sym) : NULL;
			if (!g || g->addrspace != AS_SHARED)
				continue;
			Func *base = nvvm_extern_func(m, "__oxide_host_static_shared", ptr, 0, NULL);
			Builder bd = { m, b, op, op->loc };
			Op *c = ir_build(&bd, OP_MIR_CALL, 1, &ptr, 0, NULL, 0);
			c->sym = base->symbol;
			Value *base_v = &c->res[0];
			Value *r = ir_build1(&bd, OP_MIR_PTR_ADD, ptr, 1, &base_v);
			r->def->attr.offset.bytes = (int64_t)g->shared_offset;
			ir_replace_all_uses(f, &op->res[0], r);
			ir_op_unlink(op);
		}
}

/* Every global moves to address space 0, but the Shared<T> statics: a
 * cluster's blocks run together in the emulator, each with its own
 * shared memory, so they become offsets in the running block's static
 * shared memory (the emulator's __oxide_host_static_shared) and leave the
 * module.  No initializer may point at one (shared memory has no address
 * before a block runs: rustc's const eval does not make such pointers). */
static void globals(Module *m)
{
	layout_shared(m);
	for (Func *f = m->funcs; f; f = f->next)
		rewrite_shared_addrs(m, f);
	Global **link = &m->globals;
	m->last_global = NULL;
	for (Global *g = m->globals; g; g = g->next) {
		for (uint32_t k = 0; k < g->nreloc; k++) {
			Global *t = ir_global_find(m, g->relocs[k].target);
			if (t && t->addrspace == AS_SHARED)
				die("global %s points at the shared static %s", g->name, t->name);
		}
	}
	for (Global *g = m->globals; g; g = g->next) {
		if (g->addrspace == AS_SHARED && !g->is_extern)
			continue;
		g->addrspace = AS_GENERIC;
		*link = g;
		link = &g->next;
		m->last_global = g;
	}
	*link = NULL;
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

/* a call of the emulator's `name`(), which returns a pointer */
static Op *call_ptr_fn(Module *m, Builder *b, const char *name)
{
	Type *ptr = ir_type_ptr(m, 0);
	Func *f = nvvm_extern_func(m, name, ptr, 0, NULL);
	Op *n = ir_build(b, OP_MIR_CALL, 1, &ptr, 0, NULL, 0);
	n->sym = f->symbol;
	return n;
}

static Op *build_dynamic_shared(Module *m, Builder *b, Op *op)
{
	(void)op;
	return call_ptr_fn(m, b, "__oxide_host_dynamic_shared");
}

static Op *build_grid_barrier(Module *m, Builder *b, Op *op)
{
	(void)op;
	return call_ptr_fn(m, b, "__oxide_host_grid_barrier_word");
}

const NvvmHooks nvvm_host = { kernel_params, globals, build_vprintf, build_assertfail, build_dynamic_shared,
                              build_grid_barrier, "__oxide_host_" };
