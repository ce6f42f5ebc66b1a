#!/bin/sh
# tests/python/run.sh: the Python wrapper (examples/python/oxide_cupy.py)
# without a GPU: test_marshal.py packs arguments for the golden signatures
# (tests/golden/*.sig.json) through a stand-in for cupy.RawModule and checks
# them byte for byte; ends with "python: N passed, M failed". Needs a
# python3 with numpy (make deps installs python3-numpy): PYTHON, else the
# first of python3 and /usr/bin/python3 that imports numpy; none is a
# failure, not a skip.
cd "$(dirname "$0")" || exit 1
for py in ${PYTHON:-} python3 /usr/bin/python3; do
	if "$py" -c 'import numpy' >/dev/null 2>&1; then
		exec "$py" test_marshal.py
	fi
done
echo "FAIL no python3 with numpy (make deps installs python3-numpy; or set PYTHON)"
echo "python: 0 passed, 1 failed"
exit 1
