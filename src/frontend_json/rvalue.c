/* rvalue.c: stage 2 — MIR statements and rvalues to mir-dialect ops.  Every rvalue
 * is evaluated straight into the address of its destination place. */
#include "build.h"

#include <stdlib.h>
#include <string.h>

static bool scalar_operand(Fb *fb, JPath jp, const OxOperand *o, const char *key, Val *v)
{
	if (!build_operand(fb, jpath_field(fb->a, jp, key), o, v))
		return false;
	if (val_kind(v->ty) != VK_SCALAR) {
		fb_error(fb, OX_UNSUPPORTED, "operation on a value of type `%s` is not supported", v->ty->name);
		return false;
	}
	return true;
}

static bool one_operand(Fb *fb, JPath jp, const OxRvalue *rv, Val *v)
{
	return build_operand(fb, jpath_field(fb->a, jp, "operand"), &rv->ops[0], v);
}

static bool is_shift(Opcode c)
{
	return c == OP_MIR_SHL || c == OP_MIR_SHR;
}

static bool is_compare(Opcode c)
{
	return c == OP_MIR_EQ || c == OP_MIR_NE || c == OP_MIR_LT || c == OP_MIR_LE || c == OP_MIR_GT ||
	       c == OP_MIR_GE;
}

/* The operand and result types a binary operator needs (MIR's typing
 * rules), so no mis-typed op reaches the later stages. */
static bool binary_types_ok(Fb *fb, const char *op, Opcode code, Type *l, Type *r, Type *res)
{
	bool ok;
	if (is_shift(code))
		ok = l->kind == TY_INT && r->kind == TY_INT && res == l;
	else if (is_compare(code))
		ok = l == r && res && res->kind == TY_BOOL;
	else if (code == OP_MIR_CMP)
		ok = l == r && res && res->kind == TY_INT && res->bits == 8;
	else if (code == OP_MIR_ADD_OVF || code == OP_MIR_SUB_OVF || code == OP_MIR_MUL_OVF)
		ok = l == r && l->kind == TY_INT;
	else
		ok = l == r && res == l && l->kind != TY_PTR &&
		     (l->kind != TY_FLOAT || code == OP_MIR_ADD || code == OP_MIR_SUB || code == OP_MIR_MUL ||
		      code == OP_MIR_DIV || code == OP_MIR_REM) &&
		     (l->kind != TY_BOOL || code == OP_MIR_AND || code == OP_MIR_OR || code == OP_MIR_XOR);
	if (!ok)
		fb_error(fb, OX_INPUT, "binary operator `%s` on operands and result of mismatched types", op);
	return ok;
}

/* (T, bool) of a checked operation: two fields with a layout. */
static bool overflow_dst_ok(Fb *fb, PlaceV *dst, Type *t)
{
	RType *d = dst->ty;
	RType *f0 = rtype_field_type(d, 0, 0), *f1 = rtype_field_type(d, 0, 1);
	bool ok = d->kind == RT_TUPLE && d->has_layout && !d->has_variants && d->noffset == 2 && f0 && f1 &&
	          scalar_type_of(fb, f0) == t && f1->kind == RT_BOOL;
	if (!ok)
		fb_error(fb, OX_INPUT, "checked arithmetic into a `%s`, not a (T, bool)", d->name);
	return ok;
}

static bool rv_binary(Fb *fb, JPath jp, const OxRvalue *rv, PlaceV *dst)
{
	const char *op = ox_binops[rv->binop].name;
	Val l, r;
	if (!scalar_operand(fb, jp, &rv->ops[0], "lhs", &l) || !scalar_operand(fb, jp, &rv->ops[1], "rhs", &r))
		return false;
	if (rv->binop == OX_BIN_OFFSET) {
		Type *d = scalar_type_of(fb, dst->ty);
		if (!l.ty->pointee || val_type(r)->kind != TY_INT || !d || d->kind != TY_PTR)
			return fb_error(fb, OX_INPUT, "`Offset` of a `%s` into a `%s`", l.ty->name, dst->ty->name), false;
		Value *opd[2] = { l.v[0], r.v[0] };
		Value *p = ir_build1(&fb->b, OP_MIR_INDEX, ir_type_ptr(fb->m, 0), 2, opd);
		p->def->rty = l.ty->pointee;
		build_store(fb, p, dst->addr);
		return true;
	}
	{
		Value *opd[2] = { l.v[0], r.v[0] };
		Opcode code = ox_binops[rv->binop].code;
		Type *rt = scalar_type_of(fb, dst->ty);
		if (!binary_types_ok(fb, op, code, val_type(l), val_type(r), rt))
			return false;
		if (code == OP_MIR_ADD_OVF || code == OP_MIR_SUB_OVF || code == OP_MIR_MUL_OVF) {
			if (!overflow_dst_ok(fb, dst, val_type(l)))
				return false;
			Type *rts[2] = { l.v[0]->type, ir_type_bool(fb->m) };
			Op *o = ir_build(&fb->b, code, 2, rts, 2, opd, 0);
			build_store(fb, &o->res[0], ptr_add(fb, dst->addr, rtype_field_offset(dst->ty, 0, 0)));
			build_store(fb, &o->res[1], ptr_add(fb, dst->addr, rtype_field_offset(dst->ty, 0, 1)));
			return true;
		}
		build_store(fb, ir_build1(&fb->b, code, rt, 2, opd), dst->addr);
		return true;
	}
}

static bool rv_unary(Fb *fb, JPath jp, const OxRvalue *rv, PlaceV *dst)
{
	static const char *const names[] = { [OX_UN_NOT] = "Not", [OX_UN_NEG] = "Neg", [OX_UN_PTR_METADATA] = "PtrMetadata" };
	const char *op = names[rv->unop];
	Val v;
	if (!one_operand(fb, jp, rv, &v))
		return false;
	if (rv->unop == OX_UN_PTR_METADATA) {
		Type *u = scalar_type_of(fb, dst->ty);
		if (val_kind(v.ty) == VK_FAT && v.ty->pointee && v.ty->pointee->kind == RT_OPAQUE && u &&
		    u->kind == TY_PTR && v.v[1]->type->kind == TY_INT) {
			/* a trait object's DynMetadata: its vtable's address (DynMetadata::size_of
			 * reads the vtable with vtable_size) */
			build_store(fb, ir_build1(&fb->b, OP_MIR_INT_TO_PTR, u, 1, &v.v[1]), dst->addr);
			return true;
		}
		if (val_kind(v.ty) == VK_FAT && (!u || u->kind != TY_INT || u->bits != 64))
			return fb_error(fb, OX_INPUT, "`PtrMetadata` into a `%s`", dst->ty->name), false;
		if (val_kind(v.ty) == VK_FAT)
			build_store(fb, v.v[1], dst->addr);
		return true;              /* thin pointers have () metadata */
	}
	if (val_kind(v.ty) != VK_SCALAR) {
		fb_error(fb, OX_UNSUPPORTED, "`%s` on `%s` is not supported", op, v.ty->name);
		return false;
	}
	Opcode code = rv->unop == OX_UN_NOT ? OP_MIR_NOT : OP_MIR_NEG;
	Type *t = val_type(v);
	bool ok = code == OP_MIR_NOT ? t->kind == TY_INT || t->kind == TY_BOOL : t->kind == TY_INT || t->kind == TY_FLOAT;
	if (!ok || !fb_fits(fb, dst->ty, v, op))
		return ok ? false : (fb_error(fb, OX_INPUT, "`%s` on a `%s`", op, v.ty->name), false);
	build_store(fb, ir_build1(&fb->b, code, v.v[0]->type, 1, v.v), dst->addr);
	return true;
}

static Value *convert(Fb *fb, Opcode code, Value *v, Type *to)
{
	return ir_build1(&fb->b, code, to, 1, &v);
}

/* The loads and stores built since `mark` touch places of alignment
 * `align` at most: a transmute reads or writes a scalar in a place of
 * another type, e.g. a u32 in a [u8; 4] (align 1), where the scalar's own
 * alignment would be a misaligned access on the GPU. */
static void limit_align(Fb *fb, Op *mark, uint32_t align)
{
	for (Op *o = mark ? mark->next : fb->b.block->first; o; o = o->next)
		if (o->code == OP_MIR_LOAD || o->code == OP_MIR_STORE || o->code == OP_MIR_COPY) {
			o->attr.access.align = align ? align : 1;
			if (o->code == OP_MIR_COPY)
				o->attr.access.src_align = o->attr.access.align;
		}
}

static void transmute_bytes(Fb *fb, Val v, PlaceV *dst, Type *to)
{
	Op *mark = fb->b.block->last;
	if (val_kind(v.ty) == VK_MEM && to && val_kind(dst->ty) == VK_SCALAR)
		build_store(fb, build_load(fb, v.addr, to), dst->addr);
	else
		store_val(fb, dst->addr, v);
	limit_align(fb, mark, v.ty->align < dst->ty->align ? v.ty->align : dst->ty->align);
}

/* transmute: same size by Rust's rules, so write the source's bytes. */
static bool cast_transmute(Fb *fb, Val v, PlaceV *dst)
{
	Type *to = scalar_type_of(fb, dst->ty);
	if (!v.ty->has_layout || !dst->ty->has_layout || v.ty->size != dst->ty->size) {
		fb_error(fb, OX_INPUT, "transmute from `%s` to `%s`, types of different sizes", v.ty->name, dst->ty->name);
		return false;
	}
	if (val_kind(v.ty) == VK_SCALAR && to && val_kind(dst->ty) == VK_SCALAR) {
		Value *x = v.v[0];
		Type *from = x->type;
		if (from->kind == TY_PTR && to->kind == TY_INT)
			x = convert(fb, OP_MIR_PTR_TO_INT, x, to);
		else if (from->kind == TY_INT && to->kind == TY_PTR)
			x = convert(fb, OP_MIR_INT_TO_PTR, x, to);
		else if (from != to)
			x = convert(fb, OP_MIR_BITCAST, x, to);
		build_store(fb, x, dst->addr);
		return true;
	}
	transmute_bytes(fb, v, dst, to);
	return true;
}

static bool cast_numeric(Fb *fb, OxCastKind ck, const char *kind, Val v, PlaceV *dst)
{
	Type *to = scalar_type_of(fb, dst->ty);
	if (val_kind(v.ty) != VK_SCALAR || !to) {
		fb_error(fb, OX_UNSUPPORTED, "cast %s from `%s` to `%s` is not supported", kind, v.ty->name, dst->ty->name);
		return false;
	}
	Opcode code = ck == OX_CAST_INT_TO_INT ? OP_MIR_INT_CAST
	            : ck == OX_CAST_INT_TO_FLOAT ? OP_MIR_INT_TO_FLOAT
	            : ck == OX_CAST_FLOAT_TO_INT ? OP_MIR_FLOAT_TO_INT
	            : ck == OX_CAST_FLOAT_TO_FLOAT ? OP_MIR_FLOAT_CAST
	            : ck == OX_CAST_EXPOSE_PROVENANCE ? OP_MIR_PTR_TO_INT
	            : OP_MIR_INT_TO_PTR;
	Value *x = v.v[0];
	TypeKind from = x->type->kind, tk = to->kind;
	bool from_int = from == TY_INT || from == TY_BOOL;
	bool ok = code == OP_MIR_INT_CAST ? from_int && tk == TY_INT
	        : code == OP_MIR_INT_TO_FLOAT ? from_int && tk == TY_FLOAT
	        : code == OP_MIR_FLOAT_TO_INT ? from == TY_FLOAT && tk == TY_INT
	        : code == OP_MIR_FLOAT_CAST ? from == TY_FLOAT && tk == TY_FLOAT
	        : code == OP_MIR_PTR_TO_INT ? from == TY_PTR && tk == TY_INT
	        : from == TY_INT && tk == TY_PTR;
	if (!ok) {
		fb_error(fb, OX_UNSUPPORTED, "cast %s from `%s` to `%s` is not supported", kind, v.ty->name, dst->ty->name);
		return false;
	}
	if (x->type != to || code == OP_MIR_INT_CAST)
		x = convert(fb, code, x, to);
	build_store(fb, x, dst->addr);
	return true;
}

/* S<[T; N]> unsizes to S<[T]> when the two names differ by exactly
 * "; N" before a "]": then N is the length of the new fat pointer. */
static bool unsize_len(const char *from, const char *to, uint64_t *n)
{
	size_t i = 0;
	while (from[i] && from[i] == to[i])
		i++;
	if (strncmp(from + i, "; ", 2) || to[i] != ']')
		return false;
	char *end;
	*n = strtoull(from + i + 2, &end, 10);
	return end != from + i + 2 && !strcmp(end, to + i);
}

/* The length a thin pointer to `from` gets when unsized to `to`:
 * [T; N] -> [T], or a struct S<[T; N]> -> S<[T]> (an unsized tail). */
static bool unsize_length(RType *from, RType *to, uint64_t *n)
{
	if (from->kind == RT_ARRAY && to->kind == RT_SLICE) {
		*n = from->len;
		return true;
	}
	return unsize_len(from->name, to->name, n);
}

static bool is_pointer(RType *t)
{
	return t->kind == RT_REF || t->kind == RT_PTR;
}

/* `&dyn Sub as &dyn Super` where rustc's vtable of Sub holds the address
 * of Super's (a TraitVPtr word, mir-export's "vtable_word"): the data
 * pointer stays, the metadata becomes that word
 *   %vt = mir.int_to_ptr %meta
 *   %meta' = mir.load (%vt + 8 word) : usize */
static bool cast_upcast_vptr(Fb *fb, int64_t word, Val v, PlaceV *dst)
{
	RType *pe = v.ty->pointee, *to_pe = dst->ty->pointee;
	if (!pe || !to_pe || pe->kind != RT_OPAQUE || to_pe->kind != RT_OPAQUE)
		return fb_error(fb, OX_INPUT, "a \"vtable_word\" on the cast of `%s` to `%s`, not of a trait object to "
		                "another", v.ty->name, dst->ty->name), false;
	Value *vt = ir_build1(&fb->b, OP_MIR_INT_TO_PTR, ir_type_ptr(fb->m, 0), 1, &v.v[1]);
	v.v[1] = build_load(fb, ptr_add(fb, vt, 8 * (uint64_t)word), usize_type(fb));
	v.ty = dst->ty;
	store_val(fb, dst->addr, v);
	return true;
}

/* The address of vtable `vtable` as a trait object's metadata, a usize
 * like a slice's length:
 *   %vt = mir.ptr_to_int (mir.global_addr @__oxide_vtable_I_K) */
static Value *vtable_meta(Fb *fb, int64_t vtable)
{
	Value *g = ir_build1(&fb->b, OP_MIR_GLOBAL_ADDR, ir_type_ptr(fb->m, 0), 0, NULL);
	g->def->sym = vtable_symbol(fb->a, fb->in, (uint32_t)vtable);
	return ir_build1(&fb->b, OP_MIR_PTR_TO_INT, usize_type(fb), 1, &g);
}

/* `Box<S> as Box<dyn Trait>`: a box is a struct around one pointer (for
 * a trait object the data pointer and the vtable's address, a scalar pair
 * at 0 and 8; oxidec keeps both in memory), so the coercion is a
 * reference's: the same data pointer, the vtable after it. `Box<[T; N]>
 * as Box<[T]>` (`vec![..]`, `Vec::from([..])`): the same data pointer, N
 * after it. */
static bool unsize_box(Fb *fb, int64_t vtable, Val v, PlaceV *dst)
{
	RType *from = v.ty, *to = dst->ty;
	/* (the box's pointer field, inside core's NonNull, has no type here:
	 * the names say it, `alloc::boxed::Box<[u64; 3]>` and `..<[u64]>`) */
	static const char box_slice[] = "alloc::boxed::Box<[";
	uint64_t n = 0;
	bool slice = vtable < 0 && !strncmp(from->name, box_slice, strlen(box_slice)) &&
	             !strncmp(to->name, box_slice, strlen(box_slice)) && unsize_len(from->name, to->name, &n);
	bool ok = (vtable >= 0 || slice) && from->has_layout && from->size == 8 && from->abi == ABI_SCALAR &&
	          to->has_layout && to->size == 16 && to->abi == ABI_SCALAR_PAIR;
	if (!ok)
		return fb_error(fb, OX_UNSUPPORTED, "unsizing `%s` to `%s` is not supported", from->name, to->name), false;
	Value *data = build_load(fb, val_in_memory(fb, v), ir_type_ptr(fb->m, 0));
	build_store(fb, data, dst->addr);
	Value *meta = slice ? const_int(fb, usize_type(fb), n) : vtable_meta(fb, vtable);
	build_store(fb, meta, ptr_add(fb, dst->addr, 8));
	return true;
}

/* Whether `t` is a `Box<dyn Trait>`: a scalar pair, the data pointer and
 * the vtable's address. */
static bool is_box_dyn(const RType *t)
{
	return t->kind == RT_ADT && t->has_layout && t->size == 16 && t->abi == ABI_SCALAR_PAIR &&
	       !strncmp(t->name, "alloc::boxed::Box<dyn ", strlen("alloc::boxed::Box<dyn "));
}

/* `Box<dyn Sub> as Box<dyn Super>` (dyn upcasting of a box): as the
 * reference's (cast_upcast_vptr), on the pair the box keeps in memory:
 * the data pointer stays; the vtable's address stays when Super's vtable
 * is a prefix of Sub's (mir-export's PtrToPtr), else it becomes the
 * TraitVPtr word `word` of the old vtable. */
static bool upcast_box(Fb *fb, int64_t word, Val v, PlaceV *dst)
{
	Type *ptr = ir_type_ptr(fb->m, 0);
	Value *at = val_in_memory(fb, v);
	Value *data = build_load(fb, at, ptr), *meta = build_load(fb, ptr_add(fb, at, 8), usize_type(fb));
	if (word >= 0) {
		Value *vt = ir_build1(&fb->b, OP_MIR_INT_TO_PTR, ptr, 1, &meta);
		meta = build_load(fb, ptr_add(fb, vt, 8 * (uint64_t)word), usize_type(fb));
	}
	build_store(fb, data, dst->addr);
	build_store(fb, meta, ptr_add(fb, dst->addr, 8));
	return true;
}

static bool cast_pointer(Fb *fb, OxCastKind ck, const OxRvalue *rv, Val v, PlaceV *dst)
{
	int64_t vtable = rv->vtable;
	if (is_box_dyn(v.ty) && is_box_dyn(dst->ty) && (ck == OX_CAST_PTR_TO_PTR || (ck == OX_CAST_UNSIZE && rv->vtable_word >= 0)))
		return upcast_box(fb, ck == OX_CAST_UNSIZE ? rv->vtable_word : -1, v, dst);
	if (ck == OX_CAST_UNSIZE && v.ty->kind == RT_ADT && dst->ty->kind == RT_ADT)
		return unsize_box(fb, vtable, v, dst);
	if (!is_pointer(v.ty) || !is_pointer(dst->ty) || val_kind(v.ty) == VK_MEM || val_kind(dst->ty) == VK_MEM) {
		fb_error(fb, OX_UNSUPPORTED, "pointer cast from `%s` to `%s` is not supported", v.ty->name, dst->ty->name);
		return false;
	}
	bool to_fat = val_kind(dst->ty) == VK_FAT, from_fat = val_kind(v.ty) == VK_FAT;
	if (ck == OX_CAST_UNSIZE && from_fat && to_fat && rv->vtable_word >= 0)
		return cast_upcast_vptr(fb, rv->vtable_word, v, dst);
	if (ck == OX_CAST_UNSIZE) {
		RType *pe = v.ty->pointee, *to_pe = dst->ty->pointee;
		uint64_t n;
		if (to_fat && !from_fat && pe && to_pe && unsize_length(pe, to_pe, &n)) {
			/* S<[T; N]> -> S<[T]>: the sized prefix keeps its layout
			 * (that is what makes the coercion legal) */
			if (pe->kind == RT_ADT && pe->has_layout && !to_pe->noffset) {
				to_pe->offsets = pe->offsets;
				to_pe->noffset = pe->noffset;
				to_pe->align = pe->align;
			}
			v.v[1] = const_int(fb, usize_type(fb), n);
			v.ty = dst->ty;
			store_val(fb, dst->addr, v);
			return true;
		}
		if (to_fat && !from_fat && to_pe && to_pe->kind == RT_OPAQUE) {
			/* `&T as &dyn Trait`: the metadata is the address of T's
			 * vtable for the trait (mir-export's "vtables"), kept as a
			 * usize like a slice's length
			 *   %vt = mir.ptr_to_int (mir.global_addr @__oxide_vtable_I_K) */
			if (vtable < 0)
				return fb_error(fb, OX_INPUT, "unsizing `%s` to `%s` without its \"vtable\"", v.ty->name,
				                dst->ty->name), false;
			v.v[1] = vtable_meta(fb, vtable);
			v.ty = dst->ty;
			store_val(fb, dst->addr, v);
			return true;
		}
		fb_error(fb, OX_UNSUPPORTED, "unsizing `%s` to `%s` is not supported", v.ty->name, dst->ty->name);
		return false;
	}
	if (from_fat && !to_fat) {
		build_store(fb, v.v[0], dst->addr);
		return true;
	}
	if (from_fat != to_fat || val_kind(v.ty) == VK_MEM) {
		fb_error(fb, OX_UNSUPPORTED, "pointer cast from `%s` to `%s` is not supported", v.ty->name, dst->ty->name);
		return false;
	}
	v.ty = dst->ty;
	store_val(fb, dst->addr, v);
	return true;
}

/* `double as fn(u32) -> u32` (ReifyFnPointer), and a non-capturing
 * closure's shim (ClosureFnPointer; mir-export makes the shim): the
 * address of the function the constant names.
 *   mir.global_addr @symbol : ptr  (a function, address space 0) */
static bool cast_fn_pointer(Fb *fb, const OxRvalue *rv, PlaceV *dst)
{
	const OxOperand *o = &rv->ops[0];
	if (o->kind != OX_OPERAND_CONSTANT || o->c.kind != OX_CONST_FN || !o->c.fn)
		return fb_error(fb, OX_INPUT, "`%s` of an operand that names no function", rv->cast_name), false;
	Func *f = fb->funcs[o->c.fn->id];
	if (f->is_kernel)
		return fb_error(fb, OX_GPU, "kernel `%s` cannot be called from device code, so it has no "
		                "function pointer", f->name), false;
	Type *pt = scalar_type_of(fb, dst->ty);
	if (val_kind(dst->ty) != VK_SCALAR || !pt || pt->kind != TY_PTR)
		return fb_error(fb, OX_INPUT, "`%s` into a `%s`", rv->cast_name, dst->ty->name), false;
	Value *a = ir_build1(&fb->b, OP_MIR_GLOBAL_ADDR, pt, 0, NULL);
	a->def->sym = f->symbol;
	build_store(fb, a, dst->addr);
	return true;
}

static bool rv_cast(Fb *fb, JPath jp, const OxRvalue *rv, PlaceV *dst)
{
	const char *kind = rv->cast_name;
	Val v;
	if (rv->cast == OX_CAST_REIFY_FN_POINTER)
		return cast_fn_pointer(fb, rv, dst);
	if (!one_operand(fb, jp, rv, &v))
		return false;
	switch (rv->cast) {
	case OX_CAST_TRANSMUTE:
		return cast_transmute(fb, v, dst);
	case OX_CAST_INT_TO_INT: case OX_CAST_INT_TO_FLOAT: case OX_CAST_FLOAT_TO_INT: case OX_CAST_FLOAT_TO_FLOAT:
	case OX_CAST_EXPOSE_PROVENANCE: case OX_CAST_WITH_EXPOSED_PROVENANCE:
		return cast_numeric(fb, rv->cast, kind, v, dst);
	case OX_CAST_PTR_TO_PTR: case OX_CAST_UNSIZE: case OX_CAST_MUT_TO_CONST: case OX_CAST_ARRAY_TO_POINTER:
		return cast_pointer(fb, rv->cast, rv, v, dst);
	case OX_CAST_REIFY_FN_POINTER: case OX_CAST_UNSUPPORTED:
		break;
	}
	fb_error(fb, OX_UNSUPPORTED, "cast `%s` from `%s` to `%s` is not supported (function pointers and closures "
	         "as values cannot be called on the GPU yet)", kind, v.ty->name, dst->ty->name);
	return false;
}

static bool rv_ref(Fb *fb, JPath jp, const OxRvalue *rv, PlaceV *dst)
{
	PlaceV p;
	if (!build_place(fb, jpath_field(fb->a, jp, "place"), &rv->place, &p))
		return false;
	if (!is_pointer(dst->ty) || val_kind(dst->ty) == VK_MEM || val_kind(dst->ty) == VK_ZST)
		return fb_error(fb, OX_INPUT, "a reference stored into a `%s`", dst->ty->name), false;
	build_store(fb, p.addr, dst->addr);
	if (val_kind(dst->ty) == VK_FAT) {
		Value *len = p.meta;
		if (!len && p.ty->kind == RT_ARRAY)
			len = const_int(fb, usize_type(fb), p.ty->len);
		if (!len) {
			fb_error(fb, OX_UNSUPPORTED, "reference to `%s` needs a length", p.ty->name);
			return false;
		}
		build_store(fb, len, ptr_add(fb, dst->addr, 8));
	}
	return true;
}

/* n fields of `variant` of t, each with a layout (rtype_field_offset
 * answers for every one), and the variant exists for an enum's tag. */
static bool aggregate_shape_ok(Fb *fb, RType *t, uint32_t variant, uint32_t n)
{
	bool ok;
	if (t->kind == RT_ARRAY)
		ok = variant == 0 && n == t->len && t->has_layout;
	else if (t->has_variants)
		ok = variant < t->nvlayout && n <= t->vlayouts[variant].nfield;
	else
		ok = (t->kind == RT_ADT || t->kind == RT_TUPLE || t->kind == RT_CLOSURE) && n <= t->noffset &&
		     (variant == 0 || (t->kind == RT_ADT && variant < t->nvariant));
	if (ok && t->kind == RT_ADT && t->adt_kind == ADT_ENUM)
		ok = variant < t->nvariant;
	if (!ok)
		fb_error(fb, OX_INPUT, "aggregate of %u fields for variant %u of `%s`, which has no such fields", n, variant,
		         t->name);
	return ok;
}

static bool rv_aggregate(Fb *fb, JPath jp, const OxRvalue *rv, PlaceV *dst)
{
	uint32_t variant = rv->variant, n = rv->nops;
	if (rv->agg == OX_AGG_RAW_PTR) {
		Val d, meta;
		if (!build_operand(fb, jp, &rv->ops[0], &d) || !build_operand(fb, jp, &rv->ops[1], &meta))
			return fb_error(fb, OX_INPUT, "raw pointer built from %u fields", n), false;
		Type *mt = val_type(meta);
		if (!is_pointer(dst->ty) || val_kind(dst->ty) == VK_MEM || !val_type(d) || val_type(d)->kind != TY_PTR ||
		    (val_kind(dst->ty) == VK_FAT && (!mt || mt->kind != TY_INT || mt->bits != 64)))
			return fb_error(fb, OX_INPUT, "raw pointer `%s` built from a `%s`", dst->ty->name, d.ty->name), false;
		build_store(fb, d.v[0], dst->addr);
		if (val_kind(dst->ty) == VK_FAT)
			build_store(fb, meta.v[0], ptr_add(fb, dst->addr, 8));
		return true;
	}
	if (dst->ty->kind == RT_ADT && dst->ty->adt_kind == ADT_UNION) {
		/* one operand, the active field; every union field is at offset 0 */
		Val v;
		if (n != 1 || !build_operand(fb, jpath_index(fb->a, jpath_field(fb->a, jp, "fields"), 0), &rv->ops[0], &v))
			return fb_error(fb, OX_INPUT, "union `%s` built from %u fields", dst->ty->name, n), false;
		store_val_aligned(fb, dst->addr, dst->align, v);
		return true;
	}
	if (!aggregate_shape_ok(fb, dst->ty, variant, n))
		return false;
	for (uint32_t i = 0; i < n; i++) {
		Val v;
		if (!build_operand(fb, jpath_index(fb->a, jpath_field(fb->a, jp, "fields"), (int)i), &rv->ops[i], &v))
			return false;
		RType *ft = rtype_field_type(dst->ty, variant, i);
		if (ft && !fb_fits(fb, ft, v, "aggregate field"))
			return false;
		if (val_kind(v.ty) != VK_ZST)
			store_val_aligned(fb, field_addr(fb, dst->addr, dst->ty, variant, i),
			                  align_at(dst->align, rtype_field_offset(dst->ty, variant, i)), v);
	}
	if (dst->ty->kind == RT_ADT && dst->ty->adt_kind == ADT_ENUM) {
		Op *op = ir_build(&fb->b, OP_MIR_SET_DISCR, 0, NULL, 1, &dst->addr, 0);
		op->rty = dst->ty;
		op->attr.variant.index = variant;
	}
	return true;
}

/* A scalar constant whose bytes are all zero (0, 0.0, false, null). */
static bool zero_bytes(const Val *v)
{
	const Op *d = val_kind(v->ty) == VK_SCALAR && v->v[0] ? v->v[0]->def : NULL;
	return d && d->code == OP_MIR_CONST && d->nval == 1 && !d->vals[0].lo && !d->vals[0].hi;
}

/* [x; N]: a memset when x's bytes are all zero (LLVM's SROA takes an
 * array apart through a memset, not through a loop: [0.0; 128]
 * accumulators stay in registers), else a counted loop storing x into
 * each element. */
