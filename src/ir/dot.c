/* dot.c: --emit=dot, the control-flow graph of one IR stage (mir, ssa,
 * nvvm or llir: any module) as a Graphviz digraph.  One cluster per
 * function with a body, labelled with its head as printer.c prints it
 * (kernels drawn bold and blue, the entry block with a double border);
 * one node per block, its text the block's label and its ops exactly as
 * printer.c prints them, less the Rust locations (the .mir text keeps
 * those); one edge per successor, labelled with the branch it is:
 * llir.condbr's true / false, a switch's case values and otherwise (a
 * switch on a bool: false / true).  Declarations and globals are not
 * drawn.  Printer text goes through a memory stream, then is escaped for
 * a double-quoted dot string, each line left-justified (\l). */
#include "ir.h"

#include <stdlib.h>

/* s as the inside of a dot "string": quotes and backslashes escaped (a
 * backslash would start dot's \N, \G, \l escapes), each newline a
 * left-justified line break, other control characters spaces. */
static void put_escaped(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			fputc('\\', out);
		if (c == '\n')
			fputs("\\l", out);
		else
			fputc(c < 0x20 || c == 0x7f ? ' ' : c, out);
	}
}

/* A block's text: "^bbN(args):" then one line per op. */
static void block_text(FILE *out, Block *b)
{
	ir_print_block_label(out, b);
	fputs(":\n", out);
	for (Op *op = b->first; op; op = op->next) {
		fputs("  ", out);
		ir_print_op(out, op, false);
		fputc('\n', out);
	}
}

/* The label attribute: what print wrote for x, escaped. */
static void put_label(FILE *out, void (*print)(FILE *, void *), void *x)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *mem = open_memstream(&buf, &n);
	if (!mem)
		die("open_memstream failed");
	print(mem, x);
	fclose(mem);
	fputs("label=\"", out);
	put_escaped(out, buf, n);
	fputc('"', out);
	free(buf);
}

static void print_block(FILE *out, void *b) { block_text(out, b); }
static void print_head(FILE *out, void *f) { ir_print_func_head(out, f); }

static bool is_bool(const Value *v)
{
	return v->type->kind == TY_BOOL;
}

/* Which case of a switch successor i is: a value, or otherwise (the
 * last); on a bool, false / true, the otherwise of one case its
 * complement.  Numbers and words only: nothing to escape. */
static void case_text(FILE *out, Op *op, uint32_t i)
{
	bool last = i == op->nsucc - 1;
	if (is_bool(op->opd[0]) && (!last || op->nval == 1))
		fputs((op->vals[last ? 0 : i].lo != 0) != last ? "true" : "false", out);
	else if (last)
		fputs("otherwise", out);
	else
		ir_print_const(out, op->vals[i], op->opd[0]->type);
}

/* The label of the edge to op's successor i, if the branch has one. */
static void edge_label(FILE *out, Op *op, uint32_t i)
{
	if (op->code == OP_LLIR_CONDBR)
		fprintf(out, " [label=\"%s\"]", i == 0 ? "true" : "false");
	if (op->code != OP_MIR_SWITCH && op->code != OP_LLIR_SWITCH)
		return;
	fputs(" [label=\"", out);
	case_text(out, op, i);
	fputs("\"]", out);
}

static void dot_block(FILE *out, Block *b, uint32_t fn)
{
	fprintf(out, "\t\tf%u_bb%u [", fn, b->num);
	put_label(out, print_block, b);
	fputs(b == b->func->first ? ", peripheries=2];\n" : "];\n", out);
	Op *t = b->last;
	for (uint32_t i = 0; t && i < t->nsucc; i++) {
		fprintf(out, "\t\tf%u_bb%u -> f%u_bb%u", fn, b->num, fn, t->succ[i].block->num);
		edge_label(out, t, i);
		fputs(";\n", out);
	}
}

static void dot_func(FILE *out, Func *f, uint32_t fn)
{
	ir_print_number(f);
	fprintf(out, "\tsubgraph cluster_%u {\n\t\t", fn);
	put_label(out, print_head, f);
	fputs(f->is_kernel ? ";\n\t\tstyle=bold; color=\"#1f5fbf\"; penwidth=2;\n" : ";\n\t\tcolor=gray50;\n", out);
	for (Block *b = f->first; b; b = b->next)
		dot_block(out, b, fn);
	fputs("\t}\n", out);
}

void ir_dot_module(FILE *out, Module *m, const char *stage)
{
	fprintf(out, "digraph \"oxidec %s\" {\n", stage);
	fputs("\tgraph [fontname=\"monospace\", fontsize=11, labeljust=l];\n"
	      "\tnode [shape=box, fontname=\"monospace\", fontsize=9];\n"
	      "\tedge [fontname=\"monospace\", fontsize=9];\n", out);
	uint32_t fn = 0;
	for (Func *f = m->funcs; f; f = f->next)
		if (!f->is_extern)
			dot_func(out, f, fn++);
	fputs("}\n", out);
}
