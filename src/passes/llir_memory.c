/* llir_memory.c: places and memory with rustc's layouts applied — slots
 * become allocas, fields byte offsets, loads and stores get the place's
 * alignment:
 *
 *   mir.field %p .i {T}       ==>  llir.gep %p, off x 1     (offset of field i)
 *   mir.load %p : bool        ==>  llir.trunc (llir.load i8)
 *   mir.copy %d, %s {T}       ==>  llir.memcpy, or i128 loads and stores when T is
 *                                  16-byte aligned and at most 64 bytes
 */
#include "llir.h"

/* A copy of a small 16-byte aligned aggregate as 16-byte loads and stores
 * (i128: ld/st.v2.b64 on NVPTX, one vector access per 16 bytes, where
 * llvm.memcpy becomes pairs of 8-byte ones); LLVM's SROA still takes
 * the loads apart when the aggregate lives in registers. */
static void wide_copy(Lower *l, Value *dst, Value *src, uint64_t size)
{
	Type *i128 = ir_type_int(l->m, 128, false);
	for (uint64_t off = 0; off < size; off += 16) {
		Value *v = load(l, gep_bytes(l, src, off), i128);
		v->def->attr.access.align = 16;
		Value *opd[2] = { v, gep_bytes(l, dst, off) };
		Op *st = ir_build(&l->b, OP_LLIR_STORE, 0, NULL, 2, opd, 0);
		st->attr.access.align = 16;
	}
}

Value *lower_memory(Lower *l, Op *op)
{
	RType *t = op->rty;
	switch (op->code) {
	case OP_MIR_SLOT: {
		Value *r = emit(l, OP_LLIR_ALLOCA, op->res[0].type, 0, NULL);
		r->def->attr.mem.align = t->align ? t->align : 1;
		r->def->attr.mem.size = t->size;
		return r;
	}
	case OP_MIR_LOAD:
		return load_aligned(l, op->opd[0], op->res[0].type, op->attr.access.align);
	case OP_MIR_STORE:
		store_aligned(l, op->opd[0], op->opd[1], op->attr.access.align);
		return NULL;
	case OP_MIR_COPY: {
		if (!t->size)
			return NULL;
		/* each side: its place's alignment (what the projections prove,
		 * or a transmute's smaller one), else the type's */
		uint32_t own = t->align ? t->align : 1;
		uint32_t align = op->attr.access.align ? op->attr.access.align : own;
		uint32_t src_align = op->attr.access.src_align ? op->attr.access.src_align : own;
		if (align >= 16 && src_align >= 16 && t->size % 16 == 0 && t->size <= 64) {
			wide_copy(l, op->opd[0], op->opd[1], t->size);
			return NULL;
		}
		Value *opd[2] = { op->opd[0], op->opd[1] };
		Op *c = ir_build(&l->b, OP_LLIR_MEMCPY, 0, NULL, 2, opd, 0);
		c->attr.mem.align = align;
		c->attr.mem.src_align = src_align;
		c->attr.mem.size = t->size;
		return NULL;
	}
	case OP_MIR_FIELD:
		return gep_bytes(l, op->opd[0], rtype_field_offset(t, 0, op->attr.field.index));
	case OP_MIR_VFIELD:
		return gep_bytes(l, op->opd[0], rtype_field_offset(t, op->attr.vfield.variant, op->attr.vfield.field));
	case OP_MIR_PTR_ADD:
		return gep_bytes(l, op->opd[0], (uint64_t)op->attr.offset.bytes);
	case OP_MIR_INDEX: {
		if (!t->size)
			return op->opd[0];
		Value *r = emit2(l, OP_LLIR_GEP, op->res[0].type, op->opd[0], op->opd[1]);
		r->def->attr.gep.stride = t->size;
		return r;
	}
	case OP_MIR_GLOBAL_ADDR: {
		Value *r = emit(l, OP_LLIR_GLOBAL_ADDR, op->res[0].type, 0, NULL);
		r->def->sym = op->sym;
		return r;
	}
	case OP_MIR_DISCR:
		return lower_discr(l, op);
	case OP_MIR_SET_DISCR:
		lower_set_discr(l, op);
		return NULL;
	default:
		unreachable();
	}
}
