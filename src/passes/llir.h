/* llir.h: what the files of stage 5 (the llir lowering) share — the
 * lowering state and the helpers that build llir ops.  Only src/passes/
 * includes it.  One concern per file:
 *
 *   llir.c            the pass: walk, dispatch, constants, calls, terminators
 *   llir_build.c      building blocks: new ops, constants, loads/stores, calls
 *   llir_memory.c     places: slots, fields, indexing, loads, stores, copies
 *   llir_enum.c       enum discriminants in rustc's tag encodings
 *   llir_arith.c      Rust's operators and casts on scalars
 *   llir_i128.c       128-bit int <-> float conversions and isqrt
 *   llir_intrinsic.c  core::intrinsics: the lowering of their registry rows
 *   llir_atomic.c     atomics: the lowering of their registry rows
 *   llir_byteloop.c   compare_bytes / swap bytes as functions of the module
 *   llir_prim.c       warp, sync and timer primitives (nvvm.prim), by their registry rows
 *   llir_nvptx.c      the target hooks on NVPTX: NVVM intrinsics, libdevice
 *   llir_host.c       the target hooks on the host: calls of the emulator
 */
#ifndef OXIDEC_LLIR_H
#define OXIDEC_LLIR_H

#include "passes.h"
#include "../ir/prims.h"

typedef struct {
	Module *m;
	Func *f;
	Builder b;         /* inserts before the op being lowered */
	const LlirHooks *hooks;   /* m->target->llir */
} Lower;

/* Stage 5's target hooks (Target.llir): everything the lowering does
 * differently per target.  The lowering never asks which target it is on. */
struct LlirHooks {
	Value *(*sreg)(Lower *l, Op *op);          /* nvvm.tid.x ... nvvm.nctaid.z */
	void (*barrier)(Lower *l);                 /* nvvm.barrier0 */
	void (*trap)(Lower *l);                    /* nvvm.trap, core::intrinsics::abort */
	Value *(*libdevice)(Lower *l, Op *op);     /* nvvm.libdevice @__nv_*(args) */
	Value *(*prim)(Lower *l, Op *op, const DevicePrim *p);   /* nvvm.prim, p its registry row */
	Value *(*float_rem)(Lower *l, Value *a, Value *b, Type *t);   /* Rust's % on floats */
	const char *(*syncscope)(AtomicScope s);   /* LLVM syncscope; NULL: system */
	/* whether the target's code for an atomicrmw of rmw on a value of type
	 * t keeps ordering o; false: a relaxed one between fences */
	bool (*atomicrmw_ordered)(const Lower *l, AtomicRmw rmw, AtomicOrd o, const Type *t);
};

extern const LlirHooks llir_nvptx, llir_host;

/* llir_build.c.  New values keep the mir types (with signedness) until
 * the pass makes the function signless at its end: later mir ops still
 * read is_signed. */
Type *signless(Lower *l, Type *t);
Value *emit(Lower *l, Opcode code, Type *t, uint32_t n, Value **opd);
Value *emit1(Lower *l, Opcode code, Type *t, Value *a);
Value *emit2(Lower *l, Opcode code, Type *t, Value *a, Value *b);
Value *iconst(Lower *l, Type *t, uint64_t lo, uint64_t hi);
Value *icmp(Lower *l, Pred p, Value *a, Value *b);
Value *fcmp(Lower *l, Pred p, Value *a, Value *b);
Value *select3(Lower *l, Value *c, Value *a, Value *b);
Value *gep_bytes(Lower *l, Value *p, uint64_t off);
Value *load_aligned(Lower *l, Value *p, Type *t, uint32_t place_align);
void store_aligned(Lower *l, Value *v, Value *p, uint32_t place_align);
Value *load(Lower *l, Value *p, Type *t);
void store(Lower *l, Value *v, Value *p);
Value *int_resize(Lower *l, Value *v, bool is_signed, Type *to);
Value *llvm_intrinsic(Lower *l, const char *name, Overload ovl, Type *rt, uint32_t n, Value **opd);
Value *extern_call(Lower *l, const char *sym, Type *rt, uint32_t n, Value **args);

/* The lowerings: each returns the replacement of op's single result, or
 * NULL when it has none. */
Value *lower_memory(Lower *l, Op *op);                 /* llir_memory.c */
Value *lower_discr(Lower *l, Op *op);                  /* llir_enum.c */
void lower_set_discr(Lower *l, Op *op);
Value *lower_shift(Lower *l, Op *op);                  /* llir_arith.c */
Value *lower_arith(Lower *l, Op *op);
void lower_overflow(Lower *l, Op *op, Value **res);    /* res[0]: value, res[1]: overflowed */
Value *lower_compare(Lower *l, Op *op);
Value *lower_cmp3(Lower *l, Op *op);
Value *lower_unary(Lower *l, Op *op);
Value *lower_cast(Lower *l, Op *op);
Value *int128_to_float(Lower *l, Value *x, Type *to);  /* llir_i128.c */
Value *float_to_int128(Lower *l, Value *x, Type *to);
Value *lower_isqrt(Lower *l, Value *n);
Value *lower_core_intrinsic(Lower *l, Op *op);         /* llir_intrinsic.c */
Value *lower_atomic(Lower *l, Op *op, const Intrinsic *in);                 /* llir_atomic.c */
void llir_fence(Lower *l, AtomicOrd o, const char *syncscope);             /* llir_atomic.c */
Value *byte_loop_call(Lower *l, Op *op, bool compare); /* llir_byteloop.c */
Value *raw_eq_call(Lower *l, Op *op);                   /* llir_byteloop.c */
Value *lower_prim(Lower *l, Op *op);                   /* llir_prim.c */

#endif
