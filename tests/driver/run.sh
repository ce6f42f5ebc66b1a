#!/bin/sh
# tests/driver/run.sh: oxrt's CUDA driver backend (src/runtime/oxcuda.c)
# on a machine without a GPU: builds tests/driver/fake_libcuda.c as
# libcuda.so.1 into build/driver/, and tests/driver/test_driver.c with the
# runtime (the source list of tests/gpu/gpu-check.sh), then runs the test
# with that directory first in LD_LIBRARY_PATH.
# Prints PASS/FAIL lines and "N passed, M failed"; exits 1 on a failure.
# Environment: B (the build directory, build), CC (cc), CFLAGS (-O2).

cd "$(dirname "$0")/../.." || exit 1
CC=${CC:-cc}
CFLAGS=${CFLAGS:--O2}
OUT=${B:-build}/driver
case $OUT in /*) ;; *) OUT=$(pwd)/$OUT ;; esac

mkdir -p "$OUT" || exit 1
printf '// a module the stand-in driver accepts\n' >"$OUT/good.ptx"
printf '// a bad module\n' >"$OUT/bad.ptx"
: >"$OUT/emulated.so"
# shellcheck disable=SC2086 # CFLAGS splits on purpose
if ! cc -std=c11 -O2 -Wall -Wextra -shared -fPIC -o "$OUT/libcuda.so.1" \
	tests/driver/fake_libcuda.c >"$OUT/build.log" 2>&1 ||
   ! $CC $CFLAGS -std=c11 -Wall -Wextra -o "$OUT/test_driver" tests/driver/test_driver.c \
	src/runtime/oxrt.c src/runtime/oxcuda.c src/runtime/oxemu*.c -ldl -lm >>"$OUT/build.log" 2>&1; then
	echo "FAIL building the driver test"
	sed 's/^/    /' "$OUT/build.log"
	echo "0 passed, 1 failed"
	exit 1
fi
LD_LIBRARY_PATH="$OUT${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
	"$OUT/test_driver" "$OUT/good.ptx" "$OUT/bad.ptx" "$OUT/emulated.so" >"$OUT/test.log" 2>&1
rc=$?
cat "$OUT/test.log"
pass=$(grep -c '^PASS ' "$OUT/test.log")
fail=$(grep -c '^FAIL ' "$OUT/test.log")
if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
	echo "FAIL test_driver: exit status $rc"
	fail=1
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
