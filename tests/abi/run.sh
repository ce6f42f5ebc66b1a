#!/bin/sh
# tests/abi/run.sh: the registry of device primitives (src/ir/prims.def)
# against everything made from it, and the ABI of emulated modules
# (src/runtime/oxide_host_abi.h) against both of its sides:
#   1. oxide-device's prims.rs and atomic.rs are what tools/prims-gen
#      makes of the registry today (`make prims` writes them);
#   2. no other file of oxide-device declares an extern function: every
#      primitive a kernel can call is a registry row;
#   3. the header declares the emulator function of every registry row
#      (as the C preprocessor expands it);
#   4. every function the header declares is defined by src/runtime/ (nm of
#      the objects);
#   5. src/runtime/*.c compiles with -Wmissing-prototypes -Werror, so each
#      definition of oxemu*.c and oxmath.c has the header's declaration
#      (a conflicting one is an error anyway).
# Prints PASS/FAIL lines and "N passed, M failed"; exits 1 on a failure.
# Environment: B (the build directory, build), CC (cc).

cd "$(dirname "$0")/../.." || exit 1
CC=${CC:-cc}
OUT=${B:-build}/abi
HDR=src/runtime/oxide_host_abi.h
DEV=tools/mir-export/oxide-device/src
pass=0
fail=0

ok() { echo "PASS $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

mkdir -p "$OUT" || exit 1

# missing NAME-LIST FROM: the names of NAME-LIST that FROM lacks
missing() { comm -23 "$1" "$2" | tr '\n' ' '; }

# 1. the generated Rust
GEN="$OUT/prims-gen"
if ! $CC -std=c11 -Wall -Wextra -Werror -o "$GEN" tools/prims-gen/prims-gen.c >"$OUT/gen.log" 2>&1; then
	sed 's/^/    /' "$OUT/gen.log"
	bad "tools/prims-gen does not compile"
else
	for f in prims atomic; do
		"$GEN" "$f" >"$OUT/$f.rs"
		if cmp -s "$OUT/$f.rs" "$DEV/$f.rs"; then
			ok "$DEV/$f.rs is what tools/prims-gen makes of src/ir/prims.def"
		else
			diff -u "$DEV/$f.rs" "$OUT/$f.rs" | head -n 20 | sed 's/^/    /'
			bad "$DEV/$f.rs differs from the registry: run \`make prims\` (and never edit it by hand)"
		fi
	done
fi

# 2. no extern declarations outside prims.rs
stray=$(grep -l '^ *\(pub \)\?extern "C"' "$DEV"/*.rs | grep -v '/prims\.rs$' | tr '\n' ' ')
if [ -n "$stray" ]; then
	bad "oxide-device declares extern functions outside prims.rs (add a row to src/ir/prims.def instead): $stray"
else
	ok "oxide-device declares every primitive in prims.rs only"
fi

# 3. declared in the header: what the preprocessor makes of it
$CC -E -P "$HDR" | grep -o '\b\(__oxide_host_\|__nv_\)[a-z0-9_]* *(' | tr -d '( ' | sort -u >"$OUT/declared"
"$GEN" hosts | sort -u >"$OUT/registry"
n=$(wc -l <"$OUT/registry")
if [ "$n" -eq 0 ]; then
	bad "tools/prims-gen lists no emulator functions"
elif [ -n "$(missing "$OUT/registry" "$OUT/declared")" ]; then
	bad "$HDR does not declare: $(missing "$OUT/registry" "$OUT/declared")"
else
	ok "the $n emulator functions of the registry are declared in $HDR"
fi

# compile every runtime file: the objects give the definitions (4), the
# warnings the declarations of the definitions (5)
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
