build-dev/obj/src/emit/stack.o: src/emit/stack.c src/emit/emit.h \
 src/emit/../ir/ir.h src/emit/../ir/../util.h src/emit/../ir/ops.def
src/emit/emit.h:
src/emit/../ir/ir.h:
src/emit/../ir/../util.h:
src/emit/../ir/ops.def:
