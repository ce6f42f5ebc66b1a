build-dev/obj/src/passes/nvvm.o: src/passes/nvvm.c src/passes/nvvm.h \
 src/passes/passes.h src/passes/../ir/ir.h src/passes/../ir/../util.h \
 src/passes/../ir/ops.def src/passes/../ir/prims.h src/passes/../ir/ir.h
src/passes/nvvm.h:
src/passes/passes.h:
src/passes/../ir/ir.h:
src/passes/../ir/../util.h:
src/passes/../ir/ops.def:
src/passes/../ir/prims.h:
src/passes/../ir/ir.h:
