build-dev/obj/src/ir/prims.o: src/ir/prims.c src/ir/prims.h src/ir/ir.h \
 src/ir/../util.h src/ir/ops.def src/ir/prims.def
src/ir/prims.h:
src/ir/ir.h:
src/ir/../util.h:
src/ir/ops.def:
src/ir/prims.def:
