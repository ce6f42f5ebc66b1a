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

/* LLVM 22's NVPTX back end emits every atomicrmw as a relaxed `atom` at
 * PTX's default scope (.gpu), whatever its ordering and syncscope (cmpxchg,
 * loads and stores keep theirs).  An atomicrmw that one `atom` can do
 * (ptx_atom_op) keeps its ordering and scope in the IR all the same:
 * emit/atomics.c writes it as that `atom`, with its semantics and scope,
 * after LLVM's pipeline, once address-space inference has found its
 * pointer's state space.  An ordered one needs sm_70 (PTX's .sem); before
 * that, and for what no `atom` does (nand, 8 and 16 bits: LLVM's
 * compare-and-swap loop, whose cmpxchg keeps the scope), a relaxed one
 * between fences, the PTX memory model's fence mapping. */
static bool atomicrmw_ordered(const Lower *l, AtomicRmw rmw, AtomicOrd o, const Type *t)
{
	char ty;
	if (o == AO_RELAXED)
		return true;
	return ptx_atom_op(rmw, t->kind == TY_PTR ? 64 : t->bits, t->kind == TY_PTR, &ty) &&
	       prim_arch_fits("sm_70", l->m->arch ? l->m->arch : "sm_90");
}

const LlirHooks llir_nvptx = { sreg, barrier, trap, libdevice, prim, float_rem, syncscope, atomicrmw_ordered };
