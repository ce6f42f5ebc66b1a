/* test_ir.c: unit tests of the IR core (ir.c, printer.c, dot.c,
 * verify.c): the builder, the printed form, the dot graph, block and
 * successor arguments, op list surgery, use replacement, and the
 * verifier's structural checks. */
#include "../../src/ir/ir.h"
#include "unit.h"

#include <stdlib.h>

/* ------------------------------------------------------------ helpers */

static char *func_text(Func *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	ir_print_func(out, f);
	fclose(out);
	return buf;
}

static void check_func(const char *file, int line, Func *f, const char *want)
{
	char *got = func_text(f);
	unit_check_str(file, line, got, want);
	free(got);
}
#define CHECK_FUNC(f, want) check_func(__FILE__, __LINE__, (f), (want))

/* Runs the verifier; returns what it printed (caller frees) and sets *ok. */
static char *verify_text(Module *m, bool *ok)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *err = open_memstream(&buf, &len);
	*ok = ir_verify(m, "test", err);
	fclose(err);
	return buf;
}

static void check_verify_fails(const char *file, int line, Module *m, const char *msg)
{
	bool ok;
	char *text = verify_text(m, &ok);
	if (ok)
		unit_fail(file, line, "verifier accepted bad IR");
	else if (!strstr(text, msg)) {
		unit_fail(file, line, "verifier message");
		fprintf(stderr, "  wanted \"%s\" in:\n%s", msg, text);
	}
	free(text);
}
#define CHECK_VERIFY_FAILS(m, msg) check_verify_fails(__FILE__, __LINE__, (m), (msg))

static bool verifies(Module *m)
{
	bool ok;
	char *text = verify_text(m, &ok);
	if (!ok)
		fputs(text, stderr);
	free(text);
	return ok;
}

static Func *new_func(Module *m, const char *sym, uint32_t nparam, Type **params)
{
	Func *f = ir_func_new(m, sym, sym);
	f->nparam = nparam;
	f->params = arena_new_array(m->arena, Param, nparam);
	Block *entry = ir_block_new(f);
	for (uint32_t i = 0; i < nparam; i++) {
		f->params[i].type = params[i];
		ir_block_add_arg(entry, params[i]);
	}
	return f;
}

static Value *bin(Builder *b, Opcode code, Type *t, Value *x, Value *y)
{
	Value *opd[2] = { x, y };
	return ir_build1(b, code, t, 2, opd);
}

static Op *build_goto(Builder *b, Block *to, uint32_t nargs, Value **args)
{
	Op *op = ir_build(b, OP_MIR_GOTO, 0, NULL, 0, NULL, 1);
	ir_op_set_succ(b->mod, op, 0, to, nargs, args);
	return op;
}

static Op *build_return(Builder *b, Value *v)
{
	return ir_build(b, OP_MIR_RETURN, 0, NULL, v ? 1 : 0, &v, 0);
}

/* -------------------------------------------------------------- tests */

static void test_types(void)
{
	Arena *a = arena_new();
	Module *m = ir_module_new(a);
	char buf[32];
	CHECK(ir_type_int(m, 32, true) == ir_type_int(m, 32, true));
	CHECK(ir_type_int(m, 32, true) != ir_type_int(m, 32, false));
	CHECK(ir_type_ptr(m, AS_GLOBAL) != ir_type_ptr(m, AS_GENERIC));
	CHECK_STR(ir_type_str(ir_type_int(m, 64, false), buf, sizeof buf), "u64");
	CHECK_STR(ir_type_str(ir_type_int(m, 8, true), buf, sizeof buf), "i8");
	CHECK_STR(ir_type_str(ir_type_bool(m), buf, sizeof buf), "i1");
	CHECK_STR(ir_type_str(ir_type_float(m, 32), buf, sizeof buf), "f32");
	CHECK_STR(ir_type_str(ir_type_ptr(m, AS_SHARED), buf, sizeof buf), "ptr<3>");
	CHECK_STR(ir_type_str(ir_type_ptr(m, AS_GENERIC), buf, sizeof buf), "ptr");
	CHECK_STR(ir_type_str(ir_type_void(m), buf, sizeof buf), "void");
	arena_free(a);
}

static void test_printer(void)
{
	Arena *a = arena_new();
	Module *m = ir_module_new(a);
	Type *i32 = ir_type_int(m, 32, true), *f32 = ir_type_float(m, 32);
	Type *params[] = { i32, ir_type_ptr(m, AS_GLOBAL) };
	static const char *files[] = { "k.rs" };
	m->files = files;
	m->nfile = 1;
	RType rt_i32 = { .kind = RT_INT, .name = "i32", .bits = 32, .is_signed = true, .size = 4, .align = 4 };
	Func *f = new_func(m, "add", 2, params);
	f->name = "demo::add";
	f->is_kernel = true;
	Block *entry = f->first;
	Builder b = { m, entry, NULL, { -1, 0, 0 } };
	Op *slot = ir_build(&b, OP_MIR_SLOT, 1, (Type *[]){ ir_type_ptr(m, AS_GENERIC) }, 0, NULL, 0);
	slot->rty = &rt_i32;
	Value *c = ir_build_const(&b, OP_MIR_CONST, i32, 42, 0);
	ir_build_const(&b, OP_MIR_CONST, f32, 0x3fc00000, 0);
	b.loc = (Loc){ 0, 3, 5 };
	Value *sum = bin(&b, OP_MIR_ADD, i32, entry->args[0], c);
	b.loc = (Loc){ -1, 0, 0 };
	ir_build(&b, OP_MIR_STORE, 0, NULL, 2, (Value *[]){ sum, entry->args[1] }, 0);
	build_return(&b, NULL);
	CHECK_FUNC(f,
	           "func @add kernel(i32, ptr<1>) -> void {  // demo::add\n"
	           "^bb0(%0: i32, %1: ptr<1>):\n"
	           "  %2 = mir.slot {i32} : ptr\n"
	           "  %3 = mir.const 42 : i32\n"
	           "  %4 = mir.const 1.5 (0x3fc00000) : f32\n"
	           "  %5 = mir.add %0, %3 : i32  // k.rs:3:5\n"
	           "  mir.store %5, %1\n"
	           "  mir.return\n"
	           "}\n");
	CHECK(verifies(m));
	arena_free(a);
}

/* A switch passing block arguments, and a block argument removed. */
static void test_block_args(void)
{
	Arena *a = arena_new();
	Module *m = ir_module_new(a);
	Type *u32 = ir_type_int(m, 32, false);
	Func *f = new_func(m, "pick", 1, &u32);
	f->ret = u32;
	Block *b0 = f->first, *b1 = ir_block_new(f), *b2 = ir_block_new(f);
	Value *p = ir_block_add_arg(b1, u32);
	Builder b = { m, b0, NULL, { -1, 0, 0 } };
	Value *seven = ir_build_const(&b, OP_MIR_CONST, u32, 7, 0);
	Op *sw = ir_build(&b, OP_MIR_SWITCH, 0, NULL, 1, &b0->args[0], 3);
	ir_op_set_vals(m, sw, 2, (U128[]){ { 0, 0 }, { 1, 0 } });
	ir_op_set_succ(m, sw, 0, b1, 1, &seven);
	ir_op_set_succ(m, sw, 1, b2, 0, NULL);
	ir_op_set_succ(m, sw, 2, b1, 1, &b0->args[0]);
	b.block = b1;
	build_return(&b, p);
	b.block = b2;
	build_goto(&b, b1, 1, &seven);
	CHECK(ir_block_terminator(b0) == sw);
	CHECK_EQ(p->index, 0);
	CHECK(p->block == b1 && p->def == NULL);
	CHECK_FUNC(f,
	           "func @pick(u32) -> u32 {  // pick\n"
	           "^bb0(%0: u32):\n"
	           "  %1 = mir.const 7 : u32\n"
	           "  mir.switch %0 [0: ^bb1(%1), 1: ^bb2, otherwise: ^bb1(%0)]\n"
	           "^bb1(%2: u32):\n"
	           "  mir.return %2\n"
	           "^bb2:\n"
	           "  mir.goto ^bb1(%1)\n"
	           "}\n");
	CHECK(verifies(m));

	Value *q = ir_block_add_arg(b2, u32), *r = ir_block_add_arg(b2, ir_type_bool(m));
	CHECK_EQ(q->index, 0);
	CHECK_EQ(r->index, 1);
	ir_block_remove_arg(b2, 0);
	CHECK_EQ(b2->nargs, 1);
	CHECK(b2->args[0] == r);
	CHECK_EQ(r->index, 0);
	arena_free(a);
}

