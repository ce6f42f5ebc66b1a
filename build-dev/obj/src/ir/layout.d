build-dev/obj/src/ir/layout.o: src/ir/layout.c src/ir/ir.h \
 src/ir/../util.h src/ir/ops.def
src/ir/ir.h:
src/ir/../util.h:
src/ir/ops.def:
