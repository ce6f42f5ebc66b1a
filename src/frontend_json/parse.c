/* parse.c: stage 1 — one table of source files, each input's allocations
 * (static data, string literals, promoted constants' bytes) and function
 * headers (symbol, kind, kernel attributes, locals), linked across the
 * inputs: one OxFunc per symbol, the same symbol defined differently
 * twice is an error.  Then parse_body.c reads the bodies, whose calls
 * and named constants resolve to these OxFuncs. */
#include "fe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ spans */

/* [file, line, col, ...]: a file of this input or a later one, line and
 * col u32s; anything but an array of three or more is no span (file -1). */
bool parse_span(PState *s, PFile *f, JPath p, cJSON *span, Loc *out)
{
	*out = (Loc){ -1, 0, 0 };
	if (!cJSON_IsArray(span) || cJSON_GetArraySize(span) < 3)
		return true;
	JPath q = jpath_field(s->a, p, "span");
	uint32_t file;
	int64_t line, col;
	if (!json_index_value(q, NULL, cJSON_GetArrayItem(span, 0), s->m->nfile - f->in->file_base, &file) ||
	    !json_int_range(q, NULL, cJSON_GetArrayItem(span, 1), 0, UINT32_MAX, &line) ||
	    !json_int_range(q, NULL, cJSON_GetArrayItem(span, 2), 0, UINT32_MAX, &col))
		return false;
	*out = (Loc){ (int32_t)(file + f->in->file_base), (uint32_t)line, (uint32_t)col };
	return true;
}

/* An error at a Rust span: loc, else the function's span, else no place. */
void ps_error_at(PState *s, DiagCode code, Loc loc, const OxFunc *fn, const char *fmt, ...)
{
	char where[512] = "";
	if (loc.file < 0 && fn && fn->has_span)
		loc = fn->span;
	if (loc.file >= 0)
		snprintf(where, sizeof where, "%s:%u:%u", s->m->files[loc.file], loc.line, loc.col);
	va_list ap;
	va_start(ap, fmt);
	diag_verror(code, where, fmt, ap);
	va_end(ap);
}

static void add_files(PState *s, PFile *f)
{
	cJSON *arr = cJSON_GetObjectItemCaseSensitive(f->root, "files"), *e;
	OxModule *m = s->m;
	uint32_t n = (uint32_t)cJSON_GetArraySize(arr);
	const char **files = arena_new_array(s->a, const char *, m->nfile + n);
	if (m->nfile)
		memcpy(files, m->files, sizeof(char *) * m->nfile);
	f->in->file_base = m->nfile;
	cJSON_ArrayForEach(e, arr)
		files[m->nfile++] = arena_strdup(s->a, cJSON_IsString(e) ? e->valuestring : "?");
	m->files = files;
}

/* ------------------------------------------------------------ allocs */

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
bool parse_hex(Arena *a, const char *s, uint8_t **out, uint64_t *n)
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

bool parse_relocs(PState *s, JPath p, cJSON *rs, OxReloc **out, uint32_t *n)
{
	*n = (uint32_t)cJSON_GetArraySize(rs);
	*out = arena_new_array(s->a, OxReloc, *n);
	int i = 0;
	cJSON *r;
	cJSON_ArrayForEach(r, rs) {
		JPath q = jpath_index(s->a, p, i);
		(*out)[i].offset = json_u64(q, r, "offset");
		(*out)[i].alloc = json_int(q, r, "alloc");
		i++;
		if (ps_failed(s))
			return false;
	}
	return true;
}

/* Statics of oxide-device's memory-space types ("ty" of the alloc, JSON
 * format 1 extension): Shared<T> -> .shared, Constant<T> -> .const,
 * exported under the static's own name (its last path segment) for the
 * host's ox_module_global. */
static bool alloc_space(PState *s, PFile *f, JPath p, cJSON *j, OxAlloc *al)
{
	cJSON *ty = json_get_opt(j, "ty"), *st = json_get_opt(j, "static");
	uint32_t ti;
	if (!ty)
		return true;
	if (!json_index_value(p, "ty", ty, f->ntype, &ti))
		return false;
	const char *name = f->types[ti]->name;
	if (strncmp(name, "oxide_device::", 14))
		return true;
	const char *last = strrchr(name, '<');
	size_t n = last ? (size_t)(last - name) : strlen(name);
	if (n >= 8 && !strncmp(name + n - 8, "::Shared", 8)) {
		al->space = OX_SPACE_SHARED;
	} else if (n >= 10 && !strncmp(name + n - 10, "::Constant", 10)) {
		if (!cJSON_IsString(st))
			return fe_error(p, "a Constant<T> allocation without its static's name"), false;
		const char *sn = strrchr(st->valuestring, ':');
		const char *exported = sn ? sn + 1 : st->valuestring;
		PFile *other = fe_map_get(s->statics, "", exported);
		if (other) {
			/* the host finds it by this name: two would be a guess */
			fe_error(p, "Constant static `%s` has the exported name `%s`, which %s already defines; the "
			         "host (ox_module_global) could not tell the two apart", st->valuestring, exported,
			         other->in->path);
			return false;
		}
		al->space = OX_SPACE_CONST;
		al->exported = arena_strdup(s->a, exported);
		fe_map_put(s->statics, "", al->exported, f);
	}
	return true;
}

static bool parse_alloc(PState *s, PFile *f, JPath p, cJSON *j, OxAlloc *al)
{
	al->id = json_int(p, j, "id");
	al->size = json_u64(p, j, "size");
	al->align = json_align(p, j, "align");
	al->is_mut = cJSON_IsTrue(json_get_opt(j, "mutable"));
	uint64_t n;
	if (ps_failed(s))
		return false;
	if (!parse_hex(s->a, json_str(p, j, "bytes"), &al->bytes, &n) || n != al->size)
		return fe_error(p, "\"bytes\" must be %llu bytes of hex", (unsigned long long)al->size), false;
	JPath rp = jpath_field(s->a, p, "relocs");
	if (!parse_relocs(s, rp, json_get_opt(j, "relocs"), &al->relocs, &al->nreloc))
		return false;
	for (uint32_t k = 0; k < al->nreloc; k++)
		if (al->relocs[k].offset > al->size || al->size - al->relocs[k].offset < 8)
			return fe_error(jpath_index(s->a, rp, (int)k), "relocation outside the allocation"), false;
	return alloc_space(s, f, p, j, al);
}

static bool parse_allocs(PState *s, PFile *f)
{
	cJSON *arr = json_get_opt(f->root, "allocs"), *j;
	JPath root = jpath_root(s->a, f->in->path, "$.allocs");
	int i = 0;
	f->in->nalloc = (uint32_t)cJSON_GetArraySize(arr);
	f->in->allocs = arena_new_array(s->a, OxAlloc, f->in->nalloc);
	cJSON_ArrayForEach(j, arr) {
		if (!parse_alloc(s, f, jpath_index(s->a, root, i), j, &f->in->allocs[i]))
			return false;
		i++;
	}
	return true;
}

/* ------------------------------------------------------------ vtables */

/* "also" (optional): the supertrait objects a vtable is reached as
 * through dyn upcasting coercions, each an `opaque` type. */
static bool parse_vtable_also(PState *s, PFile *f, JPath p, cJSON *j, OxVtable *vt)
{
	cJSON *arr = json_get_opt(j, "also"), *e;
	if (!arr)
		return true;
	if (!cJSON_IsArray(arr))
		return fe_error(jpath_field(s->a, p, "also"), "must be an array"), false;
	vt->nalso = (uint32_t)cJSON_GetArraySize(arr);
	vt->also = arena_new_array(s->a, OxType *, vt->nalso);
	uint32_t i = 0, t;
	cJSON_ArrayForEach(e, arr) {
		if (!json_index_value(p, "also", e, f->ntype, &t))
			return false;
		vt->also[i] = f->types[t];
		if (vt->also[i]->kind != RT_OPAQUE)
			return fe_error(jpath_field(s->a, p, "also"), "`%s` is no trait object", vt->also[i]->name), false;
		i++;
	}
	return true;
}

/* Word `i` of a vtable that is `{"vtable": K}`: the address of vtable K
 * of the same input (a supertrait's, for upcasts). */
static bool parse_vtable_vptr(PFile *f, JPath q, cJSON *e, int i, OxVtable *vt)
{
	uint32_t k;
	cJSON *n = cJSON_IsObject(e) ? cJSON_GetObjectItemCaseSensitive(e, "vtable") : NULL;
	if (!n || i < 3)
		return fe_error(q, "a vtable word must be a function symbol or {\"vtable\": k} (words 0 to 2 are null)"),
		       false;
	if (!json_index_value(q, "vtable", n, f->in->nvtable, &k))
		return false;
	vt->vptrs[i] = k;
	return true;
}

/* One vtable: its types, the concrete type's size and alignment, and the
 * function of each word (null: a metadata word or a vacant slot), or the
 * vtable whose address it holds. */
static bool parse_vtable(PState *s, PFile *f, JPath p, cJSON *j, OxVtable *vt)
{
	uint32_t ty, dyn_;
	if (!json_index(p, j, "ty", f->ntype, &ty) || !json_index(p, j, "dyn", f->ntype, &dyn_))
		return false;
	vt->ty = f->types[ty];
	vt->dyn_ = f->types[dyn_];
	vt->size = json_u64(p, j, "size");
	vt->align = json_align(p, j, "align");
	cJSON *es = json_get(p, j, "entries", cJSON_Array), *e;
	if (ps_failed(s))
		return false;
	if (vt->dyn_->kind != RT_OPAQUE)
		return fe_error(p, "the vtable of `%s` as `%s`, which is no trait object", vt->ty->name, vt->dyn_->name), false;
	vt->nentry = (uint32_t)cJSON_GetArraySize(es);
	if (vt->nentry < 3)
		return fe_error(p, "a vtable has at least the 3 words drop_in_place, size, align"), false;
	vt->entries = arena_new_array(s->a, OxFunc *, vt->nentry);
	vt->vptrs = arena_new_array(s->a, int64_t, vt->nentry);
	for (uint32_t k = 0; k < vt->nentry; k++)
		vt->vptrs[k] = -1;
	JPath ep = jpath_field(s->a, p, "entries");
	int i = 0;
	cJSON_ArrayForEach(e, es) {
		JPath q = jpath_index(s->a, ep, i);
		if (cJSON_IsNull(e)) {
			i++;
			continue;
		}
		if (cJSON_IsObject(e)) {
			if (!parse_vtable_vptr(f, q, e, i, vt))
				return false;
			i++;
			continue;
		}
		if (!cJSON_IsString(e) || i == 1 || i == 2)
			return fe_error(q, "a vtable word must be a function symbol (words 1 and 2 are null)"), false;
		FuncDef *d = fe_map_get(s->syms, "", e->valuestring);
		if (!d || d->fn->kind != OX_FN_DEVICE)
			return fe_error(q, "`%s` is no device function of the inputs", e->valuestring), false;
		vt->entries[i++] = d->fn;
	}
	return parse_vtable_also(s, f, p, j, vt);
}

static bool parse_vtables(PState *s, PFile *f)
{
	cJSON *arr = json_get_opt(f->root, "vtables"), *j;
	JPath root = jpath_root(s->a, f->in->path, "$.vtables");
	if (arr && !cJSON_IsArray(arr))
		return fe_error(root, "must be an array"), false;
	int i = 0;
	f->in->nvtable = (uint32_t)cJSON_GetArraySize(arr);
	f->in->vtables = arena_new_array(s->a, OxVtable, f->in->nvtable);
	cJSON_ArrayForEach(j, arr) {
		if (!parse_vtable(s, f, jpath_index(s->a, root, i), j, &f->in->vtables[i]))
			return false;
		i++;
	}
	return true;
}

/* ------------------------------------------------- function headers */

/* A symbol defined by two inputs: one function when the bodies agree
 * (the crate linked twice, its allocations too), else an error naming
 * both. */
static bool same_function(JPath p, PFile *f, cJSON *jfn, FuncDef *d)
{
	cJSON *a0 = json_get_opt(d->f->root, "allocs"), *a1 = json_get_opt(f->root, "allocs");
	cJSON *v0 = json_get_opt(d->f->root, "vtables"), *v1 = json_get_opt(f->root, "vtables");
	/* a body's casts name its input's allocations and vtables */
	bool allocs_same = ((!a0 && !a1) || (a0 && a1 && cJSON_Compare(a0, a1, true))) &&
	                   ((!v0 && !v1) || (v0 && v1 && cJSON_Compare(v0, v1, true)));
	if (fe_same_json(d->f, d->j, f, jfn, false) && allocs_same && !strcmp(d->f->in->crate, f->in->crate))
		return true;
	fe_error(p, "function symbol `%s` is also defined, differently, in %s (%s)", d->fn->symbol,
	         d->f->in->path, d->fn->jpath);
	return false;
}

/* "x[,y[,z]]" (digits and commas, checked) -> d[3], the missing ones 1;
 * false unless 1 to 3 dimensions, each >= 1, at most 8 blocks (the
 * portable cluster size) in all. */
static bool cluster_dims(const char *v, uint32_t d[3])
{
	uint64_t product = 1;
	int n = 0;
	d[0] = d[1] = d[2] = 1;
	for (const char *p = v; n < 3; n++) {
		char *end;
		unsigned long x = strtoul(p, &end, 10);
		if (end == p || x == 0 || x > 8)
			return false;
		d[n] = (uint32_t)x;
		product *= x;
		if (*end == 0)
			return product <= 8;
		p = end + 1;
	}
	return false;
}

/* launch attributes: "kernel": {"attrs": {"maxntid": "256", ...}} */
static bool kernel_attrs(PState *s, cJSON *jfn, OxFunc *fn)
{
	cJSON *kj = json_get_opt(jfn, "kernel");
	cJSON *attrs = kj ? json_get_opt(kj, "attrs") : NULL, *at;
	if (attrs && !cJSON_IsObject(attrs))      /* an array's items have no names */
		return ps_error_at(s, OX_INPUT, (Loc){ -1, 0, 0 }, fn, "%s", "field \"attrs\" of \"kernel\" must be an object"), false;
	cJSON_ArrayForEach(at, attrs) {
		const char *v = cJSON_IsString(at) ? at->valuestring : NULL;
		Loc none = { -1, 0, 0 };
		if (!v || !*v || strspn(v, "0123456789,") != strlen(v))
			return ps_error_at(s, OX_INPUT, none, fn, "kernel attribute \"%s\" must be a string of numbers like \"256\" "
			                   "or \"16,16,1\"", at->string), false;
		if (!strcmp(at->string, "cluster")) {
			if (!cluster_dims(v, fn->cluster))
				return ps_error_at(s, OX_INPUT, none, fn, "kernel attribute \"cluster\" is \"%s\": 1 to 3 "
				                   "dimensions, each at least 1, at most 8 blocks in all", v), false;
			continue;
		}
		if (!strcmp(at->string, "contract")) {
			if (strcmp(v, "1"))
				return ps_error_at(s, OX_INPUT, none, fn, "kernel attribute \"contract\" is \"%s\": it can "
				                   "only be \"1\"", v), false;
			fn->contract = true;
			continue;
		}
		const char **slot = !strcmp(at->string, "maxntid") ? &fn->maxntid
		                  : !strcmp(at->string, "minnctapersm") ? &fn->minnctapersm
		                  : !strcmp(at->string, "reqntid") ? &fn->reqntid : NULL;
		if (!slot)
			return ps_error_at(s, OX_INPUT, none, fn, "unknown kernel attribute \"%s\" (maxntid, minnctapersm, "
			                   "reqntid, cluster, contract)", at->string), false;
		*slot = arena_strdup(s->a, v);
	}
	return true;
}

static bool parse_locals(PState *s, PFile *f, JPath p, cJSON *jfn, OxFunc *fn)
{
	fn->arg_count = json_u32(p, jfn, "arg_count");
	cJSON *locals = json_get(p, jfn, "locals", cJSON_Array), *l;
	if (!locals || ps_failed(s))
		return false;
	fn->nlocal = (uint32_t)cJSON_GetArraySize(locals);
	fn->locals = arena_new_array(s->a, OxLocal, fn->nlocal);
	uint32_t i = 0;
	JPath lp = jpath_field(s->a, p, "locals");
	cJSON_ArrayForEach(l, locals) {
		JPath q = jpath_index(s->a, lp, (int)i);
		fn->locals[i].ty = parse_type_ref(q, f, l, "ty");
		if (!fn->locals[i].ty || !parse_span(s, f, q, json_get_opt(l, "span"), &fn->locals[i].span))
			return false;
		cJSON *name = json_get_opt(l, "name");
		if (name && !cJSON_IsNull(name) && !cJSON_IsString(name))
			return fe_error(jpath_field(s->a, q, "name"), "expected a string or null"), false;
		if (cJSON_IsString(name))
			fn->locals[i].name = arena_strdup(s->a, name->valuestring);
		i++;
	}
	if (fn->nlocal == 0)
		return fe_error(p, "a body needs at least the return local _0"), false;
	if (fn->arg_count >= fn->nlocal)
		return fe_error(p, "arg_count %u but only %u locals", fn->arg_count, fn->nlocal), false;
	return true;
}

static bool parse_fn_kind(JPath p, const char *k, OxFuncKind *out)
{
	static const char *const names[] = { "kernel", "device", "const" };
	for (size_t i = 0; i < countof(names); i++)
		if (!strcmp(k, names[i])) {
			*out = (OxFuncKind)i;
			return true;
		}
	fe_error(p, "unknown function kind \"%s\" (kernel, device, const)", k);
	return false;
}

static bool declare_func(PState *s, PFile *f, cJSON *jfn, JPath p)
{
	Loc span;
	if (!parse_span(s, f, p, json_get_opt(jfn, "span"), &span))
		return false;
	const char *sym = json_str(p, jfn, "symbol"), *name = json_str(p, jfn, "name");
	if (ps_failed(s))
		return false;
	FuncDef *d = fe_map_get(s->syms, "", sym);
	if (d)
		return same_function(p, f, jfn, d);
	OxFunc *fn = arena_alloc(s->a, sizeof *fn);
	fn->input = f->in;
	char text[256];
	fn->jpath = arena_strdup(s->a, jpath_text(p, text, sizeof text));
	fn->name = arena_strdup(s->a, name);
	fn->symbol = arena_strdup(s->a, sym);
	fn->span = span;
	fn->has_span = span.file >= 0;
	d = arena_alloc(s->a, sizeof *d);
	*d = (FuncDef){ fn, f, jfn };
	fe_map_put(s->syms, "", fn->symbol, d);
	if (!fe_map_get(s->names, f->in->crate, fn->name))
		fe_map_put(s->names, f->in->crate, fn->name, fn);
	cJSON *inl = json_get_opt(jfn, "inline");
	fn->noinline = cJSON_IsString(inl) && !strcmp(inl->valuestring, "never");
	const char *kind = json_str(p, jfn, "kind");
	if (ps_failed(s) || !parse_fn_kind(p, kind, &fn->kind) ||
	    (fn->kind == OX_FN_KERNEL && !kernel_attrs(s, jfn, fn)) || !parse_locals(s, f, p, jfn, fn))
		return false;
	vec_push(s->a, &s->m->funcs, &s->m->nfunc, &s->funcs_cap, fn);
	fn->id = s->m->nfunc - 1;
	return true;
}

/* f's functions, each with its JSON path, to fn (declare or parse). */
static bool each_function(PState *s, PFile *f, bool (*fn)(PState *, PFile *, cJSON *, JPath))
{
	JPath root = jpath_root(s->a, f->in->path, "$.functions");
	cJSON *j;
	int i = 0;
	cJSON_ArrayForEach(j, cJSON_GetObjectItemCaseSensitive(f->root, "functions"))
		if (!fn(s, f, j, jpath_index(s->a, root, i++)))
			return false;
	return true;
}

/* The body of a declared function; a repeated definition's is the first's. */
static bool parse_func_body(PState *s, PFile *f, cJSON *jfn, JPath p)
{
	FuncDef *d = fe_map_get(s->syms, "", json_str(p, jfn, "symbol"));
	return d->j != jfn || parse_body(s, f, jfn, d->fn);
}

/* The vtables the made ones point to are made too (upcasts load them). */
static void mark_pointed_vtables(OxInput *in)
{
	for (bool more = true; more;) {
		more = false;
		for (uint32_t k = 0; k < in->nvtable; k++)
			for (uint32_t i = 0; in->vtables[k].made && i < in->vtables[k].nentry; i++) {
				int64_t j = in->vtables[k].vptrs[i];
				if (j >= 0 && !in->vtables[j].made)
					in->vtables[j].made = more = true;
			}
	}
}

bool parse_input(PState *s)
{
	s->types = fe_map_new(s->a);
	s->syms = fe_map_new(s->a);
	s->names = fe_map_new(s->a);
	s->statics = fe_map_new(s->a);
	for (uint32_t k = 0; k < s->nfile; k++)
		add_files(s, &s->files[k]);
	for (uint32_t k = 0; k < s->nfile; k++)
		if (!parse_types(s, &s->files[k]) || !parse_allocs(s, &s->files[k]))
			return false;
	for (uint32_t k = 0; k < s->nfile; k++)
		if (!each_function(s, &s->files[k], declare_func))
			return false;
	for (uint32_t k = 0; k < s->nfile; k++)
		if (!parse_vtables(s, &s->files[k]))
			return false;
	for (uint32_t k = 0; k < s->nfile; k++)
		if (!each_function(s, &s->files[k], parse_func_body))
			return false;
	for (uint32_t k = 0; k < s->nfile; k++)
		mark_pointed_vtables(s->files[k].in);
	return !ps_failed(s);
}
