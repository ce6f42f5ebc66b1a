/* printer.c: textual form of the IR, used by --emit=mir|ssa|nvvm|llir,
 * --dump-after and the golden tests.  Values are numbered per function in
 * block order (block arguments, then op results), so the text is stable.
 * Its pieces (a function's head, a block's label, one op) are public so
 * that dot.c draws the same text in its pictures. */
#include "ir.h"

#include <inttypes.h>
#include <string.h>

/* llir is signless like LLVM: its integers print as iN. */
static bool print_signless;

static const char *type_str(Type *t, char *buf, size_t n)
{
	if (print_signless && t->kind == TY_INT) {
		snprintf(buf, n, "i%u", t->bits);
		return buf;
	}
	return ir_type_str(t, buf, n);
}

/* Numbers f's blocks and values; llir's integers print signless. */
void ir_print_number(Func *f)
{
	print_signless = f->mod->stage == DIALECT_LLIR;
	uint32_t n = 0, nb = 0;
	for (Block *b = f->first; b; b = b->next) {
		b->num = nb++;
		for (uint32_t i = 0; i < b->nargs; i++)
			b->args[i]->num = n++;
		for (Op *op = b->first; op; op = op->next)
			for (uint32_t i = 0; i < op->nres; i++)
				op->res[i].num = n++;
	}
}

/* A constant of type t (NULL: a plain integer). */
void ir_print_const(FILE *out, U128 v, Type *t)
{
	if (t && t->kind == TY_FLOAT) {
		if (t->bits == 32) {
			uint32_t u = (uint32_t)v.lo;
			float x;
			memcpy(&x, &u, 4);
			fprintf(out, "%.9g (0x%08" PRIx32 ")", (double)x, u);
		} else {
			double x;
			memcpy(&x, &v.lo, 8);
			fprintf(out, "%.17g (0x%016" PRIx64 ")", x, v.lo);
		}
		return;
	}
	if (v.hi == 0) {
		fprintf(out, "%" PRIu64, v.lo);
		return;
	}
	if (t && t->kind == TY_INT && t->is_signed && v.hi == UINT64_MAX && (v.lo >> 63)) {
		fprintf(out, "-%" PRIu64, ~v.lo + 1);
		return;
	}
	fprintf(out, "0x%016" PRIx64 "%016" PRIx64, v.hi, v.lo);
}

static void print_value(FILE *out, Value *v)
{
	fprintf(out, "%%%u", v->num);
}

static void print_typed(FILE *out, Value *v)
{
	char buf[32];
	print_value(out, v);
	fprintf(out, ": %s", type_str(v->type, buf, sizeof buf));
}

static void print_succ(FILE *out, Succ *s)
{
	fprintf(out, "^bb%u", s->block->num);
	if (!s->nargs)
		return;
	fputc('(', out);
	for (uint32_t i = 0; i < s->nargs; i++) {
		if (i)
			fputs(", ", out);
		print_value(out, s->args[i]);
	}
	fputc(')', out);
}

/* The name of variant v of op's enum type, or "?". */
static const char *variant_name(const Op *op, uint32_t v)
{
	return op->rty && op->rty->nvariant > v ? op->rty->variants[v].name : "?";
}

/* An op's attributes by their class (ops.def), after the operands; a
 * list of numbers starts with a comma when operands precede it. */
static void print_attrs(FILE *out, Op *op)
{
	const OpAttr *a = &op->attr;
	const char *sep = op->nopd ? ", " : " ";
	switch (opinfo[op->code].attr) {
	case ATTR_ACCESS:
		if (a->access.align)
			fprintf(out, "%salign %" PRIu32, sep, a->access.align);
		if (a->access.src_align)
			fprintf(out, ", src_align %" PRIu32, a->access.src_align);
		if (a->access.is_volatile)
			fputs(", volatile", out);
		if (a->access.nontemporal)
			fputs(", nontemporal", out);
		break;
	case ATTR_MEM:
		fprintf(out, "%s%" PRIu64 " bytes, align %" PRIu32, sep, a->mem.size, a->mem.align);
		if (op->code == OP_LLIR_MEMCPY && a->mem.src_align != a->mem.align)
			fprintf(out, ", src_align %" PRIu32, a->mem.src_align);
		break;
	case ATTR_OFFSET: fprintf(out, " + %" PRId64, a->offset.bytes); break;
	case ATTR_FIELD: fprintf(out, " .%" PRIu32, a->field.index); break;
	case ATTR_VFIELD:
		fprintf(out, " as %s.%" PRIu32, variant_name(op, a->vfield.variant), a->vfield.field);
		break;
	case ATTR_VARIANT: fprintf(out, " %s", variant_name(op, a->variant.index)); break;
	case ATTR_EXPECT: fprintf(out, " == %s", a->expect.value ? "true" : "false"); break;
	case ATTR_GEP: fprintf(out, " x %" PRIu64, a->gep.stride); break;
	case ATTR_HINT:
		if (a->hint.unroll == 0)
			fputs(" unroll full", out);
		else
			fprintf(out, " unroll %" PRIu32, a->hint.unroll);
		break;
	case ATTR_FMF:
		if (a->fmf.flags == FMF_FAST)
			fputs(", fast", out);
		else if (a->fmf.flags == FMF_ALGEBRAIC)
			fputs(", algebraic", out);
		else if (a->fmf.flags)
			fprintf(out, ", fmf %#" PRIx32, a->fmf.flags);
		break;
	case ATTR_ASM:
		fprintf(out, "%sconstraints \"%s\"%s", sep, a->inline_asm.constraints, a->inline_asm.pure ? ", pure" : "");
		break;
	case ATTR_NONE: case ATTR_CMP: case ATTR_INTRINSIC: case ATTR_ATOMIC:
		break;     /* the predicate comes after the op's name */
	}
	if (op->rty)
		fprintf(out, " {%s}", op->rty->name);
	if (op->sym && op->code != OP_MIR_ASSERT && op->code != OP_MIR_PANIC)
		return;
	if (op->sym)
		fprintf(out, " \"%s\"", op->sym);
}

/* One op, without indent or newline; its Rust location as a comment
 * when loc is set.  The function must be numbered (ir_print_number). */
void ir_print_op(FILE *out, Op *op, bool loc)
{
	char buf[32];
	Module *m = op->parent->func->mod;
	for (uint32_t i = 0; i < op->nres; i++) {
		fputs(i ? ", " : "", out);
		print_value(out, &op->res[i]);
	}
	if (op->nres)
		fputs(" = ", out);
	fputs(opinfo[op->code].name, out);
	if (opinfo[op->code].attr == ATTR_CMP)
		fprintf(out, " %s", ir_pred_name(op->attr.cmp.pred));
	if (op->code == OP_LLIR_ASM)
		fprintf(out, " \"%s\"", op->sym);     /* the PTX template */
	else if (op->sym && op->code != OP_MIR_ASSERT && op->code != OP_MIR_PANIC)
		fprintf(out, " @%s", op->sym);
	if (op->nval && op->code != OP_MIR_SWITCH && op->code != OP_LLIR_SWITCH) {
		fputc(' ', out);
		ir_print_const(out, op->vals[0], op->nres ? op->res[0].type : NULL);
	}
	for (uint32_t i = 0; i < op->nopd; i++) {
		fputs(i ? ", " : " ", out);
		print_value(out, op->opd[i]);
	}
	print_attrs(out, op);
	if (op->code == OP_MIR_SWITCH || op->code == OP_LLIR_SWITCH) {
		fputs(" [", out);
		for (uint32_t i = 0; i < op->nval; i++) {
			ir_print_const(out, op->vals[i], op->opd[0]->type);
			fputs(": ", out);
			print_succ(out, &op->succ[i]);
			fputs(", ", out);
		}
		fputs("otherwise: ", out);
		print_succ(out, &op->succ[op->nsucc - 1]);
		fputc(']', out);
	} else {
		for (uint32_t i = 0; i < op->nsucc; i++) {
			fputs(i ? ", " : " ", out);
			print_succ(out, &op->succ[i]);
		}
	}
	if (op->nres) {
		fputs(" :", out);
		for (uint32_t i = 0; i < op->nres; i++)
			fprintf(out, "%s %s", i ? "," : "", type_str(op->res[i].type, buf, sizeof buf));
	}
	if (loc && op->loc.file >= 0 && (uint32_t)op->loc.file < m->nfile)
		fprintf(out, "  // %s:%u:%u", m->files[op->loc.file], op->loc.line, op->loc.col);
}

/* "^bbN(%a: T, ...)", without the colon. */
void ir_print_block_label(FILE *out, Block *b)
{
	fprintf(out, "^bb%u", b->num);
	if (!b->nargs)
		return;
	fputc('(', out);
	for (uint32_t i = 0; i < b->nargs; i++) {
		fputs(i ? ", " : "", out);
		print_typed(out, b->args[i]);
	}
	fputc(')', out);
}

/* "[extern ]func @sym[ kernel](params) -> ret", without the body. */
void ir_print_func_head(FILE *out, Func *f)
{
	char buf[32];
	fprintf(out, "%sfunc @%s%s(", f->is_extern ? "extern " : "", f->symbol, f->is_kernel ? " kernel" : "");
	for (uint32_t i = 0; i < f->nparam; i++) {
		fprintf(out, "%s%s", i ? ", " : "", type_str(f->params[i].type, buf, sizeof buf));
		if (f->params[i].byval_size)
			fprintf(out, " byval(%" PRIu64 ", align %u)", f->params[i].byval_size, f->params[i].byval_align);
		if (f->params[i].grid_constant)
			fprintf(out, " grid_constant");
	}
	fprintf(out, ") -> %s", type_str(f->ret, buf, sizeof buf));
}

void ir_print_func(FILE *out, Func *f)
{
	ir_print_number(f);
	ir_print_func_head(out, f);
	if (f->is_extern) {     /* a declaration: one line, no body */
		fputc('\n', out);
		return;
	}
	fprintf(out, " {  // %s\n", f->name);
	for (Block *b = f->first; b; b = b->next) {
		ir_print_block_label(out, b);
		fputs(":\n", out);
		for (Op *op = b->first; op; op = op->next) {
			fputs("  ", out);
			ir_print_op(out, op, true);
			fputc('\n', out);
		}
	}
	fputs("}\n", out);
}

static void print_global(FILE *out, Global *g)
{
	fprintf(out, "global @%s : %" PRIu64 " bytes, align %u%s%s = [", g->name, g->size, g->align,
	        g->is_mut ? ", mut" : "", g->addrspace == AS_CONST ? ", const" : "");
	for (uint64_t i = 0; i < g->size && i < 64; i++)
		fprintf(out, "%s%02x", i ? " " : "", g->bytes[i]);
	if (g->size > 64)
		fputs(" ...", out);
	fputc(']', out);
	for (uint32_t i = 0; i < g->nreloc; i++)
		fprintf(out, " reloc(%" PRIu64 " -> @%s)", g->relocs[i].offset, g->relocs[i].target);
	fputc('\n', out);
}

void ir_print_module(FILE *out, Module *m)
{
	for (Global *g = m->globals; g; g = g->next)
		print_global(out, g);
	if (m->globals)
		fputc('\n', out);
	for (Func *f = m->funcs; f; f = f->next) {
		ir_print_func(out, f);
		if (f->next && !(f->is_extern && f->next->is_extern))
			fputc('\n', out);
	}
}
