# oxide.mk: make rules for Rust GPU kernels built with oxidec, installed
# by oxidec's `make install` as PREFIX/share/oxide/oxide.mk.  A project's
# Makefile includes it (nothing else of oxidec's source tree is needed):
#
#   include /usr/local/share/oxide/oxide.mk
#   OXRT_CFLAGS := $(shell pkg-config --cflags oxrt)
#   OXRT_LIBS   := $(shell pkg-config --libs oxrt)
#   all: kernels.ptx kernels.so host
#   host: host.c
#   	$(CC) $(OXRT_CFLAGS) -o $@ host.c $(OXRT_LIBS)
#
# Rules (NAME is any file name):
#   NAME.mir.json  from the kernel crate in directory NAME/ (NAME/Cargo.toml,
#                  its dependency oxide-device = { path = "PREFIX/share/oxide/
#                  oxide-device" }), or from the single file NAME.rs
#                  (mir-export; cargo runs offline)
#   NAME.ptx       PTX for $(ARCH)          (oxidec --arch=$(ARCH))
#   NAME.cubin     cubin for $(ARCH)        (needs the CUDA toolkit's nvJitLink)
#   NAME.host.o    the kernels for this CPU (oxidec --target=host)
#   NAME.so        NAME.host.o linked for the emulator: ox_module_load runs it
#                  without a GPU (the program linked with -rdynamic, which
#                  pkg-config --libs oxrt gives)
#   NAME.dot       the control-flow graph of stage $(DOT_STAGE) (oxidec --emit=dot)
#   NAME.svg       NAME.dot drawn by Graphviz's dot
#   NAME.h         typed C launchers of the kernels (oxidec --emit=header;
#                  it includes "oxrt.h", which pkg-config --cflags oxrt finds)
#   NAME.sig.json  the kernels' signature for other languages (oxidec
#                  --emit=signature; PREFIX/share/oxide/python/oxide_cupy.py
#                  launches NAME.cubin with it through CuPy)
# NAME.mir.json and NAME.host.o are kept (.PRECIOUS) though intermediate.
#
# Variables (set them before or after the include, or on make's command line):
#   OXIDE_PREFIX      the installation (default: two levels above this file)
#   OXIDEC MIR_EXPORT the tools (default: OXIDE_PREFIX/bin/...)
#   OXIDE_DEVICE_DIR  oxide-device for NAME.rs (exported to mir-export)
#   ARCH              GPU architecture for .ptx .cubin .dot (default sm_90)
#   OXIDEC_FLAGS      more oxidec options for every rule (-O2, -g, -g0 ...;
#                     not --arch: it belongs to ARCH, and the host rule
#                     takes none)
#   MIR_EXPORT_FLAGS  more mir-export options (--keep-going ...)
#   DOT_STAGE DOT     the stage NAME.dot draws (mir ssa nvvm llir; default mir),
#                     Graphviz's dot
# Paths with spaces are not supported.  This file uses .SECONDEXPANSION (a
# crate's NAME.mir.json depends on every NAME/src/**.rs).

ifndef OXIDE_PREFIX
OXIDE_PREFIX := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))../..)
endif
OXIDEC           ?= $(OXIDE_PREFIX)/bin/oxidec
MIR_EXPORT       ?= $(OXIDE_PREFIX)/bin/mir-export
OXIDE_DEVICE_DIR ?= $(OXIDE_PREFIX)/share/oxide/oxide-device
export OXIDE_DEVICE_DIR
ARCH             ?= sm_90
OXIDEC_FLAGS     ?=
MIR_EXPORT_FLAGS ?=
DOT_STAGE        ?= mir
DOT              ?= dot

.SECONDEXPANSION:
.PRECIOUS: %.mir.json %.host.o

%.mir.json: %/Cargo.toml $$(shell find $$*/src -name '*.rs' 2>/dev/null) $(wildcard $(MIR_EXPORT))
	$(MIR_EXPORT) $(MIR_EXPORT_FLAGS) $* -o $@

%.mir.json: %.rs $(wildcard $(MIR_EXPORT))
	$(MIR_EXPORT) $(MIR_EXPORT_FLAGS) $< -o $@

%.ptx: %.mir.json $(wildcard $(OXIDEC))
	$(OXIDEC) --arch=$(ARCH) $(OXIDEC_FLAGS) $< -o $@

%.cubin: %.mir.json $(wildcard $(OXIDEC))
	$(OXIDEC) --arch=$(ARCH) $(OXIDEC_FLAGS) $< -o $@

%.host.o: %.mir.json $(wildcard $(OXIDEC))
	$(OXIDEC) --target=host $(OXIDEC_FLAGS) $< -o $@

%.so: %.host.o
	$(CC) -shared -o $@ $< -lm

%.h: %.mir.json $(wildcard $(OXIDEC))
	$(OXIDEC) --arch=$(ARCH) --emit=header $(OXIDEC_FLAGS) $< -o $@

%.sig.json: %.mir.json $(wildcard $(OXIDEC))
	$(OXIDEC) --arch=$(ARCH) --emit=signature $(OXIDEC_FLAGS) $< -o $@

%.dot: %.mir.json $(wildcard $(OXIDEC))
	$(OXIDEC) --arch=$(ARCH) --emit=dot --dot-stage=$(DOT_STAGE) $(OXIDEC_FLAGS) $< -o $@

%.svg: %.dot
	$(DOT) -Tsvg $< -o $@
