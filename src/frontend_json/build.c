/* build.c: stage 2 — oxide-mir bodies to the mir dialect.
 *
 * Every MIR local gets a mir.slot in the entry block; places become address
 * computations (mir.field, mir.variant_field, mir.index, loads of pointers
 * for derefs); scalar values (ints, floats, bool, char, thin pointers) are
 * SSA values; fat pointers are two values (data, length); everything else
 * is handled by address and copied with mir.copy.
 *
 * Function ABI (kernels and device functions alike): a parameter whose
 * rustc layout is Scalar is one value, ScalarPair two, Memory a pointer
 * (byval for kernels), zero-sized nothing.  Results: nothing for zero-sized,
 * one value for Scalar, otherwise the caller passes a pointer first (sret).
 */
#include "build.h"

#include <string.h>

/* ------------------------------------------------------------ errors */

void fb_error(Fb *fb, DiagCode code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_verror(code, fb->where, fmt, ap);
	va_end(ap);
}

/* The span of the statement at hand (file < 0: the function's). */
void fb_set_span(Fb *fb, Loc span)
{
	if (span.file < 0) {
		fb->b.loc = fb->fn_loc;
		snprintf(fb->where, sizeof fb->where, "%s", fb->fn_where);
		return;
	}
	fb->b.loc = span;
	snprintf(fb->where, sizeof fb->where, "%s:%u:%u", fb->m->files[span.file], span.line, span.col);
}

RType *fb_rtype(Fb *fb, OxType *t)
{
	return fb->m->rtypes[t->id];
}

/* v, already an integer, is an index into a table of n that only the
 * layouts know (a type's variants): the message of stage 1's checks. */
bool fb_index(Fb *fb, JPath p, uint32_t v, uint32_t n)
{
	(void)fb;
	if (v < n)
		return true;
	if (n == 0)
		fe_error(p, "must be an index into an empty table, not %u", v);
	else
		fe_error(p, "must be an integer in 0..%u, not %u", n - 1, v);
	return false;
}

/* ------------------------------------------------------ poison guard
 *
 * A missing operand (a value the input's layouts say is zero-sized or in
 * memory, used as a scalar) or a missing result type comes only from an
 * input whose parts disagree, yet an op built of it would kill oxidec.
 * fe_build reports it at the statement, once, and returns an op that is
 * in no block: the rest of the statement can go on without dying, and
 * the function, which has an error now, is never compiled. */

static bool op_shape_ok(Opcode code, uint32_t nres, Type **rtys, uint32_t nopd, Value **opd)
{
	const OpInfo *info = &opinfo[code];
	if ((info->nres != VAR && (uint32_t)info->nres != nres) || (info->nopd != VAR && (uint32_t)info->nopd != nopd))
		return false;
	for (uint32_t i = 0; i < nopd; i++)
		if (!opd[i])
			return false;
	for (uint32_t i = 0; i < nres; i++)
		if (!rtys[i])
			return false;
	return true;
}

static void report_poison(Builder *b)
{
	static int reported_at = -1;      /* error count when last reported */
	if (diag_errors() == reported_at)
		return;
	Module *m = b->mod;
	char where[512];
	diag_error(OX_INPUT, ir_loc_string(m, b->loc, where, sizeof where),
	           "malformed input: a value here has no representation that fits its use (a type's "
	           "layout or an operand's type in the JSON disagrees with the operation)");
	reported_at = diag_errors();
}

Op *fe_build(Builder *b, Opcode code, uint32_t nres, Type **rtys, uint32_t nopd, Value **opd, uint32_t nsucc)
{
	if (op_shape_ok(code, nres, rtys, nopd, opd))
		return (ir_build)(b, code, nres, rtys, nopd, opd, nsucc);
	report_poison(b);
	Arena *a = b->mod->arena;
	Op *op = arena_alloc(a, sizeof *op);
	op->code = code;
	op->loc = b->loc;
	op->nres = nres;
	op->nopd = nopd;
	op->nsucc = nsucc;
	op->opd = arena_new_array(a, Value *, nopd);
	op->res = arena_new_array(a, Value, nres);
	for (uint32_t i = 0; i < nres; i++)
		op->res[i] = (Value){ .type = rtys[i] ? rtys[i] : ir_type_int(b->mod, 64, false), .def = op, .index = i };
	op->succ = arena_new_array(a, Succ, nsucc);
	return op;
}

Value *fe_build1(Builder *b, Opcode code, Type *rty, uint32_t nopd, Value **opd)
{
	if (!rty && opinfo[code].nres == 1) {
		report_poison(b);
		rty = ir_type_int(b->mod, 64, false);
	}
	Op *op = fe_build(b, code, rty ? 1 : 0, &rty, nopd, opd, 0);
	return rty ? &op->res[0] : NULL;
}

Value *fe_build_const(Builder *b, Opcode code, Type *t, uint64_t lo, uint64_t hi)
{
	if (t)
		return (ir_build_const)(b, code, t, lo, hi);
	report_poison(b);
	return fe_build1(b, code, ir_type_int(b->mod, 64, false), 0, NULL);
}

/* ------------------------------------------------------- value kinds */

ValKind val_kind(RType *t)
{
	if (rtype_is_zst(t))
		return VK_ZST;
	if (rtype_is_scalar(t))
		return VK_SCALAR;
	if (rtype_is_fat_ptr(t))
		return VK_FAT;
	return VK_MEM;
}

/* v can be stored into a place of type t: the same size, and the same
 * SSA type when both are scalars.  MIR assigns only equal types (up to
 * wrappers like MaybeDangling<T> for T); this keeps an inconsistent input
 * from storing, say, a bool into a u32 slot, which later stages could not
 * type. */
bool fb_fits(Fb *fb, RType *t, Val v, const char *what)
{
	bool ok = !t->has_layout || !v.ty->has_layout || t->size == v.ty->size;
	if (ok && val_kind(t) == VK_SCALAR && val_kind(v.ty) == VK_SCALAR)
		ok = v.v[0] && v.v[0]->type == scalar_type_of(fb, t);
	if (ok && (val_kind(t) == VK_FAT) != (val_kind(v.ty) == VK_FAT))
		ok = val_kind(t) == VK_MEM || val_kind(v.ty) == VK_MEM;
	if (!ok)
		fb_error(fb, OX_INPUT, "%s: a `%s` where a `%s` is expected", what, v.ty->name, t->name);
	return ok;
}

/* The SSA type of a scalar v (NULL when v is not one). */
Type *val_type(Val v)
{
	return val_kind(v.ty) == VK_SCALAR && v.v[0] ? v.v[0]->type : NULL;
}

/* The SSA type of a scalar-like Rust type: scalars themselves, and types
 * whose layout is one scalar (e.g. Option<&T>, NonNull<T>, Ordering). */
Type *scalar_type_of(Fb *fb, RType *t)
{
	Type *ty = rtype_scalar_type(fb->m, t);
	if (ty)
		return ty;
	if (t->abi == ABI_SCALAR)
		return t->scalars[0].type;
	return NULL;
}

Type *usize_type(Fb *fb)
{
	return ir_type_int(fb->m, 64, false);
}

Value *const_int(Fb *fb, Type *t, uint64_t v)
{
	return ir_build_const(&fb->b, OP_MIR_CONST, t, v, 0);
}

Value *ptr_add(Fb *fb, Value *p, uint64_t off)
{
	if (!off)
		return p;
	Value *r = ir_build1(&fb->b, OP_MIR_PTR_ADD, ir_type_ptr(fb->m, 0), 1, &p);
	r->def->attr.offset.bytes = (int64_t)off;
	return r;
}

Value *build_load(Fb *fb, Value *addr, Type *t)
{
	return ir_build1(&fb->b, OP_MIR_LOAD, t, 1, &addr);
}

void build_store(Fb *fb, Value *v, Value *addr)
{
	Value *opd[2] = { v, addr };
	ir_build(&fb->b, OP_MIR_STORE, 0, NULL, 2, opd, 0);
}

Op *build_copy(Fb *fb, Value *dst, Value *src, RType *t)
{
	if (dst == src || rtype_is_zst(t))
		return NULL;
	Value *opd[2] = { dst, src };
	Op *op = ir_build(&fb->b, OP_MIR_COPY, 0, NULL, 2, opd, 0);
	op->rty = t;
	return op;
}

/* A fresh slot in the entry block (temporaries of calls and constants). */
Value *temp_slot(Fb *fb, RType *t)
{
	Builder eb = { fb->m, fb->entry, fb->entry_term, fb->b.loc };
	Type *pt = ir_type_ptr(fb->m, 0);
	Value *s = ir_build1(&eb, OP_MIR_SLOT, pt, 0, NULL);
	s->def->rty = t;
	return s;
}

Val load_val(Fb *fb, RType *t, Value *addr)
{
	Val v = { t, { NULL, NULL }, NULL, 0 };
	switch (val_kind(t)) {
	case VK_ZST:
		break;
	case VK_SCALAR:
		v.v[0] = build_load(fb, addr, scalar_type_of(fb, t));
		break;
	case VK_FAT:
		v.v[0] = build_load(fb, addr, ir_type_ptr(fb->m, 0));
		v.v[1] = build_load(fb, ptr_add(fb, addr, 8), usize_type(fb));
		break;
	case VK_MEM:
		v.addr = addr;
		break;
	}
	return v;
}

void store_val(Fb *fb, Value *addr, Val v)
{
	switch (val_kind(v.ty)) {
	case VK_ZST:
		break;
	case VK_SCALAR:
		build_store(fb, v.v[0], addr);
		break;
	case VK_FAT:
		build_store(fb, v.v[0], addr);
		build_store(fb, v.v[1], ptr_add(fb, addr, 8));
		break;
	case VK_MEM: {
		Op *c = build_copy(fb, addr, v.addr, v.ty);
		if (c)
			c->attr.access.src_align = v.align;
		break;
	}
	}
}

/* A value in memory, whatever its kind (for by-pointer uses). */
Value *val_in_memory(Fb *fb, Val v)
{
	if (val_kind(v.ty) == VK_MEM)
		return v.addr;
	Value *s = temp_slot(fb, v.ty);
	store_val(fb, s, v);
	return s;
}

/* ------------------------------------------------------------- places */

/* rtype_field_offset has an answer (it dies on a field that does not
 * exist: an oxidec bug, so the frontend asks first). */
bool field_has_offset(RType *t, uint32_t variant, uint32_t i)
{
	if (t->has_variants)
		return variant < t->nvlayout && i < t->vlayouts[variant].nfield;
	if (t->kind == RT_ARRAY)
		return t->elem && i < t->len;
	return i < t->noffset;
}

/* Address of field i (of variant `variant` for multi-variant enums, of
 * element i for arrays) of a value of type t at base. */
Value *field_addr(Fb *fb, Value *base, RType *t, uint32_t variant, uint32_t i)
{
	Type *pt = ir_type_ptr(fb->m, 0);
	if (t->kind == RT_ARRAY) {
		Value *opd[2] = { base, const_int(fb, usize_type(fb), i) };
		Value *r = ir_build1(&fb->b, OP_MIR_INDEX, pt, 2, opd);
		r->def->rty = t->elem;
		return r;
	}
	bool multi = t->has_variants;
	Value *r = ir_build1(&fb->b, multi ? OP_MIR_VFIELD : OP_MIR_FIELD, pt, 1, &base);
	r->def->rty = t;
	if (multi) {
		r->def->attr.vfield.variant = variant;
		r->def->attr.vfield.field = i;
	} else {
		r->def->attr.field.index = i;
	}
	return r;
}

static RType *variant_field_type(Fb *fb, RType *base, int variant, uint32_t i, RType *given)
{
	(void)fb;
	if (given)
		return given;
	return rtype_field_type(base, variant < 0 ? 0 : (uint32_t)variant, i);
}

/* the alignment of an address `off` bytes into a place aligned to `align` */
uint32_t align_at(uint32_t align, uint64_t off)
{
	while (off % align)
		align /= 2;
	return align;
}

/* the alignment a place of type t has (a slice's: its element's) */
uint32_t type_align(RType *t)
{
	uint32_t a = t->kind == RT_SLICE && t->elem ? t->elem->align : t->align;
	return a ? a : 1;
}

static bool place_field(Fb *fb, PlaceV *p, const OxProj *proj)
{
	uint32_t i = proj->index;
	RType *fty = fb_rtype(fb, proj->ty);
	RType *base = p->ty;
	if (base->kind != RT_ADT && base->kind != RT_TUPLE && base->kind != RT_CLOSURE) {
		fb_error(fb, OX_UNSUPPORTED, "field projection on a value of type `%s` is not supported", base->name);
		return false;
	}
	if (base->kind == RT_ADT && base->adt_kind == ADT_UNION) {
		p->ty = fty;          /* every union field starts at offset 0 */
		p->meta = NULL;
		return true;
	}
	uint32_t variant = p->variant < 0 ? 0 : (uint32_t)p->variant;
	bool multi = base->has_variants;
	if ((multi && (variant >= base->nvlayout || i >= base->vlayouts[variant].nfield)) ||
	    (!multi && i >= base->noffset)) {
		fb_error(fb, OX_INPUT, "field %u of `%s` has no layout", i, base->name);
		return false;
	}
	if (!base->has_layout && !base->noffset) {
		fb_error(fb, OX_INPUT, "field %u of `%s`, whose layout is unknown", i, base->name);
		return false;
	}
	uint64_t off = rtype_field_offset(base, variant, i);
	p->addr = field_addr(fb, p->addr, base, variant, i);
	p->align = align_at(p->align, off);
	p->ty = variant_field_type(fb, base, p->variant, i, fty);
	p->variant = -1;
	if (p->ty->has_layout)       /* only an unsized tail field keeps the length */
		p->meta = NULL;
	return true;
}

static bool place_deref(Fb *fb, PlaceV *p)
{
	RType *t = p->ty;
	if (t->kind != RT_REF && t->kind != RT_PTR) {
		fb_error(fb, OX_UNSUPPORTED, "dereference of `%s` is not supported (only references and raw pointers; "
		         "Box and smart pointers need a heap)", t->name);
		return false;
	}
	if (!place_read_aligned(fb, p))     /* a pointer in a packed struct */
		return false;
	Val v = load_val(fb, t, p->addr);
	p->addr = v.v[0];
	p->meta = v.v[1];
	p->ty = t->pointee;
	p->align = type_align(t->pointee);
	return true;
}

static Value *place_len(Fb *fb, PlaceV *p)
{
	if (p->ty->kind == RT_ARRAY)
		return const_int(fb, usize_type(fb), p->ty->len);
	if (!p->meta)
		fb_error(fb, OX_INPUT, "length of `%s` is unknown here", p->ty->name);
	return p->meta ? p->meta : const_int(fb, usize_type(fb), 0);
}

static void place_index_by(Fb *fb, PlaceV *p, Value *idx)
{
	Value *opd[2] = { p->addr, idx };
	Op *c = idx->def;
	uint64_t size = p->ty->elem->size;
	p->align = align_at(p->align, c && c->code == OP_MIR_CONST ? c->vals[0].lo * size : size);
	Value *r = ir_build1(&fb->b, OP_MIR_INDEX, ir_type_ptr(fb->m, 0), 2, opd);
	r->def->rty = p->ty->elem;
	p->addr = r;
	p->ty = p->ty->elem;
	p->meta = NULL;
}

static bool place_index(Fb *fb, PlaceV *p, JPath jp, const OxProj *proj)
{
	if (p->ty->kind != RT_ARRAY && p->ty->kind != RT_SLICE) {
		fb_error(fb, OX_UNSUPPORTED, "indexing `%s` is not supported", p->ty->name);
		return false;
	}
	Value *idx;
	if (proj->kind == OX_PROJ_INDEX) {
		uint32_t l = proj->index;
		RType *lt = fb->lty[l];
		if (lt->kind != RT_INT || lt->bits != 64 || lt->is_signed || !fb->slot[l])
			return fe_error(jp, "index local _%u is a `%s`, not a usize", l, lt->name), false;
		idx = build_load(fb, fb->slot[l], usize_type(fb));
	} else {
		uint64_t off = proj->offset;
		if (proj->from_end) {
			Value *opd[2] = { place_len(fb, p), const_int(fb, usize_type(fb), off) };
			idx = ir_build1(&fb->b, OP_MIR_SUB, usize_type(fb), 2, opd);
		} else {
			idx = const_int(fb, usize_type(fb), off);
		}
	}
	place_index_by(fb, p, idx);
	return true;
}

/* `[a, mid @ .., b]` of an array: `mid` is the array [T; to - from] at
 * element `from` (rustc counts `to` from the start for arrays). */
static bool array_subslice(Fb *fb, PlaceV *p, const OxProj *proj)
{
	uint64_t from = proj->offset, to = proj->to, n = p->ty->len;
	uint64_t len = proj->from_end ? n - from - to : to - from;
	RType *res = proj->ty ? fb_rtype(fb, proj->ty) : NULL;
	bool fits = proj->from_end ? from + to <= n : from <= to && to <= n;
	if (!fits || !res || res->kind != RT_ARRAY || res->len != len || res->elem != p->ty->elem) {
		fb_error(fb, OX_INPUT, "subslice %llu..%llu%s of `%s` does not give the array `%s`",
		         (unsigned long long)from, (unsigned long long)to, proj->from_end ? " from the end" : "",
		         p->ty->name, res ? res->name : "(no type)");
		return false;
	}
	place_index_by(fb, p, const_int(fb, usize_type(fb), from));
	p->ty = res;
	return true;
}

