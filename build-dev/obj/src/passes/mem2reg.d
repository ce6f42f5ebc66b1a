build-dev/obj/src/passes/mem2reg.o: src/passes/mem2reg.c \
 src/passes/passes.h src/passes/../ir/ir.h src/passes/../ir/../util.h \
 src/passes/../ir/ops.def
src/passes/passes.h:
src/passes/../ir/ir.h:
src/passes/../ir/../util.h:
src/passes/../ir/ops.def:
