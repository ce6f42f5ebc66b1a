#!/bin/sh
# tests/gpu/python/run.sh (make gpu-all, part python): oxidec kernels from
# Python on the GPU, through examples/python/oxide_cupy.py and cupy.RawModule,
# on CuPy arrays and PyTorch CUDA tensors, each result compared with NumPy
# bit for bit (examples/python/run_examples.py), once from the .cubin files
# and once from the .ptx files (the driver's JIT). Needs build/examples/
# NAME.{cubin,ptx,sig.json} (make examples here; make gpu-pack packs them in
# examples.tar.xz) and a python3 with cupy, torch and numpy (PYTHON, default
# python3). Ends with "python-gpu: N passed, M failed", the two runs'
# totals; exit status 1 on any failure.
cd "$(dirname "$0")/../../.." || exit 1
PY=${PYTHON:-python3}
for f in vecadd saxpy generic_axpy reduce_shared grid_sync scale2d histogram; do
	[ -f "build/examples/$f.sig.json" ] || { echo "FAIL build/examples/$f.sig.json missing (make examples, or make gpu-pack and unpack examples.tar.xz)"; echo "python-gpu: 0 passed, 1 failed"; exit 1; }
done
pass=0 fail=0 status=0
for mode in "" --ptx; do
	out=$("$PY" examples/python/run_examples.py --dir build/examples $mode 2>&1) || status=1
	echo "$out"
	line=$(echo "$out" | grep -E '^python-gpu: [0-9]+ passed, [0-9]+ failed' | tail -n 1)
	if [ -z "$line" ]; then fail=$((fail + 1)); status=1; continue; fi
	pass=$((pass + $(echo "$line" | sed 's/.*: \([0-9]*\) passed.*/\1/')))
	fail=$((fail + $(echo "$line" | sed 's/.* \([0-9]*\) failed.*/\1/')))
done
[ $status -ne 0 ] && [ $fail -eq 0 ] && fail=1
echo "python-gpu: $pass passed, $fail failed"
exit $status
