/* llir_prim.c: the warp, sync and timer primitives (nvvm.prim): each is
 * a DEVICE row of the registry (src/ir/prims.def, class PRIM) with its
 * NVVM intrinsic and how the operands map to it (llir_nvptx.c reads
 * those; on the host each is a call of the emulator's __oxide_host_<name>,
 * llir_host.c). */
#include "llir.h"

/* nvvm.prim @sym(args): the target's lowering of its registry row. */
Value *lower_prim(Lower *l, Op *op)
{
	const DevicePrim *p = prim_find(op->sym);
	if (!p || (p->cls != PC_PRIM && p->cls != PC_ASM) || p->nargs != op->nopd)
		die("nvvm.prim @%s: unknown primitive or wrong argument count", op->sym);
	return l->hooks->prim(l, op, p);
}
