build-dev/obj/src/passes/nvvm_host.o: src/passes/nvvm_host.c \
 src/passes/nvvm.h src/passes/passes.h src/passes/../ir/ir.h \
 src/passes/../ir/../util.h src/passes/../ir/ops.def
src/passes/nvvm.h:
src/passes/passes.h:
src/passes/../ir/ir.h:
src/passes/../ir/../util.h:
src/passes/../ir/ops.def:
