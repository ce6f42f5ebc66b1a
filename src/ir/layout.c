/* layout.c: questions about Rust types and rustc's layouts (RType), asked
 * by the frontend and the lowerings. */
#include "ir.h"

uint64_t rtype_field_offset(const RType *t, uint32_t variant, uint32_t field)
{
	if (t->has_variants) {
		if (variant >= t->nvlayout || field >= t->vlayouts[variant].nfield)
			die("%s: no field %u in variant %u", t->name, field, variant);
		return t->vlayouts[variant].fields[field];
	}
	if (t->kind == RT_ARRAY)
		return (uint64_t)field * t->elem->size;
	if (field >= t->noffset)
		die("%s: no field %u", t->name, field);
	return t->offsets[field];
}

RType *rtype_field_type(const RType *t, uint32_t variant, uint32_t field)
{
	if (t->kind == RT_ARRAY)
		return t->elem;
	if (variant >= t->nvariant || field >= t->variants[variant].nfield)
		return NULL;
	return t->variants[variant].fields[field];
}

bool rtype_is_fat_ptr(const RType *t)
{
	if (t->kind != RT_REF && t->kind != RT_PTR)
		return false;
	if (t->pointee->kind == RT_SLICE || t->pointee->kind == RT_STR)
		return true;
	/* a struct with an unsized tail: rustc's layout of the pointer says so */
	return t->has_layout && t->abi == ABI_SCALAR_PAIR;
}

bool rtype_is_zst(const RType *t)
{
	return t->has_layout && t->size == 0;
}

bool rtype_is_scalar(const RType *t)
{
	switch (t->kind) {
	case RT_BOOL: case RT_CHAR: case RT_INT: case RT_FLOAT: case RT_FNPTR:
		return true;
	case RT_REF: case RT_PTR:
		return !rtype_is_fat_ptr(t);
	default:
		return false;
	}
}

Type *rtype_scalar_type(Module *m, const RType *t)
{
	Type *ty;
	switch (t->kind) {
	case RT_BOOL: return ir_type_bool(m);
	case RT_CHAR:
		ty = ir_type(m, TY_INT, 32, false, 0);
		return ty;
	case RT_INT: return ir_type_int(m, t->bits, t->is_signed);
	case RT_FLOAT: return ir_type_float(m, t->bits);
	case RT_REF: case RT_PTR:
		return rtype_is_fat_ptr(t) ? NULL : ir_type_ptr(m, AS_GENERIC);
	case RT_FNPTR:
		return ir_type_ptr(m, AS_GENERIC);
	default:
		return NULL;
	}
}
