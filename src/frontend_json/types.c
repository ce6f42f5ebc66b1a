/* types.c: import the oxide-mir type table into RTypes with rustc's
 * layouts.  A type is keyed by its crate and printed name (rustc prints a
 * crate's own items without the crate, so two crates' `Pair`s are two
 * types): the same key in two inputs (the crate linked twice) is one
 * RType when the definitions agree, and an error naming both when not. */
#include "fe.h"

#include <string.h>

static const struct { const char *name; RTypeKind kind; } kinds[] = {
	{ "bool", RT_BOOL }, { "char", RT_CHAR }, { "int", RT_INT }, { "float", RT_FLOAT },
	{ "str", RT_STR }, { "never", RT_NEVER }, { "tuple", RT_TUPLE }, { "array", RT_ARRAY },
	{ "slice", RT_SLICE }, { "ref", RT_REF }, { "ptr", RT_PTR }, { "adt", RT_ADT },
	{ "fndef", RT_FNDEF }, { "closure", RT_CLOSURE }, { "opaque", RT_OPAQUE },
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

RType *fe_type(JPath p, FeFile *f, cJSON *obj, const char *key)
{
	uint32_t i;
	if (!json_index(p, obj, key, f->ntype, &i))
		return NULL;
	if (!f->types[i])
		fe_error(p, "type index %u out of range", i);
	return f->types[i];
}

static RType *type_ref(JPath p, FeFile *f, cJSON *v)
{
	uint32_t i;
	if (!v) {
		fe_error(p, "expected a type index");
		return NULL;
	}
	return json_index_value(p, NULL, v, f->ntype, &i) ? f->types[i] : NULL;
}

static Type *prim_type(Module *m, JPath p, const char *prim, bool is_signed)
{
	static const struct { const char *n; TypeKind k; unsigned bits; } prims[] = {
		{ "i8", TY_INT, 8 }, { "i16", TY_INT, 16 }, { "i32", TY_INT, 32 }, { "i64", TY_INT, 64 },
		{ "i128", TY_INT, 128 }, { "f32", TY_FLOAT, 32 }, { "f64", TY_FLOAT, 64 }, { "ptr", TY_PTR, 64 },
	};
	for (size_t i = 0; i < countof(prims); i++)
		if (!strcmp(prims[i].n, prim))
			return ir_type(m, prims[i].k, prims[i].bits, prims[i].k == TY_INT && is_signed, 0);
	fe_error(p, "unknown scalar primitive \"%s\"", prim);
	return NULL;
}

static void parse_scalar(Module *m, JPath p, cJSON *s, Scalar *out)
{
	out->type = prim_type(m, p, json_str(p, s, "prim"), cJSON_IsTrue(json_get_opt(s, "signed")));
	cJSON *a = json_get_opt(s, "valid_start"), *b = json_get_opt(s, "valid_end");
	if (a)
		json_u128(p, a, &out->valid_start);
	if (b)
		json_u128(p, b, &out->valid_end);
}

static uint64_t *parse_offsets(Arena *a, JPath p, cJSON *arr, uint32_t *n)
{
	*n = (uint32_t)cJSON_GetArraySize(arr);
	uint64_t *offs = arena_new_array(a, uint64_t, *n);
	int i = 0;
	cJSON *e;
	cJSON_ArrayForEach(e, arr) {
		U128 u;
		if (!json_u128(p, e, &u))
			fe_error(p, "field offset must be an integer");
		offs[i++] = u.lo;
	}
	return offs;
}

static void parse_encoding(JPath p, RType *t, cJSON *enc)
{
	if (cJSON_IsString(enc) && !strcmp(enc->valuestring, "direct"))
		return;
	cJSON *n = json_get_opt(enc, "niche");
	if (!n) {
		fe_error(p, "unknown tag encoding");
		return;
	}
	t->niche = true;
	t->untagged_variant = json_u32(p, n, "untagged_variant");
	cJSON *nv = json_get(p, n, "niche_variants", cJSON_Array);
	int64_t first = 0, last = 0;
	if (nv && (cJSON_GetArraySize(nv) != 2 ||
	           !json_int_range(p, "niche_variants", cJSON_GetArrayItem(nv, 0), 0, UINT32_MAX, &first) ||
	           !json_int_range(p, "niche_variants", cJSON_GetArrayItem(nv, 1), first, UINT32_MAX, &last)))
		fe_error(p, "\"niche_variants\" must be [first, last]");
	t->niche_first = (uint32_t)first;
	t->niche_last = (uint32_t)last;
	cJSON *ns = json_get(p, n, "niche_start", 0);
	if (ns)
		json_u128(p, ns, &t->niche_start);
}

static void parse_variants_layout(Module *m, Arena *a, JPath p, RType *t, cJSON *v)
{
	t->has_variants = true;
	cJSON *tag = json_get(p, v, "tag", cJSON_Object);
	if (tag)
		parse_scalar(m, jpath_field(a, p, "tag"), tag, &t->tag);
	t->tag_offset = json_u64(p, v, "tag_offset");
	parse_encoding(p, t, json_get(p, v, "encoding", 0));
	cJSON *ls = json_get(p, v, "layouts", cJSON_Array);
	t->nvlayout = (uint32_t)cJSON_GetArraySize(ls);
	t->vlayouts = arena_new_array(a, VariantLayout, t->nvlayout);
	int i = 0;
	cJSON *e;
	cJSON_ArrayForEach(e, ls) {
		JPath q = jpath_index(a, p, i);
		VariantLayout *vl = &t->vlayouts[i++];
		vl->size = json_u64(q, e, "size");
		vl->align = json_align(q, e, "align");
		cJSON *fs = json_get(q, e, "fields", cJSON_Array);
		if (fs)
			vl->fields = parse_offsets(a, q, fs, &vl->nfield);
	}
}

static void parse_layout(Module *m, Arena *a, JPath p, RType *t, cJSON *l)
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
			parse_scalar(m, jpath_index(a, jpath_field(a, p, "scalars"), i), e, &t->scalars[i]);
		i++;
	}
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
		parse_variants_layout(m, a, jpath_field(a, p, "variants"), t, vs);
}

static void parse_adt_variants(Arena *a, JPath p, FeFile *f, RType *t, cJSON *vs)
{
	t->nvariant = (uint32_t)cJSON_GetArraySize(vs);
	t->variants = arena_new_array(a, Variant, t->nvariant);
	int i = 0;
	cJSON *v;
	cJSON_ArrayForEach(v, vs) {
		JPath q = jpath_index(a, p, i);
		Variant *var = &t->variants[i++];
		var->name = arena_strdup(a, json_str(q, v, "name"));
		cJSON *d = json_get_opt(v, "discr");
		if (d && !json_u128(q, d, &var->discr))
			fe_error(q, "bad discriminant");
		cJSON *fs = json_get(q, v, "fields", cJSON_Array);
		var->nfield = (uint32_t)cJSON_GetArraySize(fs);
		var->fields = arena_new_array(a, RType *, var->nfield);
		int k = 0;
		cJSON *fld;
		cJSON_ArrayForEach(fld, fs) {
			cJSON *ty = json_get_opt(fld, "ty");
			var->fields[k++] = ty ? type_ref(q, f, ty) : NULL;
		}
	}
}

static void parse_tuple_fields(Arena *a, JPath p, FeFile *f, RType *t, cJSON *fs)
{
	t->nvariant = 1;
	t->variants = arena_new_array(a, Variant, 1);
	Variant *var = &t->variants[0];
	var->name = t->name;
	var->nfield = (uint32_t)cJSON_GetArraySize(fs);
	var->fields = arena_new_array(a, RType *, var->nfield);
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
 * scalars are values of their width, pointers 8 bytes or 16 when fat. */
static void check_prim_layout(JPath p, RType *t)
{
	uint64_t want;
	switch (t->kind) {
	case RT_BOOL: want = 1; break;
	case RT_CHAR: want = 4; break;
	case RT_INT: case RT_FLOAT: want = t->bits / 8; break;
	case RT_REF: case RT_PTR: want = t->pointee && rtype_is_fat_ptr(t) ? 16 : 8; break;
	default: return;
	}
	if (t->size != want)
		fe_error(p, "the layout of `%s` says %llu bytes, not %llu", t->name, (unsigned long long)t->size,
		         (unsigned long long)want);
}

/* Fill the kind-specific part; other types are referred to by index. */
static void fill_type(Module *m, Arena *a, JPath p, FeFile *f, RType *t, cJSON *j)
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
		parse_adt_variants(a, jpath_field(a, p, "variants"), f, t, json_get(p, j, "variants", cJSON_Array));
		break;
	}
	case RT_CLOSURE: {
		cJSON *up = json_get_opt(j, "upvars");
		t->path = arena_strdup(a, json_str(p, j, "path"));
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
	t->align = 1;
	t->abi = ABI_MEMORY;
	if (l) {
		t->has_layout = true;
		parse_layout(m, a, jpath_field(a, p, "layout"), t, l);
		check_prim_layout(p, t);
	}
}

/* ------------------------------------------------- same definition?
 *
 * Two type definitions (or function bodies) from two inputs agree when
 * their JSON is equal, type references compared by the RType they name
 * (indices differ between files) and spans left out. */

static bool is_type_ref_key(const char *k)
{
	static const char *const keys[] = { "ty", "pointee", "elem", "fields", "upvars", "generic_args" };
	for (size_t i = 0; i < countof(keys); i++)
		if (!strcmp(k, keys[i]))
			return true;
	return false;
}

static bool same_ref(FeFile *fa, cJSON *a, FeFile *fb, cJSON *b)
{
	double x = a->valuedouble, y = b->valuedouble;
	if (!(x >= 0 && x < fa->ntype && y >= 0 && y < fb->ntype) || x != (uint32_t)x || y != (uint32_t)y)
		return x == y;
	return fa->types[(uint32_t)x] == fb->types[(uint32_t)y];
}

bool fe_same_json(FeFile *fa, cJSON *a, FeFile *fb, cJSON *b, bool ref)
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
	RType *t;
	FeFile *f;       /* where it is defined first */
	cJSON *j;
	uint32_t index;
} TypeDef;

/* One RType per (crate, name); defs[i] when type i was defined before. */
static RType *map_type(Module *m, FeFile *f, Arena *a, JPath p, cJSON *j, uint32_t i, TypeDef **defs,
                       RType ***fresh, uint32_t *nfresh)
{
	const char *name = json_str(p, j, "name");
	TypeDef *d = fe_map_get(f->in->types, f->crate, name);
	if (d) {
		defs[i] = d;
		return d->t;
	}
	RType *t = arena_alloc(a, sizeof *t);
	t->name = name;
	t->id = m->nrtype + *nfresh;
	d = arena_alloc(a, sizeof *d);
	*d = (TypeDef){ t, f, j, i };
	fe_map_put(f->in->types, f->crate, name, d);
	(*fresh)[(*nfresh)++] = t;
	parse_kind(p, json_str(p, j, "kind"), &t->kind);
	return t;
}

static void append_types(Module *m, Arena *a, RType **fresh, uint32_t n)
{
	RType **all = arena_new_array(a, RType *, m->nrtype + n);
	if (m->nrtype)
		memcpy(all, m->rtypes, sizeof(RType *) * m->nrtype);
	if (n)
		memcpy(all + m->nrtype, fresh, sizeof(RType *) * n);
	m->rtypes = all;
	m->nrtype += n;
}

static void check_same(JPath p, FeFile *f, cJSON *j, TypeDef *d)
{
	if (fe_same_json(d->f, d->j, f, j, false))
		return;
	fe_error(p, "type `%s` of crate `%s` is defined differently in %s ($.types[%u])", d->t->name,
	         f->crate, d->f->path, d->index);
}

bool fe_import_types(Module *m, FeFile *f, Arena *a)
{
	JPath root = { f, "$.types" };
	cJSON *arr = cJSON_GetObjectItemCaseSensitive(f->root, "types");
	int n = cJSON_GetArraySize(arr), errs = diag_errors();
	f->ntype = (uint32_t)n;
	f->types = arena_new_array(a, RType *, n);
	TypeDef **defs = arena_new_array(a, TypeDef *, n);
	RType **fresh = arena_new_array(a, RType *, n);
	uint32_t nfresh = 0, i = 0;
	cJSON *j;
	cJSON_ArrayForEach(j, arr) {      /* first: one RType per (crate, name) */
		f->types[i] = map_type(m, f, a, jpath_index(a, root, (int)i), j, i, defs, &fresh, &nfresh);
		i++;
	}
	append_types(m, a, fresh, nfresh);
	if (diag_errors() > errs)
		return false;
	i = 0;
	cJSON_ArrayForEach(j, arr) {      /* then: fields referring to others */
		JPath p = jpath_index(a, root, (int)i);
		if (defs[i])
			check_same(p, f, j, defs[i]);
		else
			fill_type(m, a, p, f, f->types[i], j);
		i++;
	}
	return diag_errors() == errs;
}
