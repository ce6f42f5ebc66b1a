/* gridconst.c: stage 2 — which by-value kernel parameters are grid
 * constants (CUDA's __grid_constant__).
 *
 * A kernel parameter of Memory layout is a .param byte array.  When the
 * kernel never writes it, its local is the parameter's own memory: no
 * copy into a slot, and LLVM's NVPTX gives its address as `cvta.param`
 * (the parameter is marked "nvvm.grid_constant"), so a TMA copy can read
 * a TensorMap parameter where the launch put it.  Written means: the
 * local (or a part of it: any place without a deref) is the destination
 * of an assignment, a discriminant write, a call or a drop, or is
 * borrowed `&mut` / `&raw mut`; or its type has interior mutability
 * (UnsafeCell), which `&` lets anyone write.  rustc forbids every other
 * write, so the scan of the MIR body is exact for safe code and errs on
 * the copy's side otherwise. */
#include "build.h"

#include <string.h>

/* The place is local l or a part of it (a deref reaches other memory). */
static bool place_in_local(const OxPlace *p, uint32_t l)
{
	if (p->local != l)
		return false;
	for (uint32_t i = 0; i < p->nproj; i++)
		if (p->proj[i].kind == OX_PROJ_DEREF)
			return false;
	return true;
}

static bool stmt_writes(const OxStmt *st, uint32_t l)
{
	switch (st->kind) {
	case OX_STMT_ASSIGN:
		return place_in_local(&st->place, l) ||
		       (st->rv.kind == OX_RV_REF && st->rv.is_mut && place_in_local(&st->rv.place, l));
	case OX_STMT_SET_DISCRIMINANT:
		return place_in_local(&st->place, l);
	case OX_STMT_ASSUME: case OX_STMT_COPY_NONOVERLAPPING:
		return false;     /* operands: reads, and pointers made elsewhere */
	}
	return true;
}

static bool term_writes(const OxTerm *t, uint32_t l)
{
	return (t->kind == OX_TERM_CALL || t->kind == OX_TERM_DROP) && place_in_local(&t->place, l);
}

static bool local_written(const OxFunc *ox, uint32_t l)
{
	for (uint32_t b = 0; b < ox->nblock; b++) {
		const OxBlock *bb = &ox->blocks[b];
		for (uint32_t k = 0; k < bb->nstmt; k++)
			if (stmt_writes(&bb->stmts[k], l))
				return true;
		if (term_writes(&bb->term, l))
			return true;
	}
	return false;
}

/* Whether t holds an UnsafeCell by value (depth-limited: types nest
 * finitely, the limit only guards against a malformed input's cycle). */
static bool has_unsafe_cell(const OxType *t, int depth)
{
	if (t == NULL || depth > 64)
		return t != NULL;
	switch (t->kind) {
	case RT_ARRAY:
		return has_unsafe_cell(t->elem, depth + 1);
	case RT_ADT:
		if (t->path && !strcmp(t->path, "core::cell::UnsafeCell"))
			return true;
		/* fall through */
	case RT_TUPLE: case RT_CLOSURE:
		for (uint32_t v = 0; v < t->nvariant; v++)
			for (uint32_t i = 0; i < t->variants[v].nfield; i++)
				if (has_unsafe_cell(t->variants[v].fields[i], depth + 1))
					return true;
		return false;
	default:
		return false;
	}
}

bool fb_param_is_grid_constant(const OxFunc *ox, uint32_t l)
{
	return ox->kind == OX_FN_KERNEL && !has_unsafe_cell(ox->locals[l].ty, 0) && !local_written(ox, l);
}