static bool place_subslice(Fb *fb, PlaceV *p, const OxProj *proj)
{
	uint64_t from = proj->offset, to = proj->to;
	bool from_end = proj->from_end;
	if (p->ty->kind == RT_ARRAY)
		return array_subslice(fb, p, proj);
	if (p->ty->kind != RT_SLICE || !from_end) {
		fb_error(fb, OX_UNSUPPORTED, "subslice pattern on `%s` is not supported", p->ty->name);
		return false;
	}
	Value *len = place_len(fb, p);
	RType *slice = p->ty;
	place_index_by(fb, p, const_int(fb, usize_type(fb), from));
	Value *opd[2] = { len, const_int(fb, usize_type(fb), from + to) };
	p->meta = ir_build1(&fb->b, OP_MIR_SUB, usize_type(fb), 2, opd);
	p->ty = slice;
	return true;
}

static bool place_downcast(Fb *fb, PlaceV *p, JPath q, const OxProj *proj)
{
	uint32_t v = proj->index;
	p->variant = v < INT32_MAX ? (int)v : -1;
	if (p->ty->kind == RT_ADT && p->variant >= 0 && (uint32_t)p->variant < p->ty->nvariant)
		return true;
	(void)fb;
	fe_error(q, "downcast to variant %u of `%s`", v, p->ty->name);
	return false;
}

static bool build_proj(Fb *fb, PlaceV *p, JPath q, const OxProj *proj)
{
	switch (proj->kind) {
	case OX_PROJ_DEREF:
		return place_deref(fb, p);
	case OX_PROJ_FIELD:
		return place_field(fb, p, proj);
	case OX_PROJ_INDEX: case OX_PROJ_CONSTANT_INDEX:
		return place_index(fb, p, q, proj);
	case OX_PROJ_SUBSLICE:
		return place_subslice(fb, p, proj);
	case OX_PROJ_DOWNCAST:
		return place_downcast(fb, p, q, proj);
	}
	unreachable();
}

/* the last op built so far, for place_claim_align */
Op *build_mark(Fb *fb)
{
	return fb->b.block ? fb->b.block->last : NULL;
}

/* The loads and stores of place p (its address, or an offset from it: a
 * fat pointer's length) built since mark claim the alignment p proves,
 * unless the front end limited them already (a transmute).  Only the
 * access itself may claim it: the address may be unaligned where it is
 * not accessed (ptr::addr_of!). */
void place_claim_align(Fb *fb, Op *mark, const PlaceV *p)
{
	Block *b = fb->b.block;
	if (b == NULL || p->align <= 1)
		return;
	for (Op *o = mark && mark->parent == b ? mark->next : b->first; o; o = o->next) {
		Value *a = o->code == OP_MIR_LOAD || o->code == OP_MIR_COPY ? o->opd[0]
		         : o->code == OP_MIR_STORE ? o->opd[1] : NULL;
		uint64_t off = 0;
		if (a == NULL || o->attr.access.align != 0)
			continue;
		uint32_t own = o->code == OP_MIR_LOAD ? ir_type_natural_align(o->res[0].type)
		             : o->code == OP_MIR_STORE ? ir_type_natural_align(o->opd[0]->type) : o->rty->align;
		if (a != p->addr) {
			if (a->def == NULL || a->def->code != OP_MIR_PTR_ADD || a->def->opd[0] != p->addr)
				continue;
			off = (uint64_t)a->def->attr.offset.bytes;
		}
		if (align_at(p->align, off) > own)   /* else the type's says it */
			o->attr.access.align = align_at(p->align, off);
	}
}

void fb_error_no_layout(Fb *fb, uint32_t l, const RType *t)
{
	const char *why = t->layout_error ? t->layout_error
	                                  : "unsized values and unnamed types cannot be stored in a kernel's locals";
	fb_error(fb, OX_UNSUPPORTED, "local _%u of type `%s` has no layout (%s)", l, t->name, why);
}

bool build_place(Fb *fb, JPath jp, const OxPlace *pl, PlaceV *out)
{
	uint32_t l = pl->local;
	if (!fb->slot[l]) {
		fb_error_no_layout(fb, l, fb->lty[l]);
		return false;
	}
	PlaceV p = { fb->lty[l], fb->slot[l], NULL, -1, type_align(fb->lty[l]) };
	for (uint32_t i = 0; i < pl->nproj; i++) {
		JPath q = jpath_index(fb->a, jpath_field(fb->a, jp, "projection"), (int)i);
		if (!build_proj(fb, &p, q, &pl->proj[i]))
			return false;
	}
	*out = p;
	return true;
}
