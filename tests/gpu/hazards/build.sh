#!/bin/sh
# tests/gpu/hazards/build.sh: builds the ptxas hazard probe (README) into
# build/gpu-hazards/ (needs python3, llc-22, ptxas; no GPU).  Carry that
# folder to the GPU machine and run  sh build/gpu-hazards/run.sh  there.
set -eu
cd "$(dirname "$0")"
OUT=${OUT:-../../../build/gpu-hazards}
LLC=${LLC:-$(command -v llc-22 || echo /usr/lib/llvm-22/bin/llc)}
PTXAS=${PTXAS:-${CUDA_HOME:-/usr/local/cuda}/bin/ptxas}
mkdir -p "$OUT"
python3 gen.py "$OUT"
for o in 0 3; do
	"$LLC" -march=nvptx64 -mcpu=sm_90 -O$o "$OUT/probes.ll" -o "$OUT/llc$o.ptx"
	for p in 0 3; do "$PTXAS" -arch=sm_90 -O$p "$OUT/llc$o.ptx" -o "$OUT/llc$o-ptxas$p.cubin"; done
done
cp host.c run.sh "$OUT/"
echo "built $OUT: run  sh $OUT/run.sh  on the GPU machine"
