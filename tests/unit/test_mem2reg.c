/* test_mem2reg.c: unit tests of pass_mem2reg.  Each test builds a small
 * mir-dialect function by hand, runs the pass, and checks that the result
 * verifies and prints exactly as expected. */
#include "../../src/passes/passes.h"
#include "unit.h"

#include <stdlib.h>

/* ------------------------------------------------------------ helpers */

static RType rt_i32 = { .kind = RT_INT, .name = "i32", .bits = 32, .is_signed = true, .size = 4, .align = 4 };
static RType rt_u32 = { .kind = RT_INT, .name = "u32", .bits = 32, .size = 4, .align = 4 };
static RType rt_bool = { .kind = RT_BOOL, .name = "bool", .size = 1, .align = 1 };
static RType rt_ref = { .kind = RT_REF, .name = "&i32", .pointee = &rt_i32, .size = 8, .align = 8 };
static RType rt_pair = { .kind = RT_TUPLE, .name = "(i32, i32)", .size = 8, .align = 4, .abi = ABI_SCALAR_PAIR };

typedef struct {
	Arena *a;
	Module *m;
	Func *f;
	Block *bb[8];
	Type *i32, *u32, *i1, *ptr;
} Fixture;

/* A function with nblock empty blocks; the entry takes the parameters. */
static Fixture *fixture(const char *sym, uint32_t nblock, uint32_t nparam, RType **params, RType *ret)
{
	Fixture *t = calloc(1, sizeof *t);
	t->a = arena_new();
	t->m = ir_module_new(t->a);
	t->i32 = ir_type_int(t->m, 32, true);
	t->u32 = ir_type_int(t->m, 32, false);
	t->i1 = ir_type_bool(t->m);
	t->ptr = ir_type_ptr(t->m, AS_GENERIC);
	t->f = ir_func_new(t->m, sym, sym);
	t->f->ret = ret ? rtype_scalar_type(t->m, ret) : ir_type_void(t->m);
	t->f->nparam = nparam;
	t->f->params = arena_new_array(t->a, Param, nparam);
	for (uint32_t i = 0; i < nblock; i++)
		t->bb[i] = ir_block_new(t->f);
	for (uint32_t i = 0; i < nparam; i++) {
		t->f->params[i].type = rtype_scalar_type(t->m, params[i]);
		ir_block_add_arg(t->bb[0], t->f->params[i].type);
	}
	return t;
}

static void fixture_free(Fixture *t)
{
	arena_free(t->a);
	free(t);
}

static Value *param(Fixture *t, uint32_t i)
{
	return t->bb[0]->args[i];
}

static Builder at(Fixture *t, uint32_t blk)
{
	return (Builder){ t->m, t->bb[blk], NULL, { -1, 0, 0 } };
}

static Value *slot(Builder *b, RType *rt)
{
	Type *ptr = ir_type_ptr(b->mod, AS_GENERIC);
	Op *op = ir_build(b, OP_MIR_SLOT, 1, &ptr, 0, NULL, 0);
	op->rty = rt;
	return &op->res[0];
}

static Value *load(Builder *b, Value *p, Type *t)
{
	return ir_build1(b, OP_MIR_LOAD, t, 1, &p);
}

static void store(Builder *b, Value *v, Value *p)
{
	ir_build(b, OP_MIR_STORE, 0, NULL, 2, (Value *[]){ v, p }, 0);
}

static Value *cnst(Builder *b, Type *t, uint64_t n)
{
	return ir_build_const(b, OP_MIR_CONST, t, n, 0);
}

static Value *bin(Builder *b, Opcode code, Type *t, Value *x, Value *y)
{
	return ir_build1(b, code, t, 2, (Value *[]){ x, y });
}

static void jump(Fixture *t, Builder *b, uint32_t to)
{
	Op *op = ir_build(b, OP_MIR_GOTO, 0, NULL, 0, NULL, 1);
	ir_op_set_succ(b->mod, op, 0, t->bb[to], 0, NULL);
}

/* if c goto then else goto els */
static void branch(Fixture *t, Builder *b, Value *c, uint32_t then, uint32_t els)
{
	Op *op = ir_build(b, OP_MIR_SWITCH, 0, NULL, 1, &c, 2);
	ir_op_set_vals(b->mod, op, 1, (U128[]){ { 0, 0 } });
	ir_op_set_succ(b->mod, op, 0, t->bb[els], 0, NULL);
	ir_op_set_succ(b->mod, op, 1, t->bb[then], 0, NULL);
}

static void ret(Builder *b, Value *v)
{
	ir_build(b, OP_MIR_RETURN, 0, NULL, v ? 1 : 0, &v, 0);
}

static char *func_text(Func *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	ir_print_func(out, f);
	fclose(out);
	return buf;
}

/* Runs the pass; checks that the result verifies and prints as `want`.
 * On a mismatch the input is shown too. */
static void check_mem2reg(const char *file, int line, Fixture *t, const char *want)
{
	char *before = func_text(t->f);
	pass_mem2reg(t->m);
	if (!ir_verify(t->m, "mem2reg", stderr))
		unit_fail(file, line, "ir_verify after mem2reg");
	char *got = func_text(t->f);
	if (strcmp(got, want))
		fprintf(stderr, "--- input\n%s", before);
	unit_check_str(file, line, got, want);
	free(got);
	free(before);
}
#define CHECK_MEM2REG(t, want) check_mem2reg(__FILE__, __LINE__, (t), (want))

/* -------------------------------------------------------------- tests */

/* y = x + 1; return y */
static void test_straight_line(void)
{
	Fixture *t = fixture("straight", 1, 1, (RType *[]){ &rt_i32 }, &rt_i32);
	Builder b = at(t, 0);
	Value *x = slot(&b, &rt_i32), *y = slot(&b, &rt_i32);
	store(&b, param(t, 0), x);
	Value *xv = load(&b, x, t->i32);
	store(&b, bin(&b, OP_MIR_ADD, t->i32, xv, cnst(&b, t->i32, 1)), y);
	ret(&b, load(&b, y, t->i32));
	CHECK_MEM2REG(t,
	              "func @straight(i32) -> i32 {  // straight\n"
	              "^bb0(%0: i32):\n"
	              "  %1 = mir.const 1 : i32\n"
	              "  %2 = mir.add %0, %1 : i32\n"
	              "  mir.return %2\n"
	              "}\n");
	fixture_free(t);
}

/* r = if c { a } else { 7 };  s = a on both paths (trivial argument);
 * u stored in the entry only (no argument). */
static void test_if_else_join(void)
{
	Fixture *t = fixture("join", 4, 2, (RType *[]){ &rt_bool, &rt_i32 }, &rt_i32);
	Builder b = at(t, 0);
	Value *r = slot(&b, &rt_i32), *s = slot(&b, &rt_i32), *u = slot(&b, &rt_i32);
	store(&b, cnst(&b, t->i32, 3), u);
	branch(t, &b, param(t, 0), 1, 2);
	b = at(t, 1);
	store(&b, param(t, 1), r);
	store(&b, param(t, 1), s);
	jump(t, &b, 3);
	b = at(t, 2);
	store(&b, cnst(&b, t->i32, 7), r);
	store(&b, param(t, 1), s);
	jump(t, &b, 3);
	b = at(t, 3);
	Value *rv = load(&b, r, t->i32);
	Value *rs = bin(&b, OP_MIR_MUL, t->i32, rv, load(&b, s, t->i32));
	ret(&b, bin(&b, OP_MIR_SUB, t->i32, rs, load(&b, u, t->i32)));
	CHECK_MEM2REG(t, "");
	fixture_free(t);
}

/* i = 0; s = 0; while i < n { s += i; i += 1 }; return s */
static void test_loop_counter(void)
{
	Fixture *t = fixture("sum", 4, 1, (RType *[]){ &rt_u32 }, &rt_u32);
	Builder b = at(t, 0);
	Value *i = slot(&b, &rt_u32), *s = slot(&b, &rt_u32);
	Value *zero = cnst(&b, t->u32, 0);
	store(&b, zero, i);
	store(&b, zero, s);
	jump(t, &b, 1);
	b = at(t, 1);
	branch(t, &b, bin(&b, OP_MIR_LT, t->i1, load(&b, i, t->u32), param(t, 0)), 2, 3);
	b = at(t, 2);
	Value *sv = load(&b, s, t->u32);
	store(&b, bin(&b, OP_MIR_ADD, t->u32, sv, load(&b, i, t->u32)), s);
	Value *iv = load(&b, i, t->u32);
	store(&b, bin(&b, OP_MIR_ADD, t->u32, iv, cnst(&b, t->u32, 1)), i);
	jump(t, &b, 1);
	b = at(t, 3);
	ret(&b, load(&b, s, t->u32));
	CHECK_MEM2REG(t, "");
	fixture_free(t);
}

/* Slots whose address is used otherwise than by a whole load or store stay
 * in memory, with their loads and stores; so do non-scalar locals. */
static void test_escapes(void)
{
	Fixture *t = fixture("escape", 1, 1, (RType *[]){ &rt_i32 }, &rt_i32);
	Builder b = at(t, 0);
	Value *a = slot(&b, &rt_i32);      /* projected by mir.field */
	Value *bs = slot(&b, &rt_i32);     /* its address stored */
	Value *p = slot(&b, &rt_ref);      /* holds that address: promoted */
	Value *pair = slot(&b, &rt_pair);  /* not a scalar */
	Value *d = slot(&b, &rt_u32);      /* loaded with another type */
	Value *ok = slot(&b, &rt_i32);     /* promoted */
	store(&b, param(t, 0), a);
	Op *fld = ir_build(&b, OP_MIR_FIELD, 1, &t->ptr, 1, &a, 0);
	fld->rty = &rt_i32;
	fld->imm = 0;
	store(&b, param(t, 0), &fld->res[0]);
	store(&b, bs, p);
	Value *pv = load(&b, p, t->ptr);
	store(&b, param(t, 0), pv);
	store(&b, cnst(&b, t->u32, 5), d);
	store(&b, load(&b, d, t->i32), ok);
	Op *cp = ir_build(&b, OP_MIR_COPY, 0, NULL, 2, (Value *[]){ pair, pair }, 0);
	cp->rty = &rt_pair;
	Value *av = load(&b, a, t->i32);
	Value *sum = bin(&b, OP_MIR_ADD, t->i32, av, load(&b, bs, t->i32));
	ret(&b, bin(&b, OP_MIR_ADD, t->i32, sum, load(&b, ok, t->i32)));
	CHECK_MEM2REG(t, "");
	fixture_free(t);
}

/* A load before any store reads undef, on every path that has no store. */
static void test_load_before_store(void)
{
	Fixture *t = fixture("early", 4, 1, (RType *[]){ &rt_bool }, &rt_i32);
	Builder b = at(t, 0);
	Value *x = slot(&b, &rt_i32), *y = slot(&b, &rt_i32);
	Value *x0 = load(&b, x, t->i32);
	store(&b, cnst(&b, t->i32, 1), x);
	branch(t, &b, param(t, 0), 1, 2);
	b = at(t, 1);
	store(&b, x0, y);
	jump(t, &b, 3);
	b = at(t, 2);
	jump(t, &b, 3);
	b = at(t, 3);
	Value *xv = load(&b, x, t->i32);
	ret(&b, bin(&b, OP_MIR_ADD, t->i32, xv, load(&b, y, t->i32)));
	CHECK_MEM2REG(t, "");
	fixture_free(t);
}

/* Stored, never loaded: slot and stores go, the stored values stay. */
static void test_store_only(void)
{
	Fixture *t = fixture("store_only", 3, 1, (RType *[]){ &rt_bool }, NULL);
	Builder b = at(t, 0);
	Value *x = slot(&b, &rt_bool);
	store(&b, param(t, 0), x);
	branch(t, &b, param(t, 0), 1, 2);
	b = at(t, 1);
	store(&b, cnst(&b, t->i1, 1), x);
	jump(t, &b, 2);
	b = at(t, 2);
	ret(&b, NULL);
	CHECK_MEM2REG(t, "");
	fixture_free(t);
}

/* An unreachable block reads undef and still passes arguments to the
 * reachable join it branches to. */
static void test_unreachable(void)
{
	Fixture *t = fixture("unreach", 5, 1, (RType *[]){ &rt_bool }, &rt_i32);
	Builder b = at(t, 0);
	Value *x = slot(&b, &rt_i32);
	store(&b, cnst(&b, t->i32, 1), x);
	branch(t, &b, param(t, 0), 1, 2);
	b = at(t, 1);
	store(&b, cnst(&b, t->i32, 2), x);
	jump(t, &b, 2);
	b = at(t, 2);
	ret(&b, load(&b, x, t->i32));
	b = at(t, 3);                       /* unreachable, reads x */
	Value *xv = load(&b, x, t->i32);
	store(&b, bin(&b, OP_MIR_ADD, t->i32, xv, cnst(&b, t->i32, 5)), x);
	jump(t, &b, 2);
	b = at(t, 4);                       /* unreachable, loops on itself */
	store(&b, load(&b, x, t->i32), x);
	jump(t, &b, 4);
	CHECK_MEM2REG(t, "");
	fixture_free(t);
}

/* Arguments that feed only each other (an outer and an inner loop header)
 * are dead and go. */
static void test_dead_arg_cycle(void)
{
	Fixture *t = fixture("dead_cycle", 5, 1, (RType *[]){ &rt_bool }, NULL);
	Builder b = at(t, 0);
	Value *x = slot(&b, &rt_i32);
	store(&b, cnst(&b, t->i32, 0), x);
	jump(t, &b, 1);
	b = at(t, 1);
	branch(t, &b, param(t, 0), 2, 4);
	b = at(t, 2);
	branch(t, &b, param(t, 0), 3, 1);
	b = at(t, 3);
	store(&b, cnst(&b, t->i32, 5), x);
	jump(t, &b, 2);
	b = at(t, 4);
	ret(&b, NULL);
	CHECK_MEM2REG(t, "");
	fixture_free(t);
}

/* The entry is a loop header: a slot stored in that loop would need an
 * argument at the entry, so it stays in memory; the other is promoted. */
static void test_entry_loop(void)
{
	Fixture *t = fixture("entry_loop", 2, 1, (RType *[]){ &rt_bool }, &rt_i32);
	Builder b = at(t, 0);
	Value *x = slot(&b, &rt_i32), *y = slot(&b, &rt_i32);
	Value *v = load(&b, x, t->i32);
	store(&b, bin(&b, OP_MIR_ADD, t->i32, v, load(&b, y, t->i32)), x);
	branch(t, &b, param(t, 0), 0, 1);
	b.block->last->succ[1].nargs = 1;  /* the entry takes the parameter */
	b.block->last->succ[1].args = &t->bb[0]->args[0];
	b = at(t, 1);
	ret(&b, load(&b, x, t->i32));
	CHECK_MEM2REG(t, "");
	fixture_free(t);
}

int main(void)
{
	RUN(test_straight_line);
	RUN(test_if_else_join);
	RUN(test_loop_counter);
	RUN(test_escapes);
	RUN(test_load_before_store);
	RUN(test_store_only);
	RUN(test_unreachable);
	RUN(test_dead_arg_cycle);
	RUN(test_entry_loop);
	return unit_done();
}
