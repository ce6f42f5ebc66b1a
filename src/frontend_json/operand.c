/* operand.c: stage 2 — MIR operands and constants, and the allocations
 * (static data, string literals, promoted constants' bytes) they point
 * to, which become globals. */
#include "build.h"

#include <string.h>

const char *alloc_symbol(Arena *a, OxInput *in, int64_t id)
{
	return arena_printf(a, "__oxide_alloc_%u_%lld", in->index, (long long)id);
}

static void add_relocs(Arena *a, OxInput *in, const OxReloc *rs, uint32_t n, Global *g)
{
	g->nreloc = n;
	g->relocs = arena_new_array(a, Reloc, n);
	for (uint32_t i = 0; i < n; i++)
		g->relocs[i] = (Reloc){ rs[i].offset, alloc_symbol(a, in, rs[i].alloc) };
}

/* Statics of oxide-device's memory-space types: Shared<T> -> .shared
 * (address space 3, undefined at block start), Constant<T> -> .const
 * (address space 4), exported under the static's own name for the
 * host's ox_module_global; the alloc name stays an alias.  Writable, so
 * LLVM never folds a read to the initializer. */
static void place_static(Arena *a, const OxAlloc *al, Global *g)
{
	if (al->space == OX_SPACE_SHARED) {
		g->addrspace = AS_SHARED;
		g->is_mut = true;
	} else if (al->space == OX_SPACE_CONST) {
		g->alias = g->name;
		g->name = arena_strdup(a, al->exported);
		g->addrspace = AS_CONST;
		g->is_mut = true;
		g->is_exported = true;
	}
}

const char *vtable_symbol(Arena *a, OxInput *in, uint32_t k)
{
	return arena_printf(a, "__oxide_vtable_%u_%u", in->index, k);
}

static void put_u64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

/* A vtable: a read-only global of pointer-sized words in rustc's layout,
 *   [0] drop_in_place: the concrete type's drop glue (a relocation) when
 *       a drop of the trait object may read it (terminator.c drop_dyn),
 *       else null (a type without drop glue, or no such drop)
 *   [1] size, [2] align of the concrete type
 *   [3..] each method's function (a relocation), null where the slot is
 *       vacant or has no function (mir-export refuses every call of it);
 *       a supertrait's vtable pointer (rustc's TraitVPtr) is a relocation
 *       to that vtable, as allocations point at each other */
static void import_vtable(Module *m, OxInput *in, uint32_t k, const OxVtable *vt)
{
	Arena *a = m->arena;
	Global *g = ir_global_new(m, vtable_symbol(a, in, k));
	g->size = 8 * (uint64_t)vt->nentry;
	g->align = 8;
	g->addrspace = AS_GLOBAL;
	g->bytes = arena_alloc(a, g->size);
	memset(g->bytes, 0, g->size);
	put_u64(g->bytes + 8, vt->size);
	put_u64(g->bytes + 16, vt->align);
	for (uint32_t i = 0; i < vt->nentry; i++)
		g->nreloc += vt->entries[i] != NULL || vt->vptrs[i] >= 0;
	g->relocs = arena_new_array(a, Reloc, g->nreloc ? g->nreloc : 1);
	uint32_t n = 0;
	for (uint32_t i = 0; i < vt->nentry; i++)
		if (vt->entries[i])
			g->relocs[n++] = (Reloc){ 8 * (uint64_t)i, vt->entries[i]->symbol };
		else if (vt->vptrs[i] >= 0)
			g->relocs[n++] = (Reloc){ 8 * (uint64_t)i, vtable_symbol(a, in, (uint32_t)vt->vptrs[i]) };
}

void fe_import_allocs(Module *m, OxModule *ox)
{
	Arena *a = m->arena;
	for (uint32_t k = 0; k < ox->ninput; k++) {
		OxInput *in = &ox->inputs[k];
		for (uint32_t i = 0; i < in->nalloc; i++) {
			OxAlloc *al = &in->allocs[i];
			Global *g = ir_global_new(m, alloc_symbol(a, in, al->id));
			g->size = al->size;
			g->align = al->align;
			g->is_mut = al->is_mut;
			g->addrspace = AS_GLOBAL;
			g->bytes = al->bytes;
			add_relocs(a, in, al->relocs, al->nreloc, g);
			place_static(a, al, g);
		}
		for (uint32_t i = 0; i < in->nvtable; i++)
			import_vtable(m, in, i, &in->vtables[i]);
	}
	/* relocations name globals as they are called now */
	for (Global *g = m->globals; g; g = g->next)
		for (uint32_t k = 0; k < g->nreloc; k++) {
			Global *t = ir_global_find(m, g->relocs[k].target);
			if (t)
				g->relocs[k].target = t->name;
		}
}

/* A constant given as raw bytes: a read-only global, loaded as needed. */
static bool const_bytes(Fb *fb, JPath jp, const OxConst *c, RType *t, Val *out)
{
	Global *g = ir_global_new(fb->m, arena_printf(fb->a, "__oxide_const_%s_%u", fb->fn->symbol, fb->nconst++));
	uint64_t n = c->nbytes;
	g->bytes = c->bytes;
	if (n != t->size) {
		fe_error(jp, "constant of `%s` needs %llu bytes", t->name, (unsigned long long)t->size);
		return false;
	}
	g->size = n;
	g->align = t->align ? t->align : 1;
	g->addrspace = AS_GLOBAL;
	add_relocs(fb->a, fb->in, c->relocs, c->nreloc, g);
	Value *addr = ir_build1(&fb->b, OP_MIR_GLOBAL_ADDR, ir_type_ptr(fb->m, 0), 0, NULL);
	addr->def->sym = g->name;
	*out = load_val(fb, t, addr);
	return true;
}

static bool const_scalar(Fb *fb, JPath jp, const OxConst *c, RType *t, Val *out)
{
	U128 bits = c->bits;
	Type *ty = scalar_type_of(fb, t);
	if (!ty || val_kind(t) == VK_FAT) {
		fe_error(jp, "scalar constant of non-scalar type `%s`", t->name);
		return false;
	}
	out->ty = t;
	out->v[0] = ir_build_const(&fb->b, OP_MIR_CONST, ty, bits.lo, bits.hi);
	if (val_kind(t) == VK_MEM) {       /* e.g. Option<&T>: scalar layout in memory */
		Value *s = temp_slot(fb, t);
		build_store(fb, out->v[0], s);
		out->v[0] = NULL;
		out->addr = s;
		out->align = 0;
	}
	return true;
}

static bool const_ref(Fb *fb, JPath jp, const OxConst *c, RType *t, Val *out)
{
	Value *addr = ir_build1(&fb->b, OP_MIR_GLOBAL_ADDR, ir_type_ptr(fb->m, 0), 0, NULL);
	Global *target = ir_global_find(fb->m, alloc_symbol(fb->a, fb->in, c->alloc));
	if (!target)
		die("allocation %lld of a constant: stage 1 checked it is in \"allocs\"", (long long)c->alloc);
	addr->def->sym = target->name;     /* a Constant<T> static's own name */
	out->ty = t;
	out->v[0] = ptr_add(fb, addr, c->offset);
	if (val_kind(t) == VK_FAT) {
		if (!c->has_meta)
			return fe_error(jp, "missing field \"meta\""), false;
		out->v[1] = const_int(fb, usize_type(fb), c->meta.lo);
	} else if (val_kind(t) != VK_SCALAR) {
		fe_error(jp, "reference constant of type `%s`", t->name);
		return false;
	}
	return true;
}

static bool build_const(Fb *fb, JPath jp, const OxConst *c, RType *t, Val *out);

/* An enum or struct value given field by field: built in a temporary. */
static bool const_adt(Fb *fb, JPath jp, const OxConst *c, RType *t, Val *out)
{
	uint32_t variant = c->variant;
	if ((t->kind != RT_ADT && t->kind != RT_TUPLE) || variant >= t->nvariant) {
		fe_error(jp, "aggregate constant of `%s` with variant %u", t->name, variant);
		return false;
	}
	Value *s = temp_slot(fb, t);
	for (uint32_t i = 0; i < c->nfield; i++) {
		RType *fty = rtype_field_type(t, variant, i);
		if (!fty || !field_has_offset(t, variant, i)) {
			fe_error(jp, "field %u of `%s` has no known type", i, t->name);
			return false;
		}
		Val fv;
		if (!build_const(fb, jpath_index(fb->a, jp, (int)i), &c->fields[i], fty, &fv))
			return false;
		uint64_t off = rtype_field_offset(t, variant, i);
		store_val_aligned(fb, ptr_add(fb, s, off), align_at(type_align(t), off), fv);
	}
	if (t->kind == RT_ADT && t->adt_kind == ADT_ENUM) {
		Op *op = ir_build(&fb->b, OP_MIR_SET_DISCR, 0, NULL, 1, &s, 0);
		op->rty = t;
		op->attr.variant.index = variant;
	}
	*out = (Val){ t, { NULL, NULL }, s, 0 };
	return true;
}

/* A named constant or promoted: its body is a function of no arguments
 * (kind "const"), called where the value is used; LLVM inlines and folds
 * it.  (A rustc const that panics was already rejected by rustc.) */
static bool const_unevaluated(Fb *fb, const OxConst *c, RType *t, Val *out)
{
	const char *def = c->def;
	Func *f = fb->funcs[c->body->id];    /* a body of the same crate (parse_body.c) */
	*out = (Val){ t, { NULL, NULL }, NULL, 0 };
	if (f->ret->kind != TY_VOID) {
		Op *call = ir_build(&fb->b, OP_MIR_CALL, 1, &f->ret, 0, NULL, 0);
		call->sym = f->symbol;
		Value *s = temp_slot(fb, t);
		build_store(fb, &call->res[0], s);
		*out = load_val(fb, t, s);
		return true;
	}
	Value *s = temp_slot(fb, t);
	Op *call = ir_build(&fb->b, OP_MIR_CALL, 0, NULL, f->nparam, &s, 0);
	call->sym = f->symbol;
	if (f->nparam != 1 && !rtype_is_zst(t)) {
		fb_error(fb, OX_INPUT, "constant `%s` of type `%s`: unexpected signature", def, t->name);
		return false;
	}
	*out = load_val(fb, t, s);
	return true;
}

static bool build_const(Fb *fb, JPath jp, const OxConst *c, RType *t, Val *out)
{
	if (c->kind == OX_CONST_UNEVALUATED)
		return const_unevaluated(fb, c, t, out);
	*out = (Val){ t, { NULL, NULL }, NULL, 0 };
	if (c->kind == OX_CONST_ZST || c->kind == OX_CONST_FN || rtype_is_zst(t))
		return true;
	switch (c->kind) {
	case OX_CONST_SCALAR:
		return const_scalar(fb, jp, c, t, out);
	case OX_CONST_BYTES:
		return const_bytes(fb, jp, c, t, out);
	case OX_CONST_REF:
		return const_ref(fb, jp, c, t, out);
	case OX_CONST_ADT:
		return const_adt(fb, jp, c, t, out);
	default:
		unreachable();
	}
}

bool build_operand(Fb *fb, JPath jp, const OxOperand *o, Val *out)
{
	if (o->kind != OX_OPERAND_CONSTANT) {
		PlaceV p;
		if (!build_place(fb, jpath_field(fb->a, jp, "place"), &o->place, &p) || !place_read_aligned(fb, &p))
			return false;
		if (p.meta && val_kind(p.ty) != VK_ZST) {
			fb_error(fb, OX_INPUT, "use of an unsized value of type `%s`", p.ty->name);
			return false;
		}
		Op *mark = build_mark(fb);
		*out = load_val(fb, p.ty, p.addr);
		if (val_kind(p.ty) == VK_MEM && p.align > p.ty->align)
			out->align = p.align;
		place_claim_align(fb, mark, &p);
		return true;
	}
	return build_const(fb, jpath_field(fb->a, jp, "const"), &o->c, fb_rtype(fb, o->ty), out);
}
