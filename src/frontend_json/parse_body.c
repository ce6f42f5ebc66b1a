/* parse_body.c: stage 1 — a function's blocks into the model: statements,
 * places and their projections, operands and constants, rvalues and
 * terminators.  Every kind becomes an enum (an unknown one is reported
 * at its statement's Rust span, as "... is not supported"), every local
 * and block index is checked against the body, every type index
 * resolved, and calls and named constants resolved to their bodies. */
#include "fe.h"

#include <stdlib.h>
#include <string.h>

/* A body being read: the span of the statement or terminator at hand. */
typedef struct {
	PState *s;
	PFile *f;
	OxFunc *fn;
	Loc at;
} PB;

#define PB_ERROR(b, code, ...) (ps_error_at((b)->s, (code), (b)->at, (b)->fn, __VA_ARGS__), false)

static JPath field(PB *b, JPath p, const char *key)
{
	return jpath_field(b->s->a, p, key);
}

static JPath item(PB *b, JPath p, const char *key, int i)
{
	return jpath_index(b->s->a, jpath_field(b->s->a, p, key), i);
}

/* s among names[n]: its index, or -1 */
static int find_name(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

/* ------------------------------------------------------------ places */

static bool parse_proj(PB *b, JPath q, cJSON *j, OxProj *pr)
{
	static const char *const names[] = { "deref", "field", "index", "constant_index", "subslice", "downcast" };
	const char *kind = json_str(q, j, "kind");
	int k = find_name(names, (int)countof(names), kind);
	int64_t v = 0;
	if (k < 0)
		return ps_failed(b->s) ? false : (fe_error(q, "unknown projection \"%s\"", kind), false);
	pr->kind = (OxProjKind)k;
	pr->from_end = cJSON_IsTrue(json_get_opt(j, "from_end"));
	switch (pr->kind) {
	case OX_PROJ_DEREF:
		return true;
	case OX_PROJ_FIELD: {
		cJSON *iv = json_get(q, j, "index", 0);
		if (!iv || !json_int_range(q, "index", iv, 0, UINT32_MAX, &v))
			return false;
		pr->index = (uint32_t)v;
		return (pr->ty = parse_type_ref(q, b->f, j, "ty")) != NULL;
	}
	case OX_PROJ_INDEX:
		return json_index(q, j, "local", b->fn->nlocal, &pr->index);
	case OX_PROJ_CONSTANT_INDEX:
		pr->offset = json_u64(q, j, "offset");
		return !ps_failed(b->s);
	case OX_PROJ_SUBSLICE:
		pr->offset = json_u64(q, j, "from");
		pr->to = json_u64(q, j, "to");
		if (ps_failed(b->s))
			return false;
		if (json_get_opt(j, "ty"))      /* of an array: the array it gives */
			return (pr->ty = parse_type_ref(q, b->f, j, "ty")) != NULL;
		return true;
	case OX_PROJ_DOWNCAST: {
		cJSON *vj = json_get(q, j, "variant", 0);
		if (!vj || !json_int_range(q, "variant", vj, 0, UINT32_MAX, &v))
			return false;
		pr->index = (uint32_t)v;
		return true;
	}
	}
	return false;
}

static bool parse_place(PB *b, JPath p, cJSON *j, OxPlace *out)
{
	if (!j || !json_index(p, j, "local", b->fn->nlocal, &out->local))
		return false;
	cJSON *projs = json_get_opt(j, "projection"), *pj;
	out->nproj = (uint32_t)cJSON_GetArraySize(projs);
	out->proj = arena_new_array(b->s->a, OxProj, out->nproj);
	int i = 0;
	cJSON_ArrayForEach(pj, projs) {
		if (!parse_proj(b, item(b, p, "projection", i), pj, &out->proj[i]))
			return false;
		i++;
	}
	return true;
}

/* j.key: a place object, its errors under p.key (or under p: at_p) */
static bool obj_place(PB *b, JPath p, cJSON *j, const char *key, bool at_p, OxPlace *out)
{
	return parse_place(b, at_p ? p : field(b, p, key), json_get(p, j, key, cJSON_Object), out);
}

/* --------------------------------------------------------- constants */

static bool parse_const(PB *b, JPath p, cJSON *c, OxType *t, OxConst *out);

static bool alloc_known(PFile *f, int64_t id)
{
	for (uint32_t i = 0; i < f->in->nalloc; i++)
		if (f->in->allocs[i].id == id)
			return true;
	return false;
}

static bool const_ref(PB *b, JPath p, cJSON *c, OxConst *out)
{
	out->alloc = json_int(p, c, "alloc");
	if (ps_failed(b->s))
		return false;
	if (!alloc_known(b->f, out->alloc))
		return fe_error(p, "constant refers to allocation %lld, which is not in \"allocs\"",
		                (long long)out->alloc), false;
	out->offset = json_u64(p, c, "offset");
	cJSON *meta = json_get_opt(c, "meta");
	if (meta && !json_u128(meta, &out->meta))
		return fe_error(p, "bad slice length"), false;
	out->has_meta = meta != NULL;
	return !ps_failed(b->s);
}

static OxType *field_type(OxType *t, uint32_t variant, uint32_t i)
{
	if (!t || variant >= t->nvariant || i >= t->variants[variant].nfield)
		return NULL;
	return t->variants[variant].fields[i];
}

static bool const_adt(PB *b, JPath p, cJSON *c, OxType *t, OxConst *out)
{
	out->variant = json_u32(p, c, "variant");
	cJSON *fs = json_get_opt(c, "fields"), *fc;
	out->nfield = (uint32_t)cJSON_GetArraySize(fs);
	out->fields = arena_new_array(b->s->a, OxConst, out->nfield);
	uint32_t i = 0;
	cJSON_ArrayForEach(fc, fs) {
		if (ps_failed(b->s) ||
		    !parse_const(b, jpath_index(b->s->a, p, (int)i), fc, field_type(t, out->variant, i), &out->fields[i]))
			return false;
		i++;
	}
	return !ps_failed(b->s);
}

static bool const_bytes(PB *b, JPath p, cJSON *c, OxType *t, OxConst *out)
{
	const char *hex = json_str(p, c, "bytes");
	if (ps_failed(b->s))
		return false;
	if (!parse_hex(b->s->a, hex, &out->bytes, &out->nbytes)) {
		if (t)
			return fe_error(p, "constant of `%s` needs %llu bytes", t->name,
			                (unsigned long long)(t->has_layout ? t->layout.size : 0)), false;
		return fe_error(p, "\"bytes\" must be hex digits, two a byte"), false;
	}
	return parse_relocs(b->s, field(b, p, "relocs"), json_get_opt(c, "relocs"), &out->relocs, &out->nreloc);
}

/* A function item: zero-sized, unless it is the operand of a cast to a
 * function pointer, where mir-export names the body with "symbol". */
static bool const_fn(PB *b, JPath p, cJSON *c, OxConst *out)
{
	cJSON *sym = json_get_opt(c, "symbol");
	if (!sym)
		return true;
	if (!cJSON_IsString(sym))
		return fe_error(p, "\"symbol\" must be a string"), false;
	FuncDef *d = fe_map_get(b->s->syms, "", sym->valuestring);
	if (!d)
		return PB_ERROR(b, OX_INPUT, "the address of `%s` is taken, but its body is in none of the inputs",
		                json_str(p, c, "function"));
	out->fn = d->fn;
	return !ps_failed(b->s);
}

/* t: the constant's type when known (a field of an enum variant that
 * does not exist has none); a zero-sized one needs no value. */
static bool parse_const(PB *b, JPath p, cJSON *c, OxType *t, OxConst *out)
{
	static const char *const names[] = { "zst", "fn", "scalar", "bytes", "ref", "adt", "unevaluated" };
	const char *kind = json_str(p, c, "kind");
	if (ps_failed(b->s))
		return false;
	int k = find_name(names, (int)countof(names), kind);
	if (k < 0 && t && ox_type_is_zst(t))
		k = OX_CONST_ZST;         /* a zero-sized value needs no bytes, whatever its kind says */
	out->kind = (OxConstKind)k;
	if (k == OX_CONST_UNEVALUATED) {
		out->def = arena_strdup(b->s->a, json_str(p, c, "def"));
		out->body = fe_map_get(b->s->names, b->f->in->crate, out->def);    /* a body of the same crate */
		if (!out->body && !ps_failed(b->s))
			return PB_ERROR(b, OX_INPUT, "constant `%s` has no body in the inputs", out->def);
		return !ps_failed(b->s);
	}
	if (k == OX_CONST_FN)
		return const_fn(b, p, c, out);
	if (k == OX_CONST_ZST || (t && ox_type_is_zst(t)))
		return true;
	switch (k) {
	case OX_CONST_SCALAR: {
		cJSON *v = json_get(p, c, "bits", 0);
		if (v && !json_u128(v, &out->bits))
			fe_error(p, "bad scalar bits");
		return !ps_failed(b->s);
	}
	case OX_CONST_BYTES:
		return const_bytes(b, p, c, t, out);
	case OX_CONST_REF:
		return const_ref(b, p, c, out);
	case OX_CONST_ADT:
		return const_adt(b, p, c, t, out);
	}
	return PB_ERROR(b, OX_UNSUPPORTED, "constant of kind \"%s\" (type `%s`) is not supported", kind, t ? t->name : "?");
}

/* ---------------------------------------------------------- operands */

static bool parse_operand(PB *b, JPath p, cJSON *j, OxOperand *out)
{
	if (!j)
		return false;
	const char *kind = json_str(p, j, "kind");
	if (!strcmp(kind, "copy") || !strcmp(kind, "move")) {
		out->kind = kind[0] == 'c' ? OX_OPERAND_COPY : OX_OPERAND_MOVE;
		return obj_place(b, p, j, "place", false, &out->place);
	}
	if (!strcmp(kind, "constant")) {
		out->kind = OX_OPERAND_CONSTANT;
		out->ty = parse_type_ref(p, b->f, j, "ty");
		cJSON *c = json_get(p, j, "const", cJSON_Object);
		return out->ty && c && parse_const(b, field(b, p, "const"), c, out->ty, &out->c);
	}
	if (!ps_failed(b->s))
		fe_error(p, "unknown operand kind \"%s\"", kind);
	return false;
}

static bool obj_operand(PB *b, JPath p, cJSON *j, const char *key, OxOperand *out)
{
	return parse_operand(b, field(b, p, key), json_get(p, j, key, cJSON_Object), out);
}

/* n operands from the array arr (paths p.key[i], or p itself: at_p) */
static bool operand_list(PB *b, JPath p, cJSON *arr, const char *key, bool at_p, OxOperand **out, uint32_t *n)
{
	*n = (uint32_t)cJSON_GetArraySize(arr);
	*out = arena_new_array(b->s->a, OxOperand, *n);
	int i = 0;
	cJSON *e;
	cJSON_ArrayForEach(e, arr) {
		if (!parse_operand(b, at_p ? p : item(b, p, key, i), e, &(*out)[i]))
			return false;
		i++;
	}
	return true;
}

/* ----------------------------------------------------------- rvalues */

const struct OxBinOpInfo ox_binops[OX_BIN_COUNT] = {
#define OX_BINOP_INFO(e, name, code) { name, code },
	OX_BINOPS(OX_BINOP_INFO)
#undef OX_BINOP_INFO
};

static bool rv_binary(PB *b, JPath p, cJSON *rv, OxRvalue *out)
{
	const char *op = json_str(p, rv, "op");
	out->nops = 2;
	out->ops = arena_new_array(b->s->a, OxOperand, 2);
	if (!obj_operand(b, p, rv, "lhs", &out->ops[0]) || !obj_operand(b, p, rv, "rhs", &out->ops[1]))
		return false;
	for (int i = 0; i < OX_BIN_COUNT; i++)
		if (!strcmp(ox_binops[i].name, op)) {
			out->binop = (OxBinOp)i;
			return true;
		}
	return PB_ERROR(b, OX_UNSUPPORTED, "binary operator `%s` is not supported", op);
}

static bool one_operand(PB *b, JPath p, cJSON *rv, OxRvalue *out)
{
	out->nops = 1;
	out->ops = arena_new_array(b->s->a, OxOperand, 1);
	return obj_operand(b, p, rv, "operand", &out->ops[0]);
}

static bool rv_unary(PB *b, JPath p, cJSON *rv, OxRvalue *out)
{
	static const char *const names[] = { "Not", "Neg", "PtrMetadata" };
	const char *op = json_str(p, rv, "op");
	if (!one_operand(b, p, rv, out))
		return false;
	int k = find_name(names, (int)countof(names), op);
	if (k < 0)
		return PB_ERROR(b, OX_UNSUPPORTED, "unary operator `%s` is not supported", op);
	out->unop = (OxUnOp)k;
	return true;
}

static OxCastKind cast_kind(const char *s)
{
	static const char *const names[] = { "Transmute", "IntToInt", "IntToFloat", "FloatToInt", "FloatToFloat",
	                                     "PointerExposeProvenance", "PointerWithExposedProvenance", "PtrToPtr" };
	int k = find_name(names, (int)countof(names), s);
	if (k >= 0)
		return (OxCastKind)k;
	/* as printed: PointerCoercion(Unsize, Implicit) and the like */
	if (!strncmp(s, "PointerCoercion(Unsize", 22))
		return OX_CAST_UNSIZE;
	if (!strncmp(s, "PointerCoercion(MutToConstPointer", 33))
		return OX_CAST_MUT_TO_CONST;
	if (!strncmp(s, "PointerCoercion(ArrayToPointer", 30))
		return OX_CAST_ARRAY_TO_POINTER;
	if (!strncmp(s, "PointerCoercion(ReifyFnPointer", 30) || !strncmp(s, "PointerCoercion(ClosureFnPointer", 32))
		return OX_CAST_REIFY_FN_POINTER;
	return OX_CAST_UNSUPPORTED;
}

static bool rv_aggregate(PB *b, JPath p, cJSON *rv, OxRvalue *out)
{
	static const char *const names[] = { "tuple", "array", "adt", "closure", "raw_ptr" };
	const char *kind = json_str(p, rv, "aggregate");
	out->variant = json_get_opt(rv, "variant") ? json_u32(p, rv, "variant") : 0;
	cJSON *fs = json_get(p, rv, "fields", cJSON_Array);
	if (!fs || ps_failed(b->s))
		return false;
	int k = find_name(names, (int)countof(names), kind);
	if (k < 0)
		return fe_error(field(b, p, "aggregate"), "unknown aggregate kind \"%s\"", kind), false;
	out->agg = (OxAggKind)k;
	if (out->agg == OX_AGG_RAW_PTR && cJSON_GetArraySize(fs) != 2)
		return PB_ERROR(b, OX_INPUT, "raw pointer built from %d fields", cJSON_GetArraySize(fs));
	return operand_list(b, p, fs, "fields", out->agg == OX_AGG_RAW_PTR, &out->ops, &out->nops);
}

static bool rv_nullary(PB *b, JPath p, cJSON *rv, OxRvalue *out)
{
	static const char *const names[] = { "SizeOf", "AlignOf", "UbChecks" };
	const char *op = json_str(p, rv, "op");
	if (!(out->ty = parse_type_ref(p, b->f, rv, "ty")))
		return false;
	int k = find_name(names, (int)countof(names), op);
	if (k < 0)
		return PB_ERROR(b, OX_UNSUPPORTED, "nullary operation `%s` is not supported", op);
	out->nullop = (OxNullOp)k;
	return true;
}

static bool parse_rvalue(PB *b, JPath p, cJSON *rv, OxRvalue *out)
{
	static const char *const names[] = { "use", "copy_for_deref", "binary", "unary", "cast", "ref",
	                                     "aggregate", "repeat", "discriminant", "nullary", "raw_ptr" };
	const char *kind = json_str(p, rv, "kind");
	if (ps_failed(b->s))
		return false;
	int k = find_name(names, (int)countof(names), kind);
	if (k < 0)
		return PB_ERROR(b, OX_UNSUPPORTED, "rvalue `%s` is not supported", kind);
	out->kind = k == 10 ? OX_RV_REF : (OxRvalueKind)k;
	switch (out->kind) {
	case OX_RV_USE:
		return one_operand(b, p, rv, out);
	case OX_RV_COPY_FOR_DEREF:
		return obj_place(b, p, rv, "place", true, &out->place);
	case OX_RV_BINARY:
		return rv_binary(b, p, rv, out);
	case OX_RV_UNARY:
		return rv_unary(b, p, rv, out);
	case OX_RV_CAST:
		out->cast_name = arena_strdup(b->s->a, json_str(p, rv, "cast"));
		out->cast = cast_kind(out->cast_name);
		out->vtable = -1;
		out->vtable_word = -1;
		if (json_get_opt(rv, "vtable")) {
			uint32_t vt;
			if (!json_index(p, rv, "vtable", b->f->in->nvtable, &vt))
				return false;
			out->vtable = vt;
			b->f->in->vtables[vt].made = true;
		}
		if (json_get_opt(rv, "vtable_word")) {
			uint32_t w;
			if (!json_index(p, rv, "vtable_word", UINT32_MAX, &w))
				return false;
			if (w < 3)
				return fe_error(jpath_field(b->s->a, p, "vtable_word"), "word %u of a vtable is metadata, "
				                "not a vtable's address", w), false;
			out->vtable_word = w;
		}
		return one_operand(b, p, rv, out);
	case OX_RV_REF:
		out->is_mut = !cJSON_IsFalse(json_get_opt(rv, "mutable"));
		return obj_place(b, p, rv, "place", false, &out->place);
	case OX_RV_DISCRIMINANT:
		return obj_place(b, p, rv, "place", false, &out->place);
	case OX_RV_AGGREGATE:
		return rv_aggregate(b, p, rv, out);
	case OX_RV_REPEAT:
		out->count = json_u64(p, rv, "count");
		return !ps_failed(b->s) && one_operand(b, p, rv, out);
	case OX_RV_NULLARY:
		return rv_nullary(b, p, rv, out);
	}
	return false;
}

/* -------------------------------------------------------- statements */

static bool parse_stmt(PB *b, JPath p, cJSON *j, OxStmt *out)
{
	static const char *const names[] = { "assign", "set_discriminant", "assume", "copy_nonoverlapping" };
	const char *kind = json_str(p, j, "kind");
	if (ps_failed(b->s) || !parse_span(b->s, b->f, p, json_get_opt(j, "span"), &out->span))
		return false;
	b->at = out->span;
	int k = find_name(names, (int)countof(names), kind);
	if (k < 0)
		return PB_ERROR(b, OX_UNSUPPORTED, "statement `%s` is not supported", kind);
	out->kind = (OxStmtKind)k;
	switch (out->kind) {
	case OX_STMT_ASSIGN: {
		cJSON *rv = json_get(p, j, "rvalue", cJSON_Object);
		return rv && obj_place(b, p, j, "place", false, &out->place) &&
		       parse_rvalue(b, field(b, p, "rvalue"), rv, &out->rv);
	}
	case OX_STMT_SET_DISCRIMINANT: {
		int64_t v;
		cJSON *vj = json_get(p, j, "variant", 0);
		if (!obj_place(b, p, j, "place", false, &out->place) || !vj ||
		    !json_int_range(p, "variant", vj, 0, UINT32_MAX, &v))
			return false;
		out->variant = (uint32_t)v;
		return true;
	}
	case OX_STMT_ASSUME:
		return obj_operand(b, p, j, "operand", &out->ops[0]);
	case OX_STMT_COPY_NONOVERLAPPING:
		return obj_operand(b, p, j, "src", &out->ops[0]) && obj_operand(b, p, j, "dst", &out->ops[1]) &&
		       obj_operand(b, p, j, "count", &out->ops[2]);
	}
	return false;
}

/* ------------------------------------------------------- terminators */

static bool block_ref(PB *b, JPath p, cJSON *j, const char *key, uint32_t *out)
{
	return json_index(p, j, key, b->fn->nblock, out);
}

static bool term_switch(PB *b, JPath p, cJSON *t, OxTerm *out)
{
	if (!obj_operand(b, p, t, "discr", &out->op))
		return false;
	cJSON *targets = json_get(p, t, "targets", cJSON_Array), *e;
	if (!targets)
		return false;
	out->ntarget = (uint32_t)cJSON_GetArraySize(targets);
	out->targets = arena_new_array(b->s->a, OxSwitchTarget, out->ntarget);
	int i = 0;
	cJSON_ArrayForEach(e, targets) {
		JPath q = item(b, p, "targets", i);
		OxSwitchTarget *st = &out->targets[i++];
		cJSON *v;
		if (!block_ref(b, q, e, "target", &st->target) || !(v = json_get(q, e, "value", 0)))
			return false;
		if (!json_u128(v, &st->value))
			return fe_error(field(b, q, "value"), "must be an integer constant (decimal or "
			                "0x-hex, in 128 bits)"), false;
	}
	return block_ref(b, p, t, "otherwise", &out->otherwise);
}

/* Optional overflow asserts vanish when overflow checks are off, exactly
 * as rustc's own codegen does (MIR-EXPORT.md): OverflowNeg and Overflow
 * of any op but Div and Rem (`MIN / -1`); their cond is not read. */
static bool term_assert(PB *b, JPath p, cJSON *t, OxTerm *out)
{
	cJSON *msg;
	if (!block_ref(b, p, t, "target", &out->target) || !(msg = json_get(p, t, "msg", cJSON_Object)))
		return false;
	const char *kind = json_str(p, msg, "kind");
	cJSON *opj = json_get_opt(msg, "op");
	const char *aop = cJSON_IsString(opj) ? opj->valuestring : "";
	out->optional = !strcmp(kind, "OverflowNeg") ||
	                (!strcmp(kind, "Overflow") && strcmp(aop, "Div") && strcmp(aop, "Rem"));
	if (out->optional || ps_failed(b->s))
		return !ps_failed(b->s);
	if (!obj_operand(b, p, t, "cond", &out->op))
		return false;
	out->expected = json_bool(p, t, "expected");
	cJSON *text = json_get_opt(t, "text");
	out->text = arena_strdup(b->s->a, cJSON_IsString(text) ? text->valuestring : kind);
	return !ps_failed(b->s);
}

/* The first generic argument of an intrinsic (a type index), if any. */
static bool generic_arg0(PB *b, JPath cp, cJSON *callee, OxType **out)
{
	cJSON *ga0 = cJSON_GetArrayItem(json_get_opt(callee, "generic_args"), 0);
	uint32_t i;
	*out = NULL;
	if (!ga0 || !cJSON_IsNumber(ga0))
		return true;
	if (!json_index_value(field(b, cp, "generic_args[0]"), NULL, ga0, b->f->ntype, &i))
		return false;
	*out = b->f->types[i];
	return true;
}

/* orderings in "const_args" (rustc 1.95 and 1.96: `AtomicOrdering::Relaxed`),
 * and integers ("3", or with a type suffix, "3_i32") */
static void const_orderings(cJSON *callee, OxCallee *out)
{
	cJSON *c;
	out->ords[0] = out->ords[1] = -1;
	cJSON_ArrayForEach(c, json_get_opt(callee, "const_args")) {
		if (!cJSON_IsString(c))
			continue;
		char *end;
		long long v = strtoll(c->valuestring, &end, 10);
		if (out->nord < 2 && ox_ordering(c->valuestring) >= 0)
			out->ords[out->nord++] = ox_ordering(c->valuestring);
		else if (out->nint < 2 && end != c->valuestring && (!*end || *end == '_'))
			out->ints[out->nint++] = v;
	}
}

static bool parse_callee(PB *b, JPath cp, cJSON *callee, OxCallee *out)
{
	static const char *const names[] = { "function", "panic", "device", "intrinsic", "pointer", "virtual" };
	const char *kind = json_str(cp, callee, "kind");
	Arena *a = b->s->a;
	if (ps_failed(b->s))
		return false;
	int k = find_name(names, (int)countof(names), kind);
	if (k < 0)
		return PB_ERROR(b, OX_UNSUPPORTED, "call of kind \"%s\" is not supported", kind);
	out->kind = (OxCalleeKind)k;
	switch (out->kind) {
	case OX_CALLEE_FUNCTION: {
		const char *sym = json_str(cp, callee, "symbol");
		out->name = arena_strdup(a, json_str(cp, callee, "name"));
		FuncDef *d = fe_map_get(b->s->syms, "", sym);
		if (ps_failed(b->s))
			return false;
		if (!d)
			return PB_ERROR(b, OX_INPUT, "call to `%s`: its body is in none of the inputs (pass the JSON of the "
			                "crate that defines it, or mark it #[inline])", out->name);
		out->fn = d->fn;
		return true;
	}
	case OX_CALLEE_PANIC:
		out->name = arena_strdup(a, json_str(cp, callee, "name"));
		break;
	case OX_CALLEE_DEVICE:
		out->symbol = arena_strdup(a, json_str(cp, callee, "symbol"));
		break;
	case OX_CALLEE_INTRINSIC:
		out->name = arena_strdup(a, json_str(cp, callee, "name"));
		const_orderings(callee, out);
		return !ps_failed(b->s) && generic_arg0(b, cp, callee, &out->generic0);
	case OX_CALLEE_POINTER:
		out->pointer = arena_new_array(a, OxOperand, 1);
		return obj_operand(b, cp, callee, "operand", out->pointer);
	case OX_CALLEE_VIRTUAL:
	{
		int64_t slot;
		out->name = arena_strdup(a, json_str(cp, callee, "method"));
		if (ps_failed(b->s) || !json_int_range(cp, "slot", json_get(cp, callee, "slot", 0), 3, 1 << 20, &slot))
			return false;
		out->slot = (uint32_t)slot;
		break;
	}
	}
	return !ps_failed(b->s);
}

static bool term_call(PB *b, JPath p, cJSON *t, OxTerm *out)
{
	cJSON *callee = json_get(p, t, "callee", cJSON_Object);
	if (!callee || !obj_place(b, p, t, "dest", false, &out->place) ||
	    !parse_callee(b, field(b, p, "callee"), callee, &out->callee))
		return false;
	if (out->callee.kind == OX_CALLEE_PANIC)
		return true;              /* diverges: no arguments or target read */
	cJSON *args = json_get(p, t, "args", cJSON_Array);
	if (!args || !operand_list(b, p, args, "args", false, &out->args, &out->nargs))
		return false;
	out->has_target = json_get_opt(t, "target") != NULL;
	return !out->has_target || block_ref(b, p, t, "target", &out->target);
}

static bool parse_term(PB *b, JPath p, cJSON *t, OxTerm *out)
{
	static const char *const names[] = { "goto", "switch_int", "return", "unreachable", "assert", "call",
	                                     "drop", "unwind_resume", "unwind_terminate" };
	const char *kind = json_str(p, t, "kind");
	if (ps_failed(b->s) || !parse_span(b->s, b->f, p, json_get_opt(t, "span"), &out->span))
		return false;
	b->at = out->span;
	int k = find_name(names, (int)countof(names), kind);
	if (k < 0)
		return PB_ERROR(b, OX_UNSUPPORTED, "terminator `%s` is not supported", kind);
	/* unwinding never happens: kernels are built with panic=abort */
	out->kind = k > OX_TERM_DROP ? OX_TERM_UNREACHABLE : (OxTermKind)k;
	switch (out->kind) {
	case OX_TERM_GOTO:
		return block_ref(b, p, t, "target", &out->target);
	case OX_TERM_SWITCH_INT:
		return term_switch(b, p, t, out);
	case OX_TERM_RETURN: case OX_TERM_UNREACHABLE:
		return true;
	case OX_TERM_ASSERT:
		return term_assert(b, p, t, out);
	case OX_TERM_CALL:
		return term_call(b, p, t, out);
	case OX_TERM_DROP:
		return obj_place(b, p, t, "place", false, &out->place) && block_ref(b, p, t, "target", &out->target);
	}
	return false;
}

/* ------------------------------------------------------------ bodies */

static bool parse_block(PB *b, JPath p, cJSON *jb, OxBlock *out)
{
	cJSON *stmts = json_get(p, jb, "statements", cJSON_Array), *s;
	if (!stmts)
		return false;
	out->nstmt = (uint32_t)cJSON_GetArraySize(stmts);
	out->stmts = arena_new_array(b->s->a, OxStmt, out->nstmt);
	int k = 0;
	cJSON_ArrayForEach(s, stmts) {
		if (!parse_stmt(b, item(b, p, "statements", k), s, &out->stmts[k]))
			return false;
		k++;
	}
	cJSON *t = json_get(p, jb, "terminator", cJSON_Object);
	return t && parse_term(b, field(b, p, "terminator"), t, &out->term);
}

bool parse_body(PState *s, PFile *f, cJSON *jfn, OxFunc *fn)
{
	JPath p = jpath_root(s->a, f->in->path, fn->jpath);
	PB b = { s, f, fn, { -1, 0, 0 } };
	cJSON *blocks = json_get(p, jfn, "blocks", cJSON_Array), *jb;
	if (!blocks || cJSON_GetArraySize(blocks) == 0)
		return blocks ? (fe_error(p, "a body needs at least one block"), false) : false;
	fn->nblock = (uint32_t)cJSON_GetArraySize(blocks);
	fn->blocks = arena_new_array(s->a, OxBlock, fn->nblock);
	uint32_t i = 0;
	JPath bp = field(&b, p, "blocks");
	cJSON_ArrayForEach(jb, blocks) {
		if (!parse_block(&b, jpath_index(s->a, bp, (int)i), jb, &fn->blocks[i]))
			return false;
		i++;
	}
	return true;
}
