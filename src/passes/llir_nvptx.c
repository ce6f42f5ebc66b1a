/* llir_nvptx.c: stage 5's target hooks on NVPTX — nvvm ops become NVVM
 * intrinsics, libdevice math an extern call that emit links, atomics get
 * CUDA's scopes:
 *
 *   nvvm.tid.x                ==>  llir.intrinsic @llvm.nvvm.read.ptx.sreg.tid.x : i32
 *   nvvm.barrier0             ==>  llir.intrinsic @llvm.nvvm.barrier.cta.sync.aligned.all(0)
 *   nvvm.trap                 ==>  llir.intrinsic @llvm.trap
 *   nvvm.prim @__oxide_vote_all(%m, %p)  ==>  llir.intrinsic @llvm.nvvm.vote.all.sync(%m, %p != 0)
 *   mir.rem %x, %y (floats)   ==>  llir.call @__nv_fmodf(%x, %y)
 */
#include "llir.h"

#include <stdio.h>
#include <stdlib.h>

#include <string.h>

static Value *sreg(Lower *l, Op *op)
{
	static const char *names[] = {
		"llvm.nvvm.read.ptx.sreg.tid.x", "llvm.nvvm.read.ptx.sreg.tid.y", "llvm.nvvm.read.ptx.sreg.tid.z",
		"llvm.nvvm.read.ptx.sreg.ntid.x", "llvm.nvvm.read.ptx.sreg.ntid.y", "llvm.nvvm.read.ptx.sreg.ntid.z",
		"llvm.nvvm.read.ptx.sreg.ctaid.x", "llvm.nvvm.read.ptx.sreg.ctaid.y", "llvm.nvvm.read.ptx.sreg.ctaid.z",
		"llvm.nvvm.read.ptx.sreg.nctaid.x", "llvm.nvvm.read.ptx.sreg.nctaid.y", "llvm.nvvm.read.ptx.sreg.nctaid.z",
	};
	if (op->code < OP_NVVM_TID_X || op->code > OP_NVVM_NCTAID_Z)
		die("%s is not a special register", opinfo[op->code].name);
	return llvm_intrinsic(l, names[op->code - OP_NVVM_TID_X], OVL_NONE, op->res[0].type, 0, NULL);
}

static void barrier(Lower *l)
{
	Value *zero = iconst(l, ir_type_int(l->m, 32, false), 0, 0);
	llvm_intrinsic(l, "llvm.nvvm.barrier.cta.sync.aligned.all", OVL_NONE, NULL, 1, &zero);
}

static void trap(Lower *l)
{
	llvm_intrinsic(l, "llvm.trap", OVL_NONE, NULL, 0, NULL);
}

/* An extern call (emit links libdevice), but for sqrt: libdevice's is
 * sqrt.approx.f32 unless __CUDA_PREC_SQRT, which NVVMReflect answers 0
 * here; llvm.sqrt is sqrt.rn (IEEE), what nvcc's default
 * -prec-sqrt=true gives. */
static Value *libdevice(Lower *l, Op *op)
{
	if (!strcmp(op->sym, "__nv_sqrtf") || !strcmp(op->sym, "__nv_sqrt"))
		return llvm_intrinsic(l, "llvm.sqrt", OVL_RES, op->res[0].type, 1, op->opd);
	return extern_call(l, op->sym, op->nres ? op->res[0].type : NULL, op->nopd, op->opd);
}

/* a predicate u32 as the intrinsic's i1 */
static Value *pred(Lower *l, Value *v)
{
	return icmp(l, PRED_NE, v, iconst(l, v->type, 0, 0));
}

/* LLVM's NVPTX constraint letter of a value's type: h, r, l for 16-,
 * 32-, 64-bit integers and pointers, f, d for floats. */
static char asm_letter(const Type *t)
{
	if (t->kind == TY_FLOAT)
		return t->bits == 64 ? 'd' : 'f';
	if (t->kind == TY_PTR)     /* shared, const, local: 32-bit (-nvptx-short-ptr) */
		return t->addrspace == AS_SHARED || t->addrspace == AS_CONST || t->addrspace == AS_LOCAL ? 'r' : 'l';
	return t->bits == 16 ? 'h' : t->bits == 64 ? 'l' : 'r';
}

/* The address space an ASM row's argument i is given in: shared (3) or
 * global (1) for sptr / gptr, else generic (0). */
static unsigned arg_space(const DevicePrim *p, uint32_t i)
{
	size_t tlen, len;
	const char *s = prim_arg(p, i, &tlen, &len);
	if (s && tlen == 4 && !strncmp(s, "sptr", 4))
		return 3;
	return s && tlen == 4 && !strncmp(s, "gptr", 4) ? 1 : 0;
}

/* The template with $D made the brace list of the n results and $K+i
 * made $(K + i) (prims.def, ASM). */
static const char *asm_template(Lower *l, const char *t, uint32_t n)
{
	size_t cap = strlen(t) + 8 * (size_t)n + 16, k = 0;
	char *out = arena_alloc(l->m->arena, cap);
	while (*t && k + 16 < cap) {
		char *end;
		if (t[0] == '$' && t[1] == 'D') {
			for (uint32_t i = 0; i < n; i++)
				k += (size_t)snprintf(out + k, cap - k, "%s$%u", i ? ", " : "{", i);
			k += (size_t)snprintf(out + k, cap - k, "}");
			t += 2;
		} else if (t[0] == '$' && t[1] >= '0' && t[1] <= '9') {
			unsigned long v = strtoul(t + 1, &end, 10);
			if (*end == '+')
				v += strtoul(end + 1, &end, 10);
			k += (size_t)snprintf(out + k, cap - k, "$%lu", v);
			t = end;
		} else {
			out[k++] = *t++;
		}
	}
	if (*t)
		die("asm template of %u results too long", n);
	out[k] = 0;
	return out;
}

/* The element type of an ASM row's out_T / io_T first argument. */
static Type *out_type(Lower *l, const DevicePrim *p)
{
	size_t tlen, len;
	const char *s = prim_arg(p, 0, &tlen, &len), *t = (const char *)memchr(s, '_', tlen) + 1;
	return ir_type(l->m, t[0] == 'f' ? TY_FLOAT : TY_INT, (unsigned)atoi(t + 1), false, 0);
}

/* An ASM row (prims.def): llir.asm of the row's PTX, clobbering memory
 * unless the row is PURE.  Its results are the primitive's value, or,
 * when the row says so, `lower` values of the first argument's element
 * type (an out_T / io_T pointer) stored through it: mma's four
 * accumulators, ldmatrix's four registers, wgmma's N/2; io_T loads them
 * first as inputs tied to the results (TIED: the last `lower` arguments
 * are). Operands of sptr / gptr arguments are cast to the shared / global
 * address space. */
static Value *asm_prim(Lower *l, Op *op, const DevicePrim *p)
{
	uint32_t nout = (uint32_t)p->lower, first = nout ? 1 : 0, nres = nout ? nout : op->nres;
	bool io = !strncmp(p->args, "io_", 3);
	Type *et = nout ? out_type(l, p) : op->nres ? op->res[0].type : NULL;
	uint32_t nin = op->nopd - first + (io ? nout : 0);
	Type **rts = arena_new_array(l->m->arena, Type *, nres + 1);
	Value **ins = arena_new_array(l->m->arena, Value *, nin + 1);
	size_t cap = 8 * ((size_t)nres + nin) + 16, n = 0;
	char *cons = arena_alloc(l->m->arena, cap);
	uint32_t tied = p->flags & PF_TIED ? op->nopd - nout : op->nopd;   /* the first tied operand */
	for (uint32_t i = 0; i < nres; i++) {
		rts[i] = et;
		n += (size_t)snprintf(cons + n, cap - n, "%s=%c", i ? "," : "", asm_letter(et));
	}
	for (uint32_t i = first; i < op->nopd; i++) {
		unsigned as = arg_space(p, i);
		ins[i - first] = as ? emit1(l, OP_LLIR_ADDRSPACECAST, ir_type_ptr(l->m, as), op->opd[i]) : op->opd[i];
		if (i >= tied)
			n += (size_t)snprintf(cons + n, cap - n, ",%u", i - tied);
		else
			n += (size_t)snprintf(cons + n, cap - n, "%s%c", n ? "," : "", asm_letter(ins[i - first]->type));
	}
	for (uint32_t i = 0; io && i < nout; i++) {
		ins[op->nopd - first + i] = load(l, gep_bytes(l, op->opd[0], (uint64_t)i * (et->bits / 8)), et);
		n += (size_t)snprintf(cons + n, cap - n, ",%u", i);
	}
	/* memory: LLVM keeps loads and stores on their side (cp.async writes
	 * shared memory, wait_group publishes it, ldmatrix reads it) */
	if (!(p->flags & PF_PURE))
		n += (size_t)snprintf(cons + n, cap - n, "%s~{memory}", n ? "," : "");
	if (n >= cap)
		die("asm primitive %s: constraints too long", p->sym);
	Op *a = ir_build(&l->b, OP_LLIR_ASM, nres, rts, nin, ins, 0);
	a->sym = asm_template(l, p->nvvm, nres);
	a->attr.inline_asm.constraints = cons;
	a->attr.inline_asm.pure = (p->flags & PF_PURE) != 0;
	for (uint32_t i = 0; i < nout; i++)
		store(l, &a->res[i], gep_bytes(l, op->opd[0], (uint64_t)i * (et->bits / 8)));
	return !nout && nres ? &a->res[0] : NULL;
}

static Value *prim(Lower *l, Op *op, const DevicePrim *p)
{
	if (p->cls == PC_ASM)
		return asm_prim(l, op, p);
	Type *rt = op->nres ? op->res[0].type : NULL;
	Type *i1 = ir_type_bool(l->m), *i32 = ir_type_int(l->m, 32, false);
	const char *name = p->nvvm;
	switch ((PrimKind)p->lower) {
	case PK_SAME:
		return llvm_intrinsic(l, name, OVL_NONE, rt, op->nopd, op->opd);
	case PK_VOTE: case PK_BALLOT: {
		Value *args[2] = { op->opd[0], pred(l, op->opd[1]) };
		if (p->lower == PK_BALLOT)
			return llvm_intrinsic(l, name, OVL_NONE, rt, 2, args);
		return int_resize(l, llvm_intrinsic(l, name, OVL_NONE, i1, 2, args), false, rt);
	}
	case PK_REDUX: {
		Value *args[2] = { op->opd[1], op->opd[0] };
		return llvm_intrinsic(l, name, OVL_NONE, rt, 2, args);
	}
	case PK_BAR_POPC: case PK_BAR_BOOL: {
		Value *args[2] = { iconst(l, i32, 0, 0), pred(l, op->opd[0]) };
		if (p->lower == PK_BAR_POPC)
			return llvm_intrinsic(l, name, OVL_NONE, rt, 2, args);
		return int_resize(l, llvm_intrinsic(l, name, OVL_NONE, i1, 2, args), false, rt);
	}
	case PK_BOOL:
		return int_resize(l, llvm_intrinsic(l, name, OVL_NONE, i1, op->nopd, op->opd), false, rt);
	case PK_PAIR0: {
		Type *rts[2] = { rt, i1 };
		Op *c = ir_build(&l->b, OP_LLIR_INTRINSIC, 2, rts, op->nopd, op->opd, 0);
		c->sym = name;
		c->attr.intrinsic.overload = OVL_NONE;
		return &c->res[0];
	}
	}
	unreachable();
}

/* NVPTX expands frem as x - trunc(x/y)*y, which is not fmod: libdevice's
 * exact one. */
static Value *float_rem(Lower *l, Value *a, Value *b, Type *t)
{
	Value *args[2] = { a, b };
	return extern_call(l, a->type->bits == 32 ? "__nv_fmodf" : "__nv_fmod", t, 2, args);
}

/* Rust's own atomics (ATOMIC_SCOPE_DEFAULT) are device-wide, like CUDA's
 * atomicAdd. */
static const char *syncscope(AtomicScope s)
{
	switch (s) {
	case ATOMIC_SCOPE_BLOCK: return "block";
	case ATOMIC_SCOPE_SYSTEM: return NULL;
	default: return "device";
	}
}

/* LLVM 22's NVPTX backend emits every atomicrmw as a relaxed `atom`
 * whatever its ordering (cmpxchg, loads and stores keep theirs).  Where
 * scoped_rmw cannot write the ordered `atom` (before sm_70; nand), a
 * relaxed one between fences instead, the PTX memory model's fence
 * mapping (fence.sc / fence.acq_rel around a relaxed atom). */
static bool atomicrmw_fenced(AtomicOrd o)
{
	return o != AO_RELAXED;
}

/* PTX's atom operation and type letter of a read-modify-write; NULL: none
 * (nand: LLVM's compare-and-swap loop, whose cmpxchg keeps the scope) */
static const char *atom_op(AtomicRmw rmw, char *ty)
{
	switch (rmw) {
	case RMW_ADD: case RMW_SUB: *ty = 'u'; return "add";   /* wrapping: one add for both signs */
	case RMW_FADD: *ty = 'f'; return "add";
	case RMW_XCHG: *ty = 'b'; return "exch";
	case RMW_AND: *ty = 'b'; return "and";
	case RMW_OR: *ty = 'b'; return "or";
	case RMW_XOR: *ty = 'b'; return "xor";
	case RMW_MAX: *ty = 's'; return "max";
	case RMW_MIN: *ty = 's'; return "min";
	case RMW_UMAX: *ty = 'u'; return "max";
	case RMW_UMIN: *ty = 'u'; return "min";
	case RMW_UINC_WRAP: *ty = 'u'; return "inc";
	case RMW_UDEC_WRAP: *ty = 'u'; return "dec";
	default: return NULL;
	}
}

/* PTX's scope and (sm_70 on) semantics of an atom: seq_cst is
 * fence.sc, then an acquire atom, as nvcc's <cuda/atomic> and LLVM's own
 * cmpxchg write it */
static const char *ptx_scope(AtomicScope s)
{
	return s == ATOMIC_SCOPE_SYSTEM ? ".sys" : s == ATOMIC_SCOPE_BLOCK ? ".cta" : ".gpu";
}

static const char *ptx_sem(AtomicOrd o)
{
	static const char *sem[] = { "", ".acquire", ".release", ".acq_rel", ".acquire" };
	return sem[o];
}

/* LLVM 22's NVPTX backend emits every atomicrmw as a relaxed `atom` at
 * PTX's default scope (.gpu), whatever its ordering and syncscope.  A
 * relaxed one at block scope is only stronger (and LLVM infers the state
 * space: `atom.shared.add`), so it stays an atomicrmw; a relaxed
 * system-scope one would not be atomic with the host's and other GPUs'
 * accesses, and an ordered one needs its ordering: those are inline PTX
 * with the scope and semantics (`atom.sys.add.u32`,
 * `atom.acq_rel.gpu.global.add.u32`: one instruction, as nvcc writes
 * them, not two fences around a relaxed atom), in the pointer's state
 * space when its type has one; sub adds the negation. */
static Value *scoped_rmw(Lower *l, AtomicRmw rmw, AtomicScope s, AtomicOrd o, Value *p, Value *v, Type *rt)
{
	char ty = 0;
	const char *name = atom_op(rmw, &ty);
	unsigned bits = rt->kind == TY_PTR ? 64 : rt->bits, as = p->type->addrspace;
	if (o == AO_RELAXED ? s != ATOMIC_SCOPE_SYSTEM : !prim_arch_fits("sm_70", l->m->arch ? l->m->arch : "sm_90"))
		return NULL;
	if (!name || (bits != 32 && bits != 64) || (rt->kind == TY_PTR && rmw != RMW_XCHG) ||
	    ((rmw == RMW_UINC_WRAP || rmw == RMW_UDEC_WRAP) && bits != 32) ||
	    (as != AS_GLOBAL && as != AS_SHARED && as != AS_GENERIC))
		return NULL;
	if (rmw == RMW_SUB)
		v = emit2(l, OP_LLIR_SUB, v->type, iconst(l, v->type, 0, 0), v);
	if (o == AO_SEQ_CST)
		llir_fence(l, AO_SEQ_CST, syncscope(s));
	const char *space = as == AS_GLOBAL ? ".global" : as == AS_SHARED ? ".shared" : "";
	char *t = arena_alloc(l->m->arena, 80), *cons = arena_alloc(l->m->arena, 32);
	snprintf(t, 80, "atom%s%s%s.%s.%c%u $0, [$1], $2;", ptx_sem(o), ptx_scope(s), space, name, ty, bits);
	snprintf(cons, 32, "=%c,%c,%c,~{memory}", asm_letter(rt), asm_letter(p->type), asm_letter(v->type));
	Value *ins[2] = { p, v };
	Op *a = ir_build(&l->b, OP_LLIR_ASM, 1, &rt, 2, ins, 0);
	a->sym = t;
	a->attr.inline_asm.constraints = cons;
	a->attr.inline_asm.pure = false;
	return &a->res[0];
}

const LlirHooks llir_nvptx = { sreg, barrier, trap, libdevice, prim, float_rem, syncscope, atomicrmw_fenced,
                               scoped_rmw };
