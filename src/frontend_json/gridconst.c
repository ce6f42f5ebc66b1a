/* gridconst.c: stage 2 — what Rust promises of a kernel's parameters:
 * which by-value ones are grid constants (CUDA's __grid_constant__), and
 * the aliasing and alignment of pointer ones (fb_param_facts, below).
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
	case RT_ARRAY: case RT_SLICE:
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

static uint32_t align_of(const RType *t)
{
	uint32_t a = t == NULL ? 1 : t->kind == RT_SLICE && t->elem ? t->elem->align : t->align;
	return a ? a : 1;
}

/* What Rust promises of kernel parameter local l of type t, lowered to
 * the n parameters p (rustc's own promises for the same types):
 *   &T, &[T] (T without UnsafeCell): nothing writes the memory while the
 *     kernel runs and no other pointer reaches it (noalias readonly: on
 *     NVPTX, loads through it may use the read-only path, ld.global.nc);
 *     aligned to T; &T also dereferenceable for T's size; with an
 *     UnsafeCell (&[AtomicU32]) only aligned (dereferenceable), as rustc;
 *   &mut T, &mut [T]: noalias, aligned;
 *   DisjointSlice<T>: each element is written by one thread only, through
 *     this slice (noalias), aligned to T.
 * All of them are non-null (a Rust slice's data pointer never is, even
 * when empty; DisjointSlice::get_mut's Option then needs no null test).
 * The host must keep these promises (a C host passing one buffer as a
 * `&[T]` and as a DisjointSlice breaks the first), as Rust callers do. */
void fb_param_facts(const OxFunc *ox, RType *t, uint32_t l, Param *p, uint32_t n)
{
	const OxType *ot = ox->locals[l].ty;
	if (n == 0 || p[0].type->kind != TY_PTR || p[0].byval_size)
		return;
	if (t->kind == RT_REF && t->pointee) {
		bool cell = has_unsafe_cell(ot->pointee, 0);   /* atomics: others write it */
		p[0].noalias = t->is_mut || !cell;
		p[0].readonly = !t->is_mut && !cell;
		p[0].nonnull = true;
		p[0].align = align_of(t->pointee);
		if (t->pointee->kind != RT_SLICE && t->pointee->has_layout && n == 1)
			p[0].deref = t->pointee->size;
	} else if (t->kind == RT_ADT && t->path && !strcmp(t->path, "oxide_device::DisjointSlice") && n == 2 &&
	           t->nvariant == 1 && t->variants[0].nfield >= 1 && t->variants[0].fields[0] &&
	           t->variants[0].fields[0]->kind == RT_PTR) {
		p[0].noalias = true;
		p[0].nonnull = true;
		p[0].align = align_of(t->variants[0].fields[0]->pointee);
	}
}
