#!/bin/sh
# Exporter tests: mir-export's own cargo tests, then every example's Rust
# source -> oxide-mir JSON -> PTX (validated by ptxas) with the default
# rustc (the one on PATH), then each other installed toolchain mir-export
# knows (Debian rustc-web 1.96 as /usr/bin/rustc, rustup's nightly 1.97;
# absent ones are skipped, saying so): the sampled examples ($SAMPLE) to
# PTX and, where they have a host program, run under emulation; and the
# conformance groups $CONF_SAMPLE through that rustc, checked against the
# default rustc's CPU results (docs/rustc-releases.md). An example whose
# Cargo.toml says rustc = "with-library-sources" (print_rust) goes through
# every rustc: exported and emulated where the rustc has its library
# sources, refused with gpu_print!'s error where it has not.
# Environment: B, PTXAS, SAMPLE, CONF_SAMPLE (empty: none),
# OTHER_RUSTCS (the other toolchains' rustc paths; default: found).
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}      # the build directory (make's B)
# mir-export finds oxide-device from its own path inside the tree; from a
# build directory elsewhere it needs telling
case $B in build|./build) ;; *) export OXIDE_DEVICE_DIR=${OXIDE_DEVICE_DIR:-$PWD/tools/mir-export/oxide-device} ;; esac
PTXAS=${PTXAS:-${CUDA_HOME:-/usr/local/cuda}/bin/ptxas}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && sed 's/^/    /' "$2" | tail -30; }

# cargo test: count its "test result" lines
if cargo test --offline --release --manifest-path tools/mir-export/Cargo.toml --target-dir "${CARGO_TARGET:-$B/cargo}" >"$TMP/cargo" 2>&1; then
	n=$(sed -n 's/^test result: ok\. \([0-9]*\) passed.*/\1/p' "$TMP/cargo" | awk '{ s += $1 } END { print s + 0 }')
	ok "cargo test (mir-export: $n tests)"
else
	bad "cargo test (mir-export)" "$TMP/cargo"
fi

# the default toolchain, then the others: each distinct release once
default_rustc=$(command -v rustc)
if [ -z "${OTHER_RUSTCS+x}" ]; then
	OTHER_RUSTCS="/usr/bin/rustc"
	if command -v rustup >/dev/null 2>&1; then
		OTHER_RUSTCS="$OTHER_RUSTCS $(rustup which --toolchain nightly rustc 2>/dev/null)"
	fi
fi
SAMPLE=${SAMPLE:-vecadd const_lookup math stencil2d wgmma_forms}
CONF_SAMPLE=${CONF_SAMPLE-enums consts_statics iterators}
seen=" $("$default_rustc" -vV | sed -n 's/^release: //p') "