static char *dot_text(Module *m)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	ir_dot_module(out, m, "mir");
	fclose(out);
	return buf;
}

/* --emit=dot: a kernel's bool switch (false / its complement true), an
 * assert whose message has a quote, a backslash and a newline (escaped
 * for dot), a plain function's u32 switch, a declaration left out. */
static void test_dot(void)
{
	Arena *a = arena_new();
	Module *m = ir_module_new(a);
	Type *bl = ir_type_bool(m), *u32 = ir_type_int(m, 32, false);
	ir_func_new(m, "ext", "ext")->is_extern = true;
	Func *k = new_func(m, "k", 1, &bl);
	k->is_kernel = true;
	Block *b0 = k->first, *b1 = ir_block_new(k), *b2 = ir_block_new(k);
	Builder b = { m, b0, NULL, { -1, 0, 0 } };
	Op *sw = ir_build(&b, OP_MIR_SWITCH, 0, NULL, 1, &b0->args[0], 2);
	ir_op_set_vals(m, sw, 1, (U128[]){ { 0, 0 } });
	ir_op_set_succ(m, sw, 0, b2, 0, NULL);
	ir_op_set_succ(m, sw, 1, b1, 0, NULL);
	b.block = b1;
	Op *as = ir_build(&b, OP_MIR_ASSERT, 0, NULL, 1, &b0->args[0], 1);
	as->sym = "say \"hi\\\n";
	as->attr.expect.value = true;
	ir_op_set_succ(m, as, 0, b2, 0, NULL);
	b.block = b2;
	build_return(&b, NULL);
	Func *f = new_func(m, "pick", 1, &u32);
	Block *c1 = ir_block_new(f);
	b.block = f->first;
	sw = ir_build(&b, OP_MIR_SWITCH, 0, NULL, 1, &f->first->args[0], 2);
	ir_op_set_vals(m, sw, 1, (U128[]){ { 7, 0 } });
	ir_op_set_succ(m, sw, 0, c1, 0, NULL);
	ir_op_set_succ(m, sw, 1, c1, 0, NULL);
	b.block = c1;
	build_return(&b, NULL);
	char *got = dot_text(m);
	CHECK_STR(got,
	          "digraph \"oxidec mir\" {\n"
	          "\tgraph [fontname=\"monospace\", fontsize=11, labeljust=l];\n"
	          "\tnode [shape=box, fontname=\"monospace\", fontsize=9];\n"
	          "\tedge [fontname=\"monospace\", fontsize=9];\n"
	          "\tsubgraph cluster_0 {\n"
	          "\t\tlabel=\"func @k kernel(i1) -> void\";\n"
	          "\t\tstyle=bold; color=\"#1f5fbf\"; penwidth=2;\n"
	          "\t\tf0_bb0 [label=\"^bb0(%0: i1):\\l  mir.switch %0 [0: ^bb2, otherwise: ^bb1]\\l\", peripheries=2];\n"
	          "\t\tf0_bb0 -> f0_bb2 [label=\"false\"];\n"
	          "\t\tf0_bb0 -> f0_bb1 [label=\"true\"];\n"
	          "\t\tf0_bb1 [label=\"^bb1:\\l  mir.assert %0 == true \\\"say \\\"hi\\\\\\l\\\" ^bb2\\l\"];\n"
	          "\t\tf0_bb1 -> f0_bb2;\n"
	          "\t\tf0_bb2 [label=\"^bb2:\\l  mir.return\\l\"];\n"
	          "\t}\n"
	          "\tsubgraph cluster_1 {\n"
	          "\t\tlabel=\"func @pick(u32) -> void\";\n"
	          "\t\tcolor=gray50;\n"
	          "\t\tf1_bb0 [label=\"^bb0(%0: u32):\\l  mir.switch %0 [7: ^bb1, otherwise: ^bb1]\\l\", peripheries=2];\n"
	          "\t\tf1_bb0 -> f1_bb1 [label=\"7\"];\n"
	          "\t\tf1_bb0 -> f1_bb1 [label=\"otherwise\"];\n"
	          "\t\tf1_bb1 [label=\"^bb1:\\l  mir.return\\l\"];\n"
	          "\t}\n"
	          "}\n");
	free(got);
	arena_free(a);
}

static void check_links(Block *blk, Op **ops, uint32_t n)
{
	CHECK(blk->first == (n ? ops[0] : NULL));
	CHECK(blk->last == (n ? ops[n - 1] : NULL));
	for (uint32_t i = 0; i < n; i++) {
		CHECK(ops[i]->parent == blk);
		CHECK(ops[i]->prev == (i ? ops[i - 1] : NULL));
		CHECK(ops[i]->next == (i + 1 < n ? ops[i + 1] : NULL));
	}
}

static void test_unlink_insert(void)
{
	Arena *a = arena_new();
	Module *m = ir_module_new(a);
	Type *i64 = ir_type_int(m, 64, true);
	Func *f = new_func(m, "f", 0, NULL);
	Block *blk = f->first;
	Builder b = { m, blk, NULL, { -1, 0, 0 } };
	Op *c1 = ir_build_const(&b, OP_MIR_CONST, i64, 1, 0)->def;
	Op *c2 = ir_build_const(&b, OP_MIR_CONST, i64, 2, 0)->def;
	Op *ret = build_return(&b, NULL);
	check_links(blk, (Op *[]){ c1, c2, ret }, 3);

	ir_op_unlink(c2);
	CHECK(c2->parent == NULL && c2->prev == NULL && c2->next == NULL);
	check_links(blk, (Op *[]){ c1, ret }, 2);
	ir_op_insert_before(c1, c2);
	check_links(blk, (Op *[]){ c2, c1, ret }, 3);
	ir_op_unlink(ret);
	check_links(blk, (Op *[]){ c2, c1 }, 2);
	ir_op_append(blk, ret);
	b.before = ret;
	Value *s = bin(&b, OP_MIR_SUB, i64, &c1->res[0], &c2->res[0]);
	check_links(blk, (Op *[]){ c2, c1, s->def, ret }, 4);
	CHECK_FUNC(f,
	           "func @f() -> void {  // f\n"
	           "^bb0:\n"
	           "  %0 = mir.const 2 : i64\n"
	           "  %1 = mir.const 1 : i64\n"
	           "  %2 = mir.sub %1, %0 : i64\n"
	           "  mir.return\n"
	           "}\n");
	CHECK(verifies(m));

	ir_op_unlink(c2);
	ir_op_unlink(c1);
	ir_op_unlink(s->def);
	ir_op_unlink(ret);
	check_links(blk, NULL, 0);
	arena_free(a);
}

static void test_replace_all_uses(void)
{
	Arena *a = arena_new();
	Module *m = ir_module_new(a);
	Type *u8 = ir_type_int(m, 8, false);
	Func *f = new_func(m, "r", 1, &u8);
	f->ret = u8;
	Block *b0 = f->first, *b1 = ir_block_new(f);
	Value *arg = ir_block_add_arg(b1, u8);
	Builder b = { m, b0, NULL, { -1, 0, 0 } };
	Value *x = ir_build_const(&b, OP_MIR_CONST, u8, 5, 0);
	Value *y = bin(&b, OP_MIR_MUL, u8, x, x);
	build_goto(&b, b1, 1, &x);
	b.block = b1;
	build_return(&b, bin(&b, OP_MIR_ADD, u8, arg, y));
	ir_replace_all_uses(f, x, b0->args[0]);
	CHECK_FUNC(f,
	           "func @r(u8) -> u8 {  // r\n"
	           "^bb0(%0: u8):\n"
	           "  %1 = mir.const 5 : u8\n"
	           "  %2 = mir.mul %0, %0 : u8\n"
	           "  mir.goto ^bb1(%0)\n"
	           "^bb1(%3: u8):\n"
	           "  %4 = mir.add %3, %2 : u8\n"
	           "  mir.return %4\n"
	           "}\n");
	CHECK(verifies(m));
	arena_free(a);
}

static void test_verify_missing_terminator(void)
{
	Arena *a = arena_new();
	Module *m = ir_module_new(a);
	Func *f = new_func(m, "noterm", 0, NULL);
	Builder b = { m, f->first, NULL, { -1, 0, 0 } };
	ir_build_const(&b, OP_MIR_CONST, ir_type_bool(m), 1, 0);
	CHECK_VERIFY_FAILS(m, "a block does not end in a terminator");

	/* a terminator in the middle of a block */
	Op *ret = build_return(&b, NULL);
	CHECK(verifies(m));
	ir_op_unlink(ret);
	ir_op_insert_before(f->first->first, ret);
	CHECK_VERIFY_FAILS(m, "a block does not end in a terminator");
	Op *ret2 = build_return(&b, NULL);
	CHECK_VERIFY_FAILS(m, "mir.return: terminators must end a block, and only there");

	/* an empty block */
	ir_op_unlink(ret2);
	ir_op_unlink(ret);
	ir_op_append(f->first, ret);
	CHECK(verifies(m));
	ir_block_new(f);
	CHECK_VERIFY_FAILS(m, "a block does not end in a terminator");
	arena_free(a);
}

static void test_verify_succ_args(void)
{
	Arena *a = arena_new();
	Module *m = ir_module_new(a);
	Type *i32 = ir_type_int(m, 32, true);
	Func *f = new_func(m, "args", 1, &i32);
	Block *b1 = ir_block_new(f);
	ir_block_add_arg(b1, i32);
	Builder b = { m, f->first, NULL, { -1, 0, 0 } };
	Op *go = build_goto(&b, b1, 0, NULL);
	b.block = b1;
	build_return(&b, NULL);
	CHECK_VERIFY_FAILS(m, "mir.goto passes 0 arguments to a block taking 1");

	Value *flag = ir_build_const(&(Builder){ m, f->first, go, { -1, 0, 0 } }, OP_MIR_CONST, ir_type_bool(m), 0, 0);
	ir_op_set_succ(m, go, 0, b1, 1, &flag);
	CHECK_VERIFY_FAILS(m, "mir.goto passes argument 0 of the wrong type");

	ir_op_set_succ(m, go, 0, b1, 1, &f->first->args[0]);
	CHECK(verifies(m));
	arena_free(a);
}

static void test_verify_undefined(void)
{
	Arena *a = arena_new();
	Module *m = ir_module_new(a);
	Type *i32 = ir_type_int(m, 32, true);
	Func *f = new_func(m, "undef", 0, NULL);
	Func *g = new_func(m, "other", 1, &i32);
	Builder b = { m, f->first, NULL, { -1, 0, 0 } };
	Value *one = ir_build_const(&b, OP_MIR_CONST, i32, 1, 0);
	Value *sum = bin(&b, OP_MIR_ADD, i32, one, one);
	Op *ret = build_return(&b, sum);
	build_return(&(Builder){ m, g->first, NULL, { -1, 0, 0 } }, NULL);
	CHECK(verifies(m));

	/* the defining op removed, with stale pass scratch on its result */
	ir_op_unlink(one->def);
	one->aux = f;
	CHECK_VERIFY_FAILS(m, "mir.add uses a value not defined in this function");
	ir_op_insert_before(sum->def, one->def);
	CHECK(verifies(m));

	/* a value of another function */
	ret->opd[0] = g->first->args[0];
	CHECK_VERIFY_FAILS(m, "mir.return uses a value not defined in this function");

	/* an undefined successor argument */
	ir_op_unlink(ret);
	Block *b1 = ir_block_new(f);
	ir_block_add_arg(b1, i32);
	build_goto(&b, b1, 1, &g->first->args[0]);
	build_return(&(Builder){ m, b1, NULL, { -1, 0, 0 } }, NULL);
	CHECK_VERIFY_FAILS(m, "mir.goto passes an undefined value");
	arena_free(a);
}

int main(void)
{
	RUN(test_types);
	RUN(test_printer);
	RUN(test_block_args);
	RUN(test_dot);
	RUN(test_unlink_insert);
	RUN(test_replace_all_uses);
	RUN(test_verify_missing_terminator);
	RUN(test_verify_succ_args);
	RUN(test_verify_undefined);
	return unit_done();
}
