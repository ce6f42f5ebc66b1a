build-dev/obj/src/ir/printer.o: src/ir/printer.c src/ir/ir.h \
 src/ir/../util.h src/ir/ops.def
src/ir/ir.h:
src/ir/../util.h:
src/ir/ops.def:
