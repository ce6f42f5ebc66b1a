//! For a host crate's build.rs: compiles a kernel crate with mir-export
//! and oxidec into `OUT_DIR` and writes the Rust that launches its
//! kernels, with the PTX (and the emulation module) embedded.
//!
//! ```no_run
//! // build.rs of a host crate ([build-dependencies] oxide-host)
//! fn main() {
//!     oxide_host::build::kernels("../kernels");
//! }
//! ```
//! and in the crate (`[dependencies] oxide-host`):
//! ```ignore
//! mod kernels { oxide_host::include_kernels!("kernels"); }
//! let module = kernels::load()?;                   // the embedded PTX (GPU)
//! let k = kernels::Kernels::new(&module)?;         // or kernels::load_emulated()
//! k.vecadd(LaunchConfig::for_elements(n, 256), None, &a, &b, &mut c)?;
//! ```
//!
//! For a crate `NAME` (the directory's name) it writes into `OUT_DIR`:
//! `NAME.mir.json` (mir-export), `NAME.ptx` (oxidec `--arch`, default
//! sm_90), `NAME.launch.rs` (`oxidec --emit=rust`), `NAME.host.o` and
//! `NAME.so` (`oxidec --target=host`, `cc -shared`: the emulation
//! module), and `NAME.rs`, which `include_kernels!("NAME")` includes: the
//! launchers, `PTX` and `EMULATION` (the embedded bytes), `load()` and
//! `load_emulated()`. The tools are `$OXIDEC` and `$MIR_EXPORT`, else
//! those of the oxidec tree this crate lies in (`build/bin/`) or of the
//! installation (`PREFIX/bin/`, this crate being
//! `PREFIX/share/oxide/oxide-host`), else `oxidec` and `mir-export` on
//! `PATH`; the C compiler is `$CC` (default
//! `cc`). It also tells cargo to link the host crate's programs with
//! `-rdynamic` (an emulated module calls the emulator in the program) and
//! to rerun when the kernel crate, the tools or those variables change.
use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What to build of a kernel crate; [`kernels`] is `Kernels::new(dir).build()`.
#[derive(Clone, Debug)]
pub struct Kernels {
    dir: PathBuf,
    name: String,
    arch: String,
    emulation: bool,
}

/// Builds the kernel crate in `dir` (relative to the host crate) as
/// [`Kernels::build`] does; panics with the failing step's output, which
/// cargo shows. Returns the path of the generated `NAME.rs`.
pub fn kernels(dir: impl AsRef<Path>) -> PathBuf {
    Kernels::new(dir).build().unwrap_or_else(|e| panic!("oxide_host::build: {e}"))
}

/// `$VAR`, else the tree's build/bin/NAME (this crate in tools/), else
/// the installation's bin/NAME (this crate in PREFIX/share/oxide/), else
/// NAME on PATH.
fn tool(var: &str, name: &str) -> PathBuf {
    println!("cargo:rerun-if-env-changed={var}");
    if let Some(p) = env::var_os(var) {
        return PathBuf::from(p);
    }
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    for dir in ["../../build/bin", "../../../bin"] {
        let p = here.join(dir).join(name);
        if p.is_file() {
            return p;
        }
    }
    PathBuf::from(name)
}

/// Runs cmd; its output in the error when it fails.
fn run(what: &str, cmd: &mut Command) -> Result<(), String> {
    let out = cmd.output().map_err(|e| format!("{what}: cannot run {:?}: {e}", cmd.get_program()))?;
    if out.status.success() {
        return Ok(());
    }
    Err(format!(
        "{what} failed ({}): {cmd:?}\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    ))
}

/// Every file of the crate cargo should watch: Cargo.toml, src/.
fn watch(dir: &Path) {
    println!("cargo:rerun-if-changed={}", dir.join("Cargo.toml").display());
    let mut todo = vec![dir.join("src")];
    while let Some(d) = todo.pop() {
        println!("cargo:rerun-if-changed={}", d.display());
        for e in fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else {
                println!("cargo:rerun-if-changed={}", p.display());
            }
        }
    }
}

impl Kernels {
    /// The kernel crate in `dir`; its name is the directory's.
    pub fn new(dir: impl AsRef<Path>) -> Kernels {
        let dir = dir.as_ref().to_path_buf();
        let name = fs::canonicalize(&dir)
            .ok()
            .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "kernels".into());
        Kernels { dir, name, arch: "sm_90".into(), emulation: true }
    }

    /// The name of the outputs and of `include_kernels!`.
    pub fn name(mut self, name: &str) -> Kernels {
        self.name = name.into();
        self
    }

    /// oxidec's `--arch` (default sm_90).
    pub fn arch(mut self, arch: &str) -> Kernels {
        self.arch = arch.into();
        self
    }

    /// Whether to build and embed the emulation module (default yes).
    pub fn emulation(mut self, on: bool) -> Kernels {
        self.emulation = on;
        self
    }

    /// Builds it all into `OUT_DIR` (see the module's documentation);
    /// the path of `NAME.rs`.
    pub fn build(&self) -> Result<PathBuf, String> {
        let out = PathBuf::from(env::var_os("OUT_DIR").ok_or("OUT_DIR is not set: call this from a build script")?);
        let (oxidec, mir_export) = (tool("OXIDEC", "oxidec"), tool("MIR_EXPORT", "mir-export"));
        println!("cargo:rerun-if-env-changed=CC");
        for t in [&oxidec, &mir_export] {
            if t.is_file() {
                println!("cargo:rerun-if-changed={}", t.display());
            }
        }
        watch(&self.dir);
        println!("cargo:rustc-link-arg=-rdynamic");
        let f = |ext: &str| out.join(format!("{}.{ext}", self.name));
        let json = f("mir.json");
        let mut me = Command::new(&mir_export);
        // the kernel crate's own cargo build must not see this build's
        // flags (cargo prefers CARGO_ENCODED_RUSTFLAGS to mir-export's
        // RUSTFLAGS) or wrappers
        for v in ["CARGO_ENCODED_RUSTFLAGS", "RUSTFLAGS", "RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER", "CARGO_TARGET_DIR",
                  "CARGO_BUILD_TARGET", "CARGO_BUILD_TARGET_DIR", "CARGO_MAKEFLAGS", "MAKEFLAGS", "MFLAGS"] {
            me.env_remove(v);
        }
        run("mir-export", me.arg(&self.dir).arg("-o").arg(&json))?;
        let arch = format!("--arch={}", self.arch);
        run("oxidec (ptx)", Command::new(&oxidec).arg(&arch).arg(&json).arg("-o").arg(f("ptx")))?;
        run("oxidec --emit=rust", Command::new(&oxidec).arg(&arch).arg("--emit=rust").arg(&json).arg("-o").arg(f("launch.rs")))?;
        let mut text = format!(
            "// oxide_host::build: the kernels of {} (mir-export; oxidec {arch}). Generated.\n\
             include!({:?});\n\n\
             /// The kernels' PTX (oxidec {arch}), embedded.\n\
             #[allow(dead_code)]\n\
             pub static PTX: &[u8] = include_bytes!({:?});\n\n\
             /// The module of the embedded PTX (the GPU; JIT-compiled by the driver).\n\
             #[allow(dead_code)]\n\
             pub fn load() -> oxide_host::Result<oxide_host::Module> {{\n    \
                 oxide_host::Module::from_image({:?}, PTX)\n}}\n",
            self.dir.display(),
            f("launch.rs").display().to_string(),
            f("ptx").display().to_string(),
            format!("{}.ptx", self.name)
        );
        if self.emulation {
            run("oxidec --target=host", Command::new(&oxidec).arg("--target=host").arg(&json).arg("-o").arg(f("host.o")))?;
            let cc = env::var("CC").unwrap_or_else(|_| "cc".into());
            run("cc -shared", Command::new(cc).arg("-shared").arg(f("host.o")).arg("-o").arg(f("so")).arg("-lm"))?;
            text += &format!(
                "\n/// The emulation module (oxidec --target=host, cc -shared), embedded.\n\
                 #[allow(dead_code)]\n\
                 pub static EMULATION: &[u8] = include_bytes!({:?});\n\n\
                 /// The module of the embedded emulation .so (the CPU, no GPU needed).\n\
                 #[allow(dead_code)]\n\
                 pub fn load_emulated() -> oxide_host::Result<oxide_host::Module> {{\n    \
                     oxide_host::Module::from_image({:?}, EMULATION)\n}}\n",
                f("so").display().to_string(),
                format!("{}.so", self.name)
            );
        }
        let rs = f("rs");
        fs::write(&rs, text).map_err(|e| format!("{}: {e}", rs.display()))?;
        Ok(rs)
    }
}
