/* header.c: --emit=header — a C header for the kernels of a module, made
 * from what stage 2 knows of their ABI: each kernel's Rust arguments
 * (Func.args: name, RType, span), the PTX parameters abi_lower made of
 * each (Func.params: how many, where their bytes are in the argument,
 * byval or not; fb_param_facts' readonly), and rustc's layouts. It reads
 * the mir-dialect module and writes text; it keeps no ABI rule of its own
 * beyond spelling the types in C.
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
 * The walk (kabi_*: what each argument is, its C spelling, its PTX
 * parameters' roles and bytes) is shared with signature.c through
 * kabi.h, so --emit=signature's JSON lists the same parameters. */
#include <stdio.h>
#include <string.h>

#include "emit.h"
#include "kabi.h"

/* The C type of a Rust scalar; NULL for none. */
const char *kabi_scalar_ctype(const RType *t)
{
	static const char *const ints[2][4] = {
		{ "uint8_t", "uint16_t", "uint32_t", "uint64_t" },
		{ "int8_t", "int16_t", "int32_t", "int64_t" },
	};
	switch (t->kind) {
	case RT_BOOL: return "bool";
	case RT_CHAR: return "uint32_t";
	case RT_FLOAT: return t->bits == 32 ? "float" : t->bits == 64 ? "double" : NULL;
	case RT_INT:
		if (t->name && !strcmp(t->name, "usize"))
			return "size_t";
		if (t->name && !strcmp(t->name, "isize"))
			return "ptrdiff_t";
		for (int i = 0; i < 4; i++)
			if (t->bits == 8u << i)
				return ints[t->is_signed][i];
		return NULL;
	default:
		return NULL;
	}
}

static bool path_is(const RType *t, const char *path)
{
	return t->kind == RT_ADT && t->path && !strcmp(t->path, path);
}

/* core::sync::atomic::AtomicU32 & co.: the integer they hold. */
const char *kabi_atomic_ctype(const RType *t)
{
	static const char *const names[][2] = {
		{ "AtomicBool", "bool" }, { "AtomicU8", "uint8_t" }, { "AtomicI8", "int8_t" },
		{ "AtomicU16", "uint16_t" }, { "AtomicI16", "int16_t" }, { "AtomicU32", "uint32_t" },
		{ "AtomicI32", "int32_t" }, { "AtomicU64", "uint64_t" }, { "AtomicI64", "int64_t" },
		{ "AtomicUsize", "size_t" }, { "AtomicIsize", "ptrdiff_t" },
	};
	const char *pre = "core::sync::atomic::";
	if (t->kind != RT_ADT || !t->path || strncmp(t->path, pre, strlen(pre)))
		return NULL;
	for (size_t i = 0; i < countof(names); i++)
		if (!strcmp(t->path + strlen(pre), names[i][0]))
			return names[i][1];
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

/* A pointer to pointee: its C type if it has one, else void. */
static const char *pointer_ctype(Hdr *h, RType *pointee, bool is_const)
{
	const char *c = pointee ? value_ctype(h, pointee) : NULL;
	h->why = NULL;
	return arena_printf(h->a, "%s%s *", is_const ? "const " : "", c ? c : "void");
}

/* C's alignment of a member: the Rust type's (the same for the types
 * described here on a 64-bit host). */
static uint64_t align_up(uint64_t x, uint64_t a)
{
	return a ? (x + a - 1) / a * a : x;
}

/* One member's declaration ("float x", "uint32_t v[4][2]"), or NULL. */
static const char *member_decl(Hdr *h, RType *t, const char *name)
{
	const char *dims = "";
	while (t->kind == RT_ARRAY && t->elem) {
		dims = arena_printf(h->a, "%s[%llu]", dims, (unsigned long long)t->len);
		t = t->elem;
	}
	const char *c = t->kind == RT_PTR || t->kind == RT_REF ?
	                (rtype_is_fat_ptr(t) ? NULL : pointer_ctype(h, t->pointee, !t->is_mut)) : value_ctype(h, t);
	if (!c && !h->why)
		h->why = arena_printf(h->a, "its member `%s` has type `%s`", name, t->name);
	return c ? arena_printf(h->a, "%s%s%s%s", c, c[strlen(c) - 1] == '*' ? "" : " ", name, dims) : NULL;
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
		                t->adt_kind == ADT_UNION ? "unions are not described in C" :
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

/* The C type of a value of type t, or NULL with h->why. */
static const char *value_ctype(Hdr *h, RType *t)
{
	const char *c = kabi_scalar_ctype(t);
	if (c || (c = kabi_atomic_ctype(t)))
		return c;
	if (path_is(t, "oxide_device::hopper::TensorMap"))
		return "OxTensorMap";
	switch (t->kind) {
	case RT_ADT:
		return describe_struct(h, t);
	case RT_TUPLE:
		return h->why = rtype_is_zst(t) ? "it is zero-sized" : "a tuple has no C layout (use a #[repr(C)] struct)", NULL;
	case RT_ARRAY:
		return h->why = "C passes no arrays by value (put it in a #[repr(C)] struct)", NULL;
	default:
		return h->why = arena_printf(h->a, "`%s` has no C type here", t->name), NULL;
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
		return h->why = h->why ? h->why : "its element type has no C type", false;
	bool ro = g->rty->kind == RT_REF && fn->params[g->first].readonly;
	c->kind = ARG_SLICE;
	c->elem = e;
	c->readonly = ro;
	c->ctype = arena_printf(h->a, "%s%s *", ro ? "const " : "", ec);
	c->len = len_name(h, fn, name);
	c->decl = arena_printf(h->a, "%s%s, size_t %s", c->ctype, name, c->len);
	return true;
}

/* The C spelling of argument g of kernel fn; false with h->why. */
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
		c->ctype = "const OxTensorMap *";
	} else {
		c->kind = ARG_VALUE;
		if (!(c->ctype = value_ctype(h, t)))
			return false;
	}
	c->decl = arena_printf(h->a, "%s%s%s", c->ctype, c->ctype[strlen(c->ctype) - 1] == '*' ? "" : " ", name);
	return true;
}

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

/* Every argument of every kernel has a C spelling (or an error is
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
			           "cannot be described in C: %s", what, kabi_arg_name(h, g, i), g->rty->name, fn->symbol, h->why);
			ok = false;
		}
		cargs++;
	}
	return ok ? all : NULL;
}

/* ------------------------------------------------------------- writing */

static void write_struct(Hdr *h, FILE *f, RType *t, const char *name)
{
	Variant *v = &t->variants[0];
	const char **decls = arena_new_array(h->a, const char *, v->nfield + 1);
	uint64_t maxalign = 1;
	members_fit(h, t, decls);
	for (uint32_t k = 0; k < v->nfield; k++)
		if (decls[k] && v->fields[k]->align > maxalign)
			maxalign = v->fields[k]->align;
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

/* What the k-th PTX parameter of argument g is: its role, C type, bytes. */
void kabi_param(Hdr *h, const Func *fn, const FuncArg *g, const CArg *c, const char *name, uint32_t k,
                PtxParam *out)
{
	const Param *p = &fn->params[g->first + k];
	const char *role, *pname = name, *ct = c->ctype;
	if (c->kind == ARG_SLICE) {
		role = k ? "length" : "pointer";
		pname = k ? c->len : name;
		ct = k ? "size_t" : ct;
	} else if (c->kind == ARG_POINTER) {
		role = "pointer";
	} else if (p->byval_size) {
		role = "byval";
		ct = c->kind == ARG_MAP ? "OxTensorMap" : ct;
	} else if (g->nparam == 1 && kabi_scalar_ctype(g->rty)) {
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

void kabi_init(Hdr *h, Module *m)
{
	*h = (Hdr){ .m = m, .a = m->arena };
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
	kabi_init(&h, m);
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