static bool rv_repeat(Fb *fb, JPath jp, const OxRvalue *rv, PlaceV *dst)
{
	Val v;
	uint64_t n = rv->count;
	if (!one_operand(fb, jp, rv, &v))
		return false;
	if (dst->ty->kind != RT_ARRAY || n != dst->ty->len || !fb_fits(fb, dst->ty->elem, v, "array element"))
		return fb_error(fb, OX_INPUT, "[x; %llu] into a `%s`", (unsigned long long)n, dst->ty->name), false;
	if (val_kind(v.ty) == VK_ZST || n == 0)
		return true;
	if (zero_bytes(&v)) {
		Value *args[3] = { dst->addr, const_int(fb, ir_type_int(fb->m, 8, false), 0),
		                   const_int(fb, usize_type(fb), n) };
		Op *op = ir_build(&fb->b, OP_MIR_INTRINSIC, 0, NULL, 3, args, 0);
		op->sym = "write_bytes";
		op->rty = dst->ty->elem;
		return true;
	}
	Type *u = usize_type(fb);
	RType *usize_rt = NULL;
	for (uint32_t k = 0; k < fb->m->nrtype && !usize_rt; k++)
		if (fb->m->rtypes[k]->kind == RT_INT && fb->m->rtypes[k]->bits == 64 && !fb->m->rtypes[k]->is_signed)
			usize_rt = fb->m->rtypes[k];
	Value *ctr = temp_slot(fb, usize_rt ? usize_rt : dst->ty);
	build_store(fb, const_int(fb, u, 0), ctr);
	Block *head = ir_block_new(fb->fn), *body = ir_block_new(fb->fn), *exit = ir_block_new(fb->fn);
	ir_op_set_succ(fb->m, ir_build(&fb->b, OP_MIR_GOTO, 0, NULL, 0, NULL, 1), 0, head, 0, NULL);
	fb->b.block = head;
	Value *i = build_load(fb, ctr, u);
	Value *opd[2] = { i, const_int(fb, u, n) };
	Value *c = ir_build1(&fb->b, OP_MIR_LT, ir_type_bool(fb->m), 2, opd);
	Op *sw = ir_build(&fb->b, OP_MIR_SWITCH, 0, NULL, 1, &c, 2);
	U128 zero = { 0, 0 };
	ir_op_set_vals(fb->m, sw, 1, &zero);
	ir_op_set_succ(fb->m, sw, 0, exit, 0, NULL);
	ir_op_set_succ(fb->m, sw, 1, body, 0, NULL);
	fb->b.block = body;
	Value *iopd[2] = { dst->addr, i };
	Value *ea = ir_build1(&fb->b, OP_MIR_INDEX, ir_type_ptr(fb->m, 0), 2, iopd);
	ea->def->rty = dst->ty->elem;
	store_val(fb, ea, v);
	Value *aopd[2] = { i, const_int(fb, u, 1) };
	build_store(fb, ir_build1(&fb->b, OP_MIR_ADD, u, 2, aopd), ctr);
	ir_op_set_succ(fb->m, ir_build(&fb->b, OP_MIR_GOTO, 0, NULL, 0, NULL, 1), 0, head, 0, NULL);
	fb->b.block = exit;
	return true;
}

static bool rv_discriminant(Fb *fb, JPath jp, const OxRvalue *rv, PlaceV *dst)
{
	PlaceV p;
	if (!build_place(fb, jpath_field(fb->a, jp, "place"), &rv->place, &p) || !place_read_aligned(fb, &p))
		return false;
	Type *t = scalar_type_of(fb, dst->ty);
	if (!t || t->kind != TY_INT || val_kind(dst->ty) != VK_SCALAR || !p.ty->has_layout)
		return fb_error(fb, OX_INPUT, "discriminant of `%s` into `%s`", p.ty->name, dst->ty->name), false;
	Value *d = ir_build1(&fb->b, OP_MIR_DISCR, t, 1, &p.addr);
	d->def->rty = p.ty;
	build_store(fb, d, dst->addr);
	return true;
}

static bool rv_nullary(Fb *fb, const OxRvalue *rv, PlaceV *dst)
{
	static const char *const names[] = { [OX_NULLARY_SIZE_OF] = "SizeOf", [OX_NULLARY_ALIGN_OF] = "AlignOf",
	                                     [OX_NULLARY_UB_CHECKS] = "UbChecks" };
	const char *op = names[rv->nullop];
	RType *t = fb_rtype(fb, rv->ty);
	Type *ty = scalar_type_of(fb, dst->ty);
	if (!ty || ty->kind != TY_INT || val_kind(dst->ty) != VK_SCALAR)
		return fb_error(fb, OX_INPUT, "`%s` into a `%s`", op, dst->ty->name), false;
	uint64_t v = rv->nullop == OX_NULLARY_SIZE_OF ? t->size
	           : rv->nullop == OX_NULLARY_ALIGN_OF ? t->align
	           : 0;                 /* UbChecks: debug assertions are off in exported MIR */
	build_store(fb, const_int(fb, ty, v), dst->addr);
	return true;
}

