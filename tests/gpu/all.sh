#!/bin/sh
# tests/gpu/all.sh (make gpu-all): the whole GPU check in one run, on a GPU
# machine that has this tree and the artifacts built by `make gpu-pack`
# (no Rust or LLVM needed there): build/gpu-pack/*.tar.xz are unpacked
# into build/ first (or build/examples, build/conformance, build/fuzzgpu
# are used as they are; runner.tar.xz brings build/gpu-bin/oxide-runner,
# the conformance runner that run-gpu.sh runs). Then:
#   1. tests/gpu/gpu-check.sh       every example from .ptx and .cubin
#   2. tests/gpu/sanitize.sh        compute-sanitizer memcheck, racecheck,
#                                   synccheck on every example
#   3. tests/conformance/run-gpu.sh the conformance suite, sweep group
#                                   included, at each GPU variant (O3/ptx,
#                                   O3/cubin, O0/ptx, O0/cubin), each line
#                                   compared with rustc's CPU results;
#                                   then (part crates) the kernels over
#                                   Debian's crates, tests/crates, from
#                                   crates.tar.xz (CONF_SUITE=tests/crates)
#   4. the same runner on the generated kernels of build/fuzzgpu
#      (tests/fuzz/run.sh --gpu-artifacts), every variant, and of
#      build/fuzz2000 when build/gpu-pack/fuzz2000.tar.xz brought it
#      (part fuzz2000; docs/conformance.md)
#   5. the ptxas hazard probe (tests/gpu/hazards, packed by gpu-pack):
#      fails on a hazard not in its known.txt, or a known one not seen
#   6. tests/gpu/half: all 2^32 f32 values through the bf16 / f16 (and,
#      in pairs, fp8 / bf16x2 / f16x2) conversions, all 2^16 f16 values and
#      fp8 pairs back, 2^26 random triples through the half arithmetic,
#      against the emulator
#   7. tests/gpu/prims: every tensor-core and async-copy primitive (mma
#      bf16 / f16 / tf32 / s8 / u8, ldmatrix, stmatrix, cp.async, mbarrier
#      with the bulk copy, elect.sync) on the GPU against the emulated
#      module, then every f32 through cvt.rna.tf32.f32
#   8. tests/gpu/tma-rules: the TMA rules the emulator enforces (box x at
#      a multiple of 16 bytes, stores not below 0), measured again on
#      examples/tma_copy and its nvcc twin
#   9. tests/gpu/lineinfo: compute-sanitizer memcheck on a raw-pointer
#      store past the end of a buffer names its Rust line (PTX and cubin)
#      and (part cudagdb, tests/gpu/lineinfo/cudagdb.sh) cuda-gdb on the
#      -g cubin stops at that line and names the kernel's arguments
#  10. tests/gpu/python: the examples from Python (examples/python/
#      oxide_cupy.py, cupy.RawModule + oxidec --emit=signature) on CuPy
#      arrays and torch tensors against NumPy, from cubin and from PTX
#  11. tests/gpu/host-rs.sh: the Rust hosts of examples/{vecadd,saxpy,grid_sync}
#      (tools/oxide-host, prebuilt by gpu-pack: build/gpu-host-rs) on
#      their embedded PTX and on build/examples/NAME.cubin
#  12. tests/gpu/nccl.sh: examples/multi_device's job over every GPU,
#      combined by NCCL's all-reduce (examples/multi_device/nccl.c)
#  13. tests/gpu/cas.sh: contended CAS loops and fetch_adds on one
#      counter (examples/cas_contention) and examples/histogram at up to
#      1056 blocks, every count checked, timed against nvcc's twins
#      (bench/cas), under a watchdog
# Each part's log is in build/gpu-all/; the summary lines come last
# (per variant: "conformance-gpu[O3/ptx]: N passed, M failed").
# Exit status 1 when any part failed. Environment: JOBS (parallel harness
# runs, default: CPUs), PARTS (default "examples sanitizer conformance crates
# fuzz fuzz2000 hazards half prims tma-rules lineinfo cudagdb python host-rs
# nccl cas").
cd "$(dirname "$0")/../.." || exit 1
L=build/gpu-all
PARTS=${PARTS:-examples sanitizer conformance crates fuzz fuzz2000 hazards half prims tma-rules lineinfo cudagdb python host-rs nccl cas}
mkdir -p "$L"
status=0
for p in build/gpu-pack/*.tar.xz; do
	[ -f "$p" ] || continue
	echo "unpacking $p"
	tar -xJf "$p" || status=1
done
part() {   # name command...
	name=$1; shift
	case " $PARTS " in *" $name "*) ;; *) return 0 ;; esac
	echo "==== $name"
	t0=$(date +%s)
	"$@" >"$L/$name.log" 2>&1 || status=1
	grep -E "^(FAIL|PASS .*(trap|assert|refused))" "$L/$name.log" | head -n 60
	sums=$(grep -E '^conformance-gpu\[' "$L/$name.log")
	[ -n "$sums" ] && echo "$sums" | sed "s/^/$name: /" >>"$L/summary"
	echo "$name: $(tail -n 1 "$L/$name.log") [$(($(date +%s) - t0)) s]" | tee -a "$L/summary"
}
: >"$L/summary"
part examples sh tests/gpu/gpu-check.sh
part sanitizer sh tests/gpu/sanitize.sh
if ls build/conformance/*.expected >/dev/null 2>&1; then
	part conformance sh tests/conformance/run-gpu.sh
fi
# the kernels over Debian's crates (tests/crates; crates.tar.xz)
if ls build/crates/*.expected >/dev/null 2>&1; then
	part crates env CONF_SUITE=tests/crates CONF_BUILD=build/crates sh tests/conformance/run-gpu.sh
fi
# generated kernels: the sample of make gpu-pack (build/fuzzgpu) and a
# larger run packed as build/gpu-pack/fuzz2000.tar.xz (build/fuzz2000)
for d in build/fuzzgpu build/fuzz2000; do
	ls "$d"/*.expected >/dev/null 2>&1 || continue
	groups=$(cd "$d" && ls ./*.kernels | sed 's#^\./##; s#\.kernels$##' | tr '\n' ' ')
	name=fuzz
	[ "$d" = build/fuzzgpu ] || name=${d#build/}
	# shellcheck disable=SC2086 # a list of groups
	part "$name" env CONF_BUILD="$d" sh tests/conformance/run-gpu.sh $groups
done
if [ -f build/gpu-hazards/host.c ]; then
	part hazards sh build/gpu-hazards/run.sh
fi
if [ -f build/gpu-half/half.cubin ]; then
	part half sh tests/gpu/half/run.sh
fi
if [ -f build/gpu-prims/prims.cubin ]; then
	part prims sh tests/gpu/prims/run.sh
fi
if [ -f build/examples/tma_copy.cubin ]; then
	part tma-rules sh tests/gpu/tma-rules/run.sh
fi
if [ -f build/gpu-lineinfo/lineinfo.cubin ]; then
	part lineinfo sh tests/gpu/lineinfo/run.sh
fi
if [ -f build/gpu-lineinfo/lineinfo.g.cubin ]; then
	part cudagdb sh tests/gpu/lineinfo/cudagdb.sh
fi
if [ -f build/examples/vecadd.sig.json ]; then
	part python sh tests/gpu/python/run.sh
fi
if [ -d build/gpu-host-rs ]; then
	part host-rs sh tests/gpu/host-rs.sh
fi
if [ -f build/examples/multi_device.h ]; then
	part nccl sh tests/gpu/nccl.sh
fi
if [ -f build/examples/cas_contention.ptx ]; then
	part cas sh tests/gpu/cas.sh
fi
echo
echo "==== summary"
cat "$L/summary"
exit $status
