/* test_emit.c: the back end on llir IR built by hand.  Builds one module
 * with a kernel per feature (stores, intrinsics, geps, loops with block
 * arguments, a switch, saturating casts, byval, calls, global tables,
 * trap, barrier, saxpy), emits PTX at -O0 and -O3, checks ordered
 * substrings per function, assembles the PTX with ptxas when present and
 * turns it into a cubin with nvJitLink.  Also the host target (trampoline,
 * object file), a few error paths, and the recursion warnings of stack.c
 * on hand-written PTX.
 *
 * Prints PASS/FAIL lines and "N passed, M failed"; exits 1 on failure.
 * TEST_EMIT_VERBOSE=1 also prints the IR, the LLVM IR and the PTX. */
#include "../../src/emit/emit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef CUDA_HOME
#define CUDA_HOME "/usr/local/cuda"
#endif

static int npass, nfail;
static bool verbose;

static void check(bool ok, const char *what, const char *detail)
{
	if (ok) {
		npass++;
		printf("PASS %s\n", what);
	} else {
		nfail++;
		printf("FAIL %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	}
}

/* -------------------------------------------------------- IR helpers */

static Module *M;
static Type *I1, *I8, *I32, *I64, *I128, *F32, *F64, *P0, *P1;

static Func *func(const char *sym, bool kernel, Type *ret, uint32_t n, Type **tys)
{
	Func *f = ir_func_new(M, sym, sym);
	f->is_kernel = kernel;
	f->ret = ret;
	f->nparam = n;
	f->params = arena_new_array(M->arena, Param, n);
	Block *entry = ir_block_new(f);
	for (uint32_t i = 0; i < n; i++) {
		f->params[i].type = tys[i];
		ir_block_add_arg(entry, tys[i]);
	}
	return f;
}

static Value *arg(Func *f, uint32_t i) { return f->first->args[i]; }

static Builder at(Block *b)
{
	Builder x = {.mod = M, .block = b};
	x.loc.file = -1;
	return x;
}

static Value *cst(Builder *b, Type *t, uint64_t lo) { return ir_build_const(b, OP_LLIR_CONST, t, lo, 0); }

static Value *op1(Builder *b, Opcode c, Type *t, Value *x) { return ir_build1(b, c, t, 1, &x); }

static Value *op2(Builder *b, Opcode c, Type *t, Value *x, Value *y)
{
	Value *v[] = {x, y};
	return ir_build1(b, c, t, 2, v);
}

static Value *cmp(Builder *b, Opcode c, Pred p, Value *x, Value *y)
{
	Value *r = op2(b, c, I1, x, y);
	r->def->attr.cmp.pred = p;
	return r;
}

static Value *load(Builder *b, Type *t, Value *p, uint32_t align)
{
	Value *r = op1(b, OP_LLIR_LOAD, t, p);
	r->def->attr.access.align = align;
	return r;
}

static void store(Builder *b, Value *v, Value *p, uint32_t align)
{
	Value *o[] = {v, p};
	ir_build(b, OP_LLIR_STORE, 0, NULL, 2, o, 0)->attr.access.align = align;
}

static Value *gep(Builder *b, Value *p, Value *i, uint64_t size)
{
	Value *r = op2(b, OP_LLIR_GEP, p->type, p, i);
	r->def->attr.gep.stride = size;
	return r;
}

static Value *intrin(Builder *b, const char *name, Overload ovl, Type *rt, uint32_t n, Value **args)
{
	Op *op = ir_build(b, OP_LLIR_INTRINSIC, rt ? 1 : 0, &rt, n, args, 0);
	op->sym = name;
	op->attr.intrinsic.overload = ovl;
	return rt ? &op->res[0] : NULL;
}

static Value *sreg(Builder *b, const char *name) { return intrin(b, name, OVL_NONE, I32, 0, NULL); }

static void br(Builder *b, Block *t, uint32_t n, Value **args)
{
	Op *op = ir_build(b, OP_LLIR_BR, 0, NULL, 0, NULL, 1);
	ir_op_set_succ(M, op, 0, t, n, args);
}

static void condbr(Builder *b, Value *c, Block *t, uint32_t nt, Value **at_, Block *f, uint32_t nf, Value **af)
{
	Op *op = ir_build(b, OP_LLIR_CONDBR, 0, NULL, 1, &c, 2);
	ir_op_set_succ(M, op, 0, t, nt, at_);
	ir_op_set_succ(M, op, 1, f, nf, af);
}

static void ret(Builder *b) { ir_build(b, OP_LLIR_RET, 0, NULL, 0, NULL, 0); }

static void trap_block(Block *blk)
{
	Builder b = at(blk);
	intrin(&b, "llvm.trap", OVL_NONE, NULL, 0, NULL);
	ir_build(&b, OP_LLIR_UNREACHABLE, 0, NULL, 0, NULL, 0);
}

/* ---------------------------------------------------------- kernels */

/* store42(out: ptr<1>) { *out = 42 } */
static void build_store42(void)
{
	Func *f = func("store42", true, ir_type_void(M), 1, (Type *[]){P1});
	Builder b = at(f->first);
	store(&b, cst(&b, I32, 42), arg(f, 0), 4);
	ret(&b);
}

/* global_index = ctaid.x * ntid.x + tid.x, zero-extended to i64 */
static Value *global_index(Builder *b)
{
	Value *tid = sreg(b, "llvm.nvvm.read.ptx.sreg.tid.x");
	Value *ctaid = sreg(b, "llvm.nvvm.read.ptx.sreg.ctaid.x");
	Value *ntid = sreg(b, "llvm.nvvm.read.ptx.sreg.ntid.x");
	Value *i = op2(b, OP_LLIR_ADD, I32, op2(b, OP_LLIR_MUL, I32, ctaid, ntid), tid);
	return op1(b, OP_LLIR_ZEXT, I64, i);
}

/* vecadd(a, b, c: ptr<1>, n: i64) { i = index; if i < n { c[i] = a[i] + b[i] } } */
static void build_vecadd(void)
{
	Func *f = func("vecadd", true, ir_type_void(M), 4, (Type *[]){P1, P1, P1, I64});
	Block *body = ir_block_new(f), *exit = ir_block_new(f);
	Builder b = at(f->first);
	Value *i = global_index(&b);
	condbr(&b, cmp(&b, OP_LLIR_ICMP, PRED_ULT, i, arg(f, 3)), body, 0, NULL, exit, 0, NULL);
	b = at(body);
	Value *x = load(&b, F32, gep(&b, arg(f, 0), i, 4), 4);
	Value *y = load(&b, F32, gep(&b, arg(f, 1), i, 4), 4);
	store(&b, op2(&b, OP_LLIR_FADD, F32, x, y), gep(&b, arg(f, 2), i, 4), 4);
	br(&b, exit, 0, NULL);
	b = at(exit);
	ret(&b);
}

/* loop_sum(out: ptr<1>, n: i32) { s = 0; for i in 0..n { s += i } *out = s }
 * with the loop state in block arguments (header(i, s), done(s)). */
static void build_loop_sum(void)
{
	Func *f = func("loop_sum", true, ir_type_void(M), 2, (Type *[]){P1, I32});
	Block *head = ir_block_new(f), *body = ir_block_new(f), *done = ir_block_new(f);
	Value *i = ir_block_add_arg(head, I32), *s = ir_block_add_arg(head, I32);
	Value *total = ir_block_add_arg(done, I32);
	Builder b = at(f->first);
	Value *zero = cst(&b, I32, 0);
	br(&b, head, 2, (Value *[]){zero, zero});
	b = at(head);
	condbr(&b, cmp(&b, OP_LLIR_ICMP, PRED_SLT, i, arg(f, 1)), body, 0, NULL, done, 1, &s);
	b = at(body);
	Value *s2 = op2(&b, OP_LLIR_ADD, I32, s, i);
	Value *i2 = op2(&b, OP_LLIR_ADD, I32, i, cst(&b, I32, 1));
	br(&b, head, 2, (Value *[]){i2, s2});
	b = at(done);
	store(&b, total, arg(f, 0), 4);
	ret(&b);
}

/* switch_k(out, x) { *out = match x { 0 => 10, 1 | 2 => 20, _ => 30 } }
 * all arms jump to one join(v) block: two edges from one switch to the
 * same block with arguments. */
static void build_switch(void)
{
	Func *f = func("switch_k", true, ir_type_void(M), 2, (Type *[]){P1, I32});
	Block *join = ir_block_new(f);
	Value *v = ir_block_add_arg(join, I32);
	Builder b = at(f->first);
	Value *c10 = cst(&b, I32, 10), *c20 = cst(&b, I32, 20), *c30 = cst(&b, I32, 30);
	Value *x = arg(f, 1);
	Op *sw = ir_build(&b, OP_LLIR_SWITCH, 0, NULL, 1, &x, 4);
	ir_op_set_vals(M, sw, 3, (U128[]){{0, 0}, {1, 0}, {2, 0}});
	ir_op_set_succ(M, sw, 0, join, 1, &c10);
	ir_op_set_succ(M, sw, 1, join, 1, &c20);
	ir_op_set_succ(M, sw, 2, join, 1, &c20);
	ir_op_set_succ(M, sw, 3, join, 1, &c30);
	b = at(join);
	store(&b, v, arg(f, 0), 4);
	ret(&b);
}

/* sat_k(out: ptr<1>, x: f32) { out[0] = x as i32; out[1] = (x as f64) as u8 as i32 } */
static void build_sat(void)
{
	Func *f = func("sat_k", true, ir_type_void(M), 2, (Type *[]){P1, F32});
	Builder b = at(f->first);
	Value *si = op1(&b, OP_LLIR_FPTOSI_SAT, I32, arg(f, 1));
	Value *d = op1(&b, OP_LLIR_FPEXT, F64, arg(f, 1));
	Value *u8 = op1(&b, OP_LLIR_FPTOUI_SAT, I8, d);
	store(&b, si, arg(f, 0), 4);
	store(&b, op1(&b, OP_LLIR_ZEXT, I32, u8), gep(&b, arg(f, 0), cst(&b, I64, 1), 4), 4);
	ret(&b);
}

/* byval_k(out: ptr<1>, s: {u64, u64} by value) { *out = s.1 } */
static void build_byval(void)
{
	Func *f = func("byval_k", true, ir_type_void(M), 2, (Type *[]){P1, P0});
	f->params[1].byval_size = 16;
	f->params[1].byval_align = 8;
	f->params[1].name = "s";
	Builder b = at(f->first);
	Value *field = gep(&b, arg(f, 1), cst(&b, I64, 1), 8);
	store(&b, load(&b, I64, field, 8), arg(f, 0), 8);
	ret(&b);
}

/* helper(x) -> x * 3 + 1 (device function); call_k(out, x) { *out = helper(x) } */
static void build_call(void)
{
	Func *h = func("helper", false, I32, 1, (Type *[]){I32});
	Builder b = at(h->first);
	Value *r = op2(&b, OP_LLIR_ADD, I32, op2(&b, OP_LLIR_MUL, I32, arg(h, 0), cst(&b, I32, 3)), cst(&b, I32, 1));
	Value *rv = r;
	ir_build(&b, OP_LLIR_RET, 0, NULL, 1, &rv, 0);

	Func *f = func("call_k", true, ir_type_void(M), 2, (Type *[]){P1, I32});
	b = at(f->first);
	Value *x = arg(f, 1);
	Op *call = ir_build(&b, OP_LLIR_CALL, 1, &I32, 1, &x, 0);
	call->sym = "helper";
	store(&b, &call->res[0], arg(f, 0), 4);
	ret(&b);
}

/* A read-only table of i32 {1, 2, 3, 5} and a pointer to its element 1
 * (a relocation with addend 4).  table_k(out, i) { out[0] = table[i];
 * out[1] = *table_ptr } */
static void build_table(void)
{
	static uint8_t bytes[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 5, 0, 0, 0};
	static uint8_t pbytes[8] = {4, 0, 0, 0, 0, 0, 0, 0};
	Global *g = ir_global_new(M, "table");
	g->bytes = bytes, g->size = 16, g->align = 4, g->addrspace = AS_GLOBAL;
	Global *p = ir_global_new(M, "table_ptr");
	p->bytes = pbytes, p->size = 8, p->align = 8, p->addrspace = AS_GLOBAL;
	p->nreloc = 1;
	p->relocs = arena_new_array(M->arena, Reloc, 1);
	p->relocs[0].offset = 0;
	p->relocs[0].target = "table";

	Func *f = func("table_k", true, ir_type_void(M), 2, (Type *[]){P1, I64});
	Builder b = at(f->first);
	Value *t = ir_build1(&b, OP_LLIR_GLOBAL_ADDR, P1, 0, NULL);
	t->def->sym = "table";
	store(&b, load(&b, I32, gep(&b, t, arg(f, 1), 4), 4), arg(f, 0), 4);
	Value *tp = ir_build1(&b, OP_LLIR_GLOBAL_ADDR, P1, 0, NULL);
	tp->def->sym = "table_ptr";
	Value *elem = load(&b, P1, tp, 8);
	store(&b, load(&b, I32, elem, 4), gep(&b, arg(f, 0), cst(&b, I64, 1), 4), 4);
	ret(&b);
}

/* trap_k(out, x) { if x == 0 { trap } *out = x } — the panic path. */
static void build_trap(void)
{
	Func *f = func("trap_k", true, ir_type_void(M), 2, (Type *[]){P1, I32});
	Block *panic = ir_block_new(f), *ok = ir_block_new(f);
	Builder b = at(f->first);
	condbr(&b, cmp(&b, OP_LLIR_ICMP, PRED_EQ, arg(f, 1), cst(&b, I32, 0)), panic, 0, NULL, ok, 0, NULL);
	trap_block(panic);
	b = at(ok);
	store(&b, arg(f, 1), arg(f, 0), 4);
	ret(&b);
}

/* bar_k(out) { barrier; *out = popcount(tid) } */
static void build_barrier(void)
{
	Func *f = func("bar_k", true, ir_type_void(M), 1, (Type *[]){P1});
	Builder b = at(f->first);
	Value *zero = cst(&b, I32, 0);
	intrin(&b, "llvm.nvvm.barrier.cta.sync.aligned.all", OVL_NONE, NULL, 1, &zero);
	Value *tid = sreg(&b, "llvm.nvvm.read.ptx.sreg.tid.x");
	store(&b, intrin(&b, "llvm.ctpop", OVL_OPD0, I32, 1, &tid), arg(f, 0), 4);
	ret(&b);
}

/* saxpy(a: f32, x, y: ptr<1>) { i = index; y[i] = a * x[i] + y[i] } */
static void build_saxpy(void)
{
	Func *f = func("saxpy", true, ir_type_void(M), 3, (Type *[]){F32, P1, P1});
	Builder b = at(f->first);
	Value *i = global_index(&b);
	Value *xp = gep(&b, arg(f, 1), i, 4), *yp = gep(&b, arg(f, 2), i, 4);
	Value *m = op2(&b, OP_LLIR_FMUL, F32, arg(f, 0), load(&b, F32, xp, 4));
	store(&b, op2(&b, OP_LLIR_FADD, F32, m, load(&b, F32, yp, 4)), yp, 4);
	ret(&b);
}

/* div_k(out: ptr<1>, x, y: f32) { out[0] = sqrt(x / y) + 1.5 } — precise
 * division and square root only; the float constant by bit pattern. */
static void build_div(void)
{
	Func *f = func("div_k", true, ir_type_void(M), 3, (Type *[]){P1, F32, F32});
	Builder b = at(f->first);
	Value *q = op2(&b, OP_LLIR_FDIV, F32, arg(f, 1), arg(f, 2));
	Value *r = intrin(&b, "llvm.sqrt", OVL_RES, F32, 1, &q);
	store(&b, op2(&b, OP_LLIR_FADD, F32, r, cst(&b, F32, 0x3fc00000u)), arg(f, 0), 4);
	ret(&b);
}

/* misc_k(out: ptr<1>) { tmp: [u8; 16] = i128 constant; out[0..16] = tmp;
 * out[16..20] = 1.5f32 } — alloca, memcpy, 128-bit and float constants. */
static void build_misc(void)
{
	Func *f = func("misc_k", true, ir_type_void(M), 1, (Type *[]){P1});
	Builder b = at(f->first);
	Value *tmp = ir_build1(&b, OP_LLIR_ALLOCA, P0, 0, NULL);
	tmp->def->attr.mem.align = 16, tmp->def->attr.mem.size = 16;
	store(&b, ir_build_const(&b, OP_LLIR_CONST, I128, 0x1122334455667788u, 0x99aabbccddeeff00u), tmp, 16);
	Value *cp[] = {arg(f, 0), tmp};
	Op *mc = ir_build(&b, OP_LLIR_MEMCPY, 0, NULL, 2, cp, 0);
	mc->attr.mem.align = 4, mc->attr.mem.size = 16;
	store(&b, cst(&b, F32, 0x3fc00000u), gep(&b, arg(f, 0), cst(&b, I64, 4), 4), 4);
	ret(&b);
}

/* entry_loop(out, n) { while n > 0 { n -= 1; *out = n } } written as a
 * branch back to the entry block (whose arguments are the parameters),
 * plus a block nothing reaches, which must be dropped. */
static void build_entry_loop(void)
{
	Func *f = func("entry_loop", true, ir_type_void(M), 2, (Type *[]){P1, I32});
	Block *dec = ir_block_new(f), *done = ir_block_new(f), *dead = ir_block_new(f);
	Builder b = at(f->first);
	condbr(&b, cmp(&b, OP_LLIR_ICMP, PRED_SGT, arg(f, 1), cst(&b, I32, 0)), dec, 0, NULL, done, 0, NULL);
	b = at(dec);
	Value *n2 = op2(&b, OP_LLIR_SUB, I32, arg(f, 1), cst(&b, I32, 1));
	store(&b, n2, arg(f, 0), 4);
	br(&b, f->first, 2, (Value *[]){arg(f, 0), n2});
	b = at(done);
	ret(&b);
	b = at(dead);
	br(&b, dec, 0, NULL);
}

/* The targets as emit sees them: their kind (the passes' hooks are
 * src/target.c's, not linked here). */
static const Target nvptx = { TARGET_NVPTX, "nvptx", NULL, NULL };
static const Target host = { TARGET_HOST, "host", NULL, NULL };

static void build_module(void)
{
	M = ir_module_new(arena_new());
	M->target = &nvptx;
	M->stage = DIALECT_LLIR;
	I1 = ir_type_bool(M), I8 = ir_type_int(M, 8, false), I32 = ir_type_int(M, 32, false);
	I64 = ir_type_int(M, 64, false), I128 = ir_type_int(M, 128, false);
	F32 = ir_type_float(M, 32), F64 = ir_type_float(M, 64);
	P0 = ir_type_ptr(M, AS_GENERIC), P1 = ir_type_ptr(M, AS_GLOBAL);
	build_store42();
	build_vecadd();
	build_loop_sum();
	build_switch();
	build_sat();
	build_byval();
	build_call();
	build_table();
	build_trap();
	build_barrier();
	build_saxpy();
	build_div();
	build_misc();
	build_entry_loop();
}

/* ---------------------------------------------------------- checking */

/* The PTX of one function: from its header to the closing brace. */
static char *ptx_section(const char *ptx, const char *name)
{
	char key[128];
	snprintf(key, sizeof key, " %s(", name);
	const char *p = ptx;
	while ((p = strstr(p, key))) {
		const char *line = p;
		while (line > ptx && line[-1] != '\n')
			line--;
		if (!strncmp(line, ".visible .entry", 15) || !strncmp(line, ".func", 5) ||
		    !strncmp(line, ".visible .func", 14))
			break;
		p += strlen(key);
	}
	if (!p)
		return NULL;
	while (p > ptx && p[-1] != '\n')
		p--;
	const char *end = strstr(p, "\n}\n");
	size_t n = end ? (size_t)(end - p) + 2 : strlen(p);
	char *s = malloc(n + 1);
	memcpy(s, p, n);
	s[n] = 0;
	return s;
}

/* Each string of `want` (NULL-terminated) after the previous one; each of
 * `absent` nowhere. */
static void check_ptx(const char *ptx, const char *level, const char *name, const char **want, const char **absent)
{
	char what[160], detail[200];
	char *sec = ptx_section(ptx, name);
	snprintf(what, sizeof what, "%s %s: function present", level, name);
	check(sec != NULL, what, NULL);
	if (!sec)
		return;
	const char *p = sec;
	for (; want && *want; want++) {
		const char *q = strstr(p, *want);
		snprintf(what, sizeof what, "%s %s: '%s'", level, name, *want);
		snprintf(detail, sizeof detail, "not found in order in:\n%s", sec);
		check(q != NULL, what, q ? NULL : detail);
		if (q)
			p = q + strlen(*want);
	}
	for (; absent && *absent; absent++) {
		snprintf(what, sizeof what, "%s %s: no '%s'", level, name, *absent);
		check(!strstr(sec, *absent), what, sec);
	}
	free(sec);
}

#define L(...) ((const char *[]){__VA_ARGS__, NULL})

static void check_common(const char *ptx, const char *lv)
{
	check_ptx(ptx, lv, "store42", L(".entry", "st.global.b32", "42", "ret;"), NULL);
	check_ptx(ptx, lv, "vecadd", L(".entry", "%tid.x", "%ctaid.x", "setp", "ld.global", "add.rn.f32", "st.global"),
	          L("fma.rn.f32"));
	check_ptx(ptx, lv, "sat_k", L(".entry", "cvt.rzi.s32.f32"), NULL);
	check_ptx(ptx, lv, "byval_k", L(".entry", ".param .align 8 .b8 byval_k_param_1[16]", "ld.param"), NULL);
	check_ptx(ptx, lv, "table_k", L(".entry", "ld.global"), NULL);
	check_ptx(ptx, lv, "trap_k", L(".entry", "trap;"), NULL);
	check_ptx(ptx, lv, "bar_k", L(".entry", "bar.sync", "popc.b32"), NULL);
	check_ptx(ptx, lv, "saxpy", L(".entry", "mul.rn.f32", "add.rn.f32"), L("fma.rn.f32"));
	check_ptx(ptx, lv, "div_k", L(".entry", "div.rn.f32", "sqrt.rn.f32", "add.rn.f32", "0f3FC00000"),
	          L("approx", "div.full", "fma"));
}

static void check_o0(const char *ptx)
{
	check_common(ptx, "O0");
	check_ptx(ptx, "O0", "helper", L(".func", "mul", "add"), NULL);
	check_ptx(ptx, "O0", "call_k", L(".entry", "call", "helper"), NULL);
	check_ptx(ptx, "O0", "entry_loop", L(".entry", "setp", "add.s32", "st.global.b32", "bra"), NULL);
	/* -O0 runs SROA: the 16-byte temporary is no stack slot (small frames
	 * for recursion), yet the helper is still called, not inlined */
	check_ptx(ptx, "O0", "misc_k", L(".entry", "st.global", "1069547520"), L("__local_depot"));
	check_ptx(ptx, "O0", "switch_k", L(".entry", ", 10;", "setp.eq", ", 20;", ", 20;", ", 30;"), NULL);
	check_ptx(ptx, "O0", "loop_sum", L(".entry", "setp", "add.s32", "bra", "st.global.b32"), NULL);
	char what[64];
	snprintf(what, sizeof what, "O0 PTX header");
	check(strstr(ptx, ".version 8.0") && strstr(ptx, ".target sm_90") && strstr(ptx, ".address_size 64"), what,
	      NULL);
	check(strstr(ptx, ".global .align 4 .b8 table[16] = {1, 0, 0, 0, 2") != NULL, "O0 table initializer", NULL);
	check(strstr(ptx, "table_ptr") && strstr(ptx, "table+4") != NULL, "O0 relocation table+4", NULL);
}

static void check_o3(const char *ptx)
{
	check_common(ptx, "O3");
	/* helper is internal: inlined into call_k and dropped */
	check_ptx(ptx, "O3", "call_k", L(".entry", "st.global.b32"), L("call.uni", "call "));
	check_ptx(ptx, "O3", "entry_loop", L(".entry", "setp", "st.global.b32"), NULL);
	check_ptx(ptx, "O3", "misc_k", L(".entry", "st.global"), L("__local_depot"));
	check_ptx(ptx, "O3", "switch_k", L(".entry", "switch", "st.global.b32"), NULL);
	check(!strstr(ptx, " helper("), "O3 helper inlined and removed", NULL);
	check_ptx(ptx, "O3", "loop_sum", L(".entry", "st.global.b32"), NULL);
}

/* ptxas -arch=sm_90 of ptx in a temporary directory; its cubin (malloc'd,
 * *n) or NULL. */
static uint8_t *run_ptxas(const char *ptx, const char *level, size_t *n)
{
	char dir[] = "/tmp/test_emit.XXXXXX";
	if (!mkdtemp(dir))
		return NULL;
	char path[256], out[256], cmd[768];
	snprintf(path, sizeof path, "%s/%s.ptx", dir, level);
	snprintf(out, sizeof out, "%s/%s.cubin", dir, level);
	FILE *f = fopen(path, "w");
	if (!f)
		return NULL;
	fputs(ptx, f);
	fclose(f);
	const char *home = getenv("CUDA_HOME");
	snprintf(cmd, sizeof cmd, "%s/bin/ptxas -arch=sm_90 %s -o %s", home && *home ? home : CUDA_HOME, path, out);
	uint8_t *cubin = NULL;
	if (system(cmd) == 0 && (f = fopen(out, "rb"))) {
		fseek(f, 0, SEEK_END);
		long size = ftell(f);
		rewind(f);
		cubin = size > 0 ? xmalloc((size_t)size) : NULL;
		if (cubin && fread(cubin, 1, (size_t)size, f) != (size_t)size) {
			free(cubin);
			cubin = NULL;
		}
		*n = cubin ? (size_t)size : 0;
		fclose(f);
	}
	if (cubin) {
		snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
		if (system(cmd))
			printf("  (cannot remove %s)\n", dir);
	} else
		printf("  (PTX kept in %s)\n", dir);
	return cubin;
}

static bool is_elf(const uint8_t *b, size_t n)
{
	return b && n > 4 && !memcmp(b, "\x7f" "ELF", 4);
}

/* cubin_from_ptx runs the toolkit's ptxas when there is one (whole-program,
 * so its cubin is byte for byte ptxas's of the same PTX), and nvJitLink
 * with OXIDEC_PTXAS=none or without ptxas (docs/DESIGN.md, "Cubins"). */
static void check_backends(const char *ptx, size_t len, const char *level)
{
	char what[96], ptxas[256];
	const char *home = getenv("CUDA_HOME");
	snprintf(ptxas, sizeof ptxas, "%s/bin/ptxas", home && *home ? home : CUDA_HOME);
	bool have_ptxas = access(ptxas, X_OK) == 0 && !getenv("OXIDEC_PTXAS");
	size_t np = 0, n = 0;
	uint8_t *ref = NULL;
	snprintf(what, sizeof what, "%s ptxas -arch=sm_90", level);
	if (have_ptxas)
		check((ref = run_ptxas(ptx, level, &np)) != NULL, what, NULL);
	else
		printf("SKIP %s (no %s, or OXIDEC_PTXAS set)\n", what, ptxas);
	uint8_t *cubin = cubin_from_ptx(ptx, len, "sm_90", &n);
	snprintf(what, sizeof what, "%s cubin_from_ptx gives an ELF", level);
	check(is_elf(cubin, n), what, NULL);
	if (ref) {
		snprintf(what, sizeof what, "%s cubin_from_ptx is ptxas's cubin, byte for byte", level);
		check(cubin && n == np && !memcmp(cubin, ref, n), what, NULL);
		free(cubin);
		setenv("OXIDEC_PTXAS", "none", 1);
		cubin = cubin_from_ptx(ptx, len, "sm_90", &n);
		unsetenv("OXIDEC_PTXAS");
		snprintf(what, sizeof what, "%s cubin_from_ptx with OXIDEC_PTXAS=none (nvJitLink) gives an ELF", level);
		check(is_elf(cubin, n), what, NULL);
	}
	free(cubin);
	free(ref);
}

static void test_level(int level)
{
	char lv[4];
	snprintf(lv, sizeof lv, "O%d", level);
	EmitCtx *e = emit_new(&(EmitOptions){.arch = "sm_90", .opt_level = level, .verify_each = true}, &nvptx);
	check(e != NULL, "emit_new sm_90", NULL);
	if (!e)
		return;
	bool ok = emit_module(e, M);
	check(ok, "emit_module", NULL);
	ok = ok && emit_optimize(e);
	check(ok, "emit_optimize", NULL);
	char *ll = ok ? emit_llvm_text(e) : NULL;
	if (ll && level == 0) {
		check(strstr(ll, "define ptx_kernel void @saxpy(") != NULL, "ll: saxpy is ptx_kernel", NULL);
		check(strstr(ll, "define internal i32 @helper(") != NULL, "ll: helper is internal", NULL);
		check(strstr(ll, "byval([16 x i8]) align 8") != NULL, "ll: byval param", NULL);
		check(strstr(ll, "target datalayout") != NULL, "ll: datalayout set", NULL);
	}
	size_t len = 0;
	char *ptx = ok ? emit_ptx(e, &len) : NULL;
	check(ptx && len == strlen(ptx), lv[1] == '0' ? "O0 emit_ptx" : "O3 emit_ptx", NULL);
	if (verbose && ll)
		printf("----- LLVM IR %s\n%s", lv, ll);
	if (verbose && ptx)
		printf("----- PTX %s\n%s", lv, ptx);
	if (ptx) {
		if (level == 0)
			check_o0(ptx);
		else
			check_o3(ptx);
		check_backends(ptx, len, lv);
	}
	free(ll);
	free(ptx);
	emit_free(e);
}

/* ------------------------------------------------------- host target */

/* host_k(out: ptr, flag: bool, s: {u32, u32, u32} by value, d: f64)
 *   { *out = flag ? s.2 : __oxide_host_tid_x() }
 * on the host target, where the llir lowering declares the emulator's
 * functions as extern Funcs: checks the trampoline (byval and bool
 * parameters read through args[i]), the declarations, the kernel list,
 * the object file, and that PTX is refused. */
static void test_host(void)
{
	Module *saved = M;
	M = ir_module_new(arena_new());
	M->stage = DIALECT_LLIR;
	M->target = &host;
	Type *p = ir_type_ptr(M, AS_GENERIC), *b1 = ir_type_bool(M), *i32 = ir_type_int(M, 32, false);
	Func *tid = ir_func_new(M, "__oxide_host_tid_x", "__oxide_host_tid_x");
	tid->is_extern = true;
	tid->ret = i32;
	Func *f = func("host_k", true, ir_type_void(M), 4, (Type *[]){p, b1, p, ir_type_float(M, 64)});
	f->params[2].byval_size = 12;
	f->params[2].byval_align = 4;
	Builder b = at(f->first);
	Op *call = ir_build(&b, OP_LLIR_CALL, 1, &i32, 0, NULL, 0);
	call->sym = tid->symbol;
	Value *s2 = load(&b, i32, gep(&b, arg(f, 2), cst(&b, ir_type_int(M, 64, false), 2), 4), 4);
	Value *v = ir_build1(&b, OP_LLIR_SELECT, i32, 3, (Value *[]){arg(f, 1), s2, &call->res[0]});
	store(&b, v, arg(f, 0), 4);
	ret(&b);
	check(ir_verify(M, "test_host", stdout), "host: IR with an extern function verifies", NULL);

	EmitCtx *e = emit_new(&(EmitOptions){.opt_level = 2}, &host);
	bool ok = e && emit_module(e, M);
	char *ll = ok ? emit_llvm_text(e) : NULL;
	if (verbose && ll)
		fputs(ll, stdout);
	const char *want[] = {
		"@__oxide_kernels = constant [8 x i8] c\"host_k\\00\\00\"", "define void @host_k(",
		"declare i32 @__oxide_host_tid_x()", "define void @__oxide_launch_host_k(ptr %args)",
		"load i8, ptr", "trunc i8", "call void @host_k(ptr", "byval([12 x i8]) align 4", "double",
		"alwaysinline",
	};
	const char *miss = ll ? NULL : "no LLVM text";
	for (size_t i = 0; ll && !miss && i < countof(want); i++)
		if (!strstr(ll, want[i]))
			miss = want[i];
	check(!miss && !strstr(ll, "nvptx") && !strstr(ll, "ptx_kernel"),
	      "host: trampoline, extern declaration, kernel list, no NVPTX", miss);
	ok = ok && emit_optimize(e);
	int before = diag_errors();
	check(e && !emit_ptx(e, NULL) && diag_errors() == before + 1, "host: emit_ptx is refused", NULL);
	size_t n = 0;
	uint8_t *obj = ok ? emit_object(e, &n) : NULL;
	check(obj && n > 4 && !memcmp(obj, "\177ELF", 4), "host: emit_object gives an ELF object", NULL);
	free(obj);
	free(ll);
	emit_free(e);
	arena_free(M->arena);
	M = saved;
}

/* ------------------------------------------------- PTX hazard rewrites */

char *emit_fix_ptx(char *ptx, size_t *len);   /* src/emit/ptxfix.c (emit_impl.h) */

static void fix_case(const char *what, const char *in, const char *want)
{
	size_t len;
	char *got = emit_fix_ptx(strcpy(xmalloc(strlen(in) + 1), in), &len);
	bool ok = !strcmp(got, want) && len == strlen(want);
	check(ok, what, ok ? NULL : got);
	free(got);
}

char *emit_inline_traps(char *ptx, size_t *len);   /* src/emit/traps.c (emit_impl.h) */

static void traps_case(const char *what, const char *in, const char *want)
{
	size_t len;
	char *got = emit_inline_traps(strcpy(xmalloc(strlen(in) + 1), in), &len);
	bool ok = !strcmp(got, want) && len == strlen(want);
	check(ok, what, ok ? NULL : got);
	free(got);
}

char *emit_redirect_recursion(char *ptx, size_t *len);   /* src/emit/ptxcalls.c (emit_impl.h) */

/* A module: kernel k calls helper h (once: ptxas would inline it), h
 * calls the recursive r under a guard, the non-recursive n, and r again
 * without results or arguments; k calls r itself; r calls itself; the
 * mutually recursive p and q call r. */
static const char redirect_ptx[] =
	".func (.param .b64 func_retval0) r(.param .b64 r_param_0);\n"
	".visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n"
	"\t{ // callseq 0, 0\n\t.param .b64 param0;\n\tst.param.b64 \t[param0], 15;\n\tcall.uni h, (param0);\n\t} // callseq 0\n"
	"\t{ // callseq 1, 0\n\t.param .b64 param0;\n\t.param .b64 retval0;\n"
	"\tcall.uni (retval0), r, (param0);\n\t} // callseq 1\n\tret;\n}\n"
	".func h(\n\t.param .b64 h_param_0\n)\n{\n"
	"\t{ // callseq 2, 0\n\t.param .b64 param0;\n\t.param .align 8 .b8 param1[16];\n\t.param .b64 retval0;\n"
	"\t@%p1 call.uni (retval0), r, (param0, param1);\n\tld.param.b64 \t%rd1, [retval0];\n\t} // callseq 2\n"
	"\t{ // callseq 3, 0\n\tcall.uni n, ();\n\t} // callseq 3\n"
	"\t{ // callseq 4, 0\n\tcall.uni r, ();\n\t} // callseq 4\n\tret;\n}\n"
	".func n()\n{\n\tret;\n}\n"
	".func (.param .b64 func_retval0) r(\n\t.param .b64 r_param_0\n)\n{\n"
	"\t.local .align 8 .b8 \t__local_depot3[48];\n"
	"\t{ // callseq 5, 0\n\t.param .b64 param0;\n\t.param .b64 retval0;\n"
	"\tcall.uni (retval0), r, (param0);\n\t} // callseq 5\n\tret;\n}\n"
	".func p()\n{\n\tcall.uni q, ();\n\t{\n\t.param .b64 param0;\n\t.param .b64 retval0;\n"
	"\tcall.uni (retval0), r, (param0);\n\t}\n\tret;\n}\n"
	".func q()\n{\n\tcall.uni p, ();\n\tret;\n}\n";

/* ptxcalls.c: only h's calls to r become indirect, with the prototype of
 * the call sequence's own parameters; stack.c still follows them. */
static void test_redirect_recursion(void)
{
	size_t len;
	char *got = emit_redirect_recursion(strcpy(xmalloc(sizeof redirect_ptx), redirect_ptx), &len);
	check(len == strlen(got), "ptxcalls: length", NULL);
	check(strstr(got, "\t{ .reg .b64 %oxcallee; mov.u64 %oxcallee, r; __oxide_proto0 : .callprototype "
	                  "(.param .b64 _) _ (.param .b64 _, .param .align 8 .b8 _[16]); "
	                  "@%p1 call.uni (retval0), %oxcallee, (param0, param1), __oxide_proto0; }\n") != NULL,
	      "ptxcalls: h's guarded call to r, results and an array parameter", got);
	check(strstr(got, "\t{ .reg .b64 %oxcallee; mov.u64 %oxcallee, r; __oxide_proto1 : .callprototype _ (); "
	                  "call.uni %oxcallee, (), __oxide_proto1; }\n") != NULL,
	      "ptxcalls: h's call to r without results or arguments", got);
	char *k = strstr(got, ".visible .entry k"), *r = strstr(got, ".func (.param .b64 func_retval0) r(\n");
	check(k && r && strstr(k, "\tcall.uni h, (param0);\n") && strstr(k, "\tcall.uni (retval0), r, (param0);\n") &&
	      strstr(got, "\tcall.uni n, ();\n") && strstr(r, "\tcall.uni (retval0), r, (param0);\n") &&
	      strstr(strstr(got, ".func p()"), "\tcall.uni (retval0), r, (param0);\n"),
	      "ptxcalls: the kernel's, r's own, p's (recursive) and the call to n stay direct", got);
	size_t n0 = strlen(redirect_ptx);
	char *same = emit_redirect_recursion(strcpy(xmalloc(n0 + 1), ".func n()\n{\n\tret;\n}\n"), &len);
	check(!strcmp(same, ".func n()\n{\n\tret;\n}\n"), "ptxcalls: nothing recursive, nothing changed", same);
	free(same);
	free(got);
	/* stack.c: k2 reaches the recursion only through h2's rewritten call */
	static const char only_helper[] =
		".visible .entry k2()\n{\n\tcall.uni h2, ();\n\tret;\n}\n"
		".func h2()\n{\n\t{\n\t.param .b64 param0;\n\t@%p1 call.uni r2, (param0);\n\t}\n\tret;\n}\n"
		".func r2(\n\t.param .b64 r2_param_0\n)\n{\n\t{\n\t.param .b64 param0;\n\tcall.uni r2, (param0);\n\t}\n\tret;\n}\n";
	got = emit_redirect_recursion(strcpy(xmalloc(sizeof only_helper), only_helper), &len);
	char path[] = "/tmp/test_emit_redirect.XXXXXX";
	int fd = mkstemp(path), saved = dup(2);
	fflush(stderr);
	dup2(fd, 2);
	int nwarn = stack_warn(M, got, NULL, "sm_90");
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fd);
	remove(path);
	check(strstr(got, "mov.u64 %oxcallee, r2;") && nwarn == 1,
	      "ptxcalls: stack.c follows k2 -> h2 -> r2 after the rewrite", got);
	free(got);
}

/* s with its first "@OP@" replaced by op, malloc'd. */
static char *with_op(const char *s, const char *op)
{
	const char *at = strstr(s, "@OP@");
	size_t k = (size_t)(at - s), n = strlen(op);
	char *r = xmalloc(strlen(s) + n + 1);
	memcpy(r, s, k);
	strcpy(r + k, op);
	strcat(r, at + 4);
	return r;
}

/* traps.c: a test's trap moved to the test in an .entry that shuffles,
 * outside loops only; other bodies unchanged. */
static void test_inline_traps(void)
{
	static const char entry[] = "//\n.visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n",
	                  func[] = "//\n.visible .func k(\n\t.param .u64 k_param_0\n)\n{\n",
	                  body[] = "\t.loc\t1 5 3\n\tsetp.ge.u64 \t%p1, %rd1, %rd2;\n\t@%p1 bra \t$L__BB0_2;\n"
	                           "\t@OP@\n\tret;\n$L__BB0_2:\n\t.loc\t1 7 9\n\ttrap; exit;\n}\n",
	                  moved[] = "\t.loc\t1 5 3\n\tsetp.ge.u64 \t%p1, %rd1, %rd2;\n\t@!%p1 bra \t$L__oxok0;\n"
	                            "\t.loc\t1 7 9\n\ttrap; exit;\n$L__oxok0:\n\t.loc\t1 5 3\n"
	                            "\t@OP@\n\tret;\n$L__BB0_2:\n\t.loc\t1 7 9\n\ttrap; exit;\n}\n";
	static const char shfl[] = "shfl.sync.up.b32 \t%r2, %r1, 1, 0, -1;";
	char in[1024], want[1024], *b = with_op(body, shfl), *m = with_op(moved, shfl);
	snprintf(in, sizeof in, "%s%s", entry, b);
	snprintf(want, sizeof want, "%s%s", entry, m);
	traps_case("traps: a shuffling kernel's trap at its test", in, want);
	snprintf(in, sizeof in, "%s%s", func, b);
	traps_case("traps: none in a .func", in, in);
	free(b);
	b = with_op(body, "add.s32 \t%r2, %r1, 1;");
	snprintf(in, sizeof in, "%s%s", entry, b);
	traps_case("traps: none without a warp-collective instruction", in, in);
	free(b);
	b = with_op(body, "vote.sync.any.pred \t%p3, %p2, -1;\n\tbra.uni \t$L__BB0_1;");
	snprintf(in, sizeof in, "%s$L__BB0_1:\n%s", entry, b);
	traps_case("traps: none in a loop", in, in);
	free(b);
	free(m);
}

/* Each rewrite of ptxfix.c on the lines LLVM prints (and the guarded and
 * unrelated forms); the GPU evidence for them is tests/gpu/hazards. */
static void test_ptx_fix(void)
{
	fix_case("ptxfix: neg.s16", "\tneg.s16 \t%rs2, %rs1;\n",
	         "\t{ .reg .b32 %oxa0, %oxb0; cvt.s32.s16 %oxa0, %rs1; neg.s32 %oxa0, %oxa0; cvt.u16.u32 %rs2, %oxa0; }\n");
	fix_case("ptxfix: abs.s16", "\tabs.s16 \t%rs2, %rs1;\n",
	         "\t{ .reg .b32 %oxa0, %oxm0; cvt.s32.s16 %oxa0, %rs1; shr.s32 %oxm0, %oxa0, 31; "
	         "xor.b32 %oxa0, %oxa0, %oxm0; sub.s32 %oxa0, %oxa0, %oxm0; cvt.u16.u32 %rs2, %oxa0; }\n");
	fix_case("ptxfix: abs.s32", "\tabs.s32 \t%r2, %r1;\n",
	         "\t{ .reg .b32 %oxa0, %oxm0; mov.b32 %oxa0, %r1; shr.s32 %oxm0, %oxa0, 31; "
	         "xor.b32 %oxa0, %oxa0, %oxm0; sub.s32 %oxa0, %oxa0, %oxm0; mov.b32 %r2, %oxa0; }\n");
	fix_case("ptxfix: abs.s64, guarded, in place", "\t@%p1 abs.s64 \t%rd1, %rd1;\n",
	         "\t{ .reg .b64 %oxa0, %oxm0; @%p1 mov.b64 %oxa0, %rd1; @%p1 shr.s64 %oxm0, %oxa0, 63; "
	         "@%p1 xor.b64 %oxa0, %oxa0, %oxm0; @%p1 sub.s64 %oxa0, %oxa0, %oxm0; @%p1 mov.b64 %rd1, %oxa0; }\n");
	fix_case("ptxfix: sub.s16 from 0, guarded", "\t@!%p1 sub.s16 \t%rs2, 0, %rs1;",
	         "\t{ .reg .b32 %oxa0, %oxb0; @!%p1 mov.b32 %oxa0, 0; @!%p1 cvt.s32.s16 %oxb0, %rs1; "
	         "@!%p1 sub.s32 %oxa0, %oxa0, %oxb0; @!%p1 cvt.u16.u32 %rs2, %oxa0; }");
	fix_case("ptxfix: sub.u16 immediate", "\tsub.u16 \t%rs2, %rs1, 65535;\n",
	         "\t{ .reg .b32 %oxa0, %oxb0; cvt.s32.s16 %oxa0, %rs1; mov.b32 %oxb0, -1; "
	         "sub.s32 %oxa0, %oxa0, %oxb0; cvt.u16.u32 %rs2, %oxa0; }\n");
	fix_case("ptxfix: selp.f32 against a constant", "\tselp.f32 \t%r5, 0fBF800000, %r4, %p5;\n",
	         "\t{ .reg .b32 %oxs0; .reg .pred %oxq0; selp.f32 %oxs0, 0fBF800000, %r4, %p5; "
	         "setp.nan.and.f32 %oxq0, %r4, %r4, !%p5; selp.f32 %oxs0, %r4, %oxs0, %oxq0; mov.b32 %r5, %oxs0; }\n");
	fix_case("ptxfix: selp.b32 on a float compare only",
	         "{\n\tsetp.lt.f32 \t%p3, %r1, %r2;\n\tselp.b32 \t%r3, 7, %r1, %p3;\n\tselp.b32 \t%r4, 7, %r1, %p4;\n"
	         "}\n{\n\tselp.b32 \t%r3, 7, %r1, %p3;\n",
	         "{\n\tsetp.lt.f32 \t%p3, %r1, %r2;\n\t{ .reg .b32 %oxs0; .reg .pred %oxq0; selp.b32 %oxs0, 7, %r1, %p3; "
	         "setp.nan.and.f32 %oxq0, %r1, %r1, !%p3; selp.b32 %oxs0, %r1, %oxs0, %oxq0; mov.b32 %r3, %oxs0; }\n"
	         "\tselp.b32 \t%r4, 7, %r1, %p4;\n}\n{\n\tselp.b32 \t%r3, 7, %r1, %p3;\n");
	fix_case("ptxfix: selp.f32 on an integer compare left alone",
	         "{\n\tsetp.lt.u32 \t%p2, %r1, 2;\n\tselp.f32 \t%r3, %r4, %r5, %p2;\n}\n",
	         "{\n\tsetp.lt.u32 \t%p2, %r1, 2;\n\tselp.f32 \t%r3, %r4, %r5, %p2;\n}\n");
	fix_case("ptxfix: selp.f32 guarded when the predicate has another definition",
	         "{\n\tselp.f32 \t%r3, %r4, %r5, %p2;\n\tsetp.lt.u32 \t%p2, %r1, 2;\n\tand.pred \t%p2, %p2, %p1;\n}\n",
	         "{\n\t{ .reg .b32 %oxs0; .reg .pred %oxq0; selp.f32 %oxs0, %r4, %r5, %p2; "
	         "setp.nan.and.f32 %oxq0, %r5, %r5, !%p2; selp.f32 %oxs0, %r5, %oxs0, %oxq0; "
	         "setp.nan.and.f32 %oxq0, %r4, %r4, %p2; selp.f32 %oxs0, %r4, %oxs0, %oxq0; mov.b32 %r3, %oxs0; }\n"
	         "\tsetp.lt.u32 \t%p2, %r1, 2;\n\tand.pred \t%p2, %p2, %p1;\n}\n");
	fix_case("ptxfix: selp.f32 guarded on a .BOOL integer compare, and in the next function",
	         "{\n\tsetp.lt.and.u32 \t%p2, %r1, 2, %p1;\n\tsetp.lt.u32 \t%p3, %r1, 2;\n\tselp.f32 \t%r3, 1, %r5, %p2;\n}\n"
	         "{\n\tselp.f32 \t%r3, 1, %r5, %p3;\n}\n",
	         "{\n\tsetp.lt.and.u32 \t%p2, %r1, 2, %p1;\n\tsetp.lt.u32 \t%p3, %r1, 2;\n"
	         "\t{ .reg .b32 %oxs0; .reg .pred %oxq0; selp.f32 %oxs0, 1, %r5, %p2; "
	         "setp.nan.and.f32 %oxq0, %r5, %r5, !%p2; selp.f32 %oxs0, %r5, %oxs0, %oxq0; mov.b32 %r3, %oxs0; }\n}\n"
	         "{\n\t{ .reg .b32 %oxs1; .reg .pred %oxq1; selp.f32 %oxs1, 1, %r5, %p3; "
	         "setp.nan.and.f32 %oxq1, %r5, %r5, !%p3; selp.f32 %oxs1, %r5, %oxs1, %oxq1; mov.b32 %r3, %oxs1; }\n}\n");
	fix_case("ptxfix: neg/abs.f32/f64", "\tneg.f32 \t%r2, %r1;\n\tabs.f64 \t%rd2, %rd1;\n",
	         "\txor.b32 %r2, %r1, 0x80000000;\n\tand.b64 %rd2, %rd1, 0x7FFFFFFFFFFFFFFF;\n");
	fix_case("ptxfix: others unchanged", "\tneg.s32 \t%r2, %r1;\n\tsub.s32 \t%r3, 0, %r1;\n// neg.s16 x\n",
	         "\tneg.s32 \t%r2, %r1;\n\tsub.s32 \t%r3, 0, %r1;\n// neg.s16 x\n");
}

/* ------------------------------------------------------- error paths */

static void test_errors(void)
{
	int before = diag_errors();
	EmitCtx *bad = emit_new(&(EmitOptions){.arch = "sm_999", .opt_level = 2}, &nvptx);
	check(!bad && diag_errors() == before + 1, "error: unknown arch", NULL);

	Module *saved = M;
	Module *m1 = M = ir_module_new(arena_new());
	M->target = &nvptx;
	Type *p1 = ir_type_ptr(M, AS_GLOBAL);
	Func *f = func("bad_intrinsic", true, ir_type_void(M), 1, (Type *[]){p1});
	Builder b = at(f->first);
	intrin(&b, "llvm.nvvm.no.such.thing", OVL_NONE, NULL, 0, NULL);
	ret(&b);
	EmitCtx *e = emit_new(&(EmitOptions){.opt_level = 0}, &nvptx);
	before = diag_errors();
	check(e && !emit_module(e, M) && diag_errors() > before, "error: unknown intrinsic", NULL);
	check(e && emit_ptx(e, NULL) == NULL, "error: no PTX after a failed module", NULL);

	Module *m2 = ir_module_new(arena_new());
	M = m2;
	M->target = &nvptx;
	f = func("mir_left", true, ir_type_void(M), 0, NULL);
	b = at(f->first);
	ir_build(&b, OP_MIR_RETURN, 0, NULL, 0, NULL, 0);
	before = diag_errors();
	check(e && !emit_module(e, M) && diag_errors() > before, "error: mir op reaching emit", NULL);
	emit_free(e);
	arena_free(m1->arena);
	arena_free(m2->arena);
	M = saved;
}

/* ------------------------------------------------- stack warnings */

/* PTX as LLVM 22 prints it: prototypes, then bodies; k1 reaches the
 * mutual recursion f -> g -> f (and makes an indirect call, not
 * followed), k2 only a plain call, k3 two self-recursive functions of
 * which the costlier is reported. */
static const char stack_ptx[] =
	".func  (.param .b32 func_retval0) f\n(\n\t.param .b32 f_param_0\n)\n;\n"
	".visible .entry k1(\n\t.param .u64 k1_param_0\n)\n{\n"
	"\t.local .align 8 .b8 \t__local_depot0[16];\n"
	"\t{ // callseq 0, 0\n\tcall.uni (retval0), f, (param0);\n\t} // callseq 0\n"
	"\tcall (retval0), %rd5, (param0), prototype_1;\n\tret;\n}\n"
	".visible .entry k2()\n{\n\tcall.uni h, ();\n\tret;\n}\n"
	".visible .entry k3()\n{\n\tcall.uni a, ();\n\tcall.uni b, ();\n\tret;\n}\n"
	".func  (.param .b32 func_retval0) f(\n\t.param .b32 f_param_0\n)\n{\n"
	"\t.local .align 8 .b8 \t__local_depot1[32];\n\tcall.uni (retval0), g, (param0);\n\tret;\n}\n"
	".func  (.param .b32 func_retval0) g(\n\t.param .b32 g_param_0\n)\n{\n"
	"\tcall.uni (retval0), f, (param0);\n\tret;\n}\n"
	".func h()\n{\n\tret;\n}\n"
	".func a()\n{\n\tcall.uni a, ();\n\tret;\n}\n"
	".func b()\n{\n\tcall.uni b, ();\n\tret;\n}\n";

static const char stack_log[] =
	"ptxas info    : Function properties for f\nptxas         .     40 bytes stack frame, 8 bytes spill stores\n"
	"ptxas info    : Function properties for g\nptxas         .     24 bytes stack frame, 0 bytes spill stores\n"
	"ptxas info    : Function properties for a\nptxas         .     8 bytes stack frame, 0 bytes spill stores\n"
	"ptxas info    : Function properties for b\nptxas         .     104 bytes stack frame, 0 bytes spill stores\n"
	"ptxas info    : Compiling entry function 'k1' for 'sm_90'\n"
	"ptxas info    : Function properties for k1\nptxas         .     16 bytes stack frame, 0 bytes spill stores\n"
	"info    : Function properties for 'k1':\ninfo    : used 26 registers, 16 stack, 0 bytes lmem\n";

/* stack_warn's warnings as text (stderr captured in a file). */
static char *stack_warnings(const char *log, int *nwarn)
{
	char path[] = "/tmp/test_emit_stack.XXXXXX";
	int fd = mkstemp(path), saved = dup(2);
	fflush(stderr);
	dup2(fd, 2);
	*nwarn = stack_warn(M, stack_ptx, log, "sm_90");
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	size_t n = 0;
	char *text = read_file(path, &n, (size_t)1 << 20);
	close(fd);
	remove(path);
	return text ? text : calloc(1, 1);
}

static void test_stack(void)
{
	int n;
	char *w = stack_warnings(stack_log, &n);
	check(n == 2, "stack: two recursive kernels (k1, k3), not k2", w);
	check(strstr(w, "warning: kernel 'k1' is recursive (f -> g -> f): each level needs 64 bytes of stack; "
	                "CUDA's default limit is 1024 bytes per thread; raise it with ox_set_stack_size or "
	                "cuCtxSetLimit(CU_LIMIT_STACK_SIZE)") != NULL, "stack: k1 f -> g -> f, 40 + 24 bytes", w);
	check(strstr(w, "'k1' needs about 16 + 64 x depth bytes") && strstr(w, "15 levels fit in 1024"),
	      "stack: k1's base (its own 16 bytes) and the levels that fit", w);
	check(strstr(w, "kernel 'k3' is recursive (b -> b): each level needs 104 bytes") != NULL,
	      "stack: k3 reports its costlier recursion", w);
	check(!strstr(w, "'k2'"), "stack: no warning for k2", w);
	free(w);
	w = stack_warnings(NULL, &n);
	check(n == 2 && strstr(w, "kernel 'k1' is recursive (f -> g -> f): each level needs at least 32 bytes") &&
	      strstr(w, "estimated from the PTX's local depots"), "stack: without ptxas's log, depots as a lower bound", w);
	free(w);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);   /* keep PASS lines and diagnostics in order */
	verbose = getenv("TEST_EMIT_VERBOSE") != NULL;
	build_module();
	if (verbose)
		ir_print_module(stdout, M);
	test_level(0);
	test_level(3);
	test_host();
	test_ptx_fix();
	test_inline_traps();
	test_redirect_recursion();
	test_errors();
	test_stack();
	arena_free(M->arena);
	printf("%d passed, %d failed\n", npass, nfail);
	return nfail ? 1 : 0;
}
