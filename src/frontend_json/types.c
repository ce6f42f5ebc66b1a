/* types.c: stage 2 — the model's types (OxType, linked and checked by
 * parse_types.c) into the module's RTypes with rustc's layouts, one per
 * OxType, in the same order: RType i is OxType i. */
#include "build.h"

static Type *prim_type(Module *m, const OxScalar *s)
{
	static const struct { TypeKind k; unsigned bits; } prims[] = {
		[OXP_I8] = { TY_INT, 8 }, [OXP_I16] = { TY_INT, 16 }, [OXP_I32] = { TY_INT, 32 },
		[OXP_I64] = { TY_INT, 64 }, [OXP_I128] = { TY_INT, 128 }, [OXP_F32] = { TY_FLOAT, 32 },
		[OXP_F64] = { TY_FLOAT, 64 }, [OXP_PTR] = { TY_PTR, 64 },
	};
	TypeKind k = prims[s->prim].k;
	return ir_type(m, k, prims[s->prim].bits, k == TY_INT && s->is_signed, 0);
}

static Scalar scalar_of(Module *m, const OxScalar *s)
{
	return (Scalar){ prim_type(m, s), s->valid_start, s->valid_end };
}

static RType *rt(Module *m, OxType *t)
{
	return t ? m->rtypes[t->id] : NULL;
}

static void fill_variants(Module *m, RType *r, OxType *t)
{
	Arena *a = m->arena;
	r->nvariant = t->nvariant;
	r->variants = arena_new_array(a, Variant, t->nvariant);
	for (uint32_t i = 0; i < t->nvariant; i++) {
		OxVariant *v = &t->variants[i];
		Variant *rv = &r->variants[i];
		rv->name = v->name;
		rv->discr = v->discr;
		rv->nfield = v->nfield;
		rv->fields = arena_new_array(a, RType *, v->nfield);
		rv->field_names = v->field_names;
		for (uint32_t k = 0; k < v->nfield; k++)
			rv->fields[k] = rt(m, v->fields[k]);
	}
}

static void fill_layout(Module *m, RType *r, const OxLayout *l)
{
	r->size = l->size;
	r->align = l->align;
	r->abi = l->abi;
	for (uint32_t i = 0; i < l->nscalar; i++)
		r->scalars[i] = scalar_of(m, &l->scalars[i]);
	r->offsets = l->offsets;
	r->noffset = l->noffset;
	r->single_variant = l->single_variant;
	r->has_variants = l->has_variants;
	if (!l->has_variants)
		return;
	r->tag = scalar_of(m, &l->tag);
	r->tag_offset = l->tag_offset;
	r->niche = l->niche;
	r->untagged_variant = l->untagged_variant;
	r->niche_first = l->niche_first;
	r->niche_last = l->niche_last;
	r->niche_start = l->niche_start;
	r->nvlayout = l->nvlayout;
	r->vlayouts = arena_new_array(m->arena, VariantLayout, l->nvlayout);
	for (uint32_t i = 0; i < l->nvlayout; i++)
		r->vlayouts[i] = (VariantLayout){ l->vlayouts[i].size, l->vlayouts[i].align, l->vlayouts[i].fields,
		                                  l->vlayouts[i].nfield };
}

static void fill_type(Module *m, RType *r, OxType *t)
{
	r->kind = t->kind;
	r->name = t->name;
	r->bits = t->bits;
	r->is_signed = t->is_signed;
	r->is_mut = t->is_mut;
	r->pointee = rt(m, t->pointee);
	r->elem = rt(m, t->elem);
	r->len = t->len;
	r->adt_kind = t->adt_kind;
	r->drop_noop = t->drop_noop;
	r->repr_c = t->repr_c;
	r->path = t->path;
	fill_variants(m, r, t);
	r->has_layout = t->has_layout;
	r->layout_error = t->layout_error;
	r->align = 1;
	r->abi = ABI_MEMORY;
	if (t->has_layout)
		fill_layout(m, r, &t->layout);
}

void fe_import_types(Module *m, OxModule *ox)
{
	m->nrtype = ox->ntype;
	m->rtypes = arena_new_array(m->arena, RType *, ox->ntype);
	for (uint32_t i = 0; i < ox->ntype; i++) {
		m->rtypes[i] = arena_alloc(m->arena, sizeof(RType));
		m->rtypes[i]->id = i;
	}
	for (uint32_t i = 0; i < ox->ntype; i++)
		fill_type(m, m->rtypes[i], ox->types[i]);
}
