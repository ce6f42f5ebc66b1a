/* llir_byteloop.c: byte loops — compare_bytes (`==` on &str and [u8])
 * and swap_nonoverlapping_bytes (slice rotate/swap) are loops, which the
 * op-at-a-time lowering cannot build in place: they call a function of
 * the module made here once, in LLIR:
 *   __oxide_compare_bytes(a, b, n) -> i32   the first byte difference
 *                                           a[i] - b[i] (memcmp's sign), or 0
 *   __oxide_swap_bytes(a, b, n)             swaps n bytes */
#include "llir.h"

static Func *byte_loop_func(Lower *l, bool compare)
{
	const char *sym = compare ? "__oxide_compare_bytes" : "__oxide_swap_bytes";
	Func *f = ir_func_find(l->m, sym);
	if (f)
		return f;
	Module *m = l->m;
	Type *ptr = ir_type_ptr(m, 0), *i64 = ir_type_int(m, 64, false), *i8 = ir_type_int(m, 8, false);
	Type *i32 = ir_type_int(m, 32, false), *bool_t = ir_type_bool(m);
	f = ir_func_new(m, sym, sym);
	f->loc = l->f->loc;
	f->ret = compare ? i32 : ir_type_void(m);
	f->nparam = 3;
	f->params = arena_new_array(m->arena, Param, 3);
	Type *pts[3] = { ptr, ptr, i64 };
	Block *entry = ir_block_new(f), *head = ir_block_new(f), *body = ir_block_new(f);
	Block *next = compare ? ir_block_new(f) : NULL, *diff = compare ? ir_block_new(f) : NULL, *done = ir_block_new(f);
	Value *p[3];
	for (int i = 0; i < 3; i++) {
		f->params[i].type = pts[i];
		p[i] = ir_block_add_arg(entry, pts[i]);
	}
	Loc loc = l->f->loc;
	Builder b = { m, entry, NULL, loc };
	Value *zero = ir_build_const(&b, OP_LLIR_CONST, i64, 0, 0);
	ir_op_set_succ(m, ir_build(&b, OP_LLIR_BR, 0, NULL, 0, NULL, 1), 0, head, 1, &zero);
	/* head(i): i < n ? body : done */
	Value *i = ir_block_add_arg(head, i64);
	b = (Builder){ m, head, NULL, loc };
	Value *cmp[2] = { i, p[2] };
	Value *more = ir_build1(&b, OP_LLIR_ICMP, bool_t, 2, cmp);
	more->def->attr.cmp.pred = PRED_ULT;
	Op *br = ir_build(&b, OP_LLIR_CONDBR, 0, NULL, 1, &more, 2);
	ir_op_set_succ(m, br, 0, body, 0, NULL);
	ir_op_set_succ(m, br, 1, done, 0, NULL);
	/* body: the bytes at i */
	b = (Builder){ m, body, NULL, loc };
	Value *addr[2], *byte[2];
	for (int k = 0; k < 2; k++) {
		Value *g[2] = { p[k], i };
		addr[k] = ir_build1(&b, OP_LLIR_GEP, ptr, 2, g);
		addr[k]->def->attr.gep.stride = 1;
		byte[k] = ir_build1(&b, OP_LLIR_LOAD, i8, 1, &addr[k]);
		byte[k]->def->attr.access.align = 1;
	}
	Value *one = ir_build_const(&b, OP_LLIR_CONST, i64, 1, 0);
	Value *inc[2] = { i, one };
	if (compare) {
		Value *ne = ir_build1(&b, OP_LLIR_ICMP, bool_t, 2, byte);
		ne->def->attr.cmp.pred = PRED_NE;
		Op *c = ir_build(&b, OP_LLIR_CONDBR, 0, NULL, 1, &ne, 2);
		ir_op_set_succ(m, c, 0, diff, 0, NULL);
		ir_op_set_succ(m, c, 1, next, 0, NULL);
		b = (Builder){ m, next, NULL, loc };
		Value *i1 = ir_build1(&b, OP_LLIR_ADD, i64, 2, inc);
		ir_op_set_succ(m, ir_build(&b, OP_LLIR_BR, 0, NULL, 0, NULL, 1), 0, head, 1, &i1);
		b = (Builder){ m, diff, NULL, loc };
		Value *w[2];
		for (int k = 0; k < 2; k++)
			w[k] = ir_build1(&b, OP_LLIR_ZEXT, i32, 1, &byte[k]);
		Value *d = ir_build1(&b, OP_LLIR_SUB, i32, 2, w);
		ir_build(&b, OP_LLIR_RET, 0, NULL, 1, &d, 0);
		b = (Builder){ m, done, NULL, loc };
		Value *z = ir_build_const(&b, OP_LLIR_CONST, i32, 0, 0);
		ir_build(&b, OP_LLIR_RET, 0, NULL, 1, &z, 0);
	} else {
		for (int k = 0; k < 2; k++) {
			Value *st[2] = { byte[1 - k], addr[k] };
			ir_build(&b, OP_LLIR_STORE, 0, NULL, 2, st, 0)->attr.access.align = 1;
		}
		Value *i1 = ir_build1(&b, OP_LLIR_ADD, i64, 2, inc);
		ir_op_set_succ(m, ir_build(&b, OP_LLIR_BR, 0, NULL, 0, NULL, 1), 0, head, 1, &i1);
		b = (Builder){ m, done, NULL, loc };
		ir_build(&b, OP_LLIR_RET, 0, NULL, 0, NULL, 0);
	}
	return f;
}

/* raw_eq::<T>(a, b): the size_of::<T>() bytes at a and b are equal (the
 * comparing helper's result is 0) */
Value *raw_eq_call(Lower *l, Op *op)
{
	Func *f = byte_loop_func(l, true);
	Type *i64 = ir_type_int(l->m, 64, false);
	Value *args[3] = { op->opd[0], op->opd[1], iconst(l, i64, op->rty ? op->rty->size : 0, 0) };
	Type *t = f->ret;
	Op *c = ir_build(&l->b, OP_LLIR_CALL, 1, &t, 3, args, 0);
	c->sym = f->symbol;
	return icmp(l, PRED_EQ, &c->res[0], iconst(l, f->ret, 0, 0));
}

Value *byte_loop_call(Lower *l, Op *op, bool compare)
{
	Func *f = byte_loop_func(l, compare);
	Type *i64 = ir_type_int(l->m, 64, false);
	Value *n = int_resize(l, op->opd[2], false, i64);
	/* swap_nonoverlapping_chunks::<N> counts chunks of N bytes, given as
	 * the generic argument [u8; N] */
	if (!compare && op->rty && op->rty->size > 1)
		n = emit2(l, OP_LLIR_MUL, i64, n, iconst(l, i64, op->rty->size, 0));
	Value *args[3] = { op->opd[0], op->opd[1], n };
	Type *t = compare ? f->ret : NULL;
	Op *c = ir_build(&l->b, OP_LLIR_CALL, compare ? 1 : 0, &t, 3, args, 0);
	c->sym = f->symbol;
	if (!compare)
		return NULL;
	/* i32 in the helper; Rust's compare_bytes returns i32 too */
	return op->nres ? int_resize(l, &c->res[0], true, op->res[0].type) : NULL;
}
