build-dev/obj/src/passes/llir_arith.o: src/passes/llir_arith.c \
 src/passes/llir.h src/passes/passes.h src/passes/../ir/ir.h \
 src/passes/../ir/../util.h src/passes/../ir/ops.def \
 src/passes/../ir/prims.h src/passes/../ir/ir.h
src/passes/llir.h:
src/passes/passes.h:
src/passes/../ir/ir.h:
src/passes/../ir/../util.h:
src/passes/../ir/ops.def:
src/passes/../ir/prims.h:
src/passes/../ir/ir.h:
