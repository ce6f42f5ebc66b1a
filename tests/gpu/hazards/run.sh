#!/bin/sh
# run.sh (copied into build/gpu-hazards/ by build.sh): on the GPU machine,
# compiles host.c against the CUDA driver, runs every probe on every
# variant, writes results.txt, and the SASS of each unexpectedly failing
# probe (when cuobjdump is there) to sass.txt.  Exit 1 when a probe failed
# other than known.txt says.
set -u
cd "$(dirname "$0")"
CUDA=${CUDA_HOME:-/usr/local/cuda}
cc -std=c11 -O2 -I"$CUDA/include" host.c -o probe -L"$CUDA/lib64" -L"$CUDA/lib64/stubs" -lcuda -lm || exit 2
./probe . | tee results.txt
rc=$?
OBJ=$(command -v cuobjdump || echo "$CUDA/bin/cuobjdump")
: >sass.txt
if [ -x "$OBJ" ]; then
	for k in $(awk '$1 == "FAIL" { print $2 }' results.txt); do
		for c in llc3-ptxas3 llc3fix-ptxas3 llc3-ptxas0; do
			echo "=== $k $c" >>sass.txt
			"$OBJ" -sass -fun "$k" "$c.cubin" 2>&1 | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed 's@ */\* 0x[0-9a-f]* \*/@@' >>sass.txt
		done
	done
fi
exit $rc