static bool rv_use(Fb *fb, JPath rp, const OxRvalue *rv, PlaceV *dst)
{
	Val v;
	if (rv->kind == OX_RV_USE) {
		if (!one_operand(fb, rp, rv, &v))
			return false;
	} else {
		PlaceV p;
		if (!build_place(fb, rp, &rv->place, &p) || !place_read_aligned(fb, &p))
			return false;
		v = load_val(fb, p.ty, p.addr);
	}
	if (!fb_fits(fb, dst->ty, v, rv->kind == OX_RV_USE ? "use" : "copy_for_deref"))
		return false;
	store_val(fb, dst->addr, v);
	return true;
}

static bool build_rvalue(Fb *fb, JPath rp, const OxRvalue *rv, PlaceV *dst)
{
	switch (rv->kind) {
	case OX_RV_USE: case OX_RV_COPY_FOR_DEREF:
		return rv_use(fb, rp, rv, dst);
	case OX_RV_BINARY:
		return rv_binary(fb, rp, rv, dst);
	case OX_RV_UNARY:
		return rv_unary(fb, rp, rv, dst);
	case OX_RV_CAST:
		return rv_cast(fb, rp, rv, dst);
	case OX_RV_REF:
		return rv_ref(fb, rp, rv, dst);
	case OX_RV_AGGREGATE:
		return rv_aggregate(fb, rp, rv, dst);
	case OX_RV_REPEAT:
		return rv_repeat(fb, rp, rv, dst);
	case OX_RV_DISCRIMINANT:
		return rv_discriminant(fb, rp, rv, dst);
	case OX_RV_NULLARY:
		return rv_nullary(fb, rv, dst);
	}
	unreachable();
}

static bool build_assign(Fb *fb, JPath jp, const OxStmt *st)
{
	PlaceV dst, back;
	if (!build_place(fb, jpath_field(fb->a, jp, "place"), &st->place, &dst) ||
	    !place_write_target(fb, &dst, &back))
		return false;
	Op *mark = build_mark(fb);
	if (!build_rvalue(fb, jpath_field(fb->a, jp, "rvalue"), &st->rv, &dst))
		return false;
	place_claim_align(fb, mark, &dst);
	place_write_back(fb, &dst, &back);
	return true;
}

static bool set_discriminant(Fb *fb, JPath jp, const OxStmt *st)
{
	PlaceV p, back;
	if (!build_place(fb, jpath_field(fb->a, jp, "place"), &st->place, &p))
		return false;
	if (!fb_index(fb, jpath_field(fb->a, jp, "variant"), st->variant, p.ty->nvariant))
		return false;
	if (p.ty->kind != RT_ADT || p.ty->adt_kind != ADT_ENUM || !p.ty->has_layout)
		return fb_error(fb, OX_INPUT, "set_discriminant on a `%s`", p.ty->name), false;
	back = p;          /* an enum in a packed struct: its tag set in an aligned copy */
	if (!place_read_aligned(fb, &p))
		return false;
	Op *op = ir_build(&fb->b, OP_MIR_SET_DISCR, 0, NULL, 1, &p.addr, 0);
	op->rty = p.ty;
	op->attr.variant.index = st->variant;
	place_write_back(fb, &p, &back);
	return true;
}

static bool copy_nonoverlapping(Fb *fb, JPath jp, const OxStmt *st)
{
	Val src, dst, count;
	if (!build_operand(fb, jpath_field(fb->a, jp, "src"), &st->ops[0], &src) ||
	    !build_operand(fb, jpath_field(fb->a, jp, "dst"), &st->ops[1], &dst) ||
	    !build_operand(fb, jpath_field(fb->a, jp, "count"), &st->ops[2], &count))
		return false;
	if (val_kind(src.ty) != VK_SCALAR || val_kind(dst.ty) != VK_SCALAR || !src.ty->pointee ||
	    !dst.ty->pointee || !val_type(count) || val_type(count)->kind != TY_INT)
		return fb_error(fb, OX_INPUT, "copy_nonoverlapping of `%s`", src.ty->name), false;
	Value *opd[3] = { src.v[0], dst.v[0], count.v[0] };
	Op *op = ir_build(&fb->b, OP_MIR_INTRINSIC, 0, NULL, 3, opd, 0);
	op->sym = "copy_nonoverlapping";    /* same operand order as the intrinsic call */
	op->rty = src.ty->pointee;
	return true;
}

bool build_statement(Fb *fb, JPath jp, const OxStmt *st)
{
	fb_set_span(fb, st->span);
	switch (st->kind) {
	case OX_STMT_ASSIGN:
		return build_assign(fb, jp, st);
	case OX_STMT_SET_DISCRIMINANT:
		return set_discriminant(fb, jp, st);
	case OX_STMT_ASSUME: {
		Val v;
		if (!build_operand(fb, jpath_field(fb->a, jp, "operand"), &st->ops[0], &v))
			return false;
		if (!val_type(v) || val_type(v)->kind != TY_BOOL)
			return fb_error(fb, OX_INPUT, "assume of a `%s`", v.ty->name), false;
		ir_build(&fb->b, OP_MIR_ASSUME, 0, NULL, 1, v.v, 0);
		return true;
	}
	case OX_STMT_COPY_NONOVERLAPPING:
		return copy_nonoverlapping(fb, jp, st);
	}
	unreachable();
}
