/* prims.c: the registry's tables, built from prims.def, their lookup,
 * and the checks of a call against its row (used by the frontend, so
 * that a malformed call is an error naming it, never a crash in a later
 * stage). */
#include "prims.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ARGS as a string and a count */
#define A0() "", 0
#define A1(t1, n1) #t1 " " #n1, 1
#define A2(t1, n1, t2, n2) #t1 " " #n1 ", " #t2 " " #n2, 2
#define A3(t1, n1, t2, n2, t3, n3) #t1 " " #n1 ", " #t2 " " #n2 ", " #t3 " " #n3, 3
#define A4(t1, n1, t2, n2, t3, n3, t4, n4) #t1 " " #n1 ", " #t2 " " #n2 ", " #t3 " " #n3 ", " #t4 " " #n4, 4
#define A5(t1, n1, t2, n2, t3, n3, t4, n4, t5, n5) \
	#t1 " " #n1 ", " #t2 " " #n2 ", " #t3 " " #n3 ", " #t4 " " #n4 ", " #t5 " " #n5, 5
#define A6(t1, n1, t2, n2, t3, n3, t4, n4, t5, n5, t6, n6) \
	#t1 " " #n1 ", " #t2 " " #n2 ", " #t3 " " #n3 ", " #t4 " " #n4 ", " #t5 " " #n5 ", " #t6 " " #n6, 6
#define A7(t1, n1, t2, n2, t3, n3, t4, n4, t5, n5, t6, n6, t7, n7) \
	#t1 " " #n1 ", " #t2 " " #n2 ", " #t3 " " #n3 ", " #t4 " " #n4 ", " #t5 " " #n5 ", " #t6 " " #n6 ", " #t7 " " #n7, 7
#define A8(t1, n1, t2, n2, t3, n3, t4, n4, t5, n5, t6, n6, t7, n7, t8, n8) \
	#t1 " " #n1 ", " #t2 " " #n2 ", " #t3 " " #n3 ", " #t4 " " #n4 ", " #t5 " " #n5 ", " #t6 " " #n6 ", " #t7 " " #n7 ", " #t8 " " #n8, 8
#define A9(t1, n1, t2, n2, t3, n3, t4, n4, t5, n5, t6, n6, t7, n7, t8, n8, t9, n9) \
	#t1 " " #n1 ", " #t2 " " #n2 ", " #t3 " " #n3 ", " #t4 " " #n4 ", " #t5 " " #n5 ", " #t6 " " #n6 ", " #t7 " " #n7 ", " #t8 " " #n8 ", " #t9 " " #n9, 9
#define A11(t1, n1, t2, n2, t3, n3, t4, n4, t5, n5, t6, n6, t7, n7, t8, n8, t9, n9, t10, n10, t11, n11) \
	#t1 " " #n1 ", " #t2 " " #n2 ", " #t3 " " #n3 ", " #t4 " " #n4 ", " #t5 " " #n5 ", " #t6 " " #n6 ", " \
	#t7 " " #n7 ", " #t8 " " #n8 ", " #t9 " " #n9 ", " #t10 " " #n10 ", " #t11 " " #n11, 11

#define LOWER_OP(x) OP_NVVM_##x
#define LOWER_RUNTIME(x) RT_##x
#define LOWER_PRIM(x) PK_##x
#define LOWER_ASM(x) x
#define PF_0 0
#define PF_CONV_TIED (PF_CONV | PF_TIED)

#define DEVICE(name, cls, lower, nvvm, flags, ret, args) \
	{ "__oxide_" #name, "__oxide_host_" #name, PC_##cls, LOWER_##cls(lower), nvvm, PF_##flags, #ret, args },
#define LIBDEVICE(name, ret, args) \
	{ "__nv_" #name, "__nv_" #name, PC_LIBDEVICE, 0, NULL, PF_PURE, #ret, args },
#define ATOMIC_SCOPE(op, ty, intrinsic, scope, SCOPE, args) \
	{ "__oxide_atomic_" #op "_" #ty "_" #scope, NULL, PC_ATOMIC, ATOMIC_SCOPE_##SCOPE, #intrinsic, 0, #ty, args },
#define ATOMIC_ARGS(op, ty) ATOMIC_ARGS_##op(ty)
#define ATOMIC_ARGS_cas(ty) "*mut " #ty " p, " #ty " cmp, " #ty " new", 3
#define ATOMIC_ARGS_add(ty) "*mut " #ty " p, " #ty " v", 2
#define ATOMIC_ARGS_exch ATOMIC_ARGS_add
#define ATOMIC_ARGS_sub ATOMIC_ARGS_add
#define ATOMIC_ARGS_min ATOMIC_ARGS_add
#define ATOMIC_ARGS_max ATOMIC_ARGS_add
#define ATOMIC_ARGS_and ATOMIC_ARGS_add
#define ATOMIC_ARGS_or ATOMIC_ARGS_add
#define ATOMIC_ARGS_xor ATOMIC_ARGS_add
#define ATOMIC(op, ty, intrinsic) \
	ATOMIC_SCOPE(op, ty, intrinsic, block, BLOCK, ATOMIC_ARGS(op, ty)) \
	ATOMIC_SCOPE(op, ty, intrinsic, device, DEVICE, ATOMIC_ARGS(op, ty)) \
	ATOMIC_SCOPE(op, ty, intrinsic, system, SYSTEM, ATOMIC_ARGS(op, ty))
/* ATOMIC_ORD: the operands, then the scope and the ordering(s), which
 * are the row's `lower` constants: (lower, intrinsic, flags, ret, args) */
#define ATOMIC_ORD_RMW(ty, in) 2, #in, 0, #ty, "*mut " #ty " p, " #ty " v, u32 scope, u32 order", 4
#define ATOMIC_ORD_load(ty, in) 2, #in, 0, #ty, "*mut " #ty " p, u32 scope, u32 order", 3
#define ATOMIC_ORD_store(ty, in) 2, #in, 0, "void", "*mut " #ty " p, " #ty " v, u32 scope, u32 order", 4
#define ATOMIC_ORD_cas(ty, in) \
	3, #in, 0, #ty, "*mut " #ty " p, " #ty " cmp, " #ty " new, u32 scope, u32 success, u32 failure", 6
#define ATOMIC_ORD_exch ATOMIC_ORD_RMW
#define ATOMIC_ORD_add ATOMIC_ORD_RMW
#define ATOMIC_ORD_sub ATOMIC_ORD_RMW
#define ATOMIC_ORD_and ATOMIC_ORD_RMW
#define ATOMIC_ORD_or ATOMIC_ORD_RMW
#define ATOMIC_ORD_xor ATOMIC_ORD_RMW
#define ATOMIC_ORD_nand ATOMIC_ORD_RMW
#define ATOMIC_ORD_min ATOMIC_ORD_RMW
#define ATOMIC_ORD_max ATOMIC_ORD_RMW
#define ATOMIC_ORD_inc ATOMIC_ORD_RMW
#define ATOMIC_ORD_dec ATOMIC_ORD_RMW
#define ATOMIC_ORD(op, ty, intrinsic) \
	{ "__oxide_atomic_" #op "_" #ty, NULL, PC_ATOMIC_ORD, ATOMIC_ORD_##op(ty, intrinsic) },
const DevicePrim device_prims[] = {
#include "prims.def"
};
const size_t ndevice_prims = countof(device_prims);

#define RMW_NONE RMW_XCHG   /* unused: not an atomicrmw */
#define INTRINSIC(name, kind, shape, llvm) { #name, false, IK_##kind, 0, shape, llvm },
#define ATOMIC_INTRINSIC(name, kind, rmw, shape) { #name, true, AK_##kind, RMW_##rmw, shape, NULL },
static const Intrinsic intrinsics[] = {
#include "prims.def"
};

#define REQUIRES(name, arch) { "__oxide_" #name, arch },
static const struct { const char *sym, *arch; } requires[] = {
#include "prims.def"
};

const char *prim_required_arch(const DevicePrim *p)
{
	for (size_t i = 0; i < countof(requires); i++)
		if (!strcmp(requires[i].sym, p->sym))
			return requires[i].arch;
	return NULL;
}

/* sm_90 -> 90, its suffix ('a', 'f' or 0) in *sfx */
static int arch_number(const char *a, char *sfx)
{
	char *end;
	long v = strncmp(a, "sm_", 3) ? 0 : strtol(a + 3, &end, 10);
	*sfx = v ? *end : 0;
	return (int)v;
}

bool prim_arch_fits(const char *need, const char *arch)
{
	char ns, as;
	int n = arch_number(need, &ns), a = arch_number(arch, &as);
	return ns == 'a' ? n == a && as == 'a' : a >= n;
}

const char *ptx_atom_op(AtomicRmw rmw, unsigned bits, bool ptr, char *ty)
{
	if ((bits != 32 && bits != 64) || (ptr && rmw != RMW_XCHG))
		return NULL;
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
	case RMW_UINC_WRAP: *ty = 'u'; return bits == 32 ? "inc" : NULL;
	case RMW_UDEC_WRAP: *ty = 'u'; return bits == 32 ? "dec" : NULL;
	default: return NULL;
	}
}

/* A kernel with #[kernel(cluster(..))] (.reqnctapercluster) needs sm_90. */
static bool cluster_fits(const Func *f, const Module *m, const char *arch)
{
	if (!f->is_kernel || !f->cluster[0] || prim_arch_fits("sm_90", arch))
		return true;
	char where[512];
	diag_error(OX_GPU, ir_loc_string(m, f->loc, where, sizeof where),
	           "kernel `%s` has cluster(%u, %u, %u): thread-block clusters need --arch=sm_90 or later "
	           "(compiling for %s)", f->name, f->cluster[0], f->cluster[1], f->cluster[2], arch);
	return false;
}

/* An ordered atomic load, store or compare-exchange needs PTX's .sem
 * (sm_70): LLVM 22 refuses them before (its read-modify-writes are
 * fenced, its fences membar). */
static bool atomic_fits(const Op *op, const Module *m, const char *arch)
{
	const Intrinsic *in = op->code == OP_MIR_INTRINSIC ? intrinsic_find(op->sym) : NULL;
	if (!in || !in->atomic || (in->kind != AK_LOAD && in->kind != AK_STORE && in->kind != AK_CXCHG) ||
	    (op->attr.atomic.order == AO_RELAXED && (in->kind != AK_CXCHG || op->attr.atomic.fail_order == AO_RELAXED)) ||
	    prim_arch_fits("sm_70", arch))
		return true;
	char where[512];
	diag_error(OX_GPU, ir_loc_string(m, op->loc, where, sizeof where),
	           "atomic `%s` with an ordering other than Relaxed needs --arch=sm_70 or later (compiling for %s)",
	           op->sym, arch);
	return false;
}

bool prims_check_arch(const Module *m, const char *arch)
{
	bool ok = true;
	for (const Func *f = m->funcs; f; f = f->next)
		ok = cluster_fits(f, m, arch) && ok;
	for (const Func *f = m->funcs; f; f = f->next)
		for (const Block *b = f->first; b; b = b->next)
			for (const Op *op = b->first; op; op = op->next) {
				const DevicePrim *p = op->code == OP_MIR_DEVICE ? prim_find(op->sym) : NULL;
				const char *need = p ? prim_required_arch(p) : NULL;
				ok = atomic_fits(op, m, arch) && ok;
				if (!need || prim_arch_fits(need, arch))
					continue;
				char where[512];
				diag_error(OX_GPU, ir_loc_string(m, op->loc, where, sizeof where),
				           "GPU primitive `%s` needs --arch=%s%s (compiling for %s)", op->sym, need,
				           need[strlen(need) - 1] == 'a' ? "" : " or later", arch);
				ok = false;
			}
	return ok;
}

const char *prim_arg(const DevicePrim *p, uint32_t i, size_t *type_len, size_t *len)
{
	const char *s = p->args;
	for (; i > 0 && s; i--) {
		s = strstr(s, ", ");
		s = s ? s + 2 : NULL;
	}
	if (!s || !*s)
		return NULL;
	const char *end = strstr(s, ", ");
	*len = end ? (size_t)(end - s) : strlen(s);
	const char *name = s + *len;     /* the type is what precedes the last space */
	while (name > s && name[-1] != ' ')
		name--;
	*type_len = (size_t)(name - s) - 1;
	return s;
}

const DevicePrim *prim_find(const char *sym)
{
	for (size_t i = 0; i < ndevice_prims; i++)
		if (!strcmp(device_prims[i].sym, sym))
			return &device_prims[i];
	return NULL;
}

const DevicePrim *prim_of_op(Opcode code)
{
	for (size_t i = 0; i < ndevice_prims; i++)
		if (device_prims[i].cls == PC_OP && device_prims[i].lower == (int)code)
			return &device_prims[i];
	return NULL;
}

const Intrinsic *intrinsic_find(const char *name)
{
	for (size_t i = 0; i < countof(intrinsics); i++)
		if (!strcmp(intrinsics[i].name, name))
			return &intrinsics[i];
	return NULL;
}

static const char *type_word(const Type *t)
{
	if (!t)
		return "nothing";
	switch (t->kind) {
	case TY_INT: return "an integer";
	case TY_FLOAT: return "a float";
	case TY_PTR: return "a pointer";
	case TY_BOOL: return "a bool";
	default: return "nothing";
	}
}

/* A signature type (prims.def) against an IR type; the atomics' pointers
 * are "*mut T". */
static bool sig_fits(const char *s, size_t n, const Type *t)
{
	if ((n >= 4 && !strncmp(s, "*mut", 4)) || (n >= 4 && !strncmp(s, "out_", 4)) || (n >= 3 && !strncmp(s, "io_", 3)))
		return t->kind == TY_PTR;
	if ((n == 3 && !strncmp(s, "ptr", 3)) || (n == 4 && !strncmp(s, "cstr", 4)) ||
	    (n == 5 && !strncmp(s, "bytes", 5)) || (n == 4 && !strncmp(s, "sptr", 4)) ||
	    (n == 4 && !strncmp(s, "gptr", 4)))
		return t->kind == TY_PTR;
	if (n == 3 && (s[0] == 'u' || s[0] == 'i'))
		return t->kind == TY_INT && t->bits == (unsigned)(s[1] - '0') * 10 + (unsigned)(s[2] - '0');
	if (n == 3 && s[0] == 'f')
		return t->kind == TY_FLOAT && t->bits == (unsigned)(s[1] - '0') * 10 + (unsigned)(s[2] - '0');
	return false;
}

const char *prim_check(const DevicePrim *p, uint32_t nargs, Value *const *args, const Type *res, char *buf,
                       size_t cap)
{
	if (nargs != p->nargs && !p->nargs) {
		snprintf(buf, cap, "takes no arguments, not %u", nargs);
		return buf;
	}
	if (nargs != p->nargs) {
		snprintf(buf, cap, "takes %u argument%s (%s), not %u", p->nargs, p->nargs == 1 ? "" : "s", p->args,
		         nargs);
		return buf;
	}
	for (uint32_t k = 0; k < nargs; k++) {
		size_t tlen, len;
		const char *s = prim_arg(p, k, &tlen, &len);
		if (!sig_fits(s, tlen, args[k]->type)) {
			snprintf(buf, cap, "argument %u (%.*s) is %s", k + 1, (int)len, s, type_word(args[k]->type));
			return buf;
		}
	}
	bool none = !strcmp(p->ret, "void") || !strcmp(p->ret, "never");
	if (none ? res != NULL : !res || !sig_fits(p->ret, strlen(p->ret), res)) {
		snprintf(buf, cap, "returns %s, not %s", none ? "nothing" : p->ret, type_word(res));
		return buf;
	}
	return NULL;
}

/* A shape letter (prims.def, INTRINSIC) against a type; first: T's type. */
static bool shape_fits(char c, const Type *t, const Type *first)
{
	switch (c) {
	case 'i': return t->kind == TY_INT;
	case 'f': return t->kind == TY_FLOAT;
	case 'p': return t->kind == TY_PTR;
	case 'b': return t->kind == TY_BOOL;
	case 'k': return t->kind == TY_INT || t->kind == TY_BOOL;
	case 'T': return first && t->kind == first->kind && t->bits == first->bits;
	default: return t->kind != TY_VOID;
	}
}

const char *intrinsic_check(const Intrinsic *in, const Op *op, char *buf, size_t cap)
{
	const char *s = in->shape, *r = strchr(s, '>') + 1;
	const Type *first = NULL;
	for (uint32_t k = 0; k < op->nopd && s[k] != '>' && s[0] != '*'; k++)
		if (s[k] != 'p') {
			first = op->opd[k]->type;
			break;
		}
	if (s[0] != '*') {
		uint32_t want = (uint32_t)(r - 1 - s);
		if (op->nopd != want) {
			snprintf(buf, cap, "takes %u argument%s, not %u", want, want == 1 ? "" : "s", op->nopd);
			return buf;
		}
		for (uint32_t k = 0; k < want; k++)
			if (!shape_fits(s[k], op->opd[k]->type, first)) {
				snprintf(buf, cap, "argument %u is %s, which it does not take", k + 1,
				         type_word(op->opd[k]->type));
				return buf;
			}
	}
	if (*r != '?' && (*r == '-' ? op->nres != 0 : op->nres != 1 || !shape_fits(*r, op->res[0].type, first))) {
		snprintf(buf, cap, "does not return %s", op->nres ? type_word(op->res[0].type) : "nothing");
		return buf;
	}
	if (!in->atomic && (in->kind == IK_SIZE_OF_VAL || (in->kind == IK_ALIGN_OF && op->rty && op->rty->kind == RT_OPAQUE)) &&
	    op->rty && (op->rty->kind == RT_OPAQUE || op->rty->kind == RT_SLICE || op->rty->kind == RT_STR) &&
	    (op->nopd < 2 || op->opd[1]->type->kind != TY_INT)) {
		snprintf(buf, cap, "of a `%s` needs its length", op->rty->name);
		return buf;
	}
	return NULL;
}
