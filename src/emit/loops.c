/* loops.c: oxide_device::hint::unroll — a function's loop hints
 * (llir.loop_hint) as LLVM loop metadata, once its body is built.
 *
 * The function's LLVM CFG is searched depth-first from the entry: an edge
 * to a block still on the search stack is a back edge and its target a
 * loop header (rustc's MIR is reducible, so these are the natural loops).
 * A header's loop is the header and every block that reaches the source
 * of one of its back edges without passing through the header.  A hint
 * applies to the smallest loop that holds its block: the terminator of
 * each latch (a back edge's source) gets
 *   !llvm.loop !{self, !{"llvm.loop.unroll.count", N}}
 * (.full for 0, .disable for 1), which LLVM's loop unroller honours from
 * -O1 on, like clang's #pragma unroll.
 */
#include "emit_impl.h"

#include <llvm-c/DebugInfo.h>

#include <stdlib.h>
#include <string.h>

typedef struct {
	LLVMBasicBlockRef bb;
	uint32_t index;
} BlockKey;

typedef struct {
	uint32_t n;
	LLVMBasicBlockRef *bb;
	BlockKey *sorted;          /* bb by address, for index_of */
	uint32_t **succ, *nsucc;
	uint32_t **pred, *npred;
	bool *header;              /* target of a back edge */
	uint32_t **latch, *nlatch; /* per header: the back edges' sources */
} Cfg;

static int key_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const BlockKey *)a)->bb, y = (uintptr_t)((const BlockKey *)b)->bb;
	return x < y ? -1 : x > y;
}

static uint32_t index_of(const Cfg *g, LLVMBasicBlockRef bb)
{
	BlockKey k = { bb, 0 };
	const BlockKey *f = bsearch(&k, g->sorted, g->n, sizeof k, key_cmp);
	return f ? f->index : UINT32_MAX;
}

static void push(uint32_t **v, uint32_t *n, uint32_t x)
{
	*v = xrealloc(*v, sizeof **v * (*n + 1));
	(*v)[(*n)++] = x;
}

static void cfg_build(Cfg *g, LLVMValueRef fn)
{
	g->n = LLVMCountBasicBlocks(fn);
	g->bb = xmalloc(sizeof *g->bb * g->n);
	g->sorted = xmalloc(sizeof *g->sorted * g->n);
	g->succ = calloc(g->n, sizeof *g->succ);
	g->pred = calloc(g->n, sizeof *g->pred);
	g->latch = calloc(g->n, sizeof *g->latch);
	g->nsucc = calloc(g->n, sizeof *g->nsucc);
	g->npred = calloc(g->n, sizeof *g->npred);
	g->nlatch = calloc(g->n, sizeof *g->nlatch);
	g->header = calloc(g->n, sizeof *g->header);
	if (!g->succ || !g->pred || !g->latch || !g->nsucc || !g->npred || !g->nlatch || !g->header)
		die("out of memory");
	LLVMGetBasicBlocks(fn, g->bb);
	for (uint32_t i = 0; i < g->n; i++)
		g->sorted[i] = (BlockKey){ g->bb[i], i };
	qsort(g->sorted, g->n, sizeof *g->sorted, key_cmp);
	for (uint32_t i = 0; i < g->n; i++) {
		LLVMValueRef t = LLVMGetBasicBlockTerminator(g->bb[i]);
		for (unsigned s = 0; t && s < LLVMGetNumSuccessors(t); s++) {
			uint32_t j = index_of(g, LLVMGetSuccessor(t, s));
			push(&g->succ[i], &g->nsucc[i], j);
			push(&g->pred[j], &g->npred[j], i);
		}
	}
}

/* Depth-first from the entry (block 0), iteratively; an edge to a block on
 * the stack is a back edge. */
static void find_back_edges(Cfg *g)
{
	uint8_t *state = calloc(g->n, 1);      /* 0 new, 1 on the stack, 2 done */
	uint32_t *stack = xmalloc(sizeof *stack * g->n), *next = calloc(g->n, sizeof *next), sp = 0;
	if (!state || !next)
		die("out of memory");
	stack[sp++] = 0;
	state[0] = 1;
	while (sp) {
		uint32_t b = stack[sp - 1];
		if (next[b] == g->nsucc[b]) {
			state[b] = 2;
			sp--;
			continue;
		}
		uint32_t s = g->succ[b][next[b]++];
		if (state[s] == 1) {
			g->header[s] = true;
			push(&g->latch[s], &g->nlatch[s], b);
		} else if (state[s] == 0) {
			state[s] = 1;
			stack[sp++] = s;
		}
	}
	free(state);
	free(stack);
	free(next);
}

/* The blocks of header h's loop, marked in `in`; their number. */
static uint32_t loop_body(const Cfg *g, uint32_t h, bool *in)
{
	uint32_t *work = xmalloc(sizeof *work * g->n), nw = 0, count = 1;
	memset(in, 0, g->n);
	in[h] = true;
	for (uint32_t k = 0; k < g->nlatch[h]; k++)
		if (!in[g->latch[h][k]]) {
			in[g->latch[h][k]] = true;
			work[nw++] = g->latch[h][k];
			count++;
		}
	while (nw) {
		uint32_t b = work[--nw];
		for (uint32_t k = 0; k < g->npred[b]; k++) {
			uint32_t p = g->pred[b][k];
			if (!in[p]) {
				in[p] = true;
				work[nw++] = p;
				count++;
			}
		}
	}
	free(work);
	return count;
}

/* The header of the smallest loop holding block b, or UINT32_MAX. */
static uint32_t innermost_loop(const Cfg *g, uint32_t b)
{
	bool *in = xmalloc(g->n);
	uint32_t best = UINT32_MAX, best_size = UINT32_MAX;
	for (uint32_t h = 0; h < g->n; h++) {
		if (!g->header[h])
			continue;
		uint32_t size = loop_body(g, h, in);
		if (in[b] && size < best_size) {
			best = h;
			best_size = size;
		}
	}
	free(in);
	return best;
}

/* !{self, !{"llvm.loop.unroll.*"[, i32 count]}} */
static LLVMValueRef loop_metadata(LLVMContextRef ctx, uint32_t unroll)
{
	const char *key = unroll == 0 ? "llvm.loop.unroll.full"
	                : unroll == 1 ? "llvm.loop.unroll.disable" : "llvm.loop.unroll.count";
	LLVMMetadataRef opt[2] = { LLVMMDStringInContext2(ctx, key, strlen(key)), NULL };
	size_t nopt = 1;
	if (unroll > 1)
		opt[nopt++] = LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(ctx), unroll, 0));
	LLVMMetadataRef self = LLVMTemporaryMDNode(ctx, NULL, 0);
	LLVMMetadataRef ops[2] = { self, LLVMMDNodeInContext2(ctx, opt, nopt) };
	LLVMMetadataRef loop = LLVMMDNodeInContext2(ctx, ops, 2);
	LLVMMetadataReplaceAllUsesWith(self, loop);
	return LLVMMetadataAsValue(ctx, loop);
}

static bool hint_error(FuncEmit *fe, const Op *op, const char *msg)
{
	char where[512];
	diag_error(OX_UNSUPPORTED, ir_loc_string(fe->m, op->loc, where, sizeof where), "oxide_device::hint::unroll %s",
	           msg);
	fe->failed = true;
	return false;
}

static void cfg_free(Cfg *g)
{
	for (uint32_t i = 0; i < g->n; i++) {
		free(g->succ[i]);
		free(g->pred[i]);
		free(g->latch[i]);
	}
	free(g->succ), free(g->pred), free(g->latch), free(g->nsucc), free(g->npred), free(g->nlatch);
	free(g->header), free(g->bb), free(g->sorted);
}

bool emit_loop_hints(FuncEmit *fe)
{
	if (fe->nhint == 0)
		return true;
	Cfg g = { 0 };
	cfg_build(&g, fe->fn);
	bool ok = true;
	if (g.n && g.bb[0] != LLVMGetEntryBasicBlock(fe->fn))
		die("emit_loop_hints: the entry is not the first block");
	find_back_edges(&g);
	unsigned kind = LLVMGetMDKindIDInContext(fe->e->ctx, "llvm.loop", 9);
	for (uint32_t i = 0; ok && i < fe->nhint; i++) {
		const Op *op = fe->hints[i].op;
		uint32_t h = innermost_loop(&g, index_of(&g, fe->hints[i].at));
		if (h == UINT32_MAX) {
			ok = hint_error(fe, op, "is not inside a loop: call it in the loop's body, in the function "
			                        "that has the loop");
			break;
		}
		LLVMValueRef md = loop_metadata(fe->e->ctx, op->attr.hint.unroll);
		for (uint32_t k = 0; ok && k < g.nlatch[h]; k++) {
			LLVMValueRef t = LLVMGetBasicBlockTerminator(g.bb[g.latch[h][k]]);
			if (LLVMGetMetadata(t, kind) != NULL)
				ok = hint_error(fe, op, "is given twice for one loop");
			else
				LLVMSetMetadata(t, kind, md);
		}
	}
	cfg_free(&g);
	return ok;
}
