/* operand.c: MIR operands and constants, and the allocations (static
 * data, string literals, promoted constants' bytes) they point to, which
 * become read-only globals. */
#include "build.h"

#include <string.h>

const char *alloc_symbol(Fb *fb, int64_t id)
{
	return arena_printf(fb->a, "__oxide_alloc_%u_%lld", fb->f->index, (long long)id);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* "0a1b.." -> bytes; false on odd length or a bad digit. */
static bool parse_hex(Arena *a, const char *s, uint8_t **out, uint64_t *n)
{
	size_t len = strlen(s);
	if (len % 2)
		return false;
	*n = len / 2;
	*out = arena_alloc(a, *n ? *n : 1);
	for (size_t i = 0; i < *n; i++) {
		int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return false;
		(*out)[i] = (uint8_t)(hi << 4 | lo);
	}
	return true;
}

static bool parse_relocs(Arena *a, JPath p, FeFile *f, cJSON *rs, Global *g)
{
	g->nreloc = (uint32_t)cJSON_GetArraySize(rs);
	g->relocs = arena_new_array(a, Reloc, g->nreloc);
	int i = 0;
	cJSON *r;
	cJSON_ArrayForEach(r, rs) {
		JPath q = jpath_index(a, p, i);
		g->relocs[i].offset = json_u64(q, r, "offset");
		g->relocs[i].target = arena_printf(a, "__oxide_alloc_%u_%lld", f->index,
		                                   (long long)json_int(q, r, "alloc"));
		if (g->relocs[i].offset + 8 > g->size)
			fe_error(q, "relocation outside the allocation");
		i++;
	}
	return true;
}

/* Statics of oxide-device's memory-space types ("ty" of the alloc, JSON
 * format 1 extension): Shared<T> -> .shared (address space 3, undefined
 * at block start), Constant<T> -> .const (address space 4), exported
 * under the static's own name (its last path segment) for the host's
 * ox_module_global; the alloc name stays an alias. Writable, so LLVM
 * never folds a read to the initializer. */
static void place_static(Module *m, Arena *a, JPath p, FeFile *f, cJSON *j, Global *g)
{
	cJSON *ty = json_get_opt(j, "ty"), *st = json_get_opt(j, "static");
	uint32_t ti;
	if (!ty || !json_index_value(p, "ty", ty, f->ntype, &ti))
		return;
	const char *name = f->types[ti]->name;
	if (strncmp(name, "oxide_device::", 14))
		return;
	const char *last = strrchr(name, '<');
	size_t n = last ? (size_t)(last - name) : strlen(name);
	if (n >= 8 && !strncmp(name + n - 8, "::Shared", 8)) {
		g->addrspace = AS_SHARED;
		g->is_mut = true;
	} else if (n >= 10 && !strncmp(name + n - 10, "::Constant", 10)) {
		if (!cJSON_IsString(st)) {
			fe_error(p, "a Constant<T> allocation without its static's name");
			return;
		}
		const char *sn = strrchr(st->valuestring, ':');
		const char *exported = sn ? sn + 1 : st->valuestring;
		FeFile *other = fe_map_get(f->in->statics, "", exported);
		if (other || ir_global_find(m, exported)) {
			/* the host finds it by this name: two would be a guess */
			fe_error(p, "Constant static `%s` has the exported name `%s`, which %s already defines; the "
			         "host (ox_module_global) could not tell the two apart", st->valuestring, exported,
			         other ? other->path : "another static");
			return;
		}
		fe_map_put(f->in->statics, "", exported, f);
		g->alias = g->name;
		g->name = arena_strdup(a, exported);
		g->addrspace = AS_CONST;
		g->is_mut = true;
		g->is_exported = true;
	}
}

bool fe_import_allocs(Module *m, FeFile *f, Arena *a)
{
	cJSON *arr = json_get_opt(f->root, "allocs"), *j;
	JPath root = { f, "$.allocs" };
	int i = 0, errs = diag_errors();
	cJSON_ArrayForEach(j, arr) {
		JPath p = jpath_index(a, root, i++);
		Global *g = ir_global_new(m, arena_printf(a, "__oxide_alloc_%u_%lld", f->index,
		                                          (long long)json_int(p, j, "id")));
		g->size = json_u64(p, j, "size");
		g->align = json_align(p, j, "align");
		g->is_mut = cJSON_IsTrue(json_get_opt(j, "mutable"));
		g->addrspace = AS_GLOBAL;
		uint64_t n;
		if (!parse_hex(a, json_str(p, j, "bytes"), &g->bytes, &n) || n != g->size)
			fe_error(p, "\"bytes\" must be %llu bytes of hex", (unsigned long long)g->size);
		parse_relocs(a, jpath_field(a, p, "relocs"), f, json_get_opt(j, "relocs"), g);
		place_static(m, a, p, f, j, g);
	}
	/* relocations name globals as they are called now */
	for (Global *g = m->globals; g; g = g->next)
		for (uint32_t k = 0; k < g->nreloc; k++) {
			Global *t = ir_global_find(m, g->relocs[k].target);
			if (t)
				g->relocs[k].target = t->name;
		}
	return diag_errors() == errs;
}

/* A constant given as raw bytes: a read-only global, loaded as needed. */
static bool const_bytes(Fb *fb, JPath jp, cJSON *c, RType *t, Val *out)
{
	Global *g = ir_global_new(fb->m, arena_printf(fb->a, "__oxide_const_%s_%u", fb->fn->symbol, fb->nconst++));
	uint64_t n;
	if (!parse_hex(fb->a, json_str(jp, c, "bytes"), &g->bytes, &n) || n != t->size) {
		fe_error(jp, "constant of `%s` needs %llu bytes", t->name, (unsigned long long)t->size);
		return false;
	}
	g->size = n;
	g->align = t->align ? t->align : 1;
	g->addrspace = AS_GLOBAL;
	parse_relocs(fb->a, jpath_field(fb->a, jp, "relocs"), fb->f, json_get_opt(c, "relocs"), g);
	Value *addr = ir_build1(&fb->b, OP_MIR_GLOBAL_ADDR, ir_type_ptr(fb->m, 0), 0, NULL);
	addr->def->sym = g->name;
	*out = load_val(fb, t, addr);
	return true;
}

static bool const_scalar(Fb *fb, JPath jp, cJSON *c, RType *t, Val *out)
{
	U128 bits;
	if (!json_u128(jp, json_get(jp, c, "bits", 0), &bits)) {
		fe_error(jp, "bad scalar bits");
		return false;
	}
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
	}
	return true;
}

static bool const_ref(Fb *fb, JPath jp, cJSON *c, RType *t, Val *out)
{
	Value *addr = ir_build1(&fb->b, OP_MIR_GLOBAL_ADDR, ir_type_ptr(fb->m, 0), 0, NULL);
	addr->def->sym = alloc_symbol(fb, json_int(jp, c, "alloc"));
	Global *target = ir_global_find(fb->m, addr->def->sym);
	if (!target) {
		fe_error(jp, "constant refers to allocation %lld, which is not in \"allocs\"",
		         (long long)json_int(jp, c, "alloc"));
		return false;
	}
	addr->def->sym = target->name;     /* a Constant<T> static's own name */
	out->ty = t;
	out->v[0] = ptr_add(fb, addr, json_u64(jp, c, "offset"));
	if (val_kind(t) == VK_FAT) {
		cJSON *meta = json_get(jp, c, "meta", 0);
		U128 len = { 0, 0 };
		if (meta && !json_u128(jp, meta, &len))
			fe_error(jp, "bad slice length");
		out->v[1] = const_int(fb, usize_type(fb), len.lo);
	} else if (val_kind(t) != VK_SCALAR) {
		fe_error(jp, "reference constant of type `%s`", t->name);
		return false;
	}
	return true;
}

static bool build_const(Fb *fb, JPath jp, cJSON *c, RType *t, Val *out);

/* An enum or struct value given field by field: built in a temporary. */
static bool const_adt(Fb *fb, JPath jp, cJSON *c, RType *t, Val *out)
{
	uint32_t variant = json_u32(jp, c, "variant");
	if ((t->kind != RT_ADT && t->kind != RT_TUPLE) || variant >= t->nvariant) {
		fe_error(jp, "aggregate constant of `%s` with variant %u", t->name, variant);
		return false;
	}
	Value *s = temp_slot(fb, t);
	cJSON *fs = json_get_opt(c, "fields"), *fc;
	uint32_t i = 0;
	cJSON_ArrayForEach(fc, fs) {
		RType *fty = rtype_field_type(t, variant, i);
		if (!fty || !field_has_offset(t, variant, i)) {
			fe_error(jp, "field %u of `%s` has no known type", i, t->name);
			return false;
		}
		Val fv;
		if (!build_const(fb, jpath_index(fb->a, jp, (int)i), fc, fty, &fv))
			return false;
		Value *fa = ptr_add(fb, s, rtype_field_offset(t, variant, i));
		store_val(fb, fa, fv);
		i++;
	}
	if (t->kind == RT_ADT && t->adt_kind == ADT_ENUM) {
		Op *op = ir_build(&fb->b, OP_MIR_SET_DISCR, 0, NULL, 1, &s, 0);
		op->rty = t;
		op->attr.variant.index = variant;
	}
	*out = (Val){ t, { NULL, NULL }, s };
	return true;
}

/* A named constant or promoted: its body is a function of no arguments
 * (kind "const"), called where the value is used; LLVM inlines and folds
 * it.  (A rustc const that panics was already rejected by rustc.) */
static bool const_unevaluated(Fb *fb, JPath jp, cJSON *c, RType *t, Val *out)
{
	const char *def = json_str(jp, c, "def");
	Func *f = fe_map_get(fb->f->in->funcs, fb->f->crate, def);    /* a body of the same crate */
	if (!f) {
		fb_error(fb, "constant `%s` has no body in the inputs", def);
		return false;
	}
	*out = (Val){ t, { NULL, NULL }, NULL };
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
		fb_error(fb, "constant `%s` of type `%s`: unexpected signature", def, t->name);
		return false;
	}
	*out = load_val(fb, t, s);
	return true;
}

static bool build_const(Fb *fb, JPath jp, cJSON *c, RType *t, Val *out)
{
	const char *kind = json_str(jp, c, "kind");
	if (!strcmp(kind, "unevaluated"))
		return const_unevaluated(fb, jp, c, t, out);
	*out = (Val){ t, { NULL, NULL }, NULL };
	if (!strcmp(kind, "zst") || !strcmp(kind, "fn"))
		return true;
	if (rtype_is_zst(t))
		return true;
	if (!strcmp(kind, "scalar"))
		return const_scalar(fb, jp, c, t, out);
	if (!strcmp(kind, "bytes"))
		return const_bytes(fb, jp, c, t, out);
	if (!strcmp(kind, "ref"))
		return const_ref(fb, jp, c, t, out);
	if (!strcmp(kind, "adt"))
		return const_adt(fb, jp, c, t, out);
	fb_error(fb, "constant of kind \"%s\" (type `%s`) is not supported", kind, t->name);
	return false;
}

bool build_operand(Fb *fb, JPath jp, cJSON *j, Val *out)
{
	const char *kind = json_str(jp, j, "kind");
	if (!strcmp(kind, "copy") || !strcmp(kind, "move")) {
		PlaceV p;
		if (!build_place(fb, jpath_field(fb->a, jp, "place"), json_get(jp, j, "place", cJSON_Object), &p))
			return false;
		if (p.meta && val_kind(p.ty) != VK_ZST) {
			fb_error(fb, "use of an unsized value of type `%s`", p.ty->name);
			return false;
		}
		*out = load_val(fb, p.ty, p.addr);
		return true;
	}
	if (!strcmp(kind, "constant")) {
		RType *t = fe_type(jp, fb->f, j, "ty");
		cJSON *c = json_get(jp, j, "const", cJSON_Object);
		return t && c && build_const(fb, jpath_field(fb->a, jp, "const"), c, t, out);
	}
	fe_error(jp, "unknown operand kind \"%s\"", kind);
	return false;
}
