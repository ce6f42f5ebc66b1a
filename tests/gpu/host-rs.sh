#!/bin/sh
# tests/gpu/host-rs.sh: the Rust hosts of examples/{vecadd,saxpy,grid_sync}/host-rs
# (tools/oxide-host) on this machine's GPU, prebuilt where Rust is (make
# host-rs; make gpu-pack packs them as host-rs.tar.xz, unpacked into
# build/gpu-host-rs/; the GPU machine needs no Rust, only the driver).
# Each runs on its embedded PTX (no argument: ox_module_load_data), then
# on build/examples/NAME.cubin when that is there (make examples): the
# checks of examples/NAME/host.c, their PASS lines and exit status 0.
# Prints PASS/FAIL lines and "N passed, M failed"; exits 1 on a failure.
# Environment: HOST_RS (default build/gpu-host-rs, else build/host-rs/release).
cd "$(dirname "$0")/../.." || exit 1
D=${HOST_RS:-build/gpu-host-rs}
[ -d "$D" ] || D=build/host-rs/release
L=build/gpu-host-rs-logs
mkdir -p "$L" || exit 1
pass=0 fail=0
limit=""
command -v timeout >/dev/null 2>&1 && limit="timeout 300"
run() {   # name what [module]
	log=$L/$1.$(echo "$2" | tr -c 'a-z0-9\n' _).log
	# shellcheck disable=SC2086 # $limit is empty or a command
	$limit "$D/$1-host" ${3:+"$3"} >"$log" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && grep -q '^PASS' "$log" && ! grep -q '^FAIL' "$log"; then
		echo "PASS $1 (Rust host, $2)"
		pass=$((pass + 1))
	else
		echo "FAIL $1 (Rust host, $2): exit status $rc"
		fail=$((fail + 1))
	fi
	sed 's/^/    /' "$log"
}
for name in vecadd saxpy grid_sync; do
	[ -f "$D/$name-host" ] && [ ! -x "$D/$name-host" ] && chmod +x "$D/$name-host"   # a copy that lost its mode
	if [ ! -x "$D/$name-host" ]; then
		echo "FAIL $name (Rust host): $D/$name-host is missing (make host-rs or make gpu-pack where Rust is)"
		fail=$((fail + 1))
		continue
	fi
	run "$name" "embedded PTX"
	[ -f "build/examples/$name.cubin" ] && run "$name" "build/examples/$name.cubin" "build/examples/$name.cubin"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
