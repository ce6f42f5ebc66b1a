# oxidec: Rust GPU kernels -> MIR JSON -> PTX / cubin.
#
#   make            build build/bin/oxidec and build/bin/mir-export
#   make run        the main job: vecadd.rs -> JSON -> PTX (ptxas-validated),
#                   run on the GPU when one is present
#   make check      every test that needs no GPU
#   make examples   PTX and cubin of every example into build/examples/
#   make gpu-check  (GPU machine, needs only cc + driver + build/) run the examples
#   make bench      (GPU machine, needs nvcc) oxidec vs nvcc, vecadd
#   make deps       apt-install what the build needs (idempotent)
#   make install PREFIX=/usr/local DESTDIR=

LLVM_CONFIG ?= llvm-config-22
CUDA_HOME   ?= /usr/local/cuda
CARGO       ?= cargo
PREFIX      ?= /usr/local
CC          ?= cc

CFLAGS ?= -g -O2
WARN    = -Wall -Wextra -Wpedantic -Wshadow -Wmissing-prototypes -Wstrict-prototypes
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(CFLAGS) -MMD -MP
LLVM_CFLAGS := $(shell $(LLVM_CONFIG) --cflags 2>/dev/null | sed 's/-std=[^ ]*//')
LLVM_LIBS   := $(shell $(LLVM_CONFIG) --ldflags --libs 2>/dev/null)
CJSON_LIBS  = -lcjson

VERSION = 0.1.0
B = build

UTIL_SRC  = src/util.c
IR_SRC    = src/ir/ir.c src/ir/printer.c src/ir/verify.c src/ir/layout.c
FE_SRC    = $(wildcard src/frontend_json/*.c)
PASS_SRC  = $(wildcard src/passes/*.c)
EMIT_SRC  = $(wildcard src/emit/*.c)
CORE_SRC  = $(UTIL_SRC) $(IR_SRC) $(FE_SRC) $(PASS_SRC)
OXIDEC_SRC = src/main.c $(CORE_SRC) $(EMIT_SRC)

obj = $(patsubst %.c,$(B)/obj/%.o,$(1))

.PHONY: all check clean install deps run examples gpu-check bench unit golden exporter-test sanitize

all: $(B)/bin/oxidec $(B)/bin/mir-export

$(B)/obj/src/emit/%.o: src/emit/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LLVM_CFLAGS) -DCUDA_HOME='"$(CUDA_HOME)"' -c $< -o $@

$(B)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -DOXIDEC_VERSION='"$(VERSION)"' -c $< -o $@

$(B)/bin/oxidec: $(call obj,$(OXIDEC_SRC))
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LLVM_LIBS) $(CJSON_LIBS) -ldl -lm

MIR_EXPORT_SRC = $(shell find tools/mir-export -name '*.rs' -o -name Cargo.toml -o -name Cargo.lock 2>/dev/null | grep -v /target/)
$(B)/bin/mir-export: $(MIR_EXPORT_SRC)
	@mkdir -p $(@D)
	$(CARGO) build --release --offline --manifest-path tools/mir-export/Cargo.toml --target-dir $(B)/cargo
	cp $(B)/cargo/release/mir-export $@

-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)

clean:
	rm -rf $(B)
