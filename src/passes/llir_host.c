/* llir_host.c: stage 5's target hooks on the host target — nvvm ops
 * become calls to the emulator's functions, declared once per module as
 * extern Funcs (no blocks; the emitter declares them, a host program
 * linking src/runtime/oxemu.c and oxmath.c defines them):
 *
 *   nvvm.tid.x                ==>  llir.call @__oxide_host_tid_x() : i32   (every index register)
 *   nvvm.barrier0             ==>  llir.call @__oxide_host_barrier()
 *   nvvm.trap                 ==>  llir.call @__oxide_host_trap()         (never returns)
 *   nvvm.prim @__oxide_NAME(args)  ==>  llir.call @__oxide_host_NAME(args)
 *   nvvm.libdevice @__nv_sinf(%x)  ==>  llir.call @__nv_sinf(%x)
 *   mir.rem %x, %y (floats)   ==>  llir.frem   (x86 lowers it to fmod itself)
 */
#include "llir.h"

#include <string.h>

static Value *host_call(Lower *l, const char *sym, Type *rt)
{
	return extern_call(l, sym, rt, 0, NULL);
}

static Value *sreg(Lower *l, Op *op)
{
	static const char *names[] = {
		"__oxide_host_tid_x", "__oxide_host_tid_y", "__oxide_host_tid_z",
		"__oxide_host_ntid_x", "__oxide_host_ntid_y", "__oxide_host_ntid_z",
		"__oxide_host_ctaid_x", "__oxide_host_ctaid_y", "__oxide_host_ctaid_z",
		"__oxide_host_nctaid_x", "__oxide_host_nctaid_y", "__oxide_host_nctaid_z",
	};
	if (op->code < OP_NVVM_TID_X || op->code > OP_NVVM_NCTAID_Z)
		die("%s has no host-target lowering", opinfo[op->code].name);
	return host_call(l, names[op->code - OP_NVVM_TID_X], op->res[0].type);
}

static void barrier(Lower *l)
{
	host_call(l, "__oxide_host_barrier", NULL);
}

static void trap(Lower *l)
{
	host_call(l, "__oxide_host_trap", NULL);
}

static Value *libdevice(Lower *l, Op *op)
{
	return extern_call(l, op->sym, op->nres ? op->res[0].type : NULL, op->nopd, op->opd);
}

static Value *prim(Lower *l, Op *op, const Prim *p)
{
	char name[96];
	snprintf(name, sizeof name, "__oxide_host_%s", p->sym + strlen("__oxide_"));
	return extern_call(l, arena_strdup(l->m->arena, name), op->nres ? op->res[0].type : NULL, op->nopd, op->opd);
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

static bool atomicrmw_fenced(AtomicOrd o)
{
	(void)o;
	return false;
}

const LlirHooks llir_host = { sreg, barrier, trap, libdevice, prim, float_rem, syncscope, atomicrmw_fenced };
