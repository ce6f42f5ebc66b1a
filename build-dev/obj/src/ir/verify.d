build-dev/obj/src/ir/verify.o: src/ir/verify.c src/ir/ir.h \
 src/ir/../util.h src/ir/ops.def
src/ir/ir.h:
src/ir/../util.h:
src/ir/ops.def:
