#!/bin/sh
# tests/gpu/pack.sh (make gpu-pack): builds here everything `make gpu-all`
# runs on a GPU machine that has no Rust or LLVM, and packs it into
# build/gpu-pack/ (xz; carry that directory with the tree: the GPU
# machine's copy is limited to 64 MiB in all):
#   examples.tar.xz     build/examples/*.ptx *.cubin *.h *.sig.json (make examples;
#                       the signatures: tests/gpu/python)
#   hazards.tar.xz      build/gpu-hazards (make gpu-hazards: the ptxas probe)
#   half.tar.xz         build/gpu-half (make gpu-half: every f32 through the
#                       half-precision and fp8 conversions, random triples
#                       through the half arithmetic, against the emulator)
#   prims.tar.xz        build/gpu-prims (make gpu-prims: the tensor-core and
#                       async-copy primitives, GPU cubin and emulated .o)
#   lineinfo.tar.xz     build/gpu-lineinfo (make gpu-lineinfo: an out-of-bounds
#                       raw-pointer store for compute-sanitizer, PTX and cubin)
#   host-rs.tar.xz      build/host-rs/release/{vecadd,saxpy,grid_sync}-host (make host-rs:
#                       the Rust hosts, PTX embedded) as build/gpu-host-rs/
#   conformance.tar.xz  tests/conformance/build-gpu.sh: every group, sweep
#                       included, at O3/ptx O3/cubin O0/ptx O0/cubin
#   runner.tar.xz       the built oxide-runner, which run-gpu.sh runs there
#                       (the GPU machine has no Rust): unpacked as
#                       build/gpu-bin/oxide-runner (OXIDE_RUNNER, default:
#                       built here as tests/conformance/lib.sh says)
#   fuzz.tar.xz         a sample of generated kernels (tests/fuzz/run.sh
#                       --gpu-artifacts into build/fuzzgpu), the same
#                       variants: FUZZ_SEEDS kernels (default 200) from
#                       FUZZ_START (default 3000000), 100 to a crate
# Prints each file's size and the total; exit status 1 when a step failed
# (a kernel that does not compile is reported by its step and left out).
cd "$(dirname "$0")/../.." || exit 1
P=build/gpu-pack
FUZZ_SEEDS=${FUZZ_SEEDS:-200}
FUZZ_START=${FUZZ_START:-3000000}
status=0
mkdir -p "$P"
rm -f "$P"/*.tar.xz
ls build/examples/*.ptx >/dev/null 2>&1 || { echo "pack: build/examples is missing: run make examples" >&2; exit 1; }
tar -cJf "$P/examples.tar.xz" build/examples/*.ptx build/examples/*.cubin build/examples/*.h \
	build/examples/*.sig.json || status=1
[ -f build/gpu-hazards/host.c ] && { tar -cJf "$P/hazards.tar.xz" build/gpu-hazards || status=1; }
[ -f build/gpu-half/half.cubin ] && { tar -cJf "$P/half.tar.xz" build/gpu-half/half.* || status=1; }
[ -f build/gpu-prims/prims.cubin ] && { tar -cJf "$P/prims.tar.xz" build/gpu-prims/prims.cubin build/gpu-prims/prims.o || status=1; }
[ -f build/gpu-lineinfo/lineinfo.cubin ] && { tar -cJf "$P/lineinfo.tar.xz" build/gpu-lineinfo/lineinfo.ptx build/gpu-lineinfo/lineinfo.cubin \
	build/gpu-lineinfo/lineinfo.g.cubin || status=1; }
if [ -x build/host-rs/release/vecadd-host ] && [ -x build/host-rs/release/saxpy-host ] &&
   [ -x build/host-rs/release/grid_sync-host ]; then
	rm -rf build/gpu-host-rs && mkdir -p build/gpu-host-rs &&
		cp build/host-rs/release/vecadd-host build/host-rs/release/saxpy-host build/host-rs/release/grid_sync-host \
		   build/gpu-host-rs/ &&
		tar -cJf "$P/host-rs.tar.xz" build/gpu-host-rs || status=1
fi
# CONF_BUILD / CONF_WORK may keep this apart from make check's directories
sh tests/conformance/build-gpu.sh >build/gpu-pack.conformance.log 2>&1 || status=1
tail -n 7 build/gpu-pack.conformance.log
# the kernels over Debian's crates (tests/crates), packed as crates.tar.xz
CONF_SUITE=tests/crates CONF_BUILD=build/crates-gpu CONF_WORK=build/crates-work \
	sh tests/conformance/build-gpu.sh >build/gpu-pack.crates.log 2>&1 || status=1
tail -n 3 build/gpu-pack.crates.log
# the runner of run-gpu.sh, built on this machine's glibc (Debian 12) for
# the GPU machine's (a newer one)
R=$(. tests/conformance/lib.sh && echo "$OXIDE_RUNNER") &&
	tar -cJf "$P/runner.tar.xz" -C "$(dirname "$R")" --transform 's#.*#build/gpu-bin/oxide-runner#' "$(basename "$R")" ||
	status=1
FUZZ_DIR=build/fuzzgpu sh tests/fuzz/run.sh --seeds "$FUZZ_SEEDS" --start "$FUZZ_START" --per-crate 100 \
	--gaps-ok --gpu-artifacts >build/gpu-pack.fuzz.log 2>&1 || status=1
grep -E '^fuzz: [0-9]+ passed' build/gpu-pack.fuzz.log
if [ -f build/fuzzgpu/gpu-pack.tar.xz ]; then
	mv build/fuzzgpu/gpu-pack.tar.xz "$P/fuzz.tar.xz"
else
	echo "pack: no fuzz artifacts (see build/gpu-pack.fuzz.log)"
	status=1
fi
echo
du -k "$P"/*.tar.xz
echo "pack: $(du -ck "$P"/*.tar.xz | tail -n 1 | cut -f1) KiB in $P; on the GPU machine, with the tree and $P: make gpu-all"
exit $status
