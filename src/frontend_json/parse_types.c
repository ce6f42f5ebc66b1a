/* parse_types.c: stage 1 — the oxide-mir type table into OxTypes, every
 * field checked.  A type is keyed by its crate and printed name (rustc
 * prints a crate's own items without the crate, so two crates' `Pair`s
 * are two types): the same key in two inputs (the crate linked twice) is
 * one OxType when the definitions agree, and an error naming both when
 * not. */
#include "fe.h"

#include <string.h>

static const struct { const char *name; RTypeKind kind; } kinds[] = {
	{ "bool", RT_BOOL }, { "char", RT_CHAR }, { "int", RT_INT }, { "float", RT_FLOAT },
	{ "str", RT_STR }, { "never", RT_NEVER }, { "tuple", RT_TUPLE }, { "array", RT_ARRAY },
	{ "slice", RT_SLICE }, { "ref", RT_REF }, { "ptr", RT_PTR }, { "adt", RT_ADT },
	{ "fndef", RT_FNDEF }, { "closure", RT_CLOSURE }, { "opaque", RT_OPAQUE }, { "fn_ptr", RT_FNPTR },
};

static bool parse_kind(JPath p, const char *s, RTypeKind *out)
{
	for (size_t i = 0; i < countof(kinds); i++)
		if (!strcmp(kinds[i].name, s)) {
			*out = kinds[i].kind;
			return true;
		}
	fe_error(p, "unknown type kind \"%s\"", s);
	return false;
}

bool ox_type_is_zst(const OxType *t)
{
	return t->has_layout && t->layout.size == 0;
}

/* obj.key: an index into f's type table. */
OxType *parse_type_ref(JPath p, PFile *f, cJSON *obj, const char *key)
{
	uint32_t i;
	return json_index(p, obj, key, f->ntype, &i) ? f->types[i] : NULL;
}

static OxType *type_ref(JPath p, PFile *f, cJSON *v)
{
	uint32_t i;
	if (!v) {
		fe_error(p, "expected a type index");
		return NULL;
	}
	return json_index_value(p, NULL, v, f->ntype, &i) ? f->types[i] : NULL;
}

static bool parse_prim(JPath p, const char *prim, OxPrim *out)
{
	static const char *const prims[] = { "i8", "i16", "i32", "i64", "i128", "f32", "f64", "ptr" };
	for (size_t i = 0; i < countof(prims); i++)
		if (!strcmp(prims[i], prim)) {
			*out = (OxPrim)i;
			return true;
		}
	fe_error(p, "unknown scalar primitive \"%s\"", prim);
	return false;
}

static void parse_scalar(JPath p, cJSON *s, OxScalar *out)
{
	parse_prim(p, json_str(p, s, "prim"), &out->prim);
	out->is_signed = cJSON_IsTrue(json_get_opt(s, "signed"));
	cJSON *a = json_get_opt(s, "valid_start"), *b = json_get_opt(s, "valid_end");
	if (a)
		json_u128(a, &out->valid_start);
	if (b)
		json_u128(b, &out->valid_end);
}

static uint64_t *parse_offsets(Arena *a, JPath p, cJSON *arr, uint32_t *n)
{
	*n = (uint32_t)cJSON_GetArraySize(arr);
	uint64_t *offs = arena_new_array(a, uint64_t, *n);
	int i = 0;
	cJSON *e;
	cJSON_ArrayForEach(e, arr) {
		U128 u = { 0, 0 };
		if (!json_u128(e, &u))
			fe_error(p, "field offset must be an integer");
		offs[i++] = u.lo;
	}
	return offs;
}

static void parse_encoding(JPath p, OxLayout *l, cJSON *enc)
{
	if (cJSON_IsString(enc) && !strcmp(enc->valuestring, "direct"))
		return;
	cJSON *n = json_get_opt(enc, "niche");
	if (!n) {
		fe_error(p, "unknown tag encoding");
		return;
	}
	l->niche = true;
	l->untagged_variant = json_u32(p, n, "untagged_variant");
	cJSON *nv = json_get(p, n, "niche_variants", cJSON_Array);
	int64_t first = 0, last = 0;
	if (nv && (cJSON_GetArraySize(nv) != 2 ||
	           !json_int_range(p, "niche_variants", cJSON_GetArrayItem(nv, 0), 0, UINT32_MAX, &first) ||
	           !json_int_range(p, "niche_variants", cJSON_GetArrayItem(nv, 1), first, UINT32_MAX, &last)))
		fe_error(p, "\"niche_variants\" must be [first, last]");
	l->niche_first = (uint32_t)first;
	l->niche_last = (uint32_t)last;
	cJSON *ns = json_get(p, n, "niche_start", 0);
	if (ns)
		json_u128(ns, &l->niche_start);
}

static void parse_variants_layout(Arena *a, JPath p, OxLayout *l, cJSON *v)
{
	l->has_variants = true;
	cJSON *tag = json_get(p, v, "tag", cJSON_Object);
	if (tag)
		parse_scalar(jpath_field(a, p, "tag"), tag, &l->tag);
	l->tag_offset = json_u64(p, v, "tag_offset");
	parse_encoding(p, l, json_get(p, v, "encoding", 0));
	cJSON *ls = json_get(p, v, "layouts", cJSON_Array);
	l->nvlayout = (uint32_t)cJSON_GetArraySize(ls);
	l->vlayouts = arena_new_array(a, OxVariantLayout, l->nvlayout);
	int i = 0;
	cJSON *e;
	cJSON_ArrayForEach(e, ls) {
		JPath q = jpath_index(a, p, i);
		OxVariantLayout *vl = &l->vlayouts[i++];
		vl->size = json_u64(q, e, "size");
		/* optional: rustc 1.97 no longer reports it (0: unknown) */
		vl->align = json_get_opt(e, "align") ? json_align(q, e, "align") : 0;
		cJSON *fs = json_get(q, e, "fields", cJSON_Array);
		if (fs)
			vl->fields = parse_offsets(a, q, fs, &vl->nfield);
	}
}

static void parse_layout(Arena *a, JPath p, OxLayout *t, cJSON *l)
{
	static const char *abis[] = { "scalar", "scalar_pair", "vector", "memory", "uninhabited" };
	t->size = json_u64(p, l, "size");
	if (t->size > FE_MAX_TYPE_SIZE)     /* sizes stay far from overflowing in offset arithmetic */
		fe_error(p, "a type of %llu bytes is larger than oxidec's limit of 2^40",
		         (unsigned long long)t->size);
	t->align = json_align(p, l, "align");
	const char *abi = json_str(p, l, "abi");
	t->abi = ABI_MEMORY;
	for (size_t i = 0; i < countof(abis); i++)
		if (!strcmp(abi, abis[i]))
			t->abi = (AbiKind)i;
	cJSON *sc = json_get_opt(l, "scalars");
	int i = 0;
	cJSON *e;
	cJSON_ArrayForEach(e, sc) {
		if (i < 2)
			parse_scalar(jpath_index(a, jpath_field(a, p, "scalars"), i), e, &t->scalars[i]);
		i++;
	}
	t->nscalar = i < 2 ? (uint32_t)i : 2;
	if ((t->abi == ABI_SCALAR && i != 1) || (t->abi == ABI_SCALAR_PAIR && i != 2))
		fe_error(p, "layout abi \"%s\" with %d scalars", abi, i);
	cJSON *fs = json_get_opt(l, "fields");
	if (fs)
		t->offsets = parse_offsets(a, p, fs, &t->noffset);
	cJSON *sv = json_get_opt(l, "single_variant");
	int64_t svi = 0;
	if (sv && json_int_range(p, "single_variant", sv, 0, UINT32_MAX, &svi))
		t->single_variant = (uint32_t)svi;
	cJSON *vs = json_get_opt(l, "variants");
	if (vs)
		parse_variants_layout(a, jpath_field(a, p, "variants"), t, vs);
}

static void parse_adt_variants(Arena *a, JPath p, PFile *f, OxType *t, cJSON *vs)
{
	t->nvariant = (uint32_t)cJSON_GetArraySize(vs);
	t->variants = arena_new_array(a, OxVariant, t->nvariant);
	int i = 0;
	cJSON *v;
	cJSON_ArrayForEach(v, vs) {
		JPath q = jpath_index(a, p, i);
		OxVariant *var = &t->variants[i++];
		var->name = arena_strdup(a, json_str(q, v, "name"));
		cJSON *d = json_get_opt(v, "discr");
		if (d && !json_u128(d, &var->discr))
			fe_error(q, "bad discriminant");
		cJSON *fs = json_get(q, v, "fields", cJSON_Array);
		var->nfield = (uint32_t)cJSON_GetArraySize(fs);
		var->fields = arena_new_array(a, OxType *, var->nfield);
		var->field_names = arena_new_array(a, const char *, var->nfield);
		int k = 0;
		cJSON *fld;
		cJSON_ArrayForEach(fld, fs) {
			cJSON *ty = json_get_opt(fld, "ty"), *nm = json_get_opt(fld, "name");
			var->field_names[k] = cJSON_IsString(nm) ? arena_strdup(a, nm->valuestring) : NULL;
			var->fields[k++] = ty ? type_ref(q, f, ty) : NULL;
		}
	}
}

