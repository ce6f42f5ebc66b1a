/* llir_host.c: stage 5's target hooks on the host target — nvvm ops
 * become calls to the emulator's functions, declared once per module as
 * extern Funcs (no blocks; the emitter declares them, a host program
 * linking src/runtime/oxemu*.c and oxmath.c defines them):
 *
 *   nvvm.tid.x                ==>  llir.call @__oxide_host_tid_x() : i32   (every index register)
 *   nvvm.barrier0             ==>  llir.call @__oxide_host_barrier_sync()
 *   nvvm.trap                 ==>  llir.call @__oxide_host_trap()         (never returns)
 *   nvvm.prim @__oxide_NAME(args)  ==>  llir.call @__oxide_host_NAME(args)
 *
 * The functions are the registry's (src/ir/prims.def: each DEVICE row's
 * host entry, declared for the emulator by oxide_host_abi.h).
 *   nvvm.libdevice @__nv_sinf(%x)  ==>  llir.call @__nv_sinf(%x)
 *   mir.rem %x, %y (floats)   ==>  llir.frem   (x86 lowers it to fmod itself)
 */
#include "llir.h"


/* A call of the emulator's function for the nvvm op `code`. */
static Value *host_call(Lower *l, Opcode code, Type *rt)
{
	const DevicePrim *p = prim_of_op(code);
	if (!p)
		die("%s has no host-target lowering", opinfo[code].name);
	return extern_call(l, p->host, rt, 0, NULL);
}

static Value *sreg(Lower *l, Op *op)
{
	return host_call(l, op->code, op->res[0].type);
}

static void barrier(Lower *l)
{
	host_call(l, OP_NVVM_BARRIER0, NULL);
}

static void trap(Lower *l)
{
	host_call(l, OP_NVVM_TRAP, NULL);
}

static Value *libdevice(Lower *l, Op *op)
{
	return extern_call(l, op->sym, op->nres ? op->res[0].type : NULL, op->nopd, op->opd);
}

static Value *prim(Lower *l, Op *op, const DevicePrim *p)
{
	return extern_call(l, p->host, op->nres ? op->res[0].type : NULL, op->nopd, op->opd);
}

static Value *float_rem(Lower *l, Value *a, Value *b, Type *t)
{
	return emit2(l, OP_LLIR_FREM, t, a, b);
}

/* the host has the system scope only */
static const char *syncscope(AtomicScope s)
{
	(void)s;
	return NULL;
}

/* one thread runs at a time: atomicrmw (any scope) is exact */
static bool atomicrmw_ordered(const Lower *l, AtomicRmw rmw, AtomicOrd o, const Type *t)
{
	(void)l, (void)rmw, (void)o, (void)t;
	return true;
}

const LlirHooks llir_host = { sreg, barrier, trap, libdevice, prim, float_rem, syncscope, atomicrmw_ordered };
