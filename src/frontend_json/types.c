/* types.c: import the oxide-mir type table into RTypes with rustc's
 * layouts.  Types of several input files are unified by their printed
 * name, so a type shared across crates is one RType. */
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
	cJSON *v = json_get(p, obj, key, cJSON_Number);
	if (!v)
		return NULL;
	int i = v->valueint;
	if (i < 0 || (uint32_t)i >= f->ntype || !f->types[i]) {
		fe_error(p, "type index %d out of range", i);
		return NULL;
	}
	return f->types[i];
}

static RType *type_ref(JPath p, FeFile *f, cJSON *v)
{
	if (!cJSON_IsNumber(v) || v->valueint < 0 || (uint32_t)v->valueint >= f->ntype) {
		fe_error(p, "expected a type index");
		return NULL;
	}
	return f->types[v->valueint];
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
	t->untagged_variant = (uint32_t)json_int(p, n, "untagged_variant");
	cJSON *nv = json_get(p, n, "niche_variants", cJSON_Array);
	if (nv && cJSON_GetArraySize(nv) == 2) {
		t->niche_first = (uint32_t)cJSON_GetArrayItem(nv, 0)->valueint;
		t->niche_last = (uint32_t)cJSON_GetArrayItem(nv, 1)->valueint;
	}
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
		vl->align = (uint32_t)json_int(q, e, "align");
		cJSON *fs = json_get(q, e, "fields", cJSON_Array);
		if (fs)
			vl->fields = parse_offsets(a, q, fs, &vl->nfield);
	}
}

static void parse_layout(Module *m, Arena *a, JPath p, RType *t, cJSON *l)
{
	static const char *abis[] = { "scalar", "scalar_pair", "vector", "memory", "uninhabited" };
	t->size = json_u64(p, l, "size");
	t->align = (uint32_t)json_int(p, l, "align");
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
	if (cJSON_IsNumber(sv))
		t->single_variant = (uint32_t)sv->valueint;
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

/* Fill the kind-specific part; other types are referred to by index. */
static void fill_type(Module *m, Arena *a, JPath p, FeFile *f, RType *t, cJSON *j)
{
	switch (t->kind) {
	case RT_INT:
		t->bits = (uint8_t)json_int(p, j, "bits");
		t->is_signed = json_bool(p, j, "signed");
		break;
	case RT_FLOAT:
		t->bits = (uint8_t)json_int(p, j, "bits");
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
	}
}

static RType *find_type(Module *m, const char *name)
{
	for (uint32_t i = 0; i < m->nrtype; i++)
		if (!strcmp(m->rtypes[i]->name, name))
			return m->rtypes[i];
	return NULL;
}

bool fe_import_types(Module *m, FeFile *f, Arena *a)
{
	JPath root = { f, "$.types" };
	cJSON *arr = cJSON_GetObjectItemCaseSensitive(f->root, "types");
	int n = cJSON_GetArraySize(arr), errs = diag_errors();
	f->ntype = (uint32_t)n;
	f->types = arena_new_array(a, RType *, n);
	bool *fresh = arena_new_array(a, bool, n);
	cJSON *j;
	int i = 0;
	cJSON_ArrayForEach(j, arr) {      /* first: one RType per name */
		JPath p = jpath_index(a, root, i);
		const char *name = json_str(p, j, "name");
		RType *t = find_type(m, name);
		if (!t) {
			t = arena_alloc(a, sizeof *t);
			t->name = arena_strdup(a, name);
			t->id = m->nrtype;
			RType **grown = arena_new_array(a, RType *, m->nrtype + 1);
			memcpy(grown, m->rtypes, sizeof(RType *) * m->nrtype);
			grown[m->nrtype++] = t;
			m->rtypes = grown;
			fresh[i] = parse_kind(p, json_str(p, j, "kind"), &t->kind);
		}
		f->types[i++] = t;
	}
	if (diag_errors() > errs)
		return false;
	i = 0;
	cJSON_ArrayForEach(j, arr) {      /* then: fields referring to others */
		if (fresh[i])
			fill_type(m, a, jpath_index(a, root, i), f, f->types[i], j);
		i++;
	}
	return diag_errors() == errs;
}
