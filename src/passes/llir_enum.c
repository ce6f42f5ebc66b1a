/* llir_enum.c: enum discriminants in rustc's tag encodings (direct tags
 * and niches) — mir.discriminant and mir.set_discriminant become tag
 * loads and stores at the layout's tag offset:
 *
 *   mir.discriminant %p {E}   ==>  llir.load tag; (niche: sub, icmp ule, select) ; index -> discriminant
 *   mir.set_discriminant %p V ==>  llir.store of V's tag value (nothing for a niche's untagged variant)
 */
#include "llir.h"

static Value *tag_as_int(Lower *l, Value *tag)
{
	if (tag->type->kind == TY_PTR)
		return emit1(l, OP_LLIR_PTRTOINT, ir_type_int(l->m, 64, false), tag);
	return tag;
}

/* Variant index -> discriminant value, as a chain of selects unless every
 * variant's discriminant equals its index (the common case). */
static Value *index_to_discr(Lower *l, RType *t, Value *idx, Type *rt)
{
	bool identity = true;
	for (uint32_t i = 0; i < t->nvariant; i++)
		identity &= t->variants[i].discr.lo == i && t->variants[i].discr.hi == 0;
	if (identity)
		return int_resize(l, idx, false, rt);
	Value *r = iconst(l, rt, t->variants[0].discr.lo, t->variants[0].discr.hi);
	for (uint32_t i = 1; i < t->nvariant; i++) {
		Value *is = icmp(l, PRED_EQ, idx, iconst(l, idx->type, i, 0));
		Value *d = iconst(l, rt, t->variants[i].discr.lo, t->variants[i].discr.hi);
		Value *opd[3] = { is, d, r };
		r = emit(l, OP_LLIR_SELECT, rt, 3, opd);
	}
	return r;
}

Value *lower_discr(Lower *l, Op *op)
{
	RType *t = op->rty;
	Type *rt = op->res[0].type;
	if (!t->has_variants) {
		bool e = t->kind == RT_ADT && t->adt_kind == ADT_ENUM && t->single_variant < t->nvariant;
		U128 d = e ? t->variants[t->single_variant].discr : (U128){ 0, 0 };
		return iconst(l, rt, d.lo, d.hi);
	}
	Value *tag = tag_as_int(l, load(l, gep_bytes(l, op->opd[0], t->tag_offset), t->tag.type));
	if (!t->niche)   /* direct: the tag is the discriminant, in the tag's signedness */
		return int_resize(l, tag, t->tag.type->is_signed, rt);
	Type *tt = tag->type;
	Value *rel = emit2(l, OP_LLIR_SUB, tt, tag, iconst(l, tt, t->niche_start.lo, t->niche_start.hi));
	uint64_t span = t->niche_last - t->niche_first;
	Value *in = icmp(l, PRED_ULE, rel, iconst(l, tt, span, 0));
	Value *idx = emit2(l, OP_LLIR_ADD, tt, rel, iconst(l, tt, t->niche_first, 0));
	Value *opd[3] = { in, idx, iconst(l, tt, t->untagged_variant, 0) };
	idx = emit(l, OP_LLIR_SELECT, tt, 3, opd);
	return index_to_discr(l, t, idx, rt);
}

void lower_set_discr(Lower *l, Op *op)
{
	RType *t = op->rty;
	uint32_t v = op->attr.variant.index;
	if (!t->has_variants || (t->niche && v == t->untagged_variant))
		return;
	Type *tt = t->tag.type->kind == TY_PTR ? ir_type_int(l->m, 64, false) : t->tag.type;
	Value *val;
	if (t->niche) {
		uint128 x = ((uint128)t->niche_start.hi << 64 | t->niche_start.lo) + (v - t->niche_first);
		val = iconst(l, tt, (uint64_t)x, (uint64_t)(x >> 64));
	} else {
		val = iconst(l, tt, t->variants[v].discr.lo, t->variants[v].discr.hi);
	}
	if (t->tag.type->kind == TY_PTR)
		val = emit1(l, OP_LLIR_INTTOPTR, t->tag.type, val);
	store(l, val, gep_bytes(l, op->opd[0], t->tag_offset));
}
