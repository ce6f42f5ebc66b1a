#!/bin/sh
# tests/intrinsics/run.sh: every intrinsic that core can emit into kernel
# MIR is either supported or refused with a clear error naming it.
#
# The intrinsics are collected from core's source (rust-src of the rustc
# in use, else Debian's rust-web-src: library/core/src/intrinsics/mod.rs,
# each `#[rustc_intrinsic]` fn; the simd module is not for kernels). Each is
#   supported  a row of src/ir/prims.def (INTRINSIC / ATOMIC_INTRINSIC), or
#              a spelling mir-export maps to one (mapped.txt: NAME ROW);
#   exported   replaced by mir-export with rustc's own values before
#              oxidec sees them (exported.txt: NAME, the conformance
#              kernel that checks them, how; the kernel must exist);
#   lowered    replaced by rustc's own MIR passes before the MIR is printed
#              (a `sym::NAME` of compiler/rustc_mir_transform's
#              lower_intrinsics.rs, when the compiler source is there, and
#              lowered.txt);
#   refused    anything else: oxidec must refuse a call of it with
#              error[OX0200] naming `core::intrinsics::NAME`, exit status 1
#              and no output file (checked on a JSON whose one intrinsic
#              call is renamed to NAME).
# Prints each refused name, then `intrinsics: N passed, M failed`.
set -u
cd "$(dirname "$0")/../.." || exit 1
OXIDEC=${OXIDEC:-build/bin/oxidec}
RUSTC=${RUSTC:-rustc}
T=tests/intrinsics
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0

src=
for d in "$($RUSTC --print sysroot 2>/dev/null)/lib/rustlib/src/rust" /usr/src/rustc-1.96.0 /usr/src/rustc-*; do
	if [ -f "$d/library/core/src/intrinsics/mod.rs" ]; then src=$d; break; fi
done
if [ -z "$src" ]; then
	echo "intrinsics: no core source (rust-src or rust-web-src): nothing checked"
	echo "intrinsics: 0 passed, 1 failed"
	exit 1
fi
echo "intrinsics: core of $src"

# `#[rustc_intrinsic]`, then (after attributes and doc lines) `... fn NAME`
awk '/#\[rustc_intrinsic\]/ { want = 8; next }
     want > 0 { want--; if (match($0, /fn [a-z_0-9]+/)) { print substr($0, RSTART + 3, RLENGTH - 3); want = 0 } }' \
	"$src/library/core/src/intrinsics/mod.rs" | sort -u >"$TMP/all"

sed -n 's/^INTRINSIC(\([a-z_0-9]*\),.*/\1/p; s/^ATOMIC_INTRINSIC(\([a-z_0-9]*\),.*/\1/p' src/ir/prims.def | sort -u >"$TMP/rows"
grep -v '^#' $T/mapped.txt | awk 'NF { print $1 }' | sort -u >"$TMP/mapped"
{
	grep -v '^#' $T/lowered.txt | awk 'NF { print $1 }'
	f="$src/compiler/rustc_mir_transform/src/lower_intrinsics.rs"
	[ -f "$f" ] && grep -o 'sym::[a-z_0-9]*' "$f" | sed 's/sym:://'
} | sort -u >"$TMP/lowered"

grep -v '^#' $T/exported.txt | awk 'NF { print $1 }' | sort -u >"$TMP/exported"
# every exported name's conformance kernel must exist
grep -v '^#' $T/exported.txt | awk 'NF { print $1, $2 }' | while read -r name kernel; do
	grep -qs "pub fn $kernel(" tests/conformance/kernels/*/src/lib.rs || echo "$name ($kernel)"
done >"$TMP/badexp"
if [ -s "$TMP/badexp" ]; then
	fail=$((fail + 1)); echo "FAIL exported.txt names kernels the conformance suite lacks: $(tr '\n' ' ' <"$TMP/badexp")"
else
	pass=$((pass + 1))
fi

# every mapped name must reach a real row
grep -v '^#' $T/mapped.txt | awk 'NF { print $2 }' | sort -u | while read -r row; do
	grep -qx "$row" "$TMP/rows" || echo "$row"
done >"$TMP/badmap"
if [ -s "$TMP/badmap" ]; then
	fail=$((fail + 1)); echo "FAIL mapped.txt names rows prims.def lacks: $(tr '\n' ' ' <"$TMP/badmap")"
else
	pass=$((pass + 1))
fi

# the template: a kernel whose one intrinsic call is `copysign`
tmpl=tests/golden/bad_intrinsic_arity.mir.json
nsup=0 nexp=0 nlow=0 nref=0 nwide=0
while read -r full; do
	# as mir-export (callee.rs canonical_intrinsic): a float type suffix
	# becomes the generic argument (`sqrtf32` is `sqrt` of f32)
	name=$(echo "$full" | sed -E 's/_?(f16|f32|f64|f128)$//')
	case $full in *f16|*f128) [ "$name" != "$full" ] && { nwide=$((nwide + 1)); continue; } ;; esac
	if grep -qx "$name" "$TMP/rows" || grep -qx "$name" "$TMP/mapped"; then
		nsup=$((nsup + 1)); continue
	fi
	if grep -qx "$name" "$TMP/exported"; then
		nexp=$((nexp + 1)); continue
	fi
	if grep -qx "$full" "$TMP/lowered"; then
		nlow=$((nlow + 1)); continue
	fi
	nref=$((nref + 1))
	sed "s/\"kind\": \"intrinsic\", \"name\": \"copysign\"/\"kind\": \"intrinsic\", \"name\": \"$name\"/" "$tmpl" >"$TMP/k.json"
	"$OXIDEC" "$TMP/k.json" -o "$TMP/k.ptx" 2>"$TMP/err"
	rc=$?
	if [ $rc -eq 1 ] && [ ! -e "$TMP/k.ptx" ] && grep -qF 'error[OX0200]' "$TMP/err" &&
	   grep -qF "intrinsic \`core::intrinsics::$name\` is not supported by oxidec yet" "$TMP/err"; then
		pass=$((pass + 1)); echo "refused $full"
	else
		fail=$((fail + 1)); echo "FAIL $full: exit $rc: $(head -c 300 "$TMP/err")"
	fi
	rm -f "$TMP/k.ptx"
done <"$TMP/all"
echo "intrinsics: $nwide f16/f128 variants of float intrinsics not checked (oxidec has no f16/f128 arithmetic)"
echo "intrinsics: $(wc -l <"$TMP/all") in core: $nsup supported, $nexp replaced by mir-export, $nlow lowered by rustc, $nref refused, $nwide f16/f128"
echo "intrinsics: $pass passed, $fail failed"
[ $fail -eq 0 ]
