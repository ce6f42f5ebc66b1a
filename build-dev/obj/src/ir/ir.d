build-dev/obj/src/ir/ir.o: src/ir/ir.c src/ir/ir.h src/ir/../util.h \
 src/ir/ops.def
src/ir/ir.h:
src/ir/../util.h:
src/ir/ops.def:
