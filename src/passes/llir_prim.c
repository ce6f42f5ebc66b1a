/* llir_prim.c: the warp, sync and timer primitives (nvvm.prim) as one
 * table: symbol, argument count, NVVM intrinsic and how the operands map
 * to it (llir_nvptx.c reads those; on the host each is a call of the
 * emulator's __oxide_host_<name>, llir_host.c). */
#include "llir.h"

#include <string.h>

/* The primitives, with the NVVM intrinsic each is on NVPTX (llir.h
 * PrimKind says how the operands map). */
static const Prim prims[] = {
	{ "__oxide_laneid", PK_SAME, "llvm.nvvm.read.ptx.sreg.laneid", 0 },
	{ "__oxide_warpid", PK_SAME, "llvm.nvvm.read.ptx.sreg.warpid", 0 },
	{ "__oxide_smid", PK_SAME, "llvm.nvvm.read.ptx.sreg.smid", 0 },
	{ "__oxide_activemask", PK_SAME, "llvm.nvvm.activemask", 0 },
	{ "__oxide_clock", PK_SAME, "llvm.nvvm.read.ptx.sreg.clock", 0 },
	{ "__oxide_clock64", PK_SAME, "llvm.nvvm.read.ptx.sreg.clock64", 0 },
	{ "__oxide_globaltimer", PK_SAME, "llvm.nvvm.read.ptx.sreg.globaltimer", 0 },
	{ "__oxide_nanosleep", PK_SAME, "llvm.nvvm.nanosleep", 1 },
	{ "__oxide_fence_block", PK_SAME, "llvm.nvvm.membar.cta", 0 },
	{ "__oxide_fence_device", PK_SAME, "llvm.nvvm.membar.gl", 0 },
	{ "__oxide_fence_system", PK_SAME, "llvm.nvvm.membar.sys", 0 },
	/* (mask, value, b, c) as shfl.sync's operands */
	{ "__oxide_shfl_idx", PK_SAME, "llvm.nvvm.shfl.sync.idx.i32", 4 },
	{ "__oxide_shfl_up", PK_SAME, "llvm.nvvm.shfl.sync.up.i32", 4 },
	{ "__oxide_shfl_down", PK_SAME, "llvm.nvvm.shfl.sync.down.i32", 4 },
	{ "__oxide_shfl_bfly", PK_SAME, "llvm.nvvm.shfl.sync.bfly.i32", 4 },
	{ "__oxide_vote_all", PK_VOTE, "llvm.nvvm.vote.all.sync", 2 },
	{ "__oxide_vote_any", PK_VOTE, "llvm.nvvm.vote.any.sync", 2 },
	{ "__oxide_vote_ballot", PK_BALLOT, "llvm.nvvm.vote.ballot.sync", 2 },
	{ "__oxide_match_any_b32", PK_SAME, "llvm.nvvm.match.any.sync.i32", 2 },
	{ "__oxide_match_any_b64", PK_SAME, "llvm.nvvm.match.any.sync.i64", 2 },
	/* match.all.sync d|p: d is the mask when all agree, else 0 */
	{ "__oxide_match_all_b32", PK_PAIR0, "llvm.nvvm.match.all.sync.i32p", 2 },
	{ "__oxide_match_all_b64", PK_PAIR0, "llvm.nvvm.match.all.sync.i64p", 2 },
	{ "__oxide_syncwarp", PK_SAME, "llvm.nvvm.bar.warp.sync", 1 },
	{ "__oxide_redux_add", PK_REDUX, "llvm.nvvm.redux.sync.add", 2 },
	{ "__oxide_redux_umin", PK_REDUX, "llvm.nvvm.redux.sync.umin", 2 },
	{ "__oxide_redux_umax", PK_REDUX, "llvm.nvvm.redux.sync.umax", 2 },
	{ "__oxide_redux_min", PK_REDUX, "llvm.nvvm.redux.sync.min", 2 },
	{ "__oxide_redux_max", PK_REDUX, "llvm.nvvm.redux.sync.max", 2 },
	{ "__oxide_redux_and", PK_REDUX, "llvm.nvvm.redux.sync.and", 2 },
	{ "__oxide_redux_or", PK_REDUX, "llvm.nvvm.redux.sync.or", 2 },
	{ "__oxide_redux_xor", PK_REDUX, "llvm.nvvm.redux.sync.xor", 2 },
	{ "__oxide_barrier_popc", PK_BAR_POPC, "llvm.nvvm.barrier.cta.red.popc.aligned.all", 1 },
	{ "__oxide_barrier_and", PK_BAR_BOOL, "llvm.nvvm.barrier.cta.red.and.aligned.all", 1 },
	{ "__oxide_barrier_or", PK_BAR_BOOL, "llvm.nvvm.barrier.cta.red.or.aligned.all", 1 },
	/* (id, threads): barrier.sync / barrier.arrive a, b (not .aligned:
	 * the lanes of a warp may arrive from different places, sm_70+) */
	{ "__oxide_barrier_sync_count", PK_SAME, "llvm.nvvm.barrier.cta.sync.count", 2 },
	{ "__oxide_barrier_arrive_count", PK_SAME, "llvm.nvvm.barrier.cta.arrive.count", 2 },
};

static int find_prim(const char *sym)
{
	for (size_t i = 0; i < countof(prims); i++)
		if (!strcmp(prims[i].sym, sym))
			return (int)i;
	return -1;
}

int llir_prim_arity(const char *sym)
{
	int i = find_prim(sym);
	return i < 0 ? -1 : prims[i].nargs;
}

/* nvvm.prim @sym(args): the target's lowering of its table row. */
Value *lower_prim(Lower *l, Op *op)
{
	int i = find_prim(op->sym);
	if (i < 0 || (uint32_t)prims[i].nargs != op->nopd)
		die("nvvm.prim @%s: unknown primitive or wrong argument count", op->sym);
	return l->hooks->prim(l, op, &prims[i]);
}
