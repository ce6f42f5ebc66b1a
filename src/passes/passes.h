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

#endif
