# oxidec: Rust GPU kernels -> MIR JSON -> PTX / cubin.
#
#   make            build build/bin/oxidec and build/bin/mir-export
#   make run        the main job: vecadd.rs -> JSON -> PTX (ptxas-validated),
#                   run on the GPU when one is present
#   make check      every test that needs no GPU
#   make examples   PTX, cubin, typed C header (.h) and signature (.sig.json) of every
#                   example into build/examples/
#   make emu        host-emulation modules of every example: build/emu/NAME.so
#                   (oxidec --target=host; run without a GPU by tests/emu/run.sh)
#   make gpu-check  (GPU machine, needs only cc + driver + build/) run the examples
#   make host-rs    the Rust hosts of examples/{vecadd,saxpy,grid_sync}/host-rs (tools/oxide-host, cargo):
#                   build/host-rs/release/NAME-host [--emulate | MODULE]
#   make gpu-pack   build and pack (build/gpu-pack/) what gpu-all needs on a GPU machine
#   make gpu-all    (GPU machine) examples, compute-sanitizer, conformance and fuzz kernels,
#                   the half and tensor-core / async-copy primitives against the emulator,
#                   the examples from Python (CuPy, torch; tests/gpu/python)
#   make bench      (GPU machine, needs nvcc; after make examples or gpu-pack here) oxidec
#                   vs nvcc (and cuBLAS): the suite's one table (bench/suite), vecadd,
#                   the tensor-core GEMMs, softmax_bf16
#   make bench-cas  (GPU machine) contended CAS loops / fetch_adds on one counter at
#                   33 .. 1056 blocks, oxidec vs nvcc (tests/gpu/cas.sh, bench/cas)
#   make bench-compile  (here; after make examples) compile times per example: mir-export,
#                   oxidec JSON -> PTX, rustc's nvptx64 back end (bench/rustc-nvptx),
#                   nvcc -O3 -ptx of the CUDA C twins (build/bench-compile.md)
#   make deps       apt-install what the build needs (idempotent)
#   make prims      write oxide-device's prims.rs and atomic.rs from src/ir/prims.def
#   make fuzz-json  coverage-guided JSON fuzzer (libFuzzer, clang):
#                   FUZZ_TIME=seconds FUZZ_JOBS=n (docs/fuzzing.md)
#   make sanitize   everything built with clang ASan+UBSan into build-asan/,
#                   then the whole `make check` with that build
#   make pictures   each example's IR stages drawn (oxidec --emit=dot, Graphviz):
#                   build/pictures/NAME/{mir,ssa,nvvm,llir}.svg
#   make install PREFIX=/usr/local DESTDIR=   the tools, man pages, oxrt
#                   (lib/liboxrt.a, include/oxide/, lib/pkgconfig/oxrt.pc),
#                   share/oxide/: oxide.mk, oxide-device, oxide-macros, oxide-host

LLVM_CONFIG ?= llvm-config-22
CUDA_HOME   ?= /usr/local/cuda
CARGO       ?= cargo
PREFIX      ?= /usr/local
CC          ?= cc

CFLAGS ?= -g -O2
LDFLAGS ?=
WARN    = -Wall -Wextra -Wpedantic -Wshadow -Wmissing-prototypes -Wstrict-prototypes
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(CFLAGS) -MMD -MP
LLVM_CFLAGS := $(shell $(LLVM_CONFIG) --cflags 2>/dev/null | sed 's/-std=[^ ]*//')
LLVM_LIBS   := $(shell $(LLVM_CONFIG) --ldflags --libs 2>/dev/null)
# build/bin/oxidec links LLVM's static libraries (llvm-22-dev has them),
# only the components it uses: a process then starts in about half the CPU
# time (vecadd: 48 instead of 89 ms), since the dynamic loader no longer
# relocates and pages in the 150 MB libLLVM.so.  LLVM_LINK=shared links
# libLLVM.so instead; without the static libraries that is the default.
# The unit tests and the fuzzer keep libLLVM.so (they link faster).
LLVM_COMPONENTS = nvptx native passes bitreader linker
LLVM_LINK ?= $(shell $(LLVM_CONFIG) --link-static --libs $(LLVM_COMPONENTS) >/dev/null 2>&1 && echo static || echo shared)
# The static link is also a fixed-position executable with the C++
# runtime linked in (OXIDEC_PIE=yes keeps a PIE with libstdc++.so): a PIE
# has 63,000 relocations of LLVM's vtables and tables to apply at every
# start, which write (and so copy) every page of .data.rel.ro, and binding
# libstdc++'s symbols costs another 1.7 M instructions.  Measured on
# vecadd (callgrind; perf stat -r 15, interleaved, load 4-5): 17.4 ->
# 14.3 M instructions, 1,360 -> 1,125 page faults, 51 -> 39 ms of CPU
# per compile.  oxidec is a
# build tool that reads the user's own exported MIR; address-space layout
# randomisation buys it little, and the PIE stays one variable away.
OXIDEC_PIE ?= no
ifeq ($(LLVM_LINK),static)
ifeq ($(OXIDEC_PIE),no)
OXIDEC_CXXRT := -no-pie -static-libgcc -Wl,-Bstatic -lstdc++ -Wl,-Bdynamic
else
OXIDEC_CXXRT := -lstdc++
endif
OXIDEC_LLVM_LIBS := $(shell $(LLVM_CONFIG) --link-static --ldflags --libs $(LLVM_COMPONENTS) 2>/dev/null) \
                    -Wl,--as-needed $(shell $(LLVM_CONFIG) --link-static --system-libs 2>/dev/null) $(OXIDEC_CXXRT)
else
OXIDEC_LLVM_LIBS := $(LLVM_LIBS)
endif
CJSON_LIBS  = -lcjson

VERSION = 0.1.0
B = build
# cargo's target directory (Rust is never sanitized: make sanitize shares
# the normal build's)
CARGO_TARGET = $(B)/cargo

UTIL_SRC  = src/util.c
IR_SRC    = src/ir/ir.c src/ir/printer.c src/ir/dot.c src/ir/verify.c src/ir/layout.c src/ir/prims.c
FE_SRC    = $(wildcard src/frontend_json/*.c)
PASS_SRC  = $(wildcard src/passes/*.c)
EMIT_SRC  = $(wildcard src/emit/*.c)
# the targets: each one's hooks of the passes' stages (src/target.c)
TARGET_SRC = src/target.c
CORE_SRC  = $(UTIL_SRC) $(IR_SRC) $(FE_SRC) $(PASS_SRC) $(TARGET_SRC)
OXIDEC_SRC = src/main.c $(CORE_SRC) $(EMIT_SRC)

obj = $(patsubst %.c,$(B)/obj/%.o,$(1))

.PHONY: all check clean install deps run examples emu host-rs gpu-check gpu-all gpu-pack gpu-hazards bench bench-cas unit golden exporter-test sanitize fuzz-json prims gpu-half gpu-prims gpu-lineinfo bench-compile

all: $(B)/bin/oxidec $(B)/bin/mir-export

$(B)/obj/src/emit/%.o: src/emit/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LLVM_CFLAGS) -DCUDA_HOME='"$(CUDA_HOME)"' -c $< -o $@

$(B)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -DOXIDEC_VERSION='"$(VERSION)"' -c $< -o $@

$(B)/bin/oxidec: $(call obj,$(OXIDEC_SRC))
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(OXIDEC_LLVM_LIBS) $(CJSON_LIBS) -ldl -lm

MIR_EXPORT_SRC = $(shell find tools/mir-export -name '*.rs' -o -name Cargo.toml -o -name Cargo.lock 2>/dev/null | grep -v /target/)
$(B)/bin/mir-export: $(MIR_EXPORT_SRC)
	@mkdir -p $(@D)
	$(CARGO) build --release --offline --manifest-path tools/mir-export/Cargo.toml --target-dir $(CARGO_TARGET)
	cp $(CARGO_TARGET)/release/mir-export $@.tmp && mv -f $@.tmp $@   # a rename works while a test runs the old one

# the Rust hosts of examples/{vecadd,saxpy,grid_sync}/host-rs (tools/oxide-host,
# cargo offline; their build.rs runs this build's mir-export and oxidec):
# $(CARGO_HOST)/release/NAME-host, which make gpu-pack packs for the GPU
# machine (no Rust there) and tests/gpu/host-rs.sh runs
HOST_RS = vecadd saxpy grid_sync
CARGO_HOST = $(B)/host-rs
host-rs: all
	for e in $(HOST_RS); do \
		OXIDEC=$(abspath $(B)/bin/oxidec) MIR_EXPORT=$(abspath $(B)/bin/mir-export) $(CARGO) build --offline --release \
		       --manifest-path examples/$$e/host-rs/Cargo.toml --target-dir $(CARGO_HOST) || exit 1; \
	done

# the fuzz runner and the conformance suite's drivers (oxide-runner fuzz,
# conformance, conformance-build-gpu, conformance-gpu, export-group, ...:
# tests/fuzz/run.sh and the tests/conformance/*.sh wrappers exec it), its
# verdicts from the error codes; its tests run with the workspace's in
# tests/exporter. make gpu-pack packs it for the GPU machine (no Rust there)
RUNNER = $(CARGO_TARGET)/release/oxide-runner
$(RUNNER): $(MIR_EXPORT_SRC)
	$(CARGO) build --release --offline --manifest-path tools/mir-export/Cargo.toml --target-dir $(CARGO_TARGET) -p oxide-runner

-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)

clean:
	rm -rf $(B)

# ------------------------------------------------------------- set-up
deps:
	sh tools/deps.sh

# ----------------------------------------------------------- examples
EXAMPLES = hello_constant vecadd saxpy row_sum warp_reduce math launch_bounds
# shared memory, atomics, constant memory, printf
EXAMPLES += reduce_shared histogram transpose stencil2d sgemm printf const_lookup
EXAMPLES += scale2d
# tensor cores: mma.sync, ldmatrix, bf16 (sm_80+); wgmma, TMA, mbarrier (sm_90a)
# (examples/NAME/arch, when there, is the --arch the example needs)
EXAMPLES += mma_gemm hopper_gemm softmax_bf16 wgmma_forms vector_scale tma_copy
# segment shuffles, match_all, sync_warp, named barriers; device_assert!
EXAMPLES += warp_sync device_assert
# recursion and the GPU stack (also built at -O0: NAME.O0.ptx / .O0.cubin)
EXAMPLES += recursion
# thread-block clusters, distributed shared memory (sm_90)
EXAMPLES += cluster_reduce
# grid-wide barrier, cooperative launches (grid::sync(), ox_launch_cooperative)
EXAMPLES += grid_sync
# one job over every device: ox_device_select, ox_copy_peer (examples/multi_device)
EXAMPLES += multi_device
# the kernels of `make bench` in safe Rust (bench/suite: sgemm, copy, reduce, histogram, softmax)
EXAMPLES += bench_kernels
# per-thread chunks and 2-D tiles of an output, their edges, unchecked access
EXAMPLES += tiles
# a generic kernel with named instances (#[kernel(instances(f32, f64, u32, i64))])
EXAMPLES += generic_axpy
# contended CAS loops and fetch_adds on one counter, every ordering and scope (bench/cas, issue 11)
EXAMPLES += cas_contention
# gpu_println!: Rust format syntax through core::fmt, one vprintf per line
# (needs a rustc with its library sources: example_rustc)
EXAMPLES += print_rust
EXAMPLES_O0 = recursion
EX_OUT = $(B)/examples

example_arch = $(if $(wildcard examples/$(1)/arch),--arch=$(shell cat examples/$(1)/arch))

# An example whose Cargo.toml says rustc = "with-library-sources"
# (gpu_println!: core::fmt's bodies come from core's own MIR) is exported
# through the first of rustc and /usr/bin/rustc that has its library
# sources, with core's MIR cached in $(B)/mir-export-cache, as the
# conformance runner does for such groups. Without one, mir-export's
# error names the gpu_println! line and what to install.
library_rustc = $(firstword $(foreach r,rustc /usr/bin/rustc,$(if $(wildcard $(shell $(r) --print sysroot 2>/dev/null)/lib/rustlib/src/rust/library/core/src/lib.rs),$(r))))
with_library_sources = $(shell grep -qs '^rustc = "with-library-sources"' examples/$(1)/Cargo.toml && echo yes)
example_export = $(if $(call with_library_sources,$(1)),OXIDE_MIR_EXPORT_CACHE=$${OXIDE_MIR_EXPORT_CACHE:-$(CURDIR)/$(B)/mir-export-cache} \
                   $(B)/bin/mir-export $(if $(library_rustc),--rustc=$(library_rustc)),$(B)/bin/mir-export)

.SECONDARY: $(foreach e,$(EXAMPLES),$(EX_OUT)/$(e).mir.json $(B)/emu/$(e).o)

examples: $(foreach e,$(EXAMPLES),$(EX_OUT)/$(e).ptx $(EX_OUT)/$(e).cubin $(EX_OUT)/$(e).h $(EX_OUT)/$(e).sig.json) \
          $(foreach e,$(EXAMPLES_O0),$(EX_OUT)/$(e).O0.ptx $(EX_OUT)/$(e).O0.cubin)

$(EX_OUT)/%.mir.json: $(B)/bin/mir-export examples/%/src/lib.rs $(wildcard tools/mir-export/oxide-device/src/*.rs)
	@mkdir -p $(@D)
	$(call example_export,$*) examples/$* -o $@

$(EX_OUT)/%.ptx: $(EX_OUT)/%.mir.json $(B)/bin/oxidec
	$(B)/bin/oxidec $(call example_arch,$*) $< -o $@

$(EX_OUT)/%.cubin: $(EX_OUT)/%.mir.json $(B)/bin/oxidec
	$(B)/bin/oxidec $(call example_arch,$*) $< -o $@

# the typed launchers host.c includes (oxidec --emit=header, by the extension)
$(EX_OUT)/%.h: $(EX_OUT)/%.mir.json $(B)/bin/oxidec
	$(B)/bin/oxidec $(call example_arch,$*) $< -o $@

# the kernels' signatures for Python (examples/python/oxide_cupy.py)
$(EX_OUT)/%.sig.json: $(EX_OUT)/%.mir.json $(B)/bin/oxidec
	$(B)/bin/oxidec $(call example_arch,$*) --emit=signature $< -o $@

$(EX_OUT)/%.O0.ptx: $(EX_OUT)/%.mir.json $(B)/bin/oxidec
	$(B)/bin/oxidec -O0 $< -o $@

$(EX_OUT)/%.O0.cubin: $(EX_OUT)/%.mir.json $(B)/bin/oxidec
	$(B)/bin/oxidec -O0 $< -o $@

# Host emulation: the same JSON compiled for this CPU, linked into a shared
# object that oxrt loads (ox_module_load of a .so runs it by emulation).
EMU_OUT = $(B)/emu

emu: $(foreach e,$(EXAMPLES),$(EMU_OUT)/$(e).so $(EX_OUT)/$(e).h $(EX_OUT)/$(e).sig.json) $(EMU_OUT)/gpu_prims.so

# tests/gpu/prims emulated (tests/emu/run.sh runs it against itself)
$(EMU_OUT)/gpu_prims.mir.json: $(B)/bin/mir-export tests/gpu/prims/src/lib.rs \
                               $(wildcard tools/mir-export/oxide-device/src/*.rs)
	@mkdir -p $(@D)
	$(B)/bin/mir-export tests/gpu/prims -o $@

$(EMU_OUT)/gpu_prims.o: $(EMU_OUT)/gpu_prims.mir.json $(B)/bin/oxidec
	$(B)/bin/oxidec --target=host $< -o $@

$(EMU_OUT)/%.o: $(EX_OUT)/%.mir.json $(B)/bin/oxidec
	@mkdir -p $(@D)
	$(B)/bin/oxidec --target=host $< -o $@

$(EMU_OUT)/%.so: $(EMU_OUT)/%.o
	$(CC) -shared -o $@ $< -lm

# The main job: a Rust kernel becomes JSON, then PTX validated by ptxas,
# then runs on the GPU when this machine has one.
run: all $(EX_OUT)/vecadd.ptx $(EX_OUT)/vecadd.cubin
	@echo "== vecadd: Rust -> $(EX_OUT)/vecadd.mir.json -> $(EX_OUT)/vecadd.ptx"
	$(CUDA_HOME)/bin/ptxas -arch=sm_90 $(EX_OUT)/vecadd.ptx -o $(B)/vecadd.ptxas.cubin
	@echo "ptxas -arch=sm_90: accepted"
	@if [ -e /dev/nvidia0 ] || command -v nvidia-smi >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory gpu-check; \
	else \
		echo "no GPU on this machine: PTX and cubin are built; run 'make gpu-check' where one is"; \
	fi

gpu-check:
	sh tests/gpu/gpu-check.sh

# the whole GPU check: examples, compute-sanitizer, conformance, fuzz kernels
# (at O3/O0 x PTX/cubin), from what gpu-pack built (on the GPU machine)
gpu-all:
	sh tests/gpu/all.sh

# here: everything gpu-all needs, packed in build/gpu-pack/ (carry it),
# the conformance runner (oxide-runner) among it
gpu-pack: all examples gpu-hazards gpu-half gpu-prims gpu-lineinfo host-rs $(RUNNER)
	OXIDE_RUNNER=$(RUNNER) sh tests/gpu/pack.sh

# every f32 through the half-precision conversions, 2^26 operand triples
# through the half arithmetic, every fp8 pair back to f16 (tests/gpu/half,
# compared with the emulator on the GPU machine), built here into
# build/gpu-half
gpu-half: $(B)/bin/mir-export $(B)/bin/oxidec
	@mkdir -p build/gpu-half
	$(B)/bin/mir-export tests/gpu/half -o build/gpu-half/half.mir.json
	$(B)/bin/oxidec build/gpu-half/half.mir.json -o build/gpu-half/half.cubin

# a raw-pointer store past the end of a buffer, for compute-sanitizer to
# name its Rust line (sh tests/gpu/lineinfo/run.sh on the GPU machine),
# and with -g for cuda-gdb to stop at that line (tests/gpu/lineinfo/cudagdb.sh),
# built here into build/gpu-lineinfo
gpu-lineinfo: $(B)/bin/mir-export $(B)/bin/oxidec
	@mkdir -p build/gpu-lineinfo
	$(B)/bin/mir-export tests/gpu/lineinfo -o build/gpu-lineinfo/lineinfo.mir.json
	$(B)/bin/oxidec build/gpu-lineinfo/lineinfo.mir.json -o build/gpu-lineinfo/lineinfo.ptx
	$(B)/bin/oxidec build/gpu-lineinfo/lineinfo.mir.json -o build/gpu-lineinfo/lineinfo.cubin
	$(B)/bin/oxidec -O0 -g build/gpu-lineinfo/lineinfo.mir.json -o build/gpu-lineinfo/lineinfo.g.cubin

# every tensor-core and async-copy primitive on the GPU module (cubin) and
# on the emulated one (.o, linked into a .so where it runs), compared by
# tests/gpu/prims/host.c (sh tests/gpu/prims/run.sh), built here into
# build/gpu-prims
gpu-prims: $(B)/bin/mir-export $(B)/bin/oxidec
	@mkdir -p build/gpu-prims
	$(B)/bin/mir-export tests/gpu/prims -o build/gpu-prims/prims.mir.json
	$(B)/bin/oxidec --arch=sm_90a build/gpu-prims/prims.mir.json -o build/gpu-prims/prims.cubin
	$(B)/bin/oxidec --target=host build/gpu-prims/prims.mir.json -o build/gpu-prims/prims.o
	$(CC) -shared -o build/gpu-prims/prims.so build/gpu-prims/prims.o -lm

# the ptxas hazard probe (tests/gpu/hazards/README), built here into
# build/gpu-hazards (gpu-pack packs it for gpu-all)
gpu-hazards: all
	sh tests/gpu/hazards/build.sh

# compile times, not asserted anywhere (tools/bench-compile.sh; BENCHMARKS.md)
bench-compile: all examples
	sh tools/bench-compile.sh

bench:
	sh tests/gpu/bench.sh

# (GPU machine) contended CAS loops and fetch_adds on one counter, oxidec
# against nvcc, at 33 .. 1056 blocks (tests/gpu/cas.sh, bench/cas)
bench-cas:
	sh tests/gpu/cas.sh

# ---------------------------------------------------------------- tests
UNIT_TESTS = test_ir test_mem2reg test_emit
UNIT_CORE = $(UTIL_SRC) $(IR_SRC) src/passes/mem2reg.c

$(B)/tests/test_ir: tests/unit/test_ir.c $(call obj,$(UNIT_CORE))
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -Isrc -o $@ $^

$(B)/tests/test_mem2reg: tests/unit/test_mem2reg.c $(call obj,$(UNIT_CORE))
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -Isrc -o $@ $^

$(B)/tests/test_emit: tests/unit/test_emit.c $(call obj,$(UTIL_SRC) $(IR_SRC) $(EMIT_SRC))
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) $(LLVM_CFLAGS) -Isrc -o $@ $^ $(LLVM_LIBS) -ldl -lm

# ------------------------------------------------------ JSON fuzzer
# libFuzzer over the input path (tests/fuzz-json/fuzz_json.c), built with
# clang into $(B)/fuzz-json/ with ASan+UBSan.  `make check` runs it for
# 60 s (tests/fuzz-json/run.sh); `make fuzz-json` for FUZZ_TIME seconds
# on FUZZ_JOBS processes, its corpus the repository's seeds plus the
# build's JSON.  Without clang's libFuzzer the suite says SKIP.
FUZZ_CC    ?= clang
FUZZ_TIME  ?= 3600
FUZZ_JOBS  ?= 1
FUZZ_SAN    = -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all
FUZZ_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -fno-omit-frame-pointer -MMD -MP $(FUZZ_SAN)
FZ = $(B)/fuzz-json
FUZZ_OK := $(shell printf 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }\n' | \
	$(FUZZ_CC) -fsanitize=fuzzer -x c - -o /dev/null 2>/dev/null && echo yes)
ifeq ($(FUZZ_OK),yes)
FUZZ_CHECK_DEP = $(FZ)/fuzz-json
endif
fzobj = $(patsubst %.c,$(FZ)/obj/%.o,$(1))

$(FZ)/obj/src/emit/%.o: src/emit/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(LLVM_CFLAGS) -DCUDA_HOME='"$(CUDA_HOME)"' -c $< -o $@

$(FZ)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -Isrc -DOXIDEC_VERSION='"$(VERSION)"' -c $< -o $@

FZ_OBJS = $(call fzobj,$(CORE_SRC) $(EMIT_SRC) tests/fuzz-json/fuzz_json.c tests/fuzz-json/mutate.c)
$(FZ)/fuzz-json: $(FZ_OBJS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LLVM_LIBS) $(CJSON_LIBS) -ldl -lm
# headers too: objects built against another ir.h were linked together
# (a fuzz binary that crashed on most valid inputs after Op's layout changed)
-include $(FZ_OBJS:.o=.d)

fuzz-json: $(FZ)/fuzz-json
	FUZZ_TIME=$(FUZZ_TIME) FUZZ_JOBS=$(FUZZ_JOBS) B=$(B) sh tests/fuzz-json/fuzz.sh

check: all emu $(RUNNER) $(foreach t,$(UNIT_TESTS),$(B)/tests/$(t)) $(FUZZ_CHECK_DEP)
	B=$(B) CARGO_TARGET=$(CARGO_TARGET) OXIDE_RUNNER=$(RUNNER) sh tests/run.sh

# ------------------------------------------ the registry's Rust side
# oxide-device's prims.rs and atomic.rs, written from src/ir/prims.def by
# tools/prims-gen; tests/abi fails when they are out of date.
prims:
	@mkdir -p $(B)/bin
	$(CC) -std=c11 -Wall -Wextra -Werror -o $(B)/bin/prims-gen tools/prims-gen/prims-gen.c
	$(B)/bin/prims-gen prims >tools/mir-export/oxide-device/src/prims.rs
	$(B)/bin/prims-gen atomic >tools/mir-export/oxide-device/src/atomic.rs

# ------------------------------------------------------------ pictures
# Every example's control-flow graph after each IR stage: oxidec
# --emit=dot, rendered by Graphviz's dot (make deps installs graphviz).
.PHONY: pictures oxrt
PIC_STAGES = mir ssa nvvm llir
PIC_OUT = $(B)/pictures
DOT ?= dot

pictures: $(foreach e,$(EXAMPLES),$(foreach s,$(PIC_STAGES),$(PIC_OUT)/$(e)/$(s).svg))
.SECONDARY: $(foreach e,$(EXAMPLES),$(foreach s,$(PIC_STAGES),$(PIC_OUT)/$(e)/$(s).dot))

define picture_rule
$(PIC_OUT)/$(1)/%.dot: $(EX_OUT)/$(1).mir.json $(B)/bin/oxidec
	@mkdir -p $$(@D)
	$(B)/bin/oxidec $(call example_arch,$(1)) --emit=dot --dot-stage=$$* $$< -o $$@
endef
$(foreach e,$(EXAMPLES),$(eval $(call picture_rule,$(e))))

$(PIC_OUT)/%.svg: $(PIC_OUT)/%.dot
	$(DOT) -Tsvg $< -o $@

# ------------------------------------------------------------- install
# oxrt for host programs: src/runtime/*.c as one static library.  Its
# objects are first linked into one relocatable object, so a program that
# calls any ox_* function gets all of it: an emulated module (.so) calls
# the emulator's __oxide_* functions, which the program itself never
# references and an archive of separate objects would leave out.
RT_SRC  = $(wildcard src/runtime/*.c)
RT_OBJS = $(patsubst src/runtime/%.c,$(B)/rt/%.o,$(RT_SRC))
AR     ?= ar

$(B)/rt/%.o: src/runtime/%.c
	@mkdir -p $(@D)
	$(CC) -std=c11 -ffp-contract=off -fPIC -Wall -Wextra $(CFLAGS) -MMD -MP -c $< -o $@
-include $(RT_OBJS:.o=.d)

$(B)/lib/liboxrt.a: $(RT_OBJS)
	@mkdir -p $(@D)
	$(CC) -r -nostdlib -o $(B)/rt/oxrt-all.o $(RT_OBJS)
	rm -f $@
	$(AR) rcs $@ $(B)/rt/oxrt-all.o

oxrt: $(B)/lib/liboxrt.a

# Installed oxide.mk and oxrt.pc find the prefix from where they are
# (relocatable: a DESTDIR tree works where it lies); oxrt.pc gets the
# version.
IPREFIX = $(DESTDIR)$(PREFIX)
install: all $(B)/lib/liboxrt.a
	install -d $(IPREFIX)/bin $(IPREFIX)/share/man/man1 $(IPREFIX)/share/man/man5 \
	           $(IPREFIX)/lib/pkgconfig $(IPREFIX)/include/oxide $(IPREFIX)/share/oxide
	install -m 755 $(B)/bin/oxidec $(B)/bin/mir-export $(IPREFIX)/bin/
	install -m 644 man/oxidec.1 man/mir-export.1 $(IPREFIX)/share/man/man1/
	install -m 644 man/oxide-mir.5 $(IPREFIX)/share/man/man5/
	install -m 644 $(B)/lib/liboxrt.a $(IPREFIX)/lib/
	install -m 644 src/runtime/oxrt.h $(IPREFIX)/include/oxide/
	sed 's/@VERSION@/$(VERSION)/' tools/install/oxrt.pc.in >$(IPREFIX)/lib/pkgconfig/oxrt.pc
	install -m 644 tools/install/oxide.mk $(IPREFIX)/share/oxide/
	install -d $(IPREFIX)/share/oxide/python
	install -m 644 examples/python/oxide_cupy.py $(IPREFIX)/share/oxide/python/
	for c in oxide-device oxide-macros; do \
		rm -rf $(IPREFIX)/share/oxide/$$c && install -d $(IPREFIX)/share/oxide/$$c && \
		cp -R tools/mir-export/$$c/Cargo.toml tools/mir-export/$$c/src $(IPREFIX)/share/oxide/$$c/ || exit 1; \
	done
	rm -rf $(IPREFIX)/share/oxide/oxide-host && install -d $(IPREFIX)/share/oxide/oxide-host && \
		cp -R tools/oxide-host/Cargo.toml tools/oxide-host/build.rs tools/oxide-host/src $(IPREFIX)/share/oxide/oxide-host/

# ------------------------------------------------------------ sanitize
# The whole `make check` on a clang ASan+UBSan build in its own directory;
# any report fails (-fno-sanitize-recover=all, halt_on_error).  LLVM and
# cJSON themselves are not instrumented.
SAN_B      ?= build-asan
SAN_FLAGS   = -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all -fno-omit-frame-pointer
SAN_ENV     = ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=1 \
              UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
sanitize:
	$(SAN_ENV) FUZZ_SKIP="make sanitize (the fuzzer is ASan+UBSan itself; make check runs it)" \
	$(MAKE) B=$(SAN_B) CARGO_TARGET=$(B)/cargo CC=clang CFLAGS="-g -O1 $(SAN_FLAGS)" LDFLAGS="$(SAN_FLAGS)" \
	        FUZZ_CHECK_DEP= check
