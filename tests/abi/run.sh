#!/bin/sh
# tests/abi/run.sh: the ABI of emulated modules (src/runtime/oxide_host_abi.h)
# against both of its sides, by name:
#   1. every __oxide_host_* function src/passes emits a call of (its string
#      literals, and the nvvm.prim table's __oxide_X rows, which the host
#      target calls as __oxide_host_X) is declared in the header;
#   2. every __nv_* function oxide_device::math declares (math.rs) is too;
#   3. every function the header declares is defined by src/runtime/ (nm of
#      the objects);
#   4. src/runtime/*.c compiles with -Wmissing-prototypes -Werror, so each
#      definition of oxemu.c and oxmath.c has the header's declaration
#      (a conflicting one is an error anyway).
# Prints PASS/FAIL lines and "N passed, M failed"; exits 1 on a failure.
# Environment: B (the build directory, build), CC (cc).

cd "$(dirname "$0")/../.." || exit 1
CC=${CC:-cc}
OUT=${B:-build}/abi
HDR=src/runtime/oxide_host_abi.h
pass=0
fail=0

ok() { echo "PASS $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

mkdir -p "$OUT" || exit 1

# declared in the header: names followed by "("
grep -o '\b\(__oxide_host_\|__nv_\)[a-z0-9_]*(' "$HDR" | tr -d '(' | sort -u >"$OUT/declared"

# emitted by src/passes
{
	cat src/passes/*.[ch] | grep -o '"__oxide_host_[a-z0-9_]*"' | tr -d '"'
	cat src/passes/*.[ch] | grep -o '{ *"__oxide_[a-z0-9_]*", *PK_' |
		sed 's/^{ *"__oxide_\([a-z0-9_]*\)".*/__oxide_host_\1/'
} | sort -u >"$OUT/emitted"
nprim=$(cat src/passes/*.[ch] | grep -c '{ *"__oxide_[a-z0-9_]*", *PK_')

# declared by oxide_device::math
grep -o 'fn __nv_[a-z0-9_]*' tools/mir-export/oxide-device/src/math.rs |
	sed 's/^fn //' | sort -u >"$OUT/math"

# missing NAME-LIST FROM: the names of NAME-LIST that FROM lacks
missing() { comm -23 "$1" "$2" | tr '\n' ' '; }

n=$(wc -l <"$OUT/emitted")
if [ "$nprim" -eq 0 ]; then
	bad "src/passes: no nvvm.prim table rows ({ \"__oxide_X\", PK_...) found: update tests/abi/run.sh to read the table where it is now"
elif [ -n "$(missing "$OUT/emitted" "$OUT/declared")" ]; then
	bad "src/passes emits calls of functions $HDR does not declare: $(missing "$OUT/emitted" "$OUT/declared")"
else
	ok "the $n __oxide_host_* functions src/passes emits are declared in $HDR"
fi

n=$(wc -l <"$OUT/math")
if [ "$n" -eq 0 ]; then
	bad "no __nv_* function found in tools/mir-export/oxide-device/src/math.rs"
elif [ -n "$(missing "$OUT/math" "$OUT/declared")" ]; then
	bad "oxide_device::math declares functions $HDR does not: $(missing "$OUT/math" "$OUT/declared")"
else
	ok "the $n __nv_* functions of oxide_device::math are declared in $HDR"
fi

# compile every runtime file: the objects give the definitions (3), the
# warnings the declarations of the definitions (4)
warn="-Wall -Wextra -Wpedantic -Wshadow -Wmissing-prototypes -Wstrict-prototypes -Werror"
built=1
: >"$OUT/build.log"
for src in src/runtime/*.c; do
	obj="$OUT/$(basename "$src" .c).o"
	# shellcheck disable=SC2086 # warn splits on purpose
	if ! $CC -std=c11 -D_POSIX_C_SOURCE=200809L $warn -c "$src" -o "$obj" >>"$OUT/build.log" 2>&1; then
		built=0
		bad "$src does not compile with -Wmissing-prototypes -Werror (a definition without its declaration?)"
	fi
done
if [ "$built" -eq 1 ]; then
	ok "src/runtime/*.c compiles with -Wmissing-prototypes -Werror: every definition is checked against a declaration"
	nm -g --defined-only "$OUT"/*.o | awk 'NF == 3 { print $3 }' | sort -u >"$OUT/defined"
	n=$(wc -l <"$OUT/declared")
	if [ -n "$(missing "$OUT/declared" "$OUT/defined")" ]; then
		bad "$HDR declares functions src/runtime/ does not define: $(missing "$OUT/declared" "$OUT/defined")"
	else
		ok "the $n functions $HDR declares are defined by src/runtime/"
	fi
else
	sed 's/^/    /' "$OUT/build.log"
	bad "the definitions could not be checked (src/runtime/ did not compile)"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
