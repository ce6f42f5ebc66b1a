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
	CHECK_MEM2REG(t,
	              "func @join(i1, i32) -> i32 {  // join\n"
	              "^bb0(%0: i1, %1: i32):\n"
	              "  %2 = mir.const 3 : i32\n"
	              "  mir.switch %0 [0: ^bb2, otherwise: ^bb1]\n"
	              "^bb1:\n"
	              "  mir.goto ^bb3(%1)\n"
	              "^bb2:\n"
	              "  %3 = mir.const 7 : i32\n"
	              "  mir.goto ^bb3(%3)\n"
	              "^bb3(%4: i32):\n"
	              "  %5 = mir.mul %4, %1 : i32\n"
	              "  %6 = mir.sub %5, %2 : i32\n"
	              "  mir.return %6\n"
	              "}\n");
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
	CHECK_MEM2REG(t,
	              "func @sum(u32) -> u32 {  // sum\n"
	              "^bb0(%0: u32):\n"
	              "  %1 = mir.const 0 : u32\n"
	              "  mir.goto ^bb1(%1, %1)\n"
	              "^bb1(%2: u32, %3: u32):\n"
	              "  %4 = mir.lt %2, %0 : i1\n"
	              "  mir.switch %4 [0: ^bb3, otherwise: ^bb2]\n"
	              "^bb2:\n"
	              "  %5 = mir.add %3, %2 : u32\n"
	              "  %6 = mir.const 1 : u32\n"
	              "  %7 = mir.add %2, %6 : u32\n"
	              "  mir.goto ^bb1(%7, %5)\n"
	              "^bb3:\n"
	              "  mir.return %3\n"
	              "}\n");
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
	fld->attr.field.index = 0;
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
	CHECK_MEM2REG(t,
	              "func @escape(i32) -> i32 {  // escape\n"
	              "^bb0(%0: i32):\n"
	              "  %1 = mir.slot {i32} : ptr\n"
	              "  %2 = mir.slot {i32} : ptr\n"
	              "  %3 = mir.slot {(i32, i32)} : ptr\n"
	              "  %4 = mir.slot {u32} : ptr\n"
	              "  mir.store %0, %1\n"
	              "  %5 = mir.field %1 .0 {i32} : ptr\n"
	              "  mir.store %0, %5\n"
	              "  mir.store %0, %2\n"
	              "  %6 = mir.const 5 : u32\n"
	              "  mir.store %6, %4\n"
	              "  %7 = mir.load %4 : i32\n"
	              "  mir.copy %3, %3 {(i32, i32)}\n"
	              "  %8 = mir.load %1 : i32\n"
	              "  %9 = mir.load %2 : i32\n"
	              "  %10 = mir.add %8, %9 : i32\n"
	              "  %11 = mir.add %10, %7 : i32\n"
	              "  mir.return %11\n"
	              "}\n");
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
	CHECK_MEM2REG(t,
	              "func @early(i1) -> i32 {  // early\n"
	              "^bb0(%0: i1):\n"
	              "  %1 = mir.undef : i32\n"
	              "  %2 = mir.undef : i32\n"
	              "  %3 = mir.const 1 : i32\n"
	              "  mir.switch %0 [0: ^bb2, otherwise: ^bb1]\n"
	              "^bb1:\n"
	              "  mir.goto ^bb3(%1)\n"
	              "^bb2:\n"
	              "  mir.goto ^bb3(%2)\n"
	              "^bb3(%4: i32):\n"
	              "  %5 = mir.add %3, %4 : i32\n"
	              "  mir.return %5\n"
	              "}\n");
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
	CHECK_MEM2REG(t,
	              "func @store_only(i1) -> void {  // store_only\n"
	              "^bb0(%0: i1):\n"
	              "  mir.switch %0 [0: ^bb2, otherwise: ^bb1]\n"
	              "^bb1:\n"
	              "  %1 = mir.const 1 : i1\n"
	              "  mir.goto ^bb2\n"
	              "^bb2:\n"
	              "  mir.return\n"
	              "}\n");
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
	CHECK_MEM2REG(t,
	              "func @unreach(i1) -> i32 {  // unreach\n"
	              "^bb0(%0: i1):\n"
	              "  %1 = mir.undef : i32\n"
	              "  %2 = mir.const 1 : i32\n"
	              "  mir.switch %0 [0: ^bb2(%2), otherwise: ^bb1]\n"
	              "^bb1:\n"
	              "  %3 = mir.const 2 : i32\n"
	              "  mir.goto ^bb2(%3)\n"
	              "^bb2(%4: i32):\n"
	              "  mir.return %4\n"
	              "^bb3:\n"
	              "  %5 = mir.const 5 : i32\n"
	              "  %6 = mir.add %1, %5 : i32\n"
	              "  mir.goto ^bb2(%6)\n"
	              "^bb4:\n"
	              "  mir.goto ^bb4\n"
	              "}\n");
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
	CHECK_MEM2REG(t,
	              "func @dead_cycle(i1) -> void {  // dead_cycle\n"
	              "^bb0(%0: i1):\n"
	              "  %1 = mir.const 0 : i32\n"
	              "  mir.goto ^bb1\n"
	              "^bb1:\n"
	              "  mir.switch %0 [0: ^bb4, otherwise: ^bb2]\n"
	              "^bb2:\n"
	              "  mir.switch %0 [0: ^bb1, otherwise: ^bb3]\n"
	              "^bb3:\n"
	              "  %2 = mir.const 5 : i32\n"
	              "  mir.goto ^bb2\n"
	              "^bb4:\n"
	              "  mir.return\n"
	              "}\n");
	fixture_free(t);
}

/* A join reached twice from one switch, with an argument of its own:
 * every edge passes the slot's value after the argument it had. */
static void test_switch_edges(void)
{
	Fixture *t = fixture("edges", 3, 1, (RType *[]){ &rt_u32 }, &rt_u32);
	Builder b = at(t, 0);
	Value *x = slot(&b, &rt_u32);
	Value *k = ir_block_add_arg(t->bb[1], t->u32);
	store(&b, param(t, 0), x);
	Op *sw = ir_build(&b, OP_MIR_SWITCH, 0, NULL, 1, &t->bb[0]->args[0], 3);
	ir_op_set_vals(t->m, sw, 2, (U128[]){ { 0, 0 }, { 1, 0 } });
	ir_op_set_succ(t->m, sw, 0, t->bb[1], 1, &t->bb[0]->args[0]);
	ir_op_set_succ(t->m, sw, 1, t->bb[2], 0, NULL);
	ir_op_set_succ(t->m, sw, 2, t->bb[1], 1, &t->bb[0]->args[0]);
	b = at(t, 2);
	Value *two = cnst(&b, t->u32, 2);
	store(&b, two, x);
	Op *go = ir_build(&b, OP_MIR_GOTO, 0, NULL, 0, NULL, 1);
	ir_op_set_succ(t->m, go, 0, t->bb[1], 1, &two);
	b = at(t, 1);
	ret(&b, bin(&b, OP_MIR_ADD, t->u32, k, load(&b, x, t->u32)));
	CHECK_MEM2REG(t,
	              "func @edges(u32) -> u32 {  // edges\n"
	              "^bb0(%0: u32):\n"
	              "  mir.switch %0 [0: ^bb1(%0, %0), 1: ^bb2, otherwise: ^bb1(%0, %0)]\n"
	              "^bb1(%1: u32, %2: u32):\n"
	              "  %3 = mir.add %1, %2 : u32\n"
	              "  mir.return %3\n"
	              "^bb2:\n"
	              "  %4 = mir.const 2 : u32\n"
	              "  mir.goto ^bb1(%4, %4)\n"
	              "}\n");
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
	CHECK_MEM2REG(t,
	              "func @entry_loop(i1) -> i32 {  // entry_loop\n"
	              "^bb0(%0: i1):\n"
	              "  %1 = mir.undef : i32\n"
	              "  %2 = mir.slot {i32} : ptr\n"
	              "  %3 = mir.load %2 : i32\n"
	              "  %4 = mir.add %3, %1 : i32\n"
	              "  mir.store %4, %2\n"
	              "  mir.switch %0 [0: ^bb1, otherwise: ^bb0(%0)]\n"
	              "^bb1:\n"
	              "  %5 = mir.load %2 : i32\n"
	              "  mir.return %5\n"
	              "}\n");
	fixture_free(t);
}

/* ------------------------------------------- random programs, run */

/* A tiny interpreter of the mir subset the generator below emits: i32
 * values, one memory cell per slot, uninitialized memory and undef both 0.
 * It records what @obs is called with and the value returned, for at most
 * `fuel` branches; mem2reg must not change that trace. */
typedef struct {
	uint32_t v[256];
	uint32_t n;
} Trace;

static uint32_t number(Func *f)
{
	uint32_t n = 0;
	for (Block *b = f->first; b; b = b->next) {
		for (uint32_t i = 0; i < b->nargs; i++)
			b->args[i]->num = n++;
		for (Op *op = b->first; op; op = op->next)
			for (uint32_t i = 0; i < op->nres; i++)
				op->res[i].num = n++;
	}
	return n;
}

static void trace_push(Trace *t, uint32_t v)
{
	if (t->n < countof(t->v))
		t->v[t->n++] = v;
}

/* Executes one non-terminator op. */
static void exec_op(Op *op, uint32_t *val, uint32_t *cell, Trace *tr)
{
	uint32_t a = op->nopd ? val[op->opd[0]->num] : 0;
	uint32_t b = op->nopd > 1 ? val[op->opd[1]->num] : 0;
	uint32_t *r = op->nres ? &val[op->res[0].num] : NULL;
	switch (op->code) {
	case OP_MIR_SLOT: *r = op->res[0].num; break;    /* cell = its number */
	case OP_MIR_CONST: *r = (uint32_t)op->vals[0].lo; break;
	case OP_MIR_UNDEF: *r = 0; break;
	case OP_MIR_FIELD: *r = a; break;
	case OP_MIR_LOAD: *r = cell[a]; break;
	case OP_MIR_STORE: cell[b] = a; break;
	case OP_MIR_ADD: *r = a + b; break;
	case OP_MIR_AND: *r = a & b; break;
	case OP_MIR_CALL: trace_push(tr, a); break;
	default: die("cannot interpret %s", opinfo[op->code].name);
	}
}

/* Follows the terminator; returns the next block or NULL. */
static Block *exec_term(Op *t, uint32_t *val, Trace *tr)
{
	Succ *s = &t->succ[t->nsucc ? t->nsucc - 1 : 0];
	uint32_t args[8];
	if (t->code == OP_MIR_RETURN) {
		trace_push(tr, val[t->opd[0]->num]);
		return NULL;
	}
	for (uint32_t i = 0; t->code == OP_MIR_SWITCH && i < t->nval; i++)
		if (val[t->opd[0]->num] == t->vals[i].lo)
			s = &t->succ[i];
	for (uint32_t i = 0; i < s->nargs; i++)
		args[i] = val[s->args[i]->num];
	for (uint32_t i = 0; i < s->nargs; i++)
		val[s->block->args[i]->num] = args[i];
	return s->block;
}

static Trace run(Func *f, uint32_t p, uint32_t fuel)
{
	Trace tr = { { 0 }, 0 };
	uint32_t n = number(f);
	uint32_t *val = calloc(n, sizeof *val), *cell = calloc(n, sizeof *cell);
	val[f->first->args[0]->num] = p;
	for (Block *b = f->first; b && fuel--;) {
		Op *op = b->first;
		for (; op != b->last; op = op->next)
			exec_op(op, val, cell, &tr);
		b = exec_term(op, val, &tr);
	}
	free(val);
	free(cell);
	return tr;
}

static uint32_t rng_state;

static uint32_t rnd(uint32_t n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state % n;
}

/* Random loads, stores, adds and @obs calls over values of this block. */
static void gen_body(Fixture *t, Builder *b, Value **slots, uint32_t nslot, Value **pool, uint32_t *np)
{
	for (uint32_t i = rnd(8); i > 0; i--) {
		Value *v = pool[rnd(*np)], *s = slots[rnd(nslot)];
		switch (rnd(6)) {
		case 0: case 1: pool[(*np)++] = load(b, s, t->i32); break;
		case 2: store(b, v, s); break;
		case 3: pool[(*np)++] = bin(b, OP_MIR_ADD, t->i32, v, cnst(b, t->i32, rnd(3))); break;
		case 4: store(b, cnst(b, t->i32, rnd(4)), s); break;
		default: ir_build(b, OP_MIR_CALL, 0, NULL, 1, &v, 0)->sym = "obs"; break;
		}
	}
}

static void gen_edge(Fixture *t, Op *op, uint32_t i, uint32_t nblock)
{
	uint32_t to = rnd(nblock);
	ir_op_set_succ(t->m, op, i, t->bb[to], to ? 0 : 1, to ? NULL : &t->bb[0]->args[0]);
}

static void gen_term(Fixture *t, Builder *b, uint32_t nblock, Value **pool, uint32_t np)
{
	Value *v = pool[np - 1 - rnd(np)];
	uint32_t kind = rnd(5);
	if (kind == 0) {
		ret(b, v);
	} else if (kind == 1) {
		gen_edge(t, ir_build(b, OP_MIR_GOTO, 0, NULL, 0, NULL, 1), 0, nblock);
	} else {
		Value *c = bin(b, OP_MIR_AND, t->i32, v, cnst(b, t->i32, 3));
		Op *sw = ir_build(b, OP_MIR_SWITCH, 0, NULL, 1, &c, 3);
		ir_op_set_vals(t->m, sw, 2, (U128[]){ { 0, 0 }, { 1, 0 } });
		for (uint32_t i = 0; i < 3; i++)
			gen_edge(t, sw, i, nblock);
	}
}

static Fixture *gen_program(void)
{
	uint32_t nblock = 1 + rnd(8), nslot = 1 + rnd(3);
	Fixture *t = fixture("random", nblock, 1, (RType *[]){ &rt_i32 }, &rt_i32);
	Builder b = at(t, 0);
	Value *slots[5], *pool[64];
	for (uint32_t k = 0; k < nslot; k++)
		slots[k] = slot(&b, &rt_i32);
	if (rnd(4) == 0) {                  /* one slot escapes */
		Op *fld = ir_build(&b, OP_MIR_FIELD, 1, &t->ptr, 1, &slots[0], 0);
		fld->rty = &rt_i32;
		slots[nslot++] = &fld->res[0];
	}
	for (uint32_t i = 0; i < nblock; i++) {
		uint32_t np = 1;
		b = at(t, i);
		pool[0] = param(t, 0);
		gen_body(t, &b, slots, nslot, pool, &np);
		gen_term(t, &b, nblock, pool, np);
	}
	return t;
}

static bool same_trace(const Trace *x, const Trace *y)
{
	return x->n == y->n && !memcmp(x->v, y->v, sizeof(uint32_t) * x->n);
}

/* Random CFGs (loops, unreachable blocks, branches back to the entry):
 * the pass must verify and keep what the function computes. */
static void test_random_programs(void)
{
	rng_state = 2463534242u;
	for (int iter = 0; iter < 20000; iter++) {
		Fixture *t = gen_program();
		Trace before[4], after;
		for (uint32_t p = 0; p < 4; p++)
			before[p] = run(t->f, p, 40);
		pass_mem2reg(t->m);
		bool ok = ir_verify(t->m, "mem2reg", stderr);
		CHECK(ok);
		for (uint32_t p = 0; ok && p < 4; p++) {
			after = run(t->f, p, 40);
			if (!same_trace(&before[p], &after)) {
				unit_fail(__FILE__, __LINE__, "trace changed");
				fprintf(stderr, "  iteration %d, p = %u\n", iter, p);
				ir_print_func(stderr, t->f);
				ok = false;
			}
		}
		fixture_free(t);
		if (!ok)
			break;
	}
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
	RUN(test_switch_edges);
	RUN(test_entry_loop);
	RUN(test_random_programs);
	return unit_done();
}
