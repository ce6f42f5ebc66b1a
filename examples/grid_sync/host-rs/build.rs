// The kernel crate is the example itself, one directory up: its
// launchers, PTX and emulation module go to OUT_DIR (oxide_host::build).
fn main() {
    oxide_host::build::kernels("..");
}