# core's MIR, for what needs library bodies, is built once into $LIBCACHE
# (the conformance runner's cache)
LIBCACHE=${OXIDE_MIR_EXPORT_CACHE:-$B/mir-export-cache}
case $LIBCACHE in /*) ;; *) LIBCACHE=$PWD/$LIBCACHE ;; esac
has_sources() { [ -f "$("$1" --print sysroot 2>/dev/null)/lib/rustlib/src/rust/library/core/src/lib.rs" ]; }
# needs_sources NAME: examples/NAME is exported through a rustc with its
# library sources (its Cargo.toml says so, as for `make examples`:
# gpu_println!, whose core::fmt comes from core's MIR)
needs_sources() { grep -qs '^rustc = "with-library-sources"' "examples/$1/Cargo.toml"; }

# export NAME RUSTC VER: mir-export + oxidec + ptxas + the kernels' entries;
# leaves $TMP/NAME-VER.mir.json; 0 when it passed
export_example() {
	ex=examples/$1 name=$1 r=$2 ver=$3
	json="$TMP/$name-$ver.mir.json" ptx="$TMP/$name-$ver.ptx"
	if ! RUSTC="$r" OXIDE_MIR_EXPORT_CACHE=$LIBCACHE $B/bin/mir-export "$ex" -o "$json" >"$TMP/log" 2>&1; then
		bad "$name (rustc $ver): mir-export" "$TMP/log"; return 1
	fi
	# the example's architecture (examples/NAME/arch, as make examples)
	arch=sm_90
	[ -f "$ex/arch" ] && arch=$(cat "$ex/arch")
	if ! $B/bin/oxidec --arch="$arch" "$json" -o "$ptx" >"$TMP/log" 2>&1; then
		bad "$name (rustc $ver): oxidec" "$TMP/log"; return 1
	fi
	if [ -x "$PTXAS" ] && ! "$PTXAS" -arch="$arch" "$ptx" -o "$TMP/x.cubin" >"$TMP/log" 2>&1; then
		bad "$name (rustc $ver): ptxas" "$TMP/log"; return 1
	fi
	# every #[kernel] fn of the crate is an entry, a generic one's
	# instances each (at least one; a kernel a macro defines, `fn
	# $name`, is counted, not named)
	kernels=$(awk -f tests/exporter/kernels.awk "$ex/src/lib.rs")
	missing=""
	for k in ${kernels:-$name}; do
		case $k in
		'$'*) grep -q "\.entry " "$ptx" || missing="$missing (any)" ;;
		*) grep -q "\.entry $k(" "$ptx" || missing="$missing $k" ;;
		esac
	done
	[ -z "$missing" ] || { bad "$name (rustc $ver): no .entry for$missing"; return 1; }
	ok "$name (rustc $ver): Rust -> JSON -> PTX, ptxas ok"
}

# refused NAME RUSTC VER: an example that needs library sources, through
# a rustc without them: mir-export must stop at its gpu_println! with
# OX0300 naming the macro and what to install, and write no JSON
refused() {
	name=$1 r=$2 ver=$3
	json="$TMP/$name-$ver.mir.json"
	if RUSTC="$r" $B/bin/mir-export "examples/$name" -o "$json" >"$TMP/log" 2>&1; then
		bad "$name (rustc $ver, no library sources): the export passed"
	elif grep -q 'error\[OX0300\]: `gpu_print!`/`gpu_println!`.*library sources.*rust-src' "$TMP/log" && [ ! -e "$json" ]; then
		ok "$name (rustc $ver, no library sources): refused at gpu_println!, naming rust-src"
	else
		bad "$name (rustc $ver, no library sources): not the expected error" "$TMP/log"
	fi
}

# emulate NAME VER: the example's host program (examples/NAME/host.c) on
# the JSON of export_example, compiled by oxidec --target=host
runtime_objs=""
emulate() {
	name=$1 ver=$2
	[ -f "examples/$name/host.c" ] || return 0
	if [ -z "$runtime_objs" ]; then
		mkdir -p "$TMP/rt"
		for c in src/runtime/*.c; do
			${CC:-cc} -O2 -std=c11 -ffp-contract=off -c -o "$TMP/rt/$(basename "$c" .c).o" "$c" || return 1
		done
		runtime_objs=$(ls "$TMP"/rt/*.o)
	fi
	# the typed launchers host.c may include (NAME.h, as make examples),
	# from this rustc's JSON
	# (oxidec checks the primitives against --arch there too: the
	# example's, as in export_example)
	hdr=$TMP/hdr-$ver arch=sm_90
	[ -f "examples/$name/arch" ] && arch=$(cat "examples/$name/arch")
	mkdir -p "$hdr"
	if ! { $B/bin/oxidec --target=host "$TMP/$name-$ver.mir.json" -o "$TMP/$name-$ver.o" &&
	       ${CC:-cc} -shared -o "$TMP/$name-$ver.so" "$TMP/$name-$ver.o" -lm &&
	       $B/bin/oxidec --arch="$arch" --emit=header "$TMP/$name-$ver.mir.json" -o "$hdr/$name.h" &&
	       ${CC:-cc} -O2 -std=c11 -ffp-contract=off -rdynamic -iquote "$hdr" -iquote src/runtime \
	           -o "$TMP/$name-$ver.host" "examples/$name/host.c" $runtime_objs -ldl -lm; } >"$TMP/log" 2>&1; then
		bad "$name (rustc $ver): building the emulated program" "$TMP/log"; return 1
	fi
	if "$TMP/$name-$ver.host" "$TMP/$name-$ver.so" >"$TMP/log" 2>&1; then
		ok "$name (rustc $ver): emulated"
	else
		bad "$name (rustc $ver): emulated: exit status $?" "$TMP/log"
	fi
}

ver=$("$default_rustc" -vV | sed -n 's/^release: //p')
for ex in examples/*/; do
	[ -e "$ex/Cargo.toml" ] || continue
	name=$(basename "$ex")
	if needs_sources "$name" && ! has_sources "$default_rustc"; then
		refused "$name" "$default_rustc" "$ver"
	else
		export_example "$name" "$default_rustc" "$ver"
	fi
