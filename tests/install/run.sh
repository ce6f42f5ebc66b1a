#!/bin/sh
# tests/install/run.sh: `make install` into a temporary DESTDIR, then a
# user's project (tests/install/project, copied out of the tree) built from
# the installed files only: its Makefile includes the installed oxide.mk
# and takes oxrt's flags from the installed oxrt.pc (pkg-config), its
# kernel crate depends on the installed oxide-device.  The project's host
# program runs its kernel emulated (kernels.so) and checks every result;
# its PTX is checked for the kernel's entry (and by ptxas when present),
# its cubin and its graph (.dot, .svg) are made by oxide.mk's rules too.
# Nothing the project makes may name the source tree.  The installed
# mir-export must find the installed oxide-device for a single FILE.rs.
# A Rust host
# (tests/install/project/host-rs) builds from the installed oxide-host and
# runs. Last, the host program must fail to build once the installed
# liboxrt.a is gone.
# Prints PASS/FAIL lines and "install: N passed, M failed".
# Environment: B (the build directory, build), MAKE (make), PTXAS.
cd "$(dirname "$0")/../.." || exit 1
TREE=$(pwd)
B=${B:-build}
MAKE=${MAKE:-make}
PTXAS=${PTXAS:-${CUDA_HOME:-/usr/local/cuda}/bin/ptxas}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PREFIX=/opt/oxide
ROOT=$TMP/dest$PREFIX
PROJ=$TMP/project
pass=0 fail=0

ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && tail -n 30 "$2" | sed 's/^/    /'; }
finish() { echo "install: $pass passed, $fail failed"; [ $fail -eq 0 ]; exit $?; }
# a make of its own: none of the caller's make variables (make check's B)
# leak into it, nor tests/run.sh's OXIDEC and MIR_EXPORT (the tree's
# tools), nor oxide.mk's other variables.  CC, CFLAGS and LDFLAGS stay, as
# a user's would: make sanitize exports its -fsanitize ones, so liboxrt.a
# is built with them and the project's host (which honours CFLAGS and
# LDFLAGS, as a user's Makefile does) links with them too.
clean_make() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u OXIDEC -u MIR_EXPORT -u OXIDE_DEVICE_DIR -u OXIDE_PREFIX \
	    -u OXIDEC_FLAGS -u MIR_EXPORT_FLAGS -u ARCH "$MAKE" --no-print-directory "$@"
}

if clean_make B="$B" install DESTDIR="$TMP/dest" PREFIX="$PREFIX" >"$TMP/install.log" 2>&1; then
	ok "make install DESTDIR=... PREFIX=$PREFIX"
else
	bad "make install" "$TMP/install.log"
	finish
fi

missing=""
for f in bin/oxidec bin/mir-export lib/liboxrt.a lib/pkgconfig/oxrt.pc include/oxide/oxrt.h \
         share/oxide/oxide.mk share/oxide/oxide-host/Cargo.toml share/oxide/oxide-host/src/lib.rs share/oxide/oxide-device/Cargo.toml share/oxide/oxide-device/src/lib.rs \
         share/oxide/oxide-macros/Cargo.toml share/oxide/oxide-macros/src/lib.rs share/oxide/python/oxide_cupy.py \
         share/man/man1/oxidec.1 share/man/man1/mir-export.1 share/man/man5/oxide-mir.5; do
	[ -s "$ROOT/$f" ] || missing="$missing $f"
done
if [ -z "$missing" ]; then ok "installed files"; else bad "installed files: missing$missing"; fi

export PKG_CONFIG_PATH="$ROOT/lib/pkgconfig"
libs=$(pkg-config --libs oxrt 2>"$TMP/pc.err")
lacks=""
for flag in -loxrt -ldl -lm -rdynamic; do
	case " $libs " in *" $flag "*) ;; *) lacks="$lacks $flag" ;; esac
done
case "$libs" in "-L$ROOT/"*) ;; *) lacks="$lacks -L$ROOT/..." ;; esac
if [ -z "$lacks" ]; then ok "pkg-config --libs oxrt: $libs"; else bad "pkg-config --libs oxrt: '$libs' lacks$lacks" "$TMP/pc.err"; fi

cp -R tests/install/project "$PROJ"
sed "s|@OXIDE_DEVICE@|$ROOT/share/oxide/oxide-device|" "$PROJ/kernels/Cargo.toml.in" >"$PROJ/kernels/Cargo.toml"
if clean_make -C "$PROJ" OXIDE="$ROOT" all >"$TMP/project.log" 2>&1 &&
   grep -q "^$ROOT/bin/mir-export " "$TMP/project.log" && grep -q "^$ROOT/bin/oxidec " "$TMP/project.log"; then
	ok "project built by the installed tools through the installed oxide.mk (mir.json, .so, .ptx, .dot, .h, host)"
else
	bad "project build" "$TMP/project.log"
	finish
fi

if (cd "$PROJ" && ./host ./kernels.so) >"$TMP/run.log" 2>&1 && grep -q "^PASS mul_add_index" "$TMP/run.log"; then
	ok "host program, kernel emulated: $(grep '^PASS' "$TMP/run.log" | sed 's/^PASS //')"
else
	bad "host program on kernels.so" "$TMP/run.log"
fi

if grep -q '^\.visible \.entry mul_add_index' "$PROJ/kernels.ptx" &&
   { [ ! -x "$PTXAS" ] || "$PTXAS" -arch=sm_90 "$PROJ/kernels.ptx" -o "$TMP/k.cubin" 2>"$TMP/ptxas.log"; }; then
	ok "kernels.ptx: .entry mul_add_index$([ -x "$PTXAS" ] && echo ', ptxas')"
else
	bad "kernels.ptx" "$TMP/ptxas.log"
fi

# the other rules of oxide.mk: cubin (an ELF file), and the graph drawn
if clean_make -C "$PROJ" OXIDE="$ROOT" kernels.cubin >"$TMP/cubin.log" 2>&1 &&
   [ "$(head -c 4 "$PROJ/kernels.cubin" | od -An -c | tr -d ' ')" = "177ELF" ]; then
	ok "kernels.cubin (an ELF file)"
else
	bad "kernels.cubin" "$TMP/cubin.log"
fi
# the signature, and the installed Python launcher reading it (numpy only:
# its packing needs no GPU; a python3 with numpy is make deps' python3-numpy)
py=""
for p in ${PYTHON:-} python3 /usr/bin/python3; do
	if "$p" -c 'import numpy' >/dev/null 2>&1; then py=$p; break; fi
done
if clean_make -C "$PROJ" OXIDE="$ROOT" kernels.sig.json >"$TMP/sig.log" 2>&1 &&
   grep -q '"entry": "mul_add_index"' "$PROJ/kernels.sig.json" && [ -n "$py" ] &&
   "$py" -c 'import sys; sys.path.insert(0, sys.argv[1]); import oxide_cupy
m = oxide_cupy.load(sys.argv[2], raw_module=None)
print(m.mul_add_index)' "$ROOT/share/oxide/python" "$PROJ/kernels.cubin" >>"$TMP/sig.log" 2>&1; then
	ok "kernels.sig.json, read by the installed oxide_cupy.py: $(tail -n 1 "$TMP/sig.log")"
else
	[ -n "$py" ] || echo "no python3 with numpy (make deps installs python3-numpy)" >>"$TMP/sig.log"
	bad "kernels.sig.json and oxide_cupy.py" "$TMP/sig.log"
fi
if command -v dot >/dev/null; then
	rm -f "$PROJ/kernels.dot"
	if clean_make -C "$PROJ" OXIDE="$ROOT" DOT_STAGE=llir kernels.svg >"$TMP/svg.log" 2>&1 &&
	   grep -q "^digraph \"oxidec llir\"" "$PROJ/kernels.dot" && grep -q "<svg" "$PROJ/kernels.svg"; then
		ok "kernels.svg (DOT_STAGE=llir)"
	else
		bad "kernels.svg" "$TMP/svg.log"
	fi
fi

if grep -l -F "$TREE" "$PROJ"/kernels.mir.json "$PROJ"/kernels.ptx "$PROJ"/kernels.cubin "$PROJ"/kernels.dot >"$TMP/leak" 2>&1; then
	bad "the project's outputs name the source tree $TREE" "$TMP/leak"
else
	ok "no output names the source tree"
fi

# a single FILE.rs: the installed mir-export finds the installed
# oxide-device by itself (above its executable), no OXIDE_DEVICE_DIR
cp "$PROJ/kernels/src/lib.rs" "$TMP/single.rs"
if (cd "$TMP" && env -u OXIDE_DEVICE_DIR "$ROOT/bin/mir-export" single.rs -o single.mir.json) >"$TMP/single.log" 2>&1 &&
   grep -q '"mul_add_index"' "$TMP/single.mir.json"; then
	ok "mir-export FILE.rs finds the installed oxide-device"
else
	bad "mir-export FILE.rs with the installed oxide-device" "$TMP/single.log"
fi

# a Rust host from the installed oxide-host: liboxrt.a through
# pkg-config, the installed tools found next to the crate (no OXIDEC or
# MIR_EXPORT), the embedded emulation module. A liboxrt.a built with
# sanitizers (make sanitize's CFLAGS) needs their runtime: then the C
# compiler links the Rust program with LDFLAGS, as it links the C host.
sed "s|@OXIDE_HOST@|$ROOT/share/oxide/oxide-host|" "$PROJ/host-rs/Cargo.toml.in" >"$PROJ/host-rs/Cargo.toml"
rs_flags=${RUSTFLAGS:-}
case " ${CFLAGS:-} " in
*-fsanitize=*)
	rs_flags="$rs_flags -C linker=${CC:-cc}"
	for f in ${LDFLAGS:-}; do rs_flags="$rs_flags -C link-arg=$f"; done
	;;
esac
if env -u OXIDEC -u MIR_EXPORT -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u OXRT_LIB_DIR RUSTFLAGS="$rs_flags" \
       ${CARGO:-cargo} build --offline --release --manifest-path "$PROJ/host-rs/Cargo.toml" \
       --target-dir "$TMP/rs-target" >"$TMP/rs.log" 2>&1 &&
   "$TMP/rs-target/release/project-host" --emulate >"$TMP/rs-run.log" 2>&1 &&
   grep -q "^PASS mul_add_index (Rust host): 10007 of 10007" "$TMP/rs-run.log"; then
	ok "Rust host from the installed oxide-host (pkg-config's liboxrt.a, the installed tools): $(sed 's/^PASS //' "$TMP/rs-run.log")"
else
	cat "$TMP/rs-run.log" >>"$TMP/rs.log" 2>/dev/null
	bad "Rust host from the installed oxide-host" "$TMP/rs.log"
fi

rm "$ROOT/lib/liboxrt.a"
if clean_make -C "$PROJ" OXIDE="$ROOT" -B host >"$TMP/neg.log" 2>&1; then
	bad "host program still builds without the installed liboxrt.a"
else
	ok "without the installed liboxrt.a the host program does not build"
fi
finish
