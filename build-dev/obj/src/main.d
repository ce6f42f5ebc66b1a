build-dev/obj/src/main.o: src/main.c src/emit/emit.h src/emit/../ir/ir.h \
 src/emit/../ir/../util.h src/emit/../ir/ops.def \
 src/frontend_json/frontend.h src/frontend_json/../ir/ir.h src/ir/ir.h \
 src/passes/passes.h src/passes/../ir/ir.h src/target.h src/util.h
src/emit/emit.h:
src/emit/../ir/ir.h:
src/emit/../ir/../util.h:
src/emit/../ir/ops.def:
src/frontend_json/frontend.h:
src/frontend_json/../ir/ir.h:
src/ir/ir.h:
src/passes/passes.h:
src/passes/../ir/ir.h:
src/target.h:
src/util.h:
