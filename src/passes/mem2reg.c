/* mem2reg.c: stage 3 ("ssa").  Promotes the scalar Rust locals of the mir
 * dialect to SSA values: a mir.slot whose address is only ever loaded from
 * and stored to whole disappears, its loads become the value last stored,
 * and block arguments carry the value where control flow joins.
 *
 * Reads and writes the mir dialect.  SSA construction after Cytron et al.:
 * dominators by Cooper, Harvey and Kennedy's iterative algorithm over
 * reverse postorder, dominance frontiers, block arguments at the iterated
 * frontier of the storing blocks, renaming in dominator order (reverse
 * postorder visits every block after its immediate dominator).  Arguments
 * that turn out trivial or dead are pruned again.
 *
 * The IR has no use lists, so the pass scans; its scratch state lives in a
 * per-function arena reached through the aux fields, which are cleared on
 * entry and on exit:
 *   slot result aux      -> Slot
 *   block aux            -> BInfo
 *   made block arg aux   -> ArgInfo
 *   killed op aux        == &killed; a killed load's result aux -> its value
 *   made mir.undef aux   -> Slot
 */
#include "passes.h"

#include <string.h>

#define NONE UINT32_MAX   /* no block: unreachable, or above the entry */

typedef struct {
	Op *term;            /* terminator of the predecessor */
	uint32_t succ;       /* which of its successors */
	uint32_t from;       /* block index of the predecessor */
} Edge;

typedef struct {
	Op *op;              /* the mir.slot */
	Type *ty;            /* value type of the local */
	bool promote;
	uint32_t *defs;      /* indices of the blocks that store to it */
	uint32_t ndef, cap_def;
	Value *undef;        /* mir.undef made for it, or NULL */
	bool undef_used;
} Slot;

typedef struct {
	Block *block;
	uint32_t rpo;        /* reverse postorder number, NONE when unreachable */
	uint32_t idom;       /* block index of the immediate dominator, or NONE */
	Edge *preds;         /* every incoming edge, from reachable blocks or not */
	uint32_t npred, cap_pred;
	uint32_t *df;        /* dominance frontier, block indices */
	uint32_t ndf, cap_df;
	uint32_t *phis;      /* slots given an argument here, ascending */
	uint32_t nphi, cap_phi;
	Value **phiv;        /* the arguments, parallel to phis */
	Value **out;         /* value of every slot at the end (NULL: undef) */
} BInfo;

/* A block argument made by this pass. */
typedef struct {
	uint32_t slot;
	Value *repl;         /* trivial: every use becomes this value */
	bool live;
} ArgInfo;

typedef struct {
	Module *mod;
	Func *func;
	Arena *a;
	BInfo *bi;           /* by block index, in block order; entry is 0 */
	uint32_t nblock;
	uint32_t *order;     /* reachable block indices in reverse postorder */
	uint32_t norder;
	Slot *slots;
	uint32_t nslot;
	Op *anchor;          /* first op of the entry block: undefs go before it */
	Value **args;        /* every block argument made */
	uint32_t narg, cap_arg;
} Ctx;

static char killed;      /* op aux mark: load or store to remove */

/* ------------------------------------------------------------ scratch */

static void clear_aux(Func *f)
{
	for (Block *b = f->first; b; b = b->next) {
		b->aux = NULL;
		for (uint32_t i = 0; i < b->nargs; i++)
			b->args[i]->aux = NULL;
		for (Op *op = b->first; op; op = op->next) {
			op->aux = NULL;
			for (uint32_t i = 0; i < op->nres; i++)
				op->res[i].aux = NULL;
		}
	}
}

static BInfo *binfo(Block *b)
{
	return b->aux;
}

static uint32_t bindex(Ctx *c, Block *b)
{
	return (uint32_t)(binfo(b) - c->bi);
}

static Slot *slot_of(Value *v)
{
	return v->def && v->def->code == OP_MIR_SLOT ? v->aux : NULL;
}

static Slot *promoted(Value *v)
{
	Slot *s = slot_of(v);
	return s && s->promote ? s : NULL;
}

static ArgInfo *made_arg(Value *v)
{
	return v->def ? NULL : v->aux;
}

/* The value that stands for v once killed loads and trivial arguments are
 * gone.  The replacement chains are acyclic: a link always points at a
 * value that had none. */
static Value *resolve(Value *v)
{
	for (;;) {
		ArgInfo *ai = made_arg(v);
		if (v->def && v->def->aux == &killed)
			v = v->aux;
		else if (ai && ai->repl)
			v = ai->repl;
		else
			return v;
	}
}

static Value *get_undef(Ctx *c, uint32_t k)
{
	Slot *s = &c->slots[k];
	if (!s->undef) {
		Builder b = { c->mod, c->func->first, c->anchor, s->op->loc };
		s->undef = ir_build1(&b, OP_MIR_UNDEF, s->ty, 0, NULL);
		s->undef->aux = s;
	}
	return s->undef;
}

/* ------------------------------------------------------- candidates */

static bool is_candidate(Op *op)
{
	return op->code == OP_MIR_SLOT && op->rty && rtype_is_scalar(op->rty);
}

/* Slots of the entry block whose Rust type is a scalar. */
static void collect_slots(Ctx *c)
{
	Block *entry = c->func->first;
	uint32_t n = 0;
	for (Op *op = entry->first; op; op = op->next)
		n += is_candidate(op);
	c->slots = arena_new_array(c->a, Slot, n);
	for (Op *op = entry->first; op; op = op->next) {
		if (!is_candidate(op))
			continue;
		Slot *s = &c->slots[c->nslot++];
		s->op = op;
		s->ty = rtype_scalar_type(c->mod, op->rty);
		s->promote = true;
		op->res[0].aux = s;
	}
}

/* Only `mir.load %slot : T` and `mir.store %v: T, %slot` keep a slot
 * promotable; any other use of its address lets it escape. */
static void scan_op(Ctx *c, uint32_t bidx, Op *op)
{
	for (uint32_t i = 0; i < op->nopd; i++) {
		Slot *s = slot_of(op->opd[i]);
		if (!s)
			continue;
		if (op->code == OP_MIR_LOAD && op->res[0].type == s->ty)
			continue;
		if (op->code == OP_MIR_STORE && i == 1 && op->opd[0]->type == s->ty) {
			vec_push(c->a, &s->defs, &s->ndef, &s->cap_def, bidx);
			continue;
		}
		s->promote = false;
	}
	for (uint32_t j = 0; j < op->nsucc; j++)
		for (uint32_t i = 0; i < op->succ[j].nargs; i++) {
			Slot *s = slot_of(op->succ[j].args[i]);
			if (s)
				s->promote = false;
		}
}

static bool scan_uses(Ctx *c)
{
	for (uint32_t i = 0; i < c->nblock; i++)
		for (Op *op = c->bi[i].block->first; op; op = op->next)
			scan_op(c, i, op);
	for (uint32_t k = 0; k < c->nslot; k++)
		if (c->slots[k].promote)
			return true;
	return false;
}

/* ------------------------------------------------------------ CFG */

static void index_blocks(Ctx *c)
{
	uint32_t n = 0;
	for (Block *b = c->func->first; b; b = b->next)
		n++;
	c->bi = arena_new_array(c->a, BInfo, n);
	c->nblock = n;
	n = 0;
	for (Block *b = c->func->first; b; b = b->next, n++) {
		c->bi[n].block = b;
		c->bi[n].rpo = c->bi[n].idom = NONE;
		b->aux = &c->bi[n];
	}
}

static void fill_preds(Ctx *c)
{
	for (uint32_t i = 0; i < c->nblock; i++) {
		Op *t = ir_block_terminator(c->bi[i].block);
		for (uint32_t s = 0; t && s < t->nsucc; s++) {
			Block *to = t->succ[s].block;
			if (to->func != c->func)
				die("%s branches out of @%s", opinfo[t->code].name, c->func->symbol);
			BInfo *ti = binfo(to);
			Edge e = { t, s, i };
			vec_push(c->a, &ti->preds, &ti->npred, &ti->cap_pred, e);
		}
	}
}

/* Depth-first from the entry with an explicit stack; fills order and rpo. */
static void compute_rpo(Ctx *c)
{
	uint32_t *stack = arena_new_array(c->a, uint32_t, c->nblock);
	uint32_t *next = arena_new_array(c->a, uint32_t, c->nblock);
	uint32_t *post = arena_new_array(c->a, uint32_t, c->nblock);
	bool *seen = arena_new_array(c->a, bool, c->nblock);
	uint32_t sp = 0, np = 0;
	stack[sp++] = 0;
	seen[0] = true;
	while (sp) {
		uint32_t b = stack[sp - 1];
		Op *t = ir_block_terminator(c->bi[b].block);
		if (t && next[b] < t->nsucc) {
			uint32_t s = bindex(c, t->succ[next[b]++].block);
			if (!seen[s]) {
				seen[s] = true;
				stack[sp++] = s;
			}
			continue;
		}
		post[np++] = b;
		sp--;
	}
	c->order = arena_new_array(c->a, uint32_t, np);
	c->norder = np;
	for (uint32_t i = 0; i < np; i++) {
		c->order[i] = post[np - 1 - i];
		c->bi[c->order[i]].rpo = i;
	}
}

static uint32_t intersect(Ctx *c, uint32_t a, uint32_t b)
{
	while (a != b) {
		while (c->bi[a].rpo > c->bi[b].rpo)
			a = c->bi[a].idom;
		while (c->bi[b].rpo > c->bi[a].rpo)
			b = c->bi[b].idom;
	}
	return a;
}

/* Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm".
 * Unreachable predecessors never get an idom, so they are ignored. */
static void compute_idom(Ctx *c)
{
	c->bi[0].idom = 0;
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t i = 1; i < c->norder; i++) {
			BInfo *b = &c->bi[c->order[i]];
			uint32_t d = NONE;
			for (uint32_t k = 0; k < b->npred; k++) {
				uint32_t p = b->preds[k].from;
				if (c->bi[p].idom != NONE)
					d = d == NONE ? p : intersect(c, p, d);
			}
			if (b->idom != d) {
				b->idom = d;
				changed = true;
			}
		}
	}
}

/* While b is being processed only b is added, so a repeat is the last. */
static void add_df(Ctx *c, uint32_t r, uint32_t b)
{
	BInfo *ri = &c->bi[r];
	if (!ri->ndf || ri->df[ri->ndf - 1] != b)
		vec_push(c->a, &ri->df, &ri->ndf, &ri->cap_df, b);
}

/* Walk up from each predecessor to b's idom.  The entry has an implicit
 * predecessor (the function's start), so for it the walk goes past the
 * root: a value flowing around to the entry puts the entry in frontiers. */
static void compute_df(Ctx *c)
{
	for (uint32_t i = 0; i < c->norder; i++) {
		uint32_t b = c->order[i];
		uint32_t stop = b == 0 ? NONE : c->bi[b].idom;
		for (uint32_t k = 0; k < c->bi[b].npred; k++) {
			uint32_t p = c->bi[b].preds[k].from;
			if (c->bi[p].rpo == NONE)
				continue;
			for (uint32_t r = p; r != stop; r = r == 0 ? NONE : c->bi[r].idom)
				add_df(c, r, b);
		}
	}
}

/* ------------------------------------------------- argument placement */

typedef struct {
	uint32_t *queued, *placed;   /* stamps: slot index + 1 */
	uint32_t *work, *res;
} Marks;

/* Iterated dominance frontier of the storing blocks of slot k.  The entry
 * cannot take an argument (its arguments are the parameters), so a slot
 * that would need one stays in memory. */
static void place_slot(Ctx *c, uint32_t k, Marks *w)
{
	Slot *s = &c->slots[k];
	uint32_t nw = 0, nres = 0, stamp = k + 1;
	for (uint32_t i = 0; i < s->ndef; i++)
		if (w->queued[s->defs[i]] != stamp) {
			w->queued[s->defs[i]] = stamp;
			w->work[nw++] = s->defs[i];
		}
	while (nw) {
		BInfo *x = &c->bi[w->work[--nw]];
		for (uint32_t j = 0; j < x->ndf; j++) {
			uint32_t d = x->df[j];
			if (w->placed[d] == stamp)
				continue;
			w->placed[d] = stamp;
			w->res[nres++] = d;
			if (w->queued[d] != stamp) {
				w->queued[d] = stamp;
				w->work[nw++] = d;
			}
		}
	}
	if (w->placed[0] == stamp) {
		s->promote = false;
		return;
	}
	for (uint32_t i = 0; i < nres; i++)
		vec_push(c->a, &c->bi[w->res[i]].phis, &c->bi[w->res[i]].nphi, &c->bi[w->res[i]].cap_phi, k);
}

static void make_args(Ctx *c, BInfo *b)
{
	b->phiv = arena_new_array(c->a, Value *, b->nphi);
	for (uint32_t j = 0; j < b->nphi; j++) {
		ArgInfo *ai = arena_alloc(c->a, sizeof *ai);
		ai->slot = b->phis[j];
		b->phiv[j] = ir_block_add_arg(b->block, c->slots[ai->slot].ty);
		b->phiv[j]->aux = ai;
		vec_push(c->a, &c->args, &c->narg, &c->cap_arg, b->phiv[j]);
	}
}

static void place_args(Ctx *c)
{
	Marks w = {
		arena_new_array(c->a, uint32_t, c->nblock), arena_new_array(c->a, uint32_t, c->nblock),
		arena_new_array(c->a, uint32_t, c->nblock), arena_new_array(c->a, uint32_t, c->nblock),
	};
	for (uint32_t k = 0; k < c->nslot; k++)
		if (c->slots[k].promote)
			place_slot(c, k, &w);
	for (uint32_t i = 0; i < c->nblock; i++)
		make_args(c, &c->bi[i]);
}

/* ------------------------------------------------------------ rename */

/* mir.load %slot  ==>  the current value (undef before any store) */
static void kill_load(Ctx *c, Op *op, Value **cur, uint32_t k)
{
	Value *v = cur[k] ? resolve(cur[k]) : get_undef(c, k);
	if (v == &op->res[0])       /* only in unreachable code */
		v = get_undef(c, k);
	op->res[0].aux = v;
	op->aux = &killed;
}

/* Pass the current values to the arguments made at the target. */
static void extend_edge(Ctx *c, Op *t, uint32_t si, Value **cur)
{
	Succ *s = &t->succ[si];
	BInfo *to = binfo(s->block);
	if (!to->nphi)
		return;
	Value **args = arena_new_array(c->mod->arena, Value *, s->nargs + to->nphi);
	if (s->nargs)
		memcpy(args, s->args, sizeof(Value *) * s->nargs);
	for (uint32_t j = 0; j < to->nphi; j++) {
		uint32_t k = to->phis[j];
		args[s->nargs + j] = cur[k] ? cur[k] : get_undef(c, k);
	}
	s->args = args;
	s->nargs += to->nphi;
}

static void rename_block(Ctx *c, BInfo *b, Value **cur)
{
	for (uint32_t j = 0; j < b->nphi; j++)
		cur[b->phis[j]] = b->phiv[j];
	for (Op *op = b->block->first; op; op = op->next) {
		Slot *s;
		if (op->code == OP_MIR_LOAD && (s = promoted(op->opd[0]))) {
			kill_load(c, op, cur, (uint32_t)(s - c->slots));
		} else if (op->code == OP_MIR_STORE && (s = promoted(op->opd[1]))) {
			cur[s - c->slots] = op->opd[0];
			op->aux = &killed;
		}
	}
	Op *t = ir_block_terminator(b->block);
	for (uint32_t i = 0; t && i < t->nsucc; i++)
		extend_edge(c, t, i, cur);
}

/* Reachable blocks start from their idom's values; unreachable ones from
 * undef, each on its own. */
static void rename_all(Ctx *c)
{
	for (uint32_t i = 0; i < c->norder; i++) {
		BInfo *b = &c->bi[c->order[i]];
		Value **cur = arena_new_array(c->a, Value *, c->nslot);
		if (i)
			memcpy(cur, c->bi[b->idom].out, sizeof(Value *) * c->nslot);
		rename_block(c, b, cur);
		b->out = cur;
	}
	for (uint32_t i = 0; i < c->nblock; i++)
		if (c->bi[i].rpo == NONE)
			rename_block(c, &c->bi[i], arena_new_array(c->a, Value *, c->nslot));
}

/* ------------------------------------------------------------ pruning */

static Value *incoming(Edge *e, Value *arg)
{
	return resolve(e->term->succ[e->succ].args[arg->index]);
}

/* An argument whose incoming values are all one value (or itself). */
static bool prune_trivial(Ctx *c, Value *a)
{
	ArgInfo *ai = made_arg(a);
	BInfo *b = binfo(a->block);
	Value *same = NULL;
	if (ai->repl)
		return false;
	for (uint32_t k = 0; k < b->npred; k++) {
		Value *w = incoming(&b->preds[k], a);
		if (w == a || w == same)
			continue;
		if (same)
			return false;
		same = w;
	}
	ai->repl = same ? same : get_undef(c, ai->slot);
	return true;
}

static void mark_live(Value *v, Value **work, uint32_t *n)
{
	ArgInfo *ai = made_arg(v = resolve(v));
	if (ai && !ai->live) {
		ai->live = true;
		work[(*n)++] = v;
	}
}

/* Live: used by an op, or passed to an argument that is not ours, or
 * passed to a live argument of ours. */
static void find_live_args(Ctx *c)
{
	Value **work = arena_new_array(c->a, Value *, c->narg);
	uint32_t n = 0;
	for (uint32_t i = 0; i < c->nblock; i++)
		for (Op *op = c->bi[i].block->first; op; op = op->next) {
			if (op->aux == &killed)
				continue;
			for (uint32_t j = 0; j < op->nopd; j++)
				mark_live(op->opd[j], work, &n);
			for (uint32_t s = 0; s < op->nsucc; s++)
				for (uint32_t j = 0; j < op->succ[s].nargs; j++)
					if (!made_arg(op->succ[s].block->args[j]))
						mark_live(op->succ[s].args[j], work, &n);
		}
	while (n) {
		Value *a = work[--n];
		BInfo *b = binfo(a->block);
		for (uint32_t k = 0; k < b->npred; k++)
			mark_live(incoming(&b->preds[k], a), work, &n);
	}
}

static void prune_args(Ctx *c)
{
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t i = 0; i < c->narg; i++)
			changed |= prune_trivial(c, c->args[i]);
	}
	find_live_args(c);
}

/* ------------------------------------------------------------ cleanup */

static bool arg_removed(Value *a)
{
	ArgInfo *ai = made_arg(a);
	return ai && (ai->repl || !ai->live);
}

static void rewrite_op(Op *op)
{
	for (uint32_t i = 0; i < op->nopd; i++)
		op->opd[i] = resolve(op->opd[i]);
	for (uint32_t s = 0; s < op->nsucc; s++) {
		Succ *su = &op->succ[s];
		uint32_t n = 0;
		for (uint32_t j = 0; j < su->nargs; j++)
			if (!arg_removed(su->block->args[j]))
				su->args[n++] = resolve(su->args[j]);
		su->nargs = n;
	}
}

static void note_undef_use(Value *v)
{
	if (v->def && v->def->code == OP_MIR_UNDEF && v->aux)
		((Slot *)v->aux)->undef_used = true;
}

/* Every surviving op sees resolved values; dropped arguments go from
 * the edges, then from the blocks. */
static void rewrite_uses(Ctx *c)
{
	for (uint32_t i = 0; i < c->nblock; i++)
		for (Op *op = c->bi[i].block->first; op; op = op->next) {
			if (op->aux == &killed)
				continue;
			rewrite_op(op);
			for (uint32_t j = 0; j < op->nopd; j++)
				note_undef_use(op->opd[j]);
			for (uint32_t s = 0; s < op->nsucc; s++)
				for (uint32_t j = 0; j < op->succ[s].nargs; j++)
					note_undef_use(op->succ[s].args[j]);
		}
	for (uint32_t i = 0; i < c->nblock; i++) {
		Block *b = c->bi[i].block;
		for (uint32_t j = b->nargs; j-- > 0;)
			if (arg_removed(b->args[j]))
				ir_block_remove_arg(b, j);
	}
}

static bool is_dead(Op *op)
{
	if (op->aux == &killed)
		return true;
	if (op->code == OP_MIR_SLOT && promoted(&op->res[0]))
		return true;
	return op->code == OP_MIR_UNDEF && op->res[0].aux && !((Slot *)op->res[0].aux)->undef_used;
}

static void remove_dead(Ctx *c)
{
	for (uint32_t i = 0; i < c->nblock; i++) {
		Op *next;
		for (Op *op = c->bi[i].block->first; op; op = next) {
			next = op->next;
			if (!is_dead(op))
				continue;
			op->aux = NULL;
			for (uint32_t j = 0; j < op->nres; j++)
				op->res[j].aux = NULL;
			ir_op_unlink(op);
		}
	}
}

/* ------------------------------------------------------------- driver */

static void promote(Ctx *c)
{
	fill_preds(c);
	compute_rpo(c);
	compute_idom(c);
	compute_df(c);
	place_args(c);
	rename_all(c);
	prune_args(c);
	rewrite_uses(c);
	remove_dead(c);
}

static void mem2reg_func(Module *m, Func *f)
{
	Ctx c = { .mod = m, .func = f };
	if (!f->first)
		return;
	c.a = arena_new();
	c.anchor = f->first->first;
	clear_aux(f);
	collect_slots(&c);
	index_blocks(&c);
	if (c.nslot && scan_uses(&c))
		promote(&c);
	clear_aux(f);
	arena_free(c.a);
}

/* Requires: mir dialect, every block ending in a terminator, the locals
 * as mir.slot ops in the entry block.
 * Preserves: every op that is not a promoted slot or one of its loads and
 * stores, block order, and the arguments a block had before. */
void pass_mem2reg(Module *m)
{
	for (Func *f = m->funcs; f; f = f->next)
		mem2reg_func(m, f);
}
