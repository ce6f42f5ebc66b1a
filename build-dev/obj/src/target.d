build-dev/obj/src/target.o: src/target.c src/target.h src/ir/ir.h \
 src/ir/../util.h src/ir/ops.def src/passes/llir.h src/passes/passes.h \
 src/passes/../ir/ir.h src/passes/../ir/prims.h src/passes/../ir/ir.h \
 src/passes/nvvm.h
src/target.h:
src/ir/ir.h:
src/ir/../util.h:
src/ir/ops.def:
src/passes/llir.h:
src/passes/passes.h:
src/passes/../ir/ir.h:
src/passes/../ir/prims.h:
src/passes/../ir/ir.h:
src/passes/nvvm.h:
