#!/bin/sh
# tests/gpu/hazards/build.sh: builds the ptxas hazard probe (README) into
# build/gpu-hazards/ (needs python3, llc-22, ptxas and oxidec's objects
# (make); no GPU).  Carry that
# folder to the GPU machine and run  sh build/gpu-hazards/run.sh  there.
set -eu
cd "$(dirname "$0")"
OUT=${OUT:-../../../build/gpu-hazards}
LLC=${LLC:-$(command -v llc-22 || echo /usr/lib/llvm-22/bin/llc)}
PTXAS=${PTXAS:-${CUDA_HOME:-/usr/local/cuda}/bin/ptxas}
OBJ=../../../build/obj/src
mkdir -p "$OUT"
python3 gen.py "$OUT"
# oxidec's PTX rewrite as a filter: the "fix" variants are LLVM's PTX after it
${CC:-cc} -std=c11 -O2 fixptx.c "$OBJ/emit/ptxfix.o" "$OBJ/emit/ptxcalls.o" "$OBJ/util.o" -o "$OUT/fixptx"
# ptxas crashes (crash_*.ptx, each says its pattern): raw, ptxas -O3 must
# still die of a signal (else this ptxas is fixed: say so), and after the
# rewrites it must assemble
for c in crash_*.ptx; do
	"$OUT/fixptx" "$c" "$OUT/${c%.ptx}.fix.ptx"
	if "$PTXAS" -arch=sm_90 -O3 "$c" -o /dev/null 2>/dev/null; then
		echo "$c: ptxas -O3 no longer crashes on it (a fixed ptxas: the rewrite may go)"
	elif [ $? -le 128 ]; then
		echo "$c: ptxas -O3 rejects it without crashing" >&2; exit 1
	fi
	"$PTXAS" -arch=sm_90 -O3 "$OUT/${c%.ptx}.fix.ptx" -o /dev/null ||
		{ echo "$c: ptxas -O3 fails on it after oxidec's rewrites" >&2; exit 1; }
	echo "$c: crashes ptxas raw, assembles after the rewrites"
done
for o in 0 3; do
	"$LLC" -march=nvptx64 -mcpu=sm_90 -O$o "$OUT/probes.ll" -o "$OUT/llc$o.ptx"
	"$OUT/fixptx" "$OUT/llc$o.ptx" "$OUT/llc${o}fix.ptx"
	for v in llc$o llc${o}fix; do
		for p in 0 3; do "$PTXAS" -arch=sm_90 -O$p "$OUT/$v.ptx" -o "$OUT/$v-ptxas$p.cubin"; done
	done
done
rm -f "$OUT/fixptx"
cp host.c run.sh known.txt "$OUT/"
echo "built $OUT: run  sh $OUT/run.sh  on the GPU machine"
