/* header.c: --emit=header and --emit=rust — the typed launchers of a
 * module's kernels as a C header or as Rust source for oxide-host, both
 * made by one walk of what stage 2 knows of their ABI: each kernel's Rust arguments
 * (Func.args: name, RType, span), the PTX parameters abi_lower made of
 * each (Func.params: how many, where their bytes are in the argument,
 * byval or not; fb_param_facts' readonly), and rustc's layouts. It reads
 * the mir-dialect module and writes text; it keeps no ABI rule of its own
 * beyond spelling the types in C (or Rust).
 *
 * The header (self-contained but for #include "oxrt.h"), in order: an
 * include guard; a C struct for every #[repr(C)] struct a kernel takes by
 * value or points to, its members in declaration order, checked with
 * _Static_asserts against rustc's offsets, size and alignment; then per
 * kernel K:
 *   OXK_K_PARAMS(X)   the PTX parameters, X(index, "name", "C type",
 *                     "role", bytes) each, for wrapper generators;
 *   K_function(f, m)  ox_function by the kernel's PTX name;
 *   K_launch(f, grid, block, shared_bytes, stream, args...)
 *                     typed arguments in Rust's order, packed into the
 *                     PTX parameters, then ox_launch_on; a kernel that
 *                     calls grid::sync() (itself or through its callees)
 *                     takes no stream and calls ox_launch_cooperative.
 * Device pointers are typed C pointers holding device addresses (never
 * dereferenced on the host), so a `const uint32_t *` given for a `&[f32]`
 * is a C type error: OX_DEVICE_PTR(float, p) makes one of an OxDevPtr.
 * A by-value argument C cannot describe (an enum, a tuple, a struct that
 * is not #[repr(C)], ...) is an error (OX0200) at its Rust line.
 *
 * --emit=rust writes the same launchers for a Rust host program that
 * depends on tools/oxide-host: the same checks, classification and
 * packing, only the spelling is Rust's (a Lang table; pointers are
 * oxide_host::DevicePtr<T> / DevicePtrMut<T>): a #[repr(C)] struct per C
 * struct, with const asserts of rustc's size, alignment and offsets, then
 * `Kernels<'m>`, one launch method per kernel, taking
 * `&oxide_host::DeviceSlice<T>` for `&[T]` and `&mut ...` for
 * DisjointSlice<T> and slices the kernel may write (a kernel that syncs
 * the grid takes no stream and launches cooperatively). Its writer is
 * the last section of this file.
 *
 * The walk (kabi_*: what each argument is, its spelling, its PTX
 * parameters' roles and bytes) is shared with signature.c through
 * kabi.h, so --emit=signature's JSON lists the same parameters. */
#include <stdio.h>
#include <string.h>

#include "emit.h"
#include "kabi.h"

const Lang kabi_lang_c = {
	"C",
	{ { "uint8_t", "uint16_t", "uint32_t", "uint64_t" }, { "int8_t", "int16_t", "int32_t", "int64_t" } },
	"bool", "uint32_t", "float", "double", "size_t", "ptrdiff_t", "OxTensorMap", "void",
};

const Lang kabi_lang_rust = {
	"Rust",
	{ { "u8", "u16", "u32", "u64" }, { "i8", "i16", "i32", "i64" } },
	"bool", "char", "f32", "f64", "usize", "isize", "oxide_host::TensorMap", "::core::ffi::c_void",
};

/* The output's type of a Rust scalar; NULL for none. */
const char *kabi_scalar_ctype(const Lang *l, const RType *t)
{
	switch (t->kind) {
	case RT_BOOL: return l->bool_;
	case RT_CHAR: return l->char_;
	case RT_FLOAT: return t->bits == 32 ? l->f32 : t->bits == 64 ? l->f64 : NULL;
	case RT_INT:
		if (t->name && !strcmp(t->name, "usize"))
			return l->usize;
		if (t->name && !strcmp(t->name, "isize"))
			return l->isize;
		for (int i = 0; i < 4; i++)
			if (t->bits == 8u << i)
				return l->ints[t->is_signed][i];
		return NULL;
	default:
		return NULL;
	}
}

static bool path_is(const RType *t, const char *path)
{
	return t->kind == RT_ADT && t->path && !strcmp(t->path, path);
}

/* core::sync::atomic::AtomicU32 & co.: the integer they hold (the
 * scalar of that name and size, in the output's spelling). */
const char *kabi_atomic_ctype(const Lang *l, const RType *t)
{
	static const struct { const char *name; int bits, is_signed; } atomics[] = {
		{ "AtomicBool", 0, 0 }, { "AtomicU8", 8, 0 }, { "AtomicI8", 8, 1 },
		{ "AtomicU16", 16, 0 }, { "AtomicI16", 16, 1 }, { "AtomicU32", 32, 0 },
		{ "AtomicI32", 32, 1 }, { "AtomicU64", 64, 0 }, { "AtomicI64", 64, 1 },
		{ "AtomicUsize", -1, 0 }, { "AtomicIsize", -1, 1 },
	};
	const char *pre = "core::sync::atomic::";
	if (t->kind != RT_ADT || !t->path || strncmp(t->path, pre, strlen(pre)))
		return NULL;
	for (size_t i = 0; i < countof(atomics); i++) {
		if (strcmp(t->path + strlen(pre), atomics[i].name))
			continue;
		int b = atomics[i].bits;
		return b == 0 ? l->bool_ : b < 0 ? (atomics[i].is_signed ? l->isize : l->usize) :
		       l->ints[atomics[i].is_signed][b == 8 ? 0 : b == 16 ? 1 : b == 32 ? 2 : 3];
	}
	return NULL;
}

/* A C identifier from a Rust type name: the last segment of each path,
 * without lifetimes ("oxide_device::DisjointSlice2D<'_, f32>" is
 * DisjointSlice2D_f32), unique among the header's structs. */
static const char *struct_cname(Hdr *h, const RType *t)
{
	const char *s = t->name ? t->name : "anon";
	char *out = arena_alloc(h->a, strlen(s) + 16), *o = out, *seg = out;
	for (const char *p = s; *p; p++) {
		bool ident = (*p >= '0' && *p <= '9') || ((*p | 32) >= 'a' && (*p | 32) <= 'z') || *p == '_';
		if (*p == '\'') {                  /* a lifetime and what follows it */
			while (p[1] && p[1] != ',' && p[1] != '>')
				p++;
			if (p[1] == ',')
				p++;
		} else if (p[0] == ':' && p[1] == ':') {
			o = seg;                   /* drop the path's segment */
			p++;
		} else if (ident) {
			if (p == s || !((p[-1] >= '0' && p[-1] <= '9') || ((p[-1] | 32) >= 'a' && (p[-1] | 32) <= 'z') ||
			                p[-1] == '_'))
				seg = o;
			*o++ = *p;
		} else if (o > out && o[-1] != '_') {
			*o++ = '_';
		}
	}
	while (o > out && o[-1] == '_')
		o--;
	*o = 0;
	for (uint32_t i = 0, k = 2; i < h->n; i++)
		if (!strcmp(h->names[i], out))
			snprintf(o, 16, "_%u", k++), i = (uint32_t)-1;
	return out;
}

static const char *value_ctype(Hdr *h, RType *t);

/* A pointer to pointee: to its type if it has one, else to void. C: a
 * typed pointer; Rust: oxide_host::DevicePtr<T> or DevicePtrMut<T>. */
static const char *pointer_ctype(Hdr *h, RType *pointee, bool is_const)
{
	const char *c = pointee ? value_ctype(h, pointee) : NULL;
	h->why = NULL;
	if (h->lang == &kabi_lang_rust)
		return arena_printf(h->a, "oxide_host::DevicePtr%s<%s>", is_const ? "" : "Mut", c ? c : h->lang->void_);
	return arena_printf(h->a, "%s%s *", is_const ? "const " : "", c ? c : "void");
}

/* A Rust identifier: raw (r#type) when it is a keyword. */
static const char *rust_ident(Hdr *h, const char *name)
{
	static const char *const kw[] = {
		"as", "async", "await", "box", "break", "const", "continue", "dyn", "else", "enum", "extern",
		"false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
		"pub", "ref", "return", "static", "struct", "trait", "true", "try", "type", "unsafe", "use",
		"where", "while", "abstract", "become", "do", "final", "macro", "override", "priv", "typeof",
		"unsized", "virtual", "yield",
	};
	for (size_t k = 0; k < countof(kw); k++)
		if (!strcmp(name, kw[k]))
			return arena_printf(h->a, "r#%s", name);
	return name;
}

/* C's alignment of a member: the Rust type's (the same for the types
 * described here on a 64-bit host). */
static uint64_t align_up(uint64_t x, uint64_t a)
{
	return a ? (x + a - 1) / a * a : x;
}

/* Rust's spelling of the array type arr of elements elem (spelled c):
 * [[u32; 2]; 4] for C's v[4][2]. */
static const char *rust_array(Hdr *h, const RType *arr, const RType *elem, const char *c)
{
	if (arr == elem)
		return c;
	return arena_printf(h->a, "[%s; %llu]", rust_array(h, arr->elem, elem, c), (unsigned long long)arr->len);
}

/* One member's declaration, or NULL: C "float x", "uint32_t v[4][2]";
 * Rust "pub x: f32", "pub v: [[u32; 2]; 4]". */
static const char *member_decl(Hdr *h, RType *t, const char *name)
{
	const char *dims = "";
	const RType *arr = t;
	while (t->kind == RT_ARRAY && t->elem) {
		dims = arena_printf(h->a, "%s[%llu]", dims, (unsigned long long)t->len);
		t = t->elem;
	}
	const char *c = t->kind == RT_PTR || t->kind == RT_REF ?
	                (rtype_is_fat_ptr(t) ? NULL : pointer_ctype(h, t->pointee, !t->is_mut)) : value_ctype(h, t);
	if (!c && !h->why)
		h->why = arena_printf(h->a, "its member `%s` has type `%s`", name, t->name);
	if (!c)
		return NULL;
	if (h->lang == &kabi_lang_rust)
		return arena_printf(h->a, "pub %s: %s", rust_ident(h, name), rust_array(h, arr, t, c));
	return arena_printf(h->a, "%s%s%s%s", c, c[strlen(c) - 1] == '*' ? "" : " ", name, dims);
}

/* Checks that t's members in declaration order, laid out by C's rules,
 * are at rustc's offsets; a member of unknown type must be zero-sized,
 * which only an offset at the very end proves. */
static bool members_fit(Hdr *h, RType *t, const char **decls)
{
	Variant *v = &t->variants[0];
	uint64_t at = 0, maxalign = 1;
	for (uint32_t k = 0; k < v->nfield; k++) {
		RType *f = v->fields[k];
		uint64_t off = k < t->noffset ? t->offsets[k] : ~0ull;
		decls[k] = NULL;
		if (!f && off == t->size)
			continue;
		const char *name = v->field_names && v->field_names[k] ? v->field_names[k] : arena_printf(h->a, "_%u", k);
		if (!f || !f->has_layout)
			return h->why = arena_printf(h->a, "the type of its member `%s` is unknown (the kernel never uses "
			                             "it)", name), false;
		if (f->size == 0)
			continue;
		if (!(decls[k] = member_decl(h, f, name)))
			return false;
		at = align_up(at, f->align);
		if (at != off)
			return h->why = arena_printf(h->a, "its member `%s` is at offset %llu, not C's %llu", name,
			                             (unsigned long long)off, (unsigned long long)at), false;
		at += f->size;
		maxalign = f->align > maxalign ? f->align : maxalign;
	}
	if (align_up(at, t->align) != t->size || t->align < maxalign)
		return h->why = arena_printf(h->a, "its size %llu is not C's", (unsigned long long)t->size), false;
	return true;
}

/* Registers t (a #[repr(C)] struct) and its members' structs; its C
 * name, or NULL with h->why. A struct reached again through a pointer
 * while its members are described is `struct NAME`. */
static const char *describe_struct(Hdr *h, RType *t)
{
	for (uint32_t i = 0; i < h->n; i++)
		if (h->structs[i] == t)
			return h->done[i] ? h->names[i] : arena_printf(h->a, "struct %s", h->names[i]);
	if (!t->repr_c || t->adt_kind != ADT_STRUCT || t->nvariant != 1 || !t->has_layout)
		return h->why = t->adt_kind == ADT_ENUM ? "an enum has no C layout" :
		                t->adt_kind == ADT_UNION ? arena_printf(h->a, "unions are not described in %s", h->lang->name) :
		                "it is not #[repr(C)] (rustc may reorder its fields)", NULL;
	const char *cname = struct_cname(h, t);
	uint32_t me = h->n++;
	h->structs[me] = t;
	h->names[me] = cname;
	h->done[me] = false;
	const char **decls = arena_new_array(h->a, const char *, t->variants[0].nfield + 1);
	if (!members_fit(h, t, decls))
		return NULL;
	/* dependencies first: move t to the end of the list */
	RType *s = h->structs[me];
	const char *nm = h->names[me];
	memmove(h->structs + me, h->structs + me + 1, (h->n - me - 1) * sizeof *h->structs);
	memmove(h->names + me, h->names + me + 1, (h->n - me - 1) * sizeof *h->names);
	memmove(h->done + me, h->done + me + 1, (h->n - me - 1) * sizeof *h->done);
	h->structs[h->n - 1] = s;
	h->names[h->n - 1] = nm;
	h->done[h->n - 1] = true;
	return nm;
}

/* The output's type of a value of type t, or NULL with h->why. */
static const char *value_ctype(Hdr *h, RType *t)
{
	const char *c = kabi_scalar_ctype(h->lang, t);
	if (c || (c = kabi_atomic_ctype(h->lang, t)))
		return c;
	if (path_is(t, "oxide_device::hopper::TensorMap"))
		return h->lang->map;
	switch (t->kind) {
	case RT_ADT:
		return describe_struct(h, t);
	case RT_TUPLE:
		return h->why = rtype_is_zst(t) ? "it is zero-sized" : "a tuple has no C layout (use a #[repr(C)] struct)", NULL;
	case RT_ARRAY:
		return h->why = "C passes no arrays by value (put it in a #[repr(C)] struct)", NULL;
	default:
		return h->why = arena_printf(h->a, "`%s` has no %s type here", t->name, h->lang->name), NULL;
	}
}

/* ------------------------------------------------------ kernel arguments */

/* The element type of a slice-like argument (&[T], DisjointSlice<T>). */
static RType *slice_elem(RType *t)
{
	if (t->kind == RT_REF && t->pointee && t->pointee->kind == RT_SLICE)
		return t->pointee->elem;
	Variant *v = t->nvariant == 1 ? &t->variants[0] : NULL;
	return v && v->nfield >= 1 && v->fields[0] && v->fields[0]->kind == RT_PTR ? v->fields[0]->pointee : NULL;
}

/* NAME_len, unless another argument has that name. */
static const char *len_name(Hdr *h, const Func *fn, const char *name)
{
	const char *n = arena_printf(h->a, "%s_len", name);
	for (uint32_t i = 0; i < fn->nargs; i++)
		if (fn->args[i].name && !strcmp(fn->args[i].name, n))
			n = arena_printf(h->a, "%s_", n), i = (uint32_t)-1;
	return n;
}

static bool arg_slice(Hdr *h, const Func *fn, const FuncArg *g, const char *name, CArg *c)
{
	RType *e = slice_elem(g->rty);
	const char *ec = e && e->kind != RT_ARRAY ? value_ctype(h, e) : NULL;
	if (!ec)
		return h->why = h->why ? h->why : arena_printf(h->a, "its element type has no %s type", h->lang->name), false;
	bool ro = g->rty->kind == RT_REF && fn->params[g->first].readonly;
	c->kind = ARG_SLICE;
	c->elem = e;
	c->readonly = ro;
	c->len = len_name(h, fn, name);
	if (h->lang == &kabi_lang_rust) {
		c->ctype = ec;
		c->decl = arena_printf(h->a, "%s: &%soxide_host::DeviceSlice<%s>", name, ro ? "" : "mut ", ec);
		return true;
	}
	c->ctype = arena_printf(h->a, "%s%s *", ro ? "const " : "", ec);
	c->decl = arena_printf(h->a, "%s%s, size_t %s", c->ctype, name, c->len);
	return true;
}

/* The spelling of argument g of kernel fn; false with h->why. */
static bool arg_ctype(Hdr *h, const Func *fn, const FuncArg *g, const char *name, CArg *c)
{
	RType *t = g->rty;
	h->why = NULL;
	if ((t->kind == RT_REF && t->pointee && t->pointee->kind == RT_SLICE) ||
	    (path_is(t, "oxide_device::DisjointSlice") && g->nparam == 2))
		return arg_slice(h, fn, g, name, c);
	if (rtype_is_fat_ptr(t))
		return h->why = "a pointer to an unsized value other than a slice", false;
	if (t->kind == RT_REF || t->kind == RT_PTR) {
		bool ro = t->kind == RT_PTR ? !t->is_mut : fn->params[g->first].readonly;
		c->kind = ARG_POINTER;
		c->elem = t->pointee;
		c->readonly = ro;
		c->ctype = pointer_ctype(h, t->pointee, ro);
	} else if (path_is(t, "oxide_device::hopper::TensorMap")) {
		c->kind = ARG_MAP;
		c->ctype = h->lang == &kabi_lang_rust ? "&oxide_host::TensorMap" : "const OxTensorMap *";
	} else {
		c->kind = ARG_VALUE;
		if (!(c->ctype = value_ctype(h, t)))
			return false;
	}
	if (h->lang == &kabi_lang_rust)
		c->decl = arena_printf(h->a, "%s: %s", name, c->ctype);
	else
		c->decl = arena_printf(h->a, "%s%s%s", c->ctype, c->ctype[strlen(c->ctype) - 1] == '*' ? "" : " ", name);
	return true;
}

/* In Rust the raw identifier after a Rust keyword: a crate of another
 * edition may use it. */
const char *kabi_arg_name(Hdr *h, const FuncArg *g, uint32_t i)
{
	static const char *const kw[] = {
		"auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
		"extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return",
		"short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void",
		"volatile", "while", "bool", "true", "false",
	};
	if (!g->name)
		return arena_printf(h->a, "arg%u", i);
	if (h->lang == &kabi_lang_rust)
		return rust_ident(h, g->name);
	for (size_t k = 0; k < countof(kw); k++)
		if (!strcmp(g->name, kw[k]))
			return arena_printf(h->a, "%s_", g->name);
	return g->name;
}

static const char *where_of(Hdr *h, Loc l)
{
	if (l.file >= 0 && (uint32_t)l.file < h->m->nfile)
		return arena_printf(h->a, "%s:%u:%u", h->m->files[l.file], l.line, l.col);
	return "oxidec";
}

/* Every argument of every kernel has a spelling (or an error is
 * reported); the structs they need are registered. */
CArg **kabi_check(Hdr *h, const char *what)
{
	uint32_t nk = 0;
	for (Func *fn = h->m->funcs; fn; fn = fn->next)
		nk += fn->is_kernel;
	CArg **all = arena_new_array(h->a, CArg *, nk + 1), **cargs = all;
	bool ok = true;
	for (Func *fn = h->m->funcs; fn; fn = fn->next) {
		if (!fn->is_kernel)
			continue;
		cargs[0] = arena_new_array(h->a, CArg, fn->nargs + 1);
		for (uint32_t i = 0; i < fn->nargs; i++) {
			const FuncArg *g = &fn->args[i];
			if (g->nparam == 0 || arg_ctype(h, fn, g, kabi_arg_name(h, g, i), &cargs[0][i]))
				continue;
			diag_error(OX_UNSUPPORTED, where_of(h, g->loc), "%s: parameter `%s: %s` of kernel `%s` "
			           "cannot be described in %s: %s", what, kabi_arg_name(h, g, i), g->rty->name,
			           fn->symbol, h->lang->name, h->why);
			ok = false;
		}
		cargs++;
	}
	return ok ? all : NULL;
}

/* ------------------------------------------------------------- writing */

/* The declarations of t's members that fit (members_fit) and the largest
 * alignment among them: what both struct writers start from. */
static const char **struct_members(Hdr *h, RType *t, uint64_t *maxalign)
{
	Variant *v = &t->variants[0];
	const char **decls = arena_new_array(h->a, const char *, v->nfield + 1);

	*maxalign = 1;
	members_fit(h, t, decls);
	for (uint32_t k = 0; k < v->nfield; k++)
		if (decls[k] && v->fields[k]->align > *maxalign)
			*maxalign = v->fields[k]->align;
	return decls;
}

static void write_struct(Hdr *h, FILE *f, RType *t, const char *name)
{
	Variant *v = &t->variants[0];
	uint64_t maxalign;
	const char **decls = struct_members(h, t, &maxalign);
	fprintf(f, "/* %s (#[repr(C)], %llu bytes) */\ntypedef struct %s {\n", t->name, (unsigned long long)t->size, name);
	bool first = true;
	for (uint32_t k = 0; k < v->nfield; k++) {
		if (!decls[k])
			continue;
		fprintf(f, "\t%s%s;\n", first && t->align > maxalign ? arena_printf(h->a, "_Alignas(%u) ", t->align) : "",
		        decls[k]);
		first = false;
	}
	fprintf(f, "} %s;\n", name);
	fprintf(f, "_Static_assert(sizeof(%s) == %llu && _Alignof(%s) == %u, \"%s: rustc's size and alignment\");\n",
	        name, (unsigned long long)t->size, name, t->align, name);
	for (uint32_t k = 0; k < v->nfield; k++)
		if (decls[k])
			fprintf(f, "_Static_assert(offsetof(%s, %s) == %llu, \"%s.%s: rustc's offset\");\n", name,
			        v->field_names && v->field_names[k] ? v->field_names[k] : arena_printf(h->a, "_%u", k),
			        (unsigned long long)t->offsets[k], name,
			        v->field_names && v->field_names[k] ? v->field_names[k] : arena_printf(h->a, "_%u", k));
	fputc('\n', f);
}

/* The C type of a scalar PTX parameter (a part of a struct). */
static const char *param_ctype(const Type *t)
{
	static const char *const ints[2][4] = {
		{ "uint8_t", "uint16_t", "uint32_t", "uint64_t" },
		{ "int8_t", "int16_t", "int32_t", "int64_t" },
	};
	if (t->kind == TY_BOOL)
		return "bool";
	if (t->kind == TY_PTR)
		return "void *";
	if (t->kind == TY_FLOAT)
		return t->bits == 32 ? "float" : "double";
	for (int i = 0; i < 4; i++)
		if (t->bits == 8u << i)
			return ints[t->is_signed][i];
	return "?";
}

/* The name of the member of struct t at byte offset off ("t.lo"). */
static const char *member_at(Hdr *h, const RType *t, const char *name, uint64_t off)
{
	const Variant *v = t->nvariant == 1 ? &t->variants[0] : NULL;
	for (uint32_t k = 0; v && v->field_names && k < v->nfield && k < t->noffset; k++)
		if (t->offsets[k] == off && v->field_names[k] && v->fields[k] && v->fields[k]->size)
			return arena_printf(h->a, "%s.%s", name, v->field_names[k]);
	return arena_printf(h->a, "%s+%llu", name, (unsigned long long)off);
}

/* What the k-th PTX parameter of argument g is: its role, type, bytes. */
void kabi_param(Hdr *h, const Func *fn, const FuncArg *g, const CArg *c, const char *name, uint32_t k,
                PtxParam *out)
{
	const Param *p = &fn->params[g->first + k];
	const char *role, *pname = name, *ct = c->ctype;
	if (c->kind == ARG_SLICE) {
		role = k ? "length" : "pointer";
		pname = k ? c->len : name;
		ct = k ? h->lang->usize : ct;
	} else if (c->kind == ARG_POINTER) {
		role = "pointer";
	} else if (p->byval_size) {
		role = "byval";
		ct = c->kind == ARG_MAP ? h->lang->map : ct;
	} else if (g->nparam == 1 && kabi_scalar_ctype(h->lang, g->rty)) {
		role = "scalar";
	} else {
		role = "field";            /* a part of a struct passed as scalars */
		pname = member_at(h, g->rty, name, p->offset);
		ct = param_ctype(p->type);
	}
	*out = (PtxParam){ .index = g->first + k, .name = pname, .ctype = ct, .role = role, .p = p,
	                   .bytes = p->byval_size ? p->byval_size : p->type->kind == TY_PTR ? 8u : (p->type->bits + 7u) / 8u };
}

static void param_row(Hdr *h, FILE *f, const Func *fn, const FuncArg *g, const CArg *c, const char *name, uint32_t k)
{
	PtxParam pp;
	kabi_param(h, fn, g, c, name, k, &pp);
	fprintf(f, " \\\n\tX(%u, \"%s\", \"%s\", \"%s\", %llu)", pp.index, pp.name, pp.ctype, pp.role,
	        (unsigned long long)pp.bytes);
}

/* The local variables a launcher packs and the args[] entries they fill. */
static void pack_arg(Hdr *h, FILE *f, const Func *fn, const FuncArg *g, const CArg *c, const char *name,
                     const char **args)
{
	switch (c->kind) {
	case ARG_SLICE:
		fprintf(f, "\tOxDevPtr ox_%s_p = ox_devptr(%s);\n\tuint64_t ox_%s_n = %s;\n", name, name, name, c->len);
		*args = arena_printf(h->a, "%s&ox_%s_p, &ox_%s_n, ", *args, name, name);
		return;
	case ARG_POINTER:
		fprintf(f, "\tOxDevPtr ox_%s_p = ox_devptr(%s);\n", name, name);
		*args = arena_printf(h->a, "%s&ox_%s_p, ", *args, name);
		return;
	case ARG_MAP:
		*args = arena_printf(h->a, "%s(void *)%s, ", *args, name);
		return;
	case ARG_VALUE:
		for (uint32_t k = 0; k < g->nparam; k++) {
			uint64_t off = fn->params[g->first + k].offset;
			*args = off ? arena_printf(h->a, "%s(char *)&%s + %llu, ", *args, name, (unsigned long long)off)
			            : arena_printf(h->a, "%s&%s, ", *args, name);
		}
		return;
	}
}

/* Does fn, or a function it calls, sync the grid (oxide_device::grid::sync)?
 * Such a kernel must be launched cooperatively: its launcher calls
 * ox_launch_cooperative.  `depth` bounds the walk (recursion). */
static bool syncs_grid(Module *m, const Func *fn, int depth)
{
	if (!fn || depth > 64)
		return false;
	for (Block *b = fn->first; b; b = b->next)
		for (Op *op = b->first; op; op = op->next) {
			if (op->code == OP_MIR_DEVICE && op->sym && !strcmp(op->sym, "__oxide_grid_sync"))
				return true;
			if (op->code == OP_MIR_CALL && op->sym && strcmp(op->sym, fn->symbol) &&
			    syncs_grid(m, ir_func_find(m, op->sym), depth + 1))
				return true;
		}
	return false;
}

bool kabi_syncs_grid(Module *m, const Func *fn)
{
	return syncs_grid(m, fn, 0);
}

/* K_launch's return statement: a stream launch, or for a kernel that
 * syncs the grid a cooperative one (which has no stream: its launcher
 * takes none, so a stream given to it is a C error, never a plain
 * launch that would hang). */
static void write_launch_call(FILE *f, bool coop, uint32_t nparam)
{
	const char *args = nparam ? "ox_args" : "NULL";
	if (coop)
		fprintf(f, "\treturn ox_launch_cooperative(ox_f, ox_grid, ox_block, ox_shared, %s);\n}\n\n", args);
	else
		fprintf(f, "\treturn ox_launch_on(ox_f, ox_grid, ox_block, ox_shared, ox_stream, %s);\n}\n\n", args);
}

static void write_kernel(Hdr *h, FILE *f, const Func *fn, const CArg *cargs)
{
	bool coop = kabi_syncs_grid(h->m, fn);
	const char *k = fn->symbol;
	fprintf(f, "/* ---- kernel %s (%s) */\n\n/* its PTX parameters: X(index, name, C type, role, bytes) */\n"
	        "#define OXK_%s_PARAMS(X)", k, fn->name, k);
	for (uint32_t i = 0; i < fn->nargs; i++)
		for (uint32_t j = 0; j < fn->args[i].nparam; j++)
			param_row(h, f, fn, &fn->args[i], &cargs[i], kabi_arg_name(h, &fn->args[i], i), j);
	fprintf(f, "\n\nstatic inline int %s_function(OxFunc *f, const OxModule *m)\n{\n"
	        "\treturn ox_function(f, m, \"%s\");\n}\n\n", k, k);
	if (coop)
		fprintf(f, "/* %s calls grid::sync(): launched cooperatively, on the default stream */\n", k);
	fprintf(f, "static inline int %s_launch(const OxFunc *ox_f, OxDim3 ox_grid, OxDim3 ox_block, unsigned ox_shared%s",
	        k, coop ? "" : ",\n\t\tconst OxStream *ox_stream");
	for (uint32_t i = 0; i < fn->nargs; i++)
		if (fn->args[i].nparam)
			fprintf(f, ",\n\t\t%s", cargs[i].decl);
	fprintf(f, ")\n{\n");
	const char *args = "";
	for (uint32_t i = 0; i < fn->nargs; i++)
		if (fn->args[i].nparam)
			pack_arg(h, f, fn, &fn->args[i], &cargs[i], kabi_arg_name(h, &fn->args[i], i), &args);
	if (fn->nparam)
		fprintf(f, "\tvoid *ox_args[%u] = { %.*s };\n\n", fn->nparam, (int)strlen(args) - 2, args);
	write_launch_call(f, coop, fn->nparam);
}

/* An include guard from the output's file name ("k.h": OXIDEC_K_H). */
static const char *guard_of(Hdr *h, const char *out)
{
	const char *base = out && strcmp(out, "-") ? strrchr(out, '/') : NULL;
	base = base ? base + 1 : out && strcmp(out, "-") ? out : "kernels.h";
	char *g = arena_printf(h->a, "OXIDEC_%s", base);
	for (char *p = g; *p; p++)
		*p = (*p >= 'a' && *p <= 'z') ? (char)(*p - 32) : ((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')) ? *p : '_';
	return g;
}

static void write_prologue(FILE *f, const char *guard)
{
	fprintf(f, "/* Generated by oxidec --emit=header: typed launchers of this module's kernels\n"
	        " * (man oxidec, HEADER). Device pointers are typed C pointers that hold device\n"
	        " * addresses (OX_DEVICE_PTR(float, p) makes one of an OxDevPtr); never\n"
	        " * dereference them on the host. Regenerate it with the module. */\n"
	        "#ifndef %s\n#define %s\n\n#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n\n"
	        "#include \"oxrt.h\"\n\n"
	        "_Static_assert(sizeof(size_t) == 8 && sizeof(void *) == 8, \"a 64-bit host, as the kernels' usize\");\n\n",
	        guard, guard);
}

void kabi_init(Hdr *h, Module *m, const Lang *l)
{
	*h = (Hdr){ .m = m, .a = m->arena, .lang = l };
	h->structs = arena_new_array(h->a, RType *, m->nrtype + 1);
	h->names = arena_new_array(h->a, const char *, m->nrtype + 1);
	h->done = arena_new_array(h->a, bool, m->nrtype + 1);
}

const char *kabi_struct_name(const Hdr *h, const RType *t)
{
	for (uint32_t i = 0; i < h->n; i++)
		if (h->structs[i] == t)
			return h->names[i];
	return NULL;
}

bool emit_header(FILE *f, Module *m, const char *out)
{
	Hdr h;
	kabi_init(&h, m, &kabi_lang_c);
	CArg **cargs = kabi_check(&h, "--emit=header");
	if (!cargs)
		return false;
	const char *guard = guard_of(&h, out);
	write_prologue(f, guard);
	for (uint32_t i = 0; i < h.n; i++)
		write_struct(&h, f, h.structs[i], h.names[i]);
	for (Func *fn = m->funcs; fn; fn = fn->next)
		if (fn->is_kernel)
			write_kernel(&h, f, fn, *cargs++);
	fprintf(f, "#endif /* %s */\n", guard);
	return true;
}

/* ------------------------------------------------------------- Rust */

/* A #[repr(C)] Rust struct of the same members, the same const checks
 * of rustc's numbers as the C header's _Static_asserts, and DeviceCopy
 * (a buffer may hold it) when every member is DeviceCopy: a function
 * that only compiles then. */
static void write_struct_rust(Hdr *h, FILE *f, RType *t, const char *name)
{
	Variant *v = &t->variants[0];
	uint64_t maxalign;
	const char **decls = struct_members(h, t, &maxalign);
	fprintf(f, "/// `%s` (#[repr(C)], %llu bytes)\n#[repr(C%s)]\n#[derive(Clone, Copy, Debug)]\n"
	        "#[allow(non_camel_case_types, dead_code)]\npub struct %s {\n", t->name, (unsigned long long)t->size,
	        t->align > maxalign ? arena_printf(h->a, ", align(%u)", t->align) : "", name);
	for (uint32_t k = 0; k < v->nfield; k++)
		if (decls[k])
			fprintf(f, "    %s,\n", decls[k]);
	fprintf(f, "}\n\nconst _: () = assert!(::core::mem::size_of::<%s>() == %llu && ::core::mem::align_of::<%s>() == %u,\n"
	        "                      \"%s: rustc's size and alignment\");\n", name, (unsigned long long)t->size, name,
	        t->align, name);
	for (uint32_t k = 0; k < v->nfield; k++) {
		if (!decls[k])
			continue;
		const char *fname = strchr(decls[k], ' ') + 1;       /* "pub NAME: TYPE" */
		int len = (int)(strchr(fname, ':') - fname);
		fprintf(f, "const _: () = assert!(::core::mem::offset_of!(%s, %.*s) == %llu, \"%s.%.*s: rustc's offset\");\n",
		        name, len, fname, (unsigned long long)t->offsets[k], name, len, fname);
	}
	fprintf(f, "\n// SAFETY: every member is DeviceCopy (checked below), and a #[repr(C)]\n"
	        "// struct of them takes any bytes a kernel writes.\nunsafe impl oxide_host::DeviceCopy for %s {}\n"
	        "const _: () = {\n    const fn device_copy<T: oxide_host::DeviceCopy>() {}\n", name);
	for (uint32_t k = 0; k < v->nfield; k++)
		if (decls[k])
			fprintf(f, "    device_copy::<%s>();\n", strchr(decls[k], ':') + 2);
	fprintf(f, "};\n\n");
}

/* The locals a launch method packs and the args[] entries they fill. */
static void pack_arg_rust(Hdr *h, FILE *f, const Func *fn, const FuncArg *g, const CArg *c, const char *name,
                          const char **args)
{
	const char *ptr = "as *mut ::core::ffi::c_void";
	const char *local = name[0] == 'r' && name[1] == '#' ? name + 2 : name;
	switch (c->kind) {
	case ARG_SLICE:
		fprintf(f, "        let mut ox_%s_p: u64 = %s.device_addr();\n        let mut ox_%s_n: u64 = %s.len() as u64;\n",
		        local, name, local, name);
		*args = arena_printf(h->a, "%s            &mut ox_%s_p as *mut u64 %s,\n            &mut ox_%s_n as *mut u64 %s,\n",
		                     *args, local, ptr, local, ptr);
		return;
	case ARG_POINTER:
		fprintf(f, "        let mut ox_%s_p: u64 = %s.addr();\n", local, name);
		*args = arena_printf(h->a, "%s            &mut ox_%s_p as *mut u64 %s,\n", *args, local, ptr);
		return;
	case ARG_MAP:
		*args = arena_printf(h->a, "%s            %s as *const oxide_host::TensorMap as *mut ::core::ffi::c_void,\n",
		                     *args, name);
		return;
	case ARG_VALUE:
		fprintf(f, "        let mut ox_%s = %s;\n", local, name);
		for (uint32_t k = 0; k < g->nparam; k++) {
			uint64_t off = fn->params[g->first + k].offset;
			*args = off ? arena_printf(h->a, "%s            (&mut ox_%s as *mut %s as *mut u8).wrapping_add(%llu) %s,\n",
			                           *args, local, c->ctype, (unsigned long long)off, ptr)
			            : arena_printf(h->a, "%s            &mut ox_%s as *mut %s %s,\n", *args, local, c->ctype, ptr);
		}
		return;
	}
}

/* The doc line of a PTX parameter: "0 `a`: pointer, 8 bytes". */
static const char *param_doc(Hdr *h, const Func *fn, const FuncArg *g, const CArg *c, const char *name, uint32_t k)
{
	PtxParam pp;
	kabi_param(h, fn, g, c, name, k, &pp);
	return arena_printf(h->a, "%u `%s`: %s, %llu bytes", pp.index, pp.name, pp.role, (unsigned long long)pp.bytes);
}

static void write_kernel_rust(Hdr *h, FILE *f, const Func *fn, const CArg *cargs)
{
	bool coop = kabi_syncs_grid(h->m, fn);
	const char *k = fn->symbol, *args = "";
	fprintf(f, "    /// Launches `%s`: `%s", k, fn->name);
	for (uint32_t i = 0; i < fn->nargs; i++)
		fprintf(f, "%s%s: %s", i ? ", " : "(", fn->args[i].name ? fn->args[i].name : "_", fn->args[i].rty->name);
	fprintf(f, "%s`,\n    /// %s.\n    ///\n    /// Its PTX parameters:%s\n", fn->nargs ? ")" : "()",
	        coop ? "which calls grid::sync(): launched cooperatively, on the default stream" :
	        "on `stream` (None: the default stream)", fn->nparam ? "" : " none");
	for (uint32_t i = 0; i < fn->nargs; i++)
		for (uint32_t j = 0; j < fn->args[i].nparam; j++)
			fprintf(f, "    /// - %s\n", param_doc(h, fn, &fn->args[i], &cargs[i], kabi_arg_name(h, &fn->args[i], i), j));
	fprintf(f, "    pub fn %s(\n        &self,\n        cfg: oxide_host::LaunchConfig,\n%s", rust_ident(h, k), coop ? "" : "        stream: Option<&oxide_host::Stream>,\n");
	for (uint32_t i = 0; i < fn->nargs; i++)
		if (fn->args[i].nparam)
			fprintf(f, "        %s,\n", cargs[i].decl);
	fprintf(f, "    ) -> oxide_host::Result<()> {\n");
	for (uint32_t i = 0; i < fn->nargs; i++)
		if (fn->args[i].nparam)
			pack_arg_rust(h, f, fn, &fn->args[i], &cargs[i], kabi_arg_name(h, &fn->args[i], i), &args);
	fprintf(f, "        let mut ox_args: [*mut ::core::ffi::c_void; %u] = [\n%s        ];\n", fn->nparam, args);
	fprintf(f, "        // SAFETY: ox_args holds the kernel's PTX parameters in order, as its ABI\n"
	        "        // lays them out, each pointing at a local that outlives the call.\n");
	if (coop)
		fprintf(f, "        unsafe { self.%s.launch_cooperative_raw(cfg, &mut ox_args) }\n    }\n", rust_ident(h, k));
	else
		fprintf(f, "        unsafe { self.%s.launch_raw(cfg, stream, &mut ox_args) }\n    }\n", rust_ident(h, k));
}

static void write_kernels_rust(Hdr *h, FILE *f, CArg **cargs)
{
	fprintf(f, "/// The kernels of the module, looked up once by name; a method per kernel\n"
	        "/// launches it with its arguments typed by its Rust signature.\n"
	        "#[allow(dead_code)]\npub struct Kernels<'m> {\n");
	for (Func *fn = h->m->funcs; fn; fn = fn->next)
		if (fn->is_kernel)
			fprintf(f, "    %s: oxide_host::Kernel<'m>,\n", rust_ident(h, fn->symbol));
	fprintf(f, "}\n\n#[allow(dead_code)]\nimpl<'m> Kernels<'m> {\n    /// Finds every kernel of the module in `module`.\n"
	        "    pub fn new(module: &'m oxide_host::Module) -> oxide_host::Result<Self> {\n        Ok(Kernels {\n");
	for (Func *fn = h->m->funcs; fn; fn = fn->next)
		if (fn->is_kernel)
			fprintf(f, "            %s: module.kernel(\"%s\")?,\n", rust_ident(h, fn->symbol), fn->symbol);
	fprintf(f, "        })\n    }\n");
	for (Func *fn = h->m->funcs; fn; fn = fn->next)
		if (fn->is_kernel)
			fprintf(f, "\n    /// The handle of `%s`: its attributes, its dynamic shared memory.\n"
			        "    pub fn %s_kernel(&self) -> &oxide_host::Kernel<'m> {\n        &self.%s\n    }\n",
			        fn->symbol, fn->symbol, rust_ident(h, fn->symbol));
	for (Func *fn = h->m->funcs; fn; fn = fn->next)
		if (fn->is_kernel) {
			fputc('\n', f);
			write_kernel_rust(h, f, fn, *cargs++);
		}
	fprintf(f, "}\n");
}

/* A kernel's method must not be another method of Kernels: `new`, or
 * the handle accessor K_kernel of another kernel K. */
static bool methods_distinct(Hdr *h)
{
	bool ok = true;
	for (Func *fn = h->m->funcs; fn; fn = fn->next) {
		if (!fn->is_kernel)
			continue;
		const char *clash = !strcmp(fn->symbol, "new") ? "Kernels::new" : NULL;
		for (Func *g = h->m->funcs; g && !clash; g = g->next)
			if (g->is_kernel && !strcmp(fn->symbol, arena_printf(h->a, "%s_kernel", g->symbol)))
				clash = arena_printf(h->a, "the handle accessor of kernel `%s`", g->symbol);
		if (clash) {
			diag_error(OX_UNSUPPORTED, where_of(h, fn->loc), "--emit=rust: kernel `%s` would be a method "
			           "named like %s; rename the kernel", fn->symbol, clash);
			ok = false;
		}
	}
	return ok;
}

bool emit_rust(FILE *f, Module *m)
{
	Hdr h;
	kabi_init(&h, m, &kabi_lang_rust);
	CArg **cargs = kabi_check(&h, "--emit=rust");
	if (!cargs || !methods_distinct(&h))
		return false;
	fprintf(f, "// Generated by oxidec --emit=rust: typed launches of this module's kernels\n"
	        "// (man oxidec, RUST), for a crate that depends on oxide-host (tools/oxide-host;\n"
	        "// oxide_host::build writes and includes it). Regenerate it with the module.\n\n");
	for (uint32_t i = 0; i < h.n; i++)
		write_struct_rust(&h, f, h.structs[i], h.names[i]);
	write_kernels_rust(&h, f, cargs);
	return true;
}
