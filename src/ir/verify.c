/* verify.c: structural checks of the IR, run after every stage with -v or
 * --verify (always in the test suite).  A failure is an oxidec bug: the
 * driver dumps the function and stops. */
#include "ir.h"

#include <stdarg.h>

typedef struct {
	FILE *err;
	const char *after;
	Func *func;
	bool ok;
} Verifier;

PRINTF(2, 3) static void fail(Verifier *v, const char *fmt, ...)
{
	va_list ap;
	if (!v->ok)
		return;
	v->ok = false;
	fprintf(v->err, "oxidec: error[OX%04d]: internal error: IR verification failed after %s in @%s: ", OX_INTERNAL, v->after,
	        v->func ? v->func->symbol : "?");
	va_start(ap, fmt);
	vfprintf(v->err, fmt, ap);
	va_end(ap);
	fputc('\n', v->err);
}

/* Mark every value defined in f; operands must be marked.  (Dominance is
 * left to LLVM's verifier, which runs on every module we build.)  The mark
 * is an address no pass can leave behind in aux, so a value of a removed
 * op with stale scratch still counts as undefined. */
static char defined;

static void mark_defs(Func *f, bool on)
{
	for (Block *b = f->first; b; b = b->next) {
		for (uint32_t i = 0; i < b->nargs; i++)
			b->args[i]->aux = on ? &defined : NULL;
		for (Op *op = b->first; op; op = op->next)
			for (uint32_t i = 0; i < op->nres; i++)
				op->res[i].aux = on ? &defined : NULL;
	}
}

static bool is_defined(const Value *v)
{
	return v && v->aux == &defined;
}

static bool block_in_func(Func *f, Block *t)
{
	for (Block *b = f->first; b; b = b->next)
		if (b == t)
			return true;
	return false;
}

static void verify_succ(Verifier *v, Op *op, Succ *s)
{
	if (!s->block || !block_in_func(v->func, s->block)) {
		fail(v, "%s branches to a block outside the function", opinfo[op->code].name);
		return;
	}
	if (s->nargs != s->block->nargs) {
		fail(v, "%s passes %u arguments to a block taking %u", opinfo[op->code].name, s->nargs,
		     s->block->nargs);
		return;
	}
	for (uint32_t i = 0; i < s->nargs; i++) {
		if (!is_defined(s->args[i]))
			fail(v, "%s passes an undefined value", opinfo[op->code].name);
		else if (s->args[i]->type != s->block->args[i]->type)
			fail(v, "%s passes argument %u of the wrong type", opinfo[op->code].name, i);
	}
}

/* Enumerated attributes hold one of their enum's values (the numbers,
 * sizes and alignments come from the input and are checked where they
 * are used). */
static void verify_attrs(Verifier *v, const Op *op)
{
	const OpAttr *a = &op->attr;
	const char *name = opinfo[op->code].name;
	switch (opinfo[op->code].attr) {
	case ATTR_CMP:
		if ((unsigned)a->cmp.pred > PRED_UNO || (op->code == OP_LLIR_ICMP) != (a->cmp.pred <= PRED_SGE))
			fail(v, "%s has predicate %d", name, (int)a->cmp.pred);
		break;
	case ATTR_INTRINSIC:
		if ((unsigned)a->intrinsic.overload > OVL_OPD02)
			fail(v, "%s has overload rule %d", name, (int)a->intrinsic.overload);
		break;
	case ATTR_FMF:
		if (a->fmf.flags & ~(uint32_t)FMF_FAST)
			fail(v, "%s has fast-math flags %#x", name, a->fmf.flags);
		break;
	case ATTR_ASM:
		if (!a->inline_asm.constraints || !op->sym)
			fail(v, "%s without its template or constraints", name);
		break;
	case ATTR_ATOMIC:
		if ((unsigned)a->atomic.order > AO_SEQ_CST || (unsigned)a->atomic.fail_order > AO_SEQ_CST ||
		    (unsigned)a->atomic.scope > ATOMIC_SCOPE_SYSTEM || (unsigned)a->atomic.rmw > RMW_UDEC_WRAP)
			fail(v, "%s has an ordering, scope or operation out of range", name);
		break;
	default:
		break;
	}
}

static void verify_op(Verifier *v, Block *b, Op *op)
{
	const OpInfo *info = &opinfo[op->code];
	if (op->parent != b)
		fail(v, "%s has a wrong parent block", info->name);
	if ((info->nres != VAR && (uint32_t)info->nres != op->nres) ||
	    (info->nopd != VAR && (uint32_t)info->nopd != op->nopd))
		fail(v, "%s has %u results and %u operands", info->name, op->nres, op->nopd);
	for (uint32_t i = 0; i < op->nopd; i++)
		if (!is_defined(op->opd[i]))
			fail(v, "%s uses a value not defined in this function", info->name);
	if (op_is_terminator(op) != (op == b->last))
		fail(v, "%s: terminators must end a block, and only there", info->name);
	for (uint32_t i = 0; i < op->nsucc; i++)
		verify_succ(v, op, &op->succ[i]);
	if ((op->code == OP_MIR_SWITCH || op->code == OP_LLIR_SWITCH) && op->nsucc != op->nval + 1)
		fail(v, "%s has %u cases but %u successors", info->name, op->nval, op->nsucc);
	verify_attrs(v, op);
}

static void verify_func(Verifier *v, Func *f)
{
	v->func = f;
	if (f->is_extern) {
		if (f->first || f->is_kernel)
			fail(v, "an extern function has blocks or is a kernel");
		return;
	}
	if (!f->first) {
		fail(v, "function has no blocks");
		return;
	}
	mark_defs(f, true);
	for (Block *b = f->first; b && v->ok; b = b->next) {
		if (b->func != f)
			fail(v, "block ^bb%u belongs to another function", b->num);
		if (!ir_block_terminator(b))
			fail(v, "a block does not end in a terminator");
		for (Op *op = b->first; op && v->ok; op = op->next)
			verify_op(v, b, op);
	}
	mark_defs(f, false);
}

bool ir_verify(Module *m, const char *after, FILE *err)
{
	Verifier v = { err, after, NULL, true };
	for (Func *f = m->funcs; f && v.ok; f = f->next)
		verify_func(&v, f);
	if (!v.ok && v.func)
		ir_print_func(err, v.func);
	return v.ok;
}