done
# the examples that need library sources go with every other rustc too
lib_examples=""
for ex in examples/*/; do
	needs_sources "$(basename "$ex")" && lib_examples="$lib_examples $(basename "$ex")"
done

for r in $OTHER_RUSTCS; do
	if [ ! -x "$r" ]; then
		echo "SKIP rustc $r: not installed"; continue
	fi
	ver=$("$r" -vV | sed -n 's/^release: //p')
	case "$seen" in *" $ver "*) echo "SKIP rustc $r: $ver, tested already"; continue ;; esac
	seen="$seen$ver "
	for name in $SAMPLE $lib_examples; do
		[ -e "examples/$name/Cargo.toml" ] || continue
		if needs_sources "$name" && ! has_sources "$r"; then
			refused "$name" "$r" "$ver"
			continue
		fi
		export_example "$name" "$r" "$ver" && emulate "$name" "$ver"
	done
	[ -n "$CONF_SAMPLE" ] || continue
	# conformance groups through this rustc, against the default one's CPU
	# reference: its own build and work directories, but the CPU
	# reference's cargo target directory is the default run's (built once)
	cw=$B/conformance-work-rustc-$ver
	ref=${CONF_WORK:-$B/conformance-work}/cpu-ref-target
	mkdir -p "$cw" "$ref"
	case $ref in /*) ;; *) ref=$PWD/$ref ;; esac
	[ -e "$cw/cpu-ref-target" ] || ln -s "$ref" "$cw/cpu-ref-target"
	# shellcheck disable=SC2086
	if MIR_EXPORT_RUSTC="$r" CONF_BUILD="$B/conformance-rustc-$ver" CONF_WORK="$cw" \
	   sh tests/conformance/run-host.sh $CONF_SAMPLE >"$TMP/conf" 2>&1; then
		ok "conformance $CONF_SAMPLE (rustc $ver): $(tail -1 "$TMP/conf")"
	else
		bad "conformance $CONF_SAMPLE (rustc $ver): $(tail -1 "$TMP/conf")" "$TMP/conf"
	fi
done
# Library bodies (docs/DESIGN.md): the conformance group `library` needs
# core's own MIR. With a rustc that has its library sources, core's MIR is
# built once into $LIBCACHE (the conformance runner's cache) and a second
# export must only read it (no build, under 20 s); with the default rustc
# when it has no sources, the export fails saying which package gives them.
libk=tests/conformance/kernels/library
librustc=""
for r in "$default_rustc" /usr/bin/rustc; do
	if [ -x "$r" ] && has_sources "$r"; then librustc=$r; break; fi
done
if [ -n "$librustc" ]; then
	libver=$("$librustc" -vV | sed -n 's/^release: //p')
	# (--keep-going: the group's kernels that are not supported yet are
	# left out, exit status 3)
	OXIDE_MIR_EXPORT_CACHE=$LIBCACHE $B/bin/mir-export --keep-going --rustc "$librustc" "$libk" -o "$TMP/lib1.json" >"$TMP/log" 2>&1
	start=$(date +%s)
	OXIDE_MIR_EXPORT_CACHE=$LIBCACHE $B/bin/mir-export --keep-going --rustc "$librustc" "$libk" -o "$TMP/lib2.json" >"$TMP/log2" 2>&1
	st=$?
	if { [ $st -eq 0 ] || [ $st -eq 3 ]; } && grep -q '"library_char_unicode"' "$TMP/lib2.json"; then
		secs=$(($(date +%s) - start))
		if grep -q "building core's MIR" "$TMP/log2"; then
			bad "library bodies (rustc $libver): the second export built core's MIR again" "$TMP/log2"
		elif [ "$secs" -gt 20 ]; then
			bad "library bodies (rustc $libver): the second export took $secs s" "$TMP/log2"
		elif ! cmp -s "$TMP/lib1.json" "$TMP/lib2.json"; then
			bad "library bodies (rustc $libver): two exports differ"
		else
			ok "library bodies (rustc $libver): core's MIR cached, second export $secs s"
		fi
	else
		bad "library bodies (rustc $libver): export of $libk" "$TMP/log2"
	fi
else
	echo "SKIP library bodies: no installed rustc has its library sources"
fi
if ! has_sources "$default_rustc"; then
	dver=$("$default_rustc" -vV | sed -n 's/^release: //p')
	if $B/bin/mir-export --rustc "$default_rustc" "$libk" -o "$TMP/lib0.json" >"$TMP/log" 2>&1; then
		bad "library bodies (rustc $dver, no sources): the export passed"
	elif grep -q "error\[OX0200\].*library bodies need the library sources.*rust-src" "$TMP/log" && [ ! -e "$TMP/lib0.json" ]; then
		ok "library bodies (rustc $dver, no sources): refused, naming rust-src"
	else
		bad "library bodies (rustc $dver, no sources): not the expected error" "$TMP/log"
	fi
fi

# the layout probe's cache (driver.rs ProbeCache): a second export of an
# unchanged crate takes the layouts from it; an edit that changes only a
# type's alignment (the same MIR text) is seen
pc=$TMP/probecache
mkdir -p "$pc/src"
sed "s#\.\./\.\./tools#$PWD/tools#; s/^name = .*/name = \"probecache\"/" examples/vecadd/Cargo.toml >"$pc/Cargo.toml"
cat >"$pc/src/lib.rs" <<'EOF2'
#![no_std]
use oxide_device::prelude::*;

