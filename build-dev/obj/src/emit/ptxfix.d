build-dev/obj/src/emit/ptxfix.o: src/emit/ptxfix.c src/emit/emit_impl.h \
 /usr/lib/llvm-22/include/llvm-c/Core.h \
 /usr/lib/llvm-22/include/llvm-c/Deprecated.h \
 /usr/lib/llvm-22/include/llvm-c/ErrorHandling.h \
 /usr/lib/llvm-22/include/llvm-c/ExternC.h \
 /usr/lib/llvm-22/include/llvm-c/Visibility.h \
 /usr/lib/llvm-22/include/llvm/Config/llvm-config.h \
 /usr/lib/llvm-22/include/llvm-c/Types.h \
 /usr/lib/llvm-22/include/llvm-c/DataTypes.h \
 /usr/lib/llvm-22/include/llvm-c/TargetMachine.h \
 /usr/lib/llvm-22/include/llvm-c/Target.h \
 /usr/lib/llvm-22/include/llvm/Config/Targets.def \
 /usr/lib/llvm-22/include/llvm/Config/AsmPrinters.def \
 /usr/lib/llvm-22/include/llvm/Config/AsmParsers.def \
 /usr/lib/llvm-22/include/llvm/Config/Disassemblers.def src/emit/emit.h \
 src/emit/../ir/ir.h src/emit/../ir/../util.h src/emit/../ir/ops.def
src/emit/emit_impl.h:
/usr/lib/llvm-22/include/llvm-c/Core.h:
/usr/lib/llvm-22/include/llvm-c/Deprecated.h:
/usr/lib/llvm-22/include/llvm-c/ErrorHandling.h:
/usr/lib/llvm-22/include/llvm-c/ExternC.h:
/usr/lib/llvm-22/include/llvm-c/Visibility.h:
/usr/lib/llvm-22/include/llvm/Config/llvm-config.h:
/usr/lib/llvm-22/include/llvm-c/Types.h:
/usr/lib/llvm-22/include/llvm-c/DataTypes.h:
/usr/lib/llvm-22/include/llvm-c/TargetMachine.h:
/usr/lib/llvm-22/include/llvm-c/Target.h:
/usr/lib/llvm-22/include/llvm/Config/Targets.def:
/usr/lib/llvm-22/include/llvm/Config/AsmPrinters.def:
/usr/lib/llvm-22/include/llvm/Config/AsmParsers.def:
/usr/lib/llvm-22/include/llvm/Config/Disassemblers.def:
src/emit/emit.h:
src/emit/../ir/ir.h:
src/emit/../ir/../util.h:
src/emit/../ir/ops.def:
