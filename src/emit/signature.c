/* signature.c: --emit=signature — the kernels of a module as JSON, for
 * launch wrappers in other languages (examples/python/oxide_cupy.py):
 * per kernel its PTX entry, whether it must be launched cooperatively,
 * the shared memory it uses, its launch attributes and each Rust
 * argument with the PTX parameters it became, in order. It reads the
 * mir-dialect module after stage 2 and writes text; what an argument is
 * and how it is lowered comes from kabi.h (header.c's walk, the one that
 * writes --emit=header's OXK_K_PARAMS), so the JSON and the C header
 * never disagree. The format is documented in man oxidec, SIGNATURE. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "kabi.h"

/* A JSON string (names and Rust type text; escaped all the same). */
static void js(FILE *f, const char *s)
{
	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

/* NumPy's name of the dtype a C scalar type is (NULL: none). */
static const char *dtype_of(const char *ctype)
{
	static const char *const map[][2] = {
		{ "bool", "bool" }, { "float", "float32" }, { "double", "float64" },
		{ "uint8_t", "uint8" }, { "uint16_t", "uint16" }, { "uint32_t", "uint32" }, { "uint64_t", "uint64" },
		{ "int8_t", "int8" }, { "int16_t", "int16" }, { "int32_t", "int32" }, { "int64_t", "int64" },
		{ "size_t", "uint64" }, { "ptrdiff_t", "int64" },
	};
	if (ctype && ctype[strlen(ctype) - 1] == '*')
		return "uint64";            /* a device address */
	for (size_t i = 0; ctype && i < countof(map); i++)
		if (!strcmp(map[i][0], ctype))
			return map[i][1];
	return NULL;
}

/* A type as a JSON object: scalars and atomics with their C type and
 * dtype, #[repr(C)] structs by their C name (described under "structs"),
 * arrays, thin pointers, tensor maps; anything else "opaque". */
static void write_type(Hdr *h, FILE *f, const RType *t)
{
	const char *c = kabi_scalar_ctype(t), *at = c ? NULL : kabi_atomic_ctype(t), *sn;
	if (c || at) {
		fprintf(f, "{\"kind\": \"%s\", \"rust\": ", c ? "scalar" : "atomic");
		js(f, t->name);
		fprintf(f, ", \"ctype\": \"%s\", \"dtype\": \"%s\", \"bytes\": %llu}", c ? c : at, dtype_of(c ? c : at),
		        (unsigned long long)t->size);
	} else if (t->kind == RT_ADT && t->path && !strcmp(t->path, "oxide_device::hopper::TensorMap")) {
		fprintf(f, "{\"kind\": \"tensormap\", \"bytes\": %llu, \"align\": %u}", (unsigned long long)t->size, t->align);
	} else if ((sn = kabi_struct_name(h, t))) {
		fprintf(f, "{\"kind\": \"struct\", \"ctype\": \"%s\"}", sn);
	} else if (t->kind == RT_ARRAY && t->elem) {
		fprintf(f, "{\"kind\": \"array\", \"len\": %llu, \"elem\": ", (unsigned long long)t->len);
		write_type(h, f, t->elem);
		fputc('}', f);
	} else if ((t->kind == RT_PTR || t->kind == RT_REF) && !rtype_is_fat_ptr(t)) {
		fprintf(f, "{\"kind\": \"pointer\", \"mutable\": %s, \"pointee\": ", t->is_mut ? "true" : "false");
		if (t->pointee)
			write_type(h, f, t->pointee);
		else
			fputs("null", f);
		fputc('}', f);
	} else {
		fputs("{\"kind\": \"opaque\", \"rust\": ", f);
		js(f, t->name);
		fprintf(f, ", \"bytes\": %llu}", (unsigned long long)(t->has_layout ? t->size : 0));
	}
}

/* The #[repr(C)] structs the kernels take, as the header declares them:
 * members in declaration order, zero-sized ones left out. */
static void write_structs(Hdr *h, FILE *f)
{
	fputs("  \"structs\": [", f);
	for (uint32_t i = 0; i < h->n; i++) {
		const RType *t = h->structs[i];
		const Variant *v = &t->variants[0];
		fprintf(f, "%s\n    {\"ctype\": \"%s\", \"rust\": ", i ? "," : "", h->names[i]);
		js(f, t->name);
		fprintf(f, ", \"size\": %llu, \"align\": %u, \"fields\": [", (unsigned long long)t->size, t->align);
		bool first = true;
		for (uint32_t k = 0; k < v->nfield && k < t->noffset; k++) {
			const RType *ft = v->fields[k];
			if (!ft || ft->size == 0)
				continue;
			fprintf(f, "%s\n      {\"name\": ", first ? "" : ",");
			if (v->field_names && v->field_names[k])
				js(f, v->field_names[k]);
			else
				fprintf(f, "\"_%u\"", k);
			fprintf(f, ", \"offset\": %llu, \"type\": ", (unsigned long long)t->offsets[k]);
			write_type(h, f, ft);
			fputc('}', f);
			first = false;
		}
		fputs(first ? "]}" : "\n    ]}", f);
	}
	fputs(h->n ? "\n  ],\n" : "],\n", f);
}

/* ------------------------------------------------------ shared memory */

typedef struct {
	const Func **seen;         /* functions walked (each once) */
	const Global **statics;    /* the Shared<T> statics addressed (each once) */
	uint32_t nseen, nstatic, cap;
	uint64_t bytes;            /* theirs, each at its alignment, in order of first use */
	bool dynamic;              /* oxide_device's dynamic shared memory */
} SharedUse;

static bool seen_func(SharedUse *u, const Func *fn)
{
	for (uint32_t i = 0; i < u->nseen; i++)
		if (u->seen[i] == fn)
			return true;
	return false;
}

static void add_static(SharedUse *u, const Global *g)
{
	for (uint32_t i = 0; i < u->nstatic; i++)
		if (u->statics[i] == g)
			return;
	if (u->nstatic < u->cap)
		u->statics[u->nstatic++] = g;
	uint64_t a = g->align ? g->align : 1;
	u->bytes = (u->bytes + a - 1) / a * a + g->size;
}

/*   mir.global_addr @S  (S a Shared<T> static)  ==>  S's bytes
 *   mir.device @__oxide_dynamic_shared()       ==>  dynamic
 * in fn and every function it calls. */
static void walk_shared(Module *m, const Func *fn, SharedUse *u)
{
	if (!fn || seen_func(u, fn) || u->nseen == u->cap)
		return;
	u->seen[u->nseen++] = fn;
	for (Block *b = fn->first; b; b = b->next)
		for (Op *op = b->first; op; op = op->next) {
			const Global *g;
			if (op->code == OP_MIR_GLOBAL_ADDR && op->sym && (g = ir_global_find(m, op->sym)) &&
			    g->addrspace == AS_SHARED)
				add_static(u, g);
			else if (op->code == OP_MIR_DEVICE && op->sym && !strcmp(op->sym, "__oxide_dynamic_shared"))
				u->dynamic = true;
			else if (op->code == OP_MIR_CALL && op->sym)
				walk_shared(m, ir_func_find(m, op->sym), u);
		}
}

static SharedUse shared_use(Hdr *h, const Func *fn)
{
	uint32_t nf = 0, ng = 0;
	for (Func *g = h->m->funcs; g; g = g->next)
		nf++;
	for (Global *g = h->m->globals; g; g = g->next)
		ng++;
	SharedUse u = { .cap = nf + ng + 1 };
	u.seen = arena_new_array(h->a, const Func *, u.cap);
	u.statics = arena_new_array(h->a, const Global *, u.cap);
	walk_shared(h->m, fn, &u);
	return u;
}

/* ------------------------------------------------------------ kernels */

/* A launch attribute ("256", "16,16,1") as a JSON array, or null. */
static void write_dims(FILE *f, const char *key, const char *dims)
{
	fprintf(f, ",\n      \"%s\": ", key);
	if (!dims) {
		fputs("null", f);
		return;
	}
	fputc('[', f);
	for (const char *p = dims; *p;) {
		char *end;
		unsigned long v = strtoul(p, &end, 10);
		fprintf(f, "%s%lu", p == dims ? "" : ", ", v);
		p = *end == ',' ? end + 1 : end + strlen(end);
	}
	fputc(']', f);
}

static void write_ptx_param(Hdr *h, FILE *f, const Func *fn, const FuncArg *g, const CArg *c, const char *name,
                            uint32_t k)
{
	PtxParam pp;
	kabi_param(h, fn, g, c, name, k, &pp);
	const char *dt = !strcmp(pp.role, "byval") ? NULL : dtype_of(pp.ctype);
	fprintf(f, "%s\n          {\"index\": %u, \"name\": ", k ? "," : "", pp.index);
	js(f, pp.name);
	fprintf(f, ", \"role\": \"%s\", \"ctype\": \"%s\", \"dtype\": ", pp.role, pp.ctype);
	js(f, dt);
	fprintf(f, ", \"bytes\": %llu, \"offset\": %llu", (unsigned long long)pp.bytes, (unsigned long long)pp.p->offset);
	if (!strcmp(pp.role, "pointer"))
		fprintf(f, ", \"align\": %u, \"noalias\": %s", pp.p->align ? pp.p->align : 1,
		        pp.p->noalias ? "true" : "false");
	fputc('}', f);
}

/* One Rust argument: its kind, its type, the PTX parameters it became. */
static void write_arg(Hdr *h, FILE *f, const Func *fn, uint32_t i, const CArg *c)
{
	static const char *const kinds[] = { [ARG_VALUE] = "value", [ARG_SLICE] = "slice", [ARG_POINTER] = "pointer",
	                                     [ARG_MAP] = "tensormap" };
	const FuncArg *g = &fn->args[i];
	const char *name = kabi_arg_name(h, g, i);
	fprintf(f, "%s\n        {\"name\": ", i ? "," : "");
	js(f, name);
	fputs(", \"rust_type\": ", f);
	js(f, g->rty->name);
	if (g->nparam == 0) {               /* zero-sized: no PTX parameter, no argument */
		fputs(", \"kind\": \"zero_sized\", \"ptx\": []}", f);
		return;
	}
	const char *kind = kinds[c->kind];
	if (c->kind == ARG_VALUE)
		kind = kabi_scalar_ctype(g->rty) || kabi_atomic_ctype(g->rty) ? "scalar" : "struct";
	fprintf(f, ", \"kind\": \"%s\"", kind);
	if (c->kind == ARG_SLICE || c->kind == ARG_POINTER) {
		bool mut = g->rty->kind == RT_REF || g->rty->kind == RT_PTR ? g->rty->is_mut : true;
		fprintf(f, ", \"mutable\": %s, \"writes\": %s", mut ? "true" : "false", c->readonly ? "false" : "true");
	}
	fputs(", \"type\": ", f);
	if ((c->kind == ARG_SLICE || c->kind == ARG_POINTER) && !c->elem)
		fputs("null", f);
	else
		write_type(h, f, c->kind == ARG_SLICE || c->kind == ARG_POINTER ? c->elem : g->rty);
	fputs(",\n         \"ptx\": [", f);
	for (uint32_t k = 0; k < g->nparam; k++)
		write_ptx_param(h, f, fn, g, c, name, k);
	fputs("\n        ]}", f);
}

static void write_kernel(Hdr *h, FILE *f, const Func *fn, const CArg *cargs, bool first)
{
	SharedUse u = shared_use(h, fn);
	fprintf(f, "%s\n    {\n      \"entry\": ", first ? "" : ",");
	js(f, fn->symbol);
	fputs(",\n      \"rust\": ", f);
	js(f, fn->name);
	fprintf(f, ",\n      \"cooperative\": %s", kabi_syncs_grid(h->m, fn) ? "true" : "false");
	fprintf(f, ",\n      \"static_shared_bytes\": %llu", (unsigned long long)u.bytes);
	fprintf(f, ",\n      \"dynamic_shared\": %s", u.dynamic ? "true" : "false");
	write_dims(f, "maxntid", fn->maxntid);
	write_dims(f, "reqntid", fn->reqntid);
	write_dims(f, "min_blocks", fn->minnctapersm);
	if (fn->cluster[0])
		fprintf(f, ",\n      \"cluster\": [%u, %u, %u]", fn->cluster[0], fn->cluster[1], fn->cluster[2]);
	else
		fputs(",\n      \"cluster\": null", f);
	fprintf(f, ",\n      \"nparam\": %u,\n      \"params\": [", fn->nparam);
	for (uint32_t i = 0; i < fn->nargs; i++)
		write_arg(h, f, fn, i, &cargs[i]);
	fputs(fn->nargs ? "\n      ]\n    }" : "]\n    }", f);
}

bool emit_signature(FILE *f, Module *m, const char *arch)
{
	Hdr h;
	kabi_init(&h, m);
	CArg **cargs = kabi_check(&h, "--emit=signature");
	if (!cargs)
		return false;
	fputs("{\n  \"format\": \"oxidec-signature\",\n  \"version\": 1,\n  \"crates\": [", f);
	for (uint32_t i = 0; i < m->ncrate; i++) {
		fputs(i ? ", " : "", f);
		js(f, m->crates[i]);
	}
	fprintf(f, "],\n  \"target\": \"%s\",\n  \"arch\": ", m->target->name);
	js(f, m->target->kind == TARGET_NVPTX ? arch : NULL);
	fputs(",\n", f);
	write_structs(&h, f);
	fputs("  \"kernels\": [", f);
	bool first = true;
	for (Func *fn = m->funcs; fn; fn = fn->next)
		if (fn->is_kernel) {
			write_kernel(&h, f, fn, *cargs++, first);
			first = false;
		}
	fputs(first ? "]\n}\n" : "\n  ]\n}\n", f);
	return true;
}