static void parse_tuple_fields(Arena *a, JPath p, PFile *f, OxType *t, cJSON *fs)
{
	t->nvariant = 1;
	t->variants = arena_new_array(a, OxVariant, 1);
	OxVariant *var = &t->variants[0];
	var->name = t->name;
	var->nfield = (uint32_t)cJSON_GetArraySize(fs);
	var->fields = arena_new_array(a, OxType *, var->nfield);
	int k = 0;
	cJSON *e;
	cJSON_ArrayForEach(e, fs)
		var->fields[k++] = type_ref(p, f, e);
}

/* "bits" of an int (8..128) or float (16..128): a power of two. */
static uint8_t type_bits(JPath p, cJSON *j, unsigned min)
{
	uint32_t b = json_u32(p, j, "bits");
	if (b < min || b > 128 || (b & (b - 1))) {
		fe_error(p, "\"bits\": %u is not a width oxidec knows (%u..128, a power of two)", b, min);
		return (uint8_t)min;
	}
	return (uint8_t)b;
}

/* The size the frontend assumes of a primitive is the layout's size:
 * scalars are values of their width, pointers 8 bytes or 16 when fat
 * (rtype_is_fat_ptr's rule). */
static void check_prim_layout(JPath p, OxType *t)
{
	uint64_t want;
	bool fat;
	switch (t->kind) {
	case RT_BOOL: want = 1; break;
	case RT_CHAR: want = 4; break;
	case RT_INT: case RT_FLOAT: want = t->bits / 8; break;
	case RT_FNPTR: want = 8; break;
	case RT_REF: case RT_PTR:
		fat = t->pointee && (t->pointee->kind == RT_SLICE || t->pointee->kind == RT_STR ||
		                     t->layout.abi == ABI_SCALAR_PAIR);
		want = fat ? 16 : 8;
		break;
	default: return;
	}
	if (t->layout.size != want)
		fe_error(p, "the layout of `%s` says %llu bytes, not %llu", t->name, (unsigned long long)t->layout.size,
		         (unsigned long long)want);
}

/* Fill the kind-specific part; other types are referred to by index. */
static void fill_type(Arena *a, JPath p, PFile *f, OxType *t, cJSON *j)
{
	switch (t->kind) {
	case RT_INT:
		t->bits = type_bits(p, j, 8);
		t->is_signed = json_bool(p, j, "signed");
		break;
	case RT_FLOAT:
		t->bits = type_bits(p, j, 16);
		break;
	case RT_REF: case RT_PTR:
		t->pointee = type_ref(p, f, json_get(p, j, "pointee", 0));
		t->is_mut = json_bool(p, j, "mutable");
		break;
	case RT_ARRAY:
		t->elem = type_ref(p, f, json_get(p, j, "elem", 0));
		t->len = json_u64(p, j, "len");
		break;
	case RT_SLICE:
		t->elem = type_ref(p, f, json_get(p, j, "elem", 0));
		break;
	case RT_TUPLE:
		parse_tuple_fields(a, p, f, t, json_get(p, j, "fields", cJSON_Array));
		break;
	case RT_ADT: {
		const char *k = json_str(p, j, "adt_kind");
		t->adt_kind = !strcmp(k, "enum") ? ADT_ENUM : !strcmp(k, "union") ? ADT_UNION : ADT_STRUCT;
		t->path = arena_strdup(a, json_str(p, j, "path"));
		t->drop_noop = cJSON_IsTrue(json_get_opt(j, "drop_noop"));
		t->repr_c = cJSON_IsTrue(json_get_opt(j, "repr_c"));
		parse_adt_variants(a, jpath_field(a, p, "variants"), f, t, json_get(p, j, "variants", cJSON_Array));
		break;
	}
	case RT_CLOSURE: {
		cJSON *up = json_get_opt(j, "upvars");
		t->path = arena_strdup(a, json_str(p, j, "path"));
		t->drop_noop = cJSON_IsTrue(json_get_opt(j, "drop_noop"));
		if (up)
			parse_tuple_fields(a, p, f, t, up);
		break;
	}
	case RT_FNDEF:
		t->path = arena_strdup(a, json_str(p, j, "path"));
		break;
	default:
		break;
	}
	cJSON *l = json_get_opt(j, "layout");
	t->layout.align = 1;
	t->layout.abi = ABI_MEMORY;
	if (l) {
		t->has_layout = true;
		parse_layout(a, jpath_field(a, p, "layout"), &t->layout, l);
		check_prim_layout(p, t);
	}
	cJSON *why = json_get_opt(j, "layout_error");
	if (cJSON_IsString(why))
		t->layout_error = arena_strdup(a, why->valuestring);
}

/* ------------------------------------------------- same definition?
 *
 * Two type definitions (or function bodies) from two inputs agree when
 * their JSON is equal, type references compared by the OxType they name
 * (indices differ between files) and spans left out. */

static bool is_type_ref_key(const char *k)
{
	static const char *const keys[] = { "ty", "pointee", "elem", "fields", "upvars", "generic_args" };
	for (size_t i = 0; i < countof(keys); i++)
		if (!strcmp(k, keys[i]))
			return true;
	return false;
}

static bool same_ref(PFile *fa, cJSON *a, PFile *fb, cJSON *b)
{
	double x = a->valuedouble, y = b->valuedouble;
	if (!(x >= 0 && x < fa->ntype && y >= 0 && y < fb->ntype) || x != (uint32_t)x || y != (uint32_t)y)
		return x == y;
	return fa->types[(uint32_t)x] == fb->types[(uint32_t)y];
}

bool fe_same_json(PFile *fa, cJSON *a, PFile *fb, cJSON *b, bool ref)
{
	if (ref && cJSON_IsNumber(a) && cJSON_IsNumber(b))
		return same_ref(fa, a, fb, b);
	if ((a->type & 0xff) != (b->type & 0xff))
		return false;
	if (!cJSON_IsArray(a) && !cJSON_IsObject(a))
		return cJSON_Compare(a, b, true);
	bool obj = cJSON_IsObject(a);
	if (cJSON_GetArraySize(a) != cJSON_GetArraySize(b))
		return false;
	cJSON *ca, *cb = b->child;
	cJSON_ArrayForEach(ca, a) {
		if (obj)
			cb = cJSON_GetObjectItemCaseSensitive(b, ca->string);
		if (!cb)
			return false;
		if (!(obj && !strcmp(ca->string, "span")) &&
		    !fe_same_json(fa, ca, fb, cb, obj ? is_type_ref_key(ca->string) : ref))
			return false;
		cb = cb->next;
	}
	return true;
}

/* --------------------------------------------------------- the table */

typedef struct {
	OxType *t;
	PFile *f;        /* where it is defined first */
	cJSON *j;
	uint32_t index;
} TypeDef;

/* One OxType per (crate, name); defs[i] when type i was defined before. */
static OxType *map_type(PState *s, PFile *f, JPath p, cJSON *j, uint32_t i, TypeDef **defs)
{
	const char *name = json_str(p, j, "name");
	TypeDef *d = fe_map_get(s->types, f->in->crate, name);
	if (d) {
		defs[i] = d;
		return d->t;
	}
	OxType *t = arena_alloc(s->a, sizeof *t);
	t->name = arena_strdup(s->a, name);
	d = arena_alloc(s->a, sizeof *d);
	*d = (TypeDef){ t, f, j, i };
	fe_map_put(s->types, f->in->crate, t->name, d);
	vec_push(s->a, &s->m->types, &s->m->ntype, &s->types_cap, t);
	t->id = s->m->ntype - 1;
	parse_kind(p, json_str(p, j, "kind"), &t->kind);
	return t;
}

static void check_same(JPath p, PFile *f, cJSON *j, TypeDef *d)
{
	if (fe_same_json(d->f, d->j, f, j, false))
		return;
	fe_error(p, "type `%s` of crate `%s` is defined differently in %s ($.types[%u])", d->t->name,
	         f->in->crate, d->f->in->path, d->index);
}

bool parse_types(PState *s, PFile *f)
{
	JPath root = jpath_root(s->a, f->in->path, "$.types");
	cJSON *arr = cJSON_GetObjectItemCaseSensitive(f->root, "types");
	int n = cJSON_GetArraySize(arr);
	f->ntype = (uint32_t)n;
	f->types = arena_new_array(s->a, OxType *, n);
	TypeDef **defs = arena_new_array(s->a, TypeDef *, n);
	uint32_t i = 0;
	cJSON *j;
	cJSON_ArrayForEach(j, arr) {      /* first: one OxType per (crate, name) */
		f->types[i] = map_type(s, f, jpath_index(s->a, root, (int)i), j, i, defs);
		i++;
		if (ps_failed(s))
			return false;
	}
	i = 0;
	cJSON_ArrayForEach(j, arr) {      /* then: fields referring to others */
		JPath p = jpath_index(s->a, root, (int)i);
		if (defs[i])
			check_same(p, f, j, defs[i]);
		else
			fill_type(s->a, p, f, f->types[i], j);
		i++;
		if (ps_failed(s))
			return false;
	}
	return true;
}
