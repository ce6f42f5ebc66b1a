/* passes.h: entry points of the passes in src/passes/, in pipeline
 * order.  Every pass takes the whole module and leaves it passing
 * ir_verify; what differs between targets is the module's Target's hooks
 * (nvvm.h, llir.h; src/target.c gathers them). */
#ifndef OXIDEC_PASSES_H
#define OXIDEC_PASSES_H

#include "../ir/ir.h"

/* mem2reg.c: stage 3 (ssa), scalar mir.slot locals become SSA values */
void pass_mem2reg(Module *m);

/* nvvm.c: stage 4 (nvvm), GPU primitives and address spaces (nvvm*.c) */
void pass_nvvm(Module *m);

/* llir.c: stage 5 (llir), LLVM-shaped ops with layouts applied (llir*.c) */
void pass_llir(Module *m);
bool llir_intrinsic_supported(const char *name);
bool llir_intrinsic_returns_unit(const char *name);   /* hints, assume, abort: no value */
/* NULL when a mir.intrinsic has the operand and result shapes its lowering
 * needs, else what is wrong (written into buf) */
const char *llir_intrinsic_check(const Op *op, char *buf, size_t cap);
int llir_prim_arity(const char *sym);   /* __oxide_* warp/sync/timer primitive (llir_prim.c): argument count, -1 unknown */
bool llir_intrinsic_is_atomic(const char *name);     /* atomic_*: orderings on the op (llir_atomic.c) */   /* core::intrinsics name, any version's spelling */

#endif
