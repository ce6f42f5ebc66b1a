build-dev/obj/src/frontend_json/operand.o: src/frontend_json/operand.c \
 src/frontend_json/build.h src/frontend_json/oxmir.h \
 src/frontend_json/frontend.h src/frontend_json/../ir/ir.h \
 src/frontend_json/../ir/../util.h src/frontend_json/../ir/ops.def
src/frontend_json/build.h:
src/frontend_json/oxmir.h:
src/frontend_json/frontend.h:
src/frontend_json/../ir/ir.h:
src/frontend_json/../ir/../util.h:
src/frontend_json/../ir/ops.def:
