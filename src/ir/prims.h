/* prims.h: the registry of device primitives (prims.def) as tables:
 * every GPU primitive, libdevice function, scoped atomic and core
 * intrinsic oxidec lowers itself, with its signature or operand shape and
 * how each stage lowers it.  The frontend checks calls against the rows
 * (prim_check, intrinsic_check); stage 4 (nvvm.c) and stage 5
 * (llir_prim.c, llir_intrinsic.c, llir_atomic.c, llir_host.c) lower by
 * them. */
#ifndef OXIDEC_PRIMS_H
#define OXIDEC_PRIMS_H

#include "ir.h"

typedef enum {
	PC_OP,          /* an nvvm op (lower: its Opcode) */
	PC_RUNTIME,     /* the target's NvvmHooks (lower: RuntimePrim) */
	PC_PRIM,        /* nvvm.prim (lower: PrimKind; nvvm: the LLVM intrinsic) */
	PC_ASM,         /* nvvm.prim, inline PTX on NVPTX (lower: how many results
	                   the first argument, an out_T pointer, receives; nvvm: the
	                   template) */
	PC_LIBDEVICE,   /* nvvm.libdevice */
	PC_ATOMIC,      /* a core atomic intrinsic with a scope (lower: AtomicScope;
	                   nvvm: the intrinsic) */
	PC_ATOMIC_ORD,  /* a core atomic intrinsic whose scope and orderings are
	                   its last `lower` arguments, constants (nvvm: the
	                   intrinsic) */
} PrimClass;

typedef enum { RT_VPRINTF, RT_ASSERTFAIL, RT_DYNAMIC_SHARED, RT_GRID_BARRIER_WORD, RT_MALLOC, RT_FREE } RuntimePrim;

/* How the operands of an nvvm.prim map to its NVVM intrinsic.  At this
 * level predicates and bool results are u32 (0 / 1). */
typedef enum {
	PK_SAME,      /* arguments and result as the intrinsic's */
	PK_VOTE,      /* (mask, pred u32) -> u32: intrinsic (mask, i1) -> i1 */
	PK_BALLOT,    /* (mask, pred u32) -> u32: intrinsic (mask, i1) -> i32 */
	PK_REDUX,     /* (mask, v) -> v: intrinsic (v, mask) */
	PK_BAR_POPC,  /* (pred u32) -> u32: intrinsic (i32 0, i1) -> i32 */
	PK_BAR_BOOL,  /* (pred u32) -> u32: intrinsic (i32 0, i1) -> i1 */
	PK_PAIR0,     /* (mask, v) -> u32: intrinsic -> {i32, i1}, its i32 */
	PK_BOOL,      /* (args) -> u32: intrinsic (args) -> i1 */
} PrimKind;

enum { PF_PURE = 1, PF_CONV = 2, PF_TIED = 4 };

/* One row of prims.def's DEVICE, LIBDEVICE, ATOMIC_ORD or (per scope) ATOMIC. */
typedef struct {
	const char *sym;      /* __oxide_tid_x, __nv_sinf, __oxide_atomic_add_u32_block */
	const char *host;     /* the emulator's function; NULL: none (atomics are inline) */
	PrimClass cls;
	int lower;            /* by cls: Opcode, RuntimePrim, PrimKind, results, AtomicScope,
	                         constant arguments */
	const char *nvvm;     /* PC_PRIM: LLVM intrinsic; PC_ASM: PTX; PC_ATOMIC: core intrinsic */
	unsigned flags;       /* PF_* */
	const char *ret;      /* u16 u32 i32 u64 i64 f32 f64 ptr cstr bytes void never */
	const char *args;     /* "u32 mask, u32 v"; "" none */
	uint32_t nargs;
} DevicePrim;

const DevicePrim *prim_find(const char *sym);
/* Argument i of p's signature ("TYPE NAME"): its text, NULL past the
 * last; *type_len the length of TYPE ("*mut u32" has a space), *len of
 * the whole. */
const char *prim_arg(const DevicePrim *p, uint32_t i, size_t *type_len, size_t *len);
const DevicePrim *prim_of_op(Opcode code);   /* the PC_OP row lowered to code */
/* Whether args (nargs values) and the result type res (NULL: none) fit
 * p's signature: NULL when they do, else what is wrong, in buf.  Integer
 * signedness is not compared: the lowering is signless. */
const char *prim_check(const DevicePrim *p, uint32_t nargs, Value *const *args, const Type *res, char *buf,
                       size_t cap);

typedef enum {
#define INTRINSIC_KINDS(X) \
	X(ID) X(NOP) X(ASSUME) X(TRAP) X(CTPOP) X(CTLZ) X(CTTZ) X(SAME) X(SAT_ADD) X(SAT_SUB) X(ROTL) X(ROTR) \
	X(ADD) X(SUB) X(MUL) X(DIV) X(REM) X(SHL) X(SHR) X(OR) X(CMP3) X(OFFSET_FROM) X(VLOAD) X(VSTORE) \
	X(MEMCPY) X(MEMMOVE) X(MEMSET) X(SIZE_OF) X(ALIGN_OF) X(SIZE_OF_VAL) X(FTOI) X(FALSE) X(ARITH_OFFSET) \
	X(SWAP) X(ISQRT) X(COMPARE_BYTES) X(SWAP_BYTES) X(SELECT) X(RAW_EQ) \
	X(LIBM) X(FAST) X(ALGEBRAIC) X(FSHL) X(FSHR) X(MUL_ADD) X(PTR_MASK) X(PREFETCH) X(NT_STORE) \
	X(VMEMCPY) X(VMEMMOVE) X(VMEMSET) X(DEBUGTRAP) X(PTR_CMP) X(CATCH_UNWIND) X(VTABLE_SIZE) X(VTABLE_ALIGN) X(NULL_PTR)
#define X(k) IK_##k,
	INTRINSIC_KINDS(X)
#undef X
} IntrinsicKind;

typedef enum { AK_LOAD, AK_STORE, AK_RMW, AK_CXCHG, AK_FENCE, AK_SINGLE_FENCE } AtomicKind;

/* One row of prims.def's INTRINSIC or ATOMIC_INTRINSIC. */
typedef struct {
	const char *name;     /* core::intrinsics::NAME, as mir-export spells it */
	bool atomic;          /* kind is an AtomicKind, else an IntrinsicKind */
	int kind;
	AtomicRmw rmw;        /* AK_RMW */
	const char *shape;    /* "OPERANDS>RESULT" (prims.def) */
	const char *llvm;     /* IK_SAME: the LLVM intrinsic */
} Intrinsic;

const Intrinsic *intrinsic_find(const char *name);
/* Whether a mir.intrinsic has the operands and result its row's shape
 * says: NULL when it has, else what is wrong, in buf. */
const char *intrinsic_check(const Intrinsic *in, const Op *op, char *buf, size_t cap);

/* The architecture a primitive needs on NVPTX ("sm_80", "sm_90a"), or NULL
 * (prims.def, REQUIRES). */
const char *prim_required_arch(const DevicePrim *p);
/* PTX's `atom` operation for a read-modify-write rmw of a `bits`-bit
 * value (ptr: a pointer), and in *ty its type letter (u s b f); NULL when
 * no single `atom` does it: nand (LLVM's compare-and-swap loop), 8 and 16
 * bits, inc/dec on 64 bits, a pointer other than exchanged.  Stage 5
 * (llir_nvptx.c) and the NVPTX atomics rewrite (emit/atomics.c) agree
 * through it on which atomicrmw becomes one `atom`. */
const char *ptx_atom_op(AtomicRmw rmw, unsigned bits, bool ptr, char *ty);
/* Whether arch ("sm_90", "sm_90a", ...) can run what needs `need`: the
 * same or a later number, and for an arch-specific need ("sm_90a") that
 * very target. */
bool prim_arch_fits(const char *need, const char *arch);
/* Reports (diag_error, with the Rust line) every device call of m that
 * arch cannot run, and every cluster kernel (sm_90+); false when there
 * was one. */
bool prims_check_arch(const Module *m, const char *arch);

/* every row, for tests and tools */
extern const DevicePrim device_prims[];
extern const size_t ndevice_prims;

#endif