#[repr(C)]
pub struct P {
    pub x: u8,
    pub y: u32,
}

#[kernel]
pub fn k(a: &[P], mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = a[i].y + a[i].x as u32;
    }
}
EOF2
if ! $B/bin/mir-export "$pc" -o "$TMP/pc1.json" >"$TMP/log" 2>&1 || ! $B/bin/mir-export -v "$pc" -o "$TMP/pc2.json" >"$TMP/log2" 2>&1; then
	bad "layout probe cache: export" "$TMP/log"
elif ! grep -q "layout probe answered from" "$TMP/log2" || ! cmp -s "$TMP/pc1.json" "$TMP/pc2.json"; then
	bad "layout probe cache: the second export did not take the cached layouts, or differs" "$TMP/log2"
else
	sed -i 's/#\[repr(C)\]/#[repr(C, align(16))]/' "$pc/src/lib.rs"
	if ! $B/bin/mir-export -v "$pc" -o "$TMP/pc3.json" >"$TMP/log3" 2>&1; then
		bad "layout probe cache: export after the edit" "$TMP/log3"
	elif grep -q "layout probe answered from" "$TMP/log3" || ! grep -A1 '"size": "16"' "$TMP/pc3.json" | grep -q '"align": 16'; then
		bad "layout probe cache: an edited type's layout came from the cache" "$TMP/log3"
	else
		ok "layout probe cache: taken when unchanged, missed after an alignment edit"
	fi
fi

echo "exporter: $pass passed, $fail failed"
[ $fail -eq 0 ]
