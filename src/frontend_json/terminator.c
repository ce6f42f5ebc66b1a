/* terminator.c: MIR terminators (control flow, calls, asserts) and the
 * function ABI shared by definitions and calls. */
#include "build.h"
#include "../passes/passes.h"

#include <string.h>

/* Parameters for one Rust argument type; see the ABI note in build.c. */
void abi_lower(Fb *fb, RType *t, bool kernel, Param *out, uint32_t *n)
{
	Module *m = fb->m;
	*n = 0;
	switch (val_kind(t)) {
	case VK_ZST:
		return;
	case VK_SCALAR:
		out[(*n)++] = (Param){ scalar_type_of(fb, t), 0, 0, NULL };
		return;
	case VK_FAT:
		out[(*n)++] = (Param){ ir_type_ptr(m, 0), 0, 0, NULL };
		out[(*n)++] = (Param){ usize_type(fb), 0, 0, NULL };
		return;
	case VK_MEM:
		break;
	}
	if (t->abi == ABI_SCALAR) {
		out[(*n)++] = (Param){ t->scalars[0].type, 0, 0, NULL };
	} else if (t->abi == ABI_SCALAR_PAIR) {
		out[(*n)++] = (Param){ t->scalars[0].type, 0, 0, NULL };
		out[(*n)++] = (Param){ t->scalars[1].type, 0, 0, NULL };
	} else {
		out[(*n)++] = (Param){ ir_type_ptr(m, 0), kernel ? t->size : 0, kernel ? t->align : 0, NULL };
	}
}

/* Offset of the second half of a ScalarPair layout. */
static uint64_t pair_offset(RType *t)
{
	if (val_kind(t) == VK_FAT)
		return 8;
	uint64_t a = t->scalars[1].type->bits / 8, s = t->scalars[0].type->bits / 8;
	if (t->scalars[0].type->kind == TY_PTR)
		s = 8;
	if (t->scalars[1].type->kind == TY_PTR)
		a = 8;
	return (s + a - 1) / a * a;
}

Type *abi_return(Fb *fb, RType *t, bool *sret)
{
	*sret = false;
	if (t->kind == RT_NEVER || rtype_is_zst(t))
		return ir_type_void(fb->m);
	Type *s = scalar_type_of(fb, t);
	if (s && (val_kind(t) == VK_SCALAR || t->abi == ABI_SCALAR))
		return s;
	*sret = true;
	return ir_type_void(fb->m);
}

/* Argument values of one Rust value, following abi_lower. */
static void abi_args(Fb *fb, Val v, Value **out, uint32_t *n)
{
	*n = 0;
	switch (val_kind(v.ty)) {
	case VK_ZST:
		return;
	case VK_SCALAR:
		out[(*n)++] = v.v[0];
		return;
	case VK_FAT:
		out[(*n)++] = v.v[0];
		out[(*n)++] = v.v[1];
		return;
	case VK_MEM:
		break;
	}
	RType *t = v.ty;
	if (t->abi == ABI_SCALAR) {
		out[(*n)++] = build_load(fb, v.addr, t->scalars[0].type);
	} else if (t->abi == ABI_SCALAR_PAIR) {
		out[(*n)++] = build_load(fb, v.addr, t->scalars[0].type);
		out[(*n)++] = build_load(fb, ptr_add(fb, v.addr, pair_offset(t)), t->scalars[1].type);
	} else {
		Value *copy = temp_slot(fb, t);  /* the callee may write its argument */
		build_copy(fb, copy, v.addr, t);
		out[(*n)++] = copy;
	}
}

/* Store incoming parameters into the argument's slot (function entry). */
void abi_store_params(Fb *fb, RType *t, Value **params, Value *slot)
{
	switch (val_kind(t)) {
	case VK_ZST:
		return;
	case VK_SCALAR:
		build_store(fb, params[0], slot);
		return;
	case VK_FAT:
		build_store(fb, params[0], slot);
		build_store(fb, params[1], ptr_add(fb, slot, 8));
		return;
	case VK_MEM:
		break;
	}
	if (t->abi == ABI_SCALAR) {
		build_store(fb, params[0], slot);
	} else if (t->abi == ABI_SCALAR_PAIR) {
		build_store(fb, params[0], slot);
		build_store(fb, params[1], ptr_add(fb, slot, pair_offset(t)));
	} else {
		build_copy(fb, slot, params[0], t);
	}
}

static Block *target_block(Fb *fb, JPath jp, cJSON *j, const char *key)
{
	cJSON *v = json_get(jp, j, key, cJSON_Number);
	if (!v)
		return NULL;
	if (v->valueint < 0 || (uint32_t)v->valueint >= fb->nblock) {
		fe_error(jp, "\"%s\": block %d does not exist", key, v->valueint);
		return NULL;
	}
	return fb->blocks[v->valueint];
}

static void build_goto(Fb *fb, Block *target)
{
	Op *op = ir_build(&fb->b, OP_MIR_GOTO, 0, NULL, 0, NULL, 1);
	ir_op_set_succ(fb->m, op, 0, target, 0, NULL);
}

static bool term_switch(Fb *fb, JPath jp, cJSON *t)
{
	Val d;
	if (!build_operand(fb, jpath_field(fb->a, jp, "discr"), json_get(jp, t, "discr", cJSON_Object), &d))
		return false;
	if (val_kind(d.ty) != VK_SCALAR)
		return fb_error(fb, "switchInt on `%s`", d.ty->name), false;
	cJSON *targets = json_get(jp, t, "targets", cJSON_Array), *e;
	uint32_t n = (uint32_t)cJSON_GetArraySize(targets), i = 0;
	Op *op = ir_build(&fb->b, OP_MIR_SWITCH, 0, NULL, 1, d.v, n + 1);
	U128 *vals = arena_new_array(fb->a, U128, n);
	cJSON_ArrayForEach(e, targets) {
		JPath q = jpath_index(fb->a, jpath_field(fb->a, jp, "targets"), (int)i);
		Block *b = target_block(fb, q, e, "target");
		if (!b || !json_u128(q, json_get(q, e, "value", 0), &vals[i]))
			return fe_error(q, "bad switch target"), false;
		ir_op_set_succ(fb->m, op, i++, b, 0, NULL);
	}
	ir_op_set_vals(fb->m, op, n, vals);
	Block *other = target_block(fb, jp, t, "otherwise");
	if (!other)
		return false;
	ir_op_set_succ(fb->m, op, n, other, 0, NULL);
	return true;
}

static bool term_return(Fb *fb)
{
	Type *ret = fb->fn->ret;
	if (ret->kind == TY_VOID) {
		ir_build(&fb->b, OP_MIR_RETURN, 0, NULL, 0, NULL, 0);
		return true;
	}
	Value *v = build_load(fb, fb->slot[0], ret);
	ir_build(&fb->b, OP_MIR_RETURN, 0, NULL, 1, &v, 0);
	return true;
}

/* Optional overflow asserts vanish when overflow checks are off, exactly
 * as rustc's own codegen does (MIR-EXPORT.md); bounds, division by zero
 * and division overflow asserts always stay. */
static bool term_assert(Fb *fb, JPath jp, cJSON *t)
{
	Block *target = target_block(fb, jp, t, "target");
	cJSON *msg = json_get(jp, t, "msg", cJSON_Object);
	if (!target || !msg)
		return false;
	const char *kind = json_str(jp, msg, "kind");
	cJSON *opj = json_get_opt(msg, "op");
	const char *aop = cJSON_IsString(opj) ? opj->valuestring : "";
	/* Overflow(Div|Rem) is `MIN / -1`: never optional. */
	bool optional = !strcmp(kind, "OverflowNeg") ||
	                (!strcmp(kind, "Overflow") && strcmp(aop, "Div") && strcmp(aop, "Rem"));
	if (optional) {
		build_goto(fb, target);
		return true;
	}
	Val c;
	if (!build_operand(fb, jpath_field(fb->a, jp, "cond"), json_get(jp, t, "cond", cJSON_Object), &c))
		return false;
	Op *op = ir_build(&fb->b, OP_MIR_ASSERT, 0, NULL, 1, c.v, 1);
	op->imm = json_bool(jp, t, "expected");
	cJSON *text = json_get_opt(t, "text");
	op->sym = arena_strdup(fb->a, cJSON_IsString(text) ? text->valuestring : kind);
	ir_op_set_succ(fb->m, op, 0, target, 0, NULL);
	return true;
}

static const char *const device_prims[] = {
	"__oxide_tid_x", "__oxide_tid_y", "__oxide_tid_z",
	"__oxide_ntid_x", "__oxide_ntid_y", "__oxide_ntid_z",
	"__oxide_ctaid_x", "__oxide_ctaid_y", "__oxide_ctaid_z",
	"__oxide_nctaid_x", "__oxide_nctaid_y", "__oxide_nctaid_z",
	"__oxide_barrier_sync", "__oxide_trap",
};

static bool in_table(const char *const *t, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(t[i], s))
			return true;
	return false;
}

static bool call_args(Fb *fb, JPath jp, cJSON *t, Value ***out, uint32_t *n, Value *sret)
{
	cJSON *args = json_get(jp, t, "args", cJSON_Array), *a;
	uint32_t cap = 2 * (uint32_t)cJSON_GetArraySize(args) + 1, i = 0;
	Value **vs = arena_new_array(fb->a, Value *, cap);
	*n = 0;
	if (sret)
		vs[(*n)++] = sret;
	cJSON_ArrayForEach(a, args) {
		Val v;
		uint32_t k;
		if (!build_operand(fb, jpath_index(fb->a, jpath_field(fb->a, jp, "args"), (int)i++), a, &v))
			return false;
		abi_args(fb, v, vs + *n, &k);
		*n += k;
	}
	*out = vs;
	return true;
}

static void finish_call(Fb *fb, JPath jp, cJSON *t)
{
	cJSON *target = json_get_opt(t, "target");
	if (target) {
		Block *b = target_block(fb, jp, t, "target");
		if (b)
			build_goto(fb, b);
	} else {
		ir_build(&fb->b, OP_MIR_UNREACHABLE, 0, NULL, 0, NULL, 0);
	}
}

static bool call_function(Fb *fb, JPath jp, cJSON *t, cJSON *callee, PlaceV *dst)
{
	const char *sym = json_str(jp, callee, "symbol");
	Func *f = ir_func_find(fb->m, sym);
	if (!f) {
		fb_error(fb, "call to `%s`: its body is in none of the inputs (pass the JSON of the crate "
		         "that defines it, or mark it #[inline])", json_str(jp, callee, "name"));
		return false;
	}
	bool sret = f->nparam && f->ret->kind == TY_VOID && dst->ty && val_kind(dst->ty) == VK_MEM &&
	            dst->ty->abi != ABI_SCALAR;
	Value **args;
	uint32_t n;
	if (!call_args(fb, jp, t, &args, &n, sret ? dst->addr : NULL))
		return false;
	if (n != f->nparam)
		return fb_error(fb, "call to `%s` with %u ABI arguments, expected %u", f->name, n, f->nparam), false;
	Type *rt = f->ret;
	Op *op = ir_build(&fb->b, OP_MIR_CALL, rt->kind == TY_VOID ? 0 : 1, &rt, n, args, 0);
	op->sym = f->symbol;
	if (op->nres)
		build_store(fb, &op->res[0], dst->addr);
	finish_call(fb, jp, t);
	return true;
}

static bool call_prim(Fb *fb, JPath jp, cJSON *t, Opcode code, const char *sym, PlaceV *dst)
{
	Value **args;
	uint32_t n;
	if (!call_args(fb, jp, t, &args, &n, NULL))
		return false;
	Type *rt = NULL;
	if (dst->ty && (val_kind(dst->ty) == VK_SCALAR || dst->ty->abi == ABI_SCALAR))
		rt = scalar_type_of(fb, dst->ty);
	Op *op = ir_build(&fb->b, code, rt ? 1 : 0, &rt, n, args, 0);
	op->sym = sym;
	if (op->nres)
		build_store(fb, &op->res[0], dst->addr);
	finish_call(fb, jp, t);
	return true;
}

static bool term_call(Fb *fb, JPath jp, cJSON *t)
{
	cJSON *callee = json_get(jp, t, "callee", cJSON_Object);
	PlaceV dst = { NULL, NULL, NULL, -1 };
	if (!callee || !build_place(fb, jpath_field(fb->a, jp, "dest"), json_get(jp, t, "dest", cJSON_Object), &dst))
		return false;
	JPath cp = jpath_field(fb->a, jp, "callee");
	const char *kind = json_str(cp, callee, "kind");
	if (!strcmp(kind, "function"))
		return call_function(fb, jp, t, callee, &dst);
	if (!strcmp(kind, "panic")) {
		Op *op = ir_build(&fb->b, OP_MIR_PANIC, 0, NULL, 0, NULL, 0);
		op->sym = arena_strdup(fb->a, json_str(cp, callee, "name"));
		return true;
	}
	if (!strcmp(kind, "device")) {
		const char *sym = json_str(cp, callee, "symbol");
		if (!in_table(device_prims, countof(device_prims), sym))
			return fb_error(fb, "unknown GPU primitive `%s` (oxide-device and oxidec versions differ?)", sym), false;
		return call_prim(fb, jp, t, OP_MIR_DEVICE, arena_strdup(fb->a, sym), &dst);
	}
	if (!strcmp(kind, "intrinsic")) {
		const char *name = json_str(cp, callee, "name");
		if (!llir_intrinsic_supported(name))
			return fb_error(fb, "intrinsic `core::intrinsics::%s` is not supported by oxidec yet", name), false;
		cJSON *ga = json_get_opt(callee, "generic_args");
		RType *g0 = NULL;
		if (cJSON_GetArraySize(ga) > 0) {
			cJSON *first = cJSON_GetArrayItem(ga, 0);
			if (cJSON_IsNumber(first) && (uint32_t)first->valueint < fb->f->ntype)
				g0 = fb->f->types[first->valueint];
		}
		if (!call_prim(fb, jp, t, OP_MIR_INTRINSIC, arena_strdup(fb->a, name), &dst))
			return false;
		for (Op *o = fb->b.block->last; o; o = o->prev)
			if (o->code == OP_MIR_INTRINSIC) {
				o->rty = g0;
				break;
			}
		return true;
	}
	fb_error(fb, "call of kind \"%s\" is not supported", kind);
	return false;
}

bool build_terminator(Fb *fb, JPath jp, cJSON *t)
{
	const char *kind = json_str(jp, t, "kind");
	fb_set_span(fb, json_get_opt(t, "span"));
	if (!strcmp(kind, "goto")) {
		Block *b = target_block(fb, jp, t, "target");
		if (b)
			build_goto(fb, b);
		return b != NULL;
	}
	if (!strcmp(kind, "switch_int"))
		return term_switch(fb, jp, t);
	if (!strcmp(kind, "return"))
		return term_return(fb);
	if (!strcmp(kind, "unreachable") || !strcmp(kind, "unwind_resume") || !strcmp(kind, "unwind_terminate")) {
		/* unwinding never happens: kernels are built with panic=abort */
		ir_build(&fb->b, OP_MIR_UNREACHABLE, 0, NULL, 0, NULL, 0);
		return true;
	}
	if (!strcmp(kind, "assert"))
		return term_assert(fb, jp, t);
	if (!strcmp(kind, "call"))
		return term_call(fb, jp, t);
	if (!strcmp(kind, "drop")) {
		fb_error(fb, "dropping a value with drop glue is not supported on the GPU");
		return false;
	}
	fb_error(fb, "terminator `%s` is not supported", kind);
	return false;
}
