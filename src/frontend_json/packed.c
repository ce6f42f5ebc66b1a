/* packed.c: stage 2 — places less aligned than their type, the fields of
 * #[repr(packed)] and #[repr(packed(N))] structs and unions (and whatever
 * lies inside them).  rustc's layout gives the offsets, size and the
 * struct's alignment (1, or N); PlaceV.align then proves only
 * min(N, the field's offset's lowest bit) for a field, which is less than
 * the field type's alignment where the struct is packed.
 *
 * Rust forbids references to such a field (E0793) but reads and writes it
 * by value.  Every access to an under-aligned place goes through one copy
 * that claims the place's alignment:
 *   read:   mir.copy %tmp <- %field (src align: the place's); uses read %tmp
 *           (an operand, a discriminant, a pointer field dereferenced in
 *           place: `*h.r`)
 *   write:  the rvalue or call writes %tmp (aligned to its type, what the
 *           code that writes a value of the type may assume), then
 *           mir.copy %field <- %tmp (align: the place's); SetDiscriminant
 *           reads, sets and writes back
 * LLVM folds those copies into loads and stores of the place's alignment
 * (NVPTX splits an align-1 u32 into byte accesses).  A value stored field
 * by field into a packed struct (an aggregate, a constant) claims each
 * field's alignment in the struct instead (store_val_aligned). */
#include "build.h"

bool place_is_underaligned(const PlaceV *p)
{
	return p->ty && !rtype_is_zst(p->ty) && p->align && p->align < type_align(p->ty);
}

/* An aligned temporary for the value of under-aligned place p. */
static PlaceV place_temp(Fb *fb, const PlaceV *p)
{
	return (PlaceV){ p->ty, temp_slot(fb, p->ty), NULL, -1, type_align(p->ty) };
}

static bool sized_or_error(Fb *fb, const PlaceV *p)
{
	if (p->meta)
		fb_error(fb, OX_UNSUPPORTED, "an unsized `%s` in a #[repr(packed)] struct is not supported",
		         p->ty->name);
	return p->meta == NULL;
}

/* p, when under-aligned, becomes an aligned copy of its value (for reads). */
bool place_read_aligned(Fb *fb, PlaceV *p)
{
	if (!place_is_underaligned(p))
		return true;
	if (!sized_or_error(fb, p))
		return false;
	PlaceV tmp = place_temp(fb, p);
	Op *c = build_copy(fb, tmp.addr, p->addr, p->ty);
	c->attr.access.src_align = p->align;
	*p = tmp;
	return true;
}

/* Where a write into p goes first: p itself, or, when p is under-aligned,
 * an aligned temporary that place_write_back copies into p (*back). */
bool place_write_target(Fb *fb, PlaceV *p, PlaceV *back)
{
	*back = *p;
	if (!place_is_underaligned(p))
		return true;
	if (!sized_or_error(fb, p))
		return false;
	*p = place_temp(fb, p);
	return true;
}

/* The temporary `tmp` that place_write_target gave for `back`, copied into
 * it (nothing when back needed none). */
void place_write_back(Fb *fb, const PlaceV *tmp, const PlaceV *back)
{
	if (tmp->addr == back->addr)
		return;
	Op *c = build_copy(fb, back->addr, tmp->addr, back->ty);
	c->attr.access.align = back->align;
}

/* store_val into memory aligned to `align` only, less than v's type
 * wants where a packed struct holds it: the stores or the copy that
 * store_val builds claim `align` (its fat pointer's second word is at 8,
 * no more aligned than `align` < 8 already is). */
void store_val_aligned(Fb *fb, Value *addr, uint32_t align, Val v)
{
	Op *mark = build_mark(fb);
	store_val(fb, addr, v);
	if (!align || align >= type_align(v.ty))
		return;
	Block *b = fb->b.block;
	for (Op *o = mark && mark->parent == b ? mark->next : b->first; o; o = o->next)
		if (o->code == OP_MIR_STORE || o->code == OP_MIR_COPY)
			o->attr.access.align = align;
}
