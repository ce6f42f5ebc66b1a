// the project's kernel crate: launchers, PTX and emulation module by the
// installed mir-export and oxidec (found next to the installed crate)
fn main() {
    oxide_host::build::kernels("../kernels");
}
