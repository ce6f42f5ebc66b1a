//! Runs cargo and rustc: builds the kernel crate's MIR, then asks rustc for
//! layouts through a probe (see layout.rs and MIR-EXPORT.md).
//!
//! cargo is run as
//!
//! ```text
//! RUSTC_BOOTSTRAP=1 RUSTFLAGS=-Zcross-crate-inline-threshold=always \
//! cargo rustc --offline --release --lib --target-dir DIR/target/mir-export -- --emit=mir FLAGS
//! ```
//!
//! with mir-export itself as `RUSTC_WORKSPACE_WRAPPER`: in that role it
//! records the exact rustc command of the kernel crate (arguments, working
//! directory, cargo's environment) before running it. The probe reruns that
//! command on a copy of the crate root, so it sees the same dependencies,
//! edition, cfgs and flags without re-deriving any of them.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::diag::{Code, DResult, Diag};
use crate::layout::{self, Layout};
use crate::rustc_compat;
use crate::toolchain::RustcInfo;
use crate::reflect;
use crate::vtable;

/// Set in the environment of cargo; tells the wrapper where to record.
pub const RECORD_ENV: &str = "__OXIDE_MIR_EXPORT_RECORD";

/// rustc flags for the kernel crate (MIR-EXPORT.md, "Flags").
pub const MIR_FLAGS: &[&str] = &[
    "--emit=mir",
    "-Copt-level=3",
    "-Cpanic=abort",
    "-Cdebug-assertions=off",
    "-Coverflow-checks=off",
    "-Zmir-opt-level=4",
    "-Zinline-mir",
    "-Zinline-mir-threshold=100000",
    "-Zinline-mir-hint-threshold=100000",
    "-Zinline-mir-forwarder-threshold=100000",
    "-Zcross-crate-inline-threshold=always",
    "-Ztrim-diagnostic-paths=no",
    "-Zmir-include-spans=yes",
    // JumpThreading can duplicate a barrier into divergent branches.
    "-Zmir-enable-passes=-JumpThreading",
];

/// The kernel crate's rustc invocation, as recorded by the wrapper.
#[derive(Debug, Default)]
pub struct RustcCommand {
    pub cwd: PathBuf,
    pub env: Vec<(String, String)>,
    pub args: Vec<String>,
}

impl RustcCommand {
    fn arg_value(&self, name: &str) -> Option<&str> {
        let eq = format!("{name}=");
        self.args.iter().enumerate().find_map(|(i, a)| {
            if a == name {
                self.args.get(i + 1).map(String::as_str)
            } else {
                a.strip_prefix(&eq)
            }
        })
    }

    pub fn crate_name(&self) -> Option<&str> {
        self.arg_value("--crate-name")
    }

    /// The crate root: the one positional `.rs` argument.
    pub fn root_index(&self) -> Option<usize> {
        self.args.iter().position(|a| a.ends_with(".rs") && !a.starts_with('-'))
    }

    fn extra_filename(&self) -> String {
        self.args
            .iter()
            .enumerate()
            .find_map(|(i, a)| {
                let v = if a == "-C" { self.args.get(i + 1)? } else { a.strip_prefix("-C")? };
                v.strip_prefix("extra-filename=")
            })
            .unwrap_or("")
            .to_string()
    }

    fn out_dir(&self) -> PathBuf {
        self.cwd.join(self.arg_value("--out-dir").unwrap_or("."))
    }

    /// `--extern name=path` pairs.
    pub fn externs(&self) -> Vec<(String, PathBuf)> {
        let mut out = Vec::new();
        for (i, a) in self.args.iter().enumerate() {
            let spec = if a == "--extern" { self.args.get(i + 1) } else { None };
            if let Some((name, path)) = spec.and_then(|s| s.split_once('=')) {
                out.push((name.to_string(), self.cwd.join(path)));
            }
        }
        out
    }

    /// The arguments for running the command again with outputs of our
    /// own: cargo's less what names outputs or diagnostics' form
    /// (`--out-dir`, `-o`, `--emit`, `--error-format`, `--json`,
    /// incremental), each with its index in `args`.
    pub fn rerun_args(&self) -> Vec<(usize, &String)> {
        let mut out = Vec::new();
        let mut skip = false;
        for (i, a) in self.args.iter().enumerate() {
            if std::mem::take(&mut skip) {
                continue;
            }
            match a.as_str() {
                "--out-dir" | "-o" | "--emit" | "--error-format" | "--json" => skip = true,
                // (a rerun dumps no shims: `-Zverbose-internals` would
                // print over the build's, in a form they are not read in)
                _ if ["--emit=", "--out-dir=", "--error-format=", "--json=", "-Cincremental=", "-Zdump-mir=", "-Zdump-mir-dir="]
                    .iter()
                    .any(|p| a.starts_with(p)) => {}
                _ => out.push((i, a)),
            }
        }
        out
    }

    /// `NAME-HASH`: the crate name and cargo's `extra-filename`.
    pub fn stem(&self) -> String {
        format!("{}{}", self.crate_name().unwrap_or("lib"), self.extra_filename())
    }

    /// A compilation of a library crate (not a build script, a proc
    /// macro or a query of rustc's target information).
    pub fn is_library_build(&self) -> bool {
        let types: Vec<&str> = self.args.iter().enumerate().filter(|(_, a)| *a == "--crate-type").filter_map(|(i, _)| self.args.get(i + 1).map(String::as_str)).collect();
        self.crate_name().is_some_and(|n| n != "___" && !n.starts_with("build_script"))
            && !types.is_empty()
            && types.iter().all(|t| matches!(*t, "lib" | "rlib"))
            && self.root_index().is_some()
    }

    /// `<out-dir>/<crate>-<hash>.<ext>`.
    pub fn output_file(&self, ext: &str) -> PathBuf {
        let name = self.crate_name().unwrap_or("lib");
        self.out_dir().join(format!("{name}{}.{ext}", self.extra_filename()))
    }

    /// Text form: one `C cwd`, `E key=value` or `A arg` per line, with `\`
    /// and newlines escaped.
    pub fn serialize(&self) -> String {
        let mut s = format!("C {}\n", escape(&self.cwd.to_string_lossy()));
        for (k, v) in &self.env {
            s.push_str(&format!("E {}={}\n", escape(k), escape(v)));
        }
        for a in &self.args {
            s.push_str(&format!("A {}\n", escape(a)));
        }
        s
    }

    pub fn deserialize(text: &str) -> Option<RustcCommand> {
        let mut c = RustcCommand::default();
        for line in text.lines() {
            let (tag, v) = line.split_at_checked(2)?;
            let v = unescape(v);
            match tag {
                "C " => c.cwd = PathBuf::from(v),
                "E " => c.env.push(v.split_once('=').map(|(k, v)| (k.to_string(), v.to_string()))?),
                "A " => c.args.push(v),
                _ => return None,
            }
        }
        Some(c)
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('\n', "\\n")
}

fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some(o) => out.push(o),
            None => out.push('\\'),
        }
    }
    out
}

/// Wrapper mode: `mir-export RUSTC ARGS...` as cargo's `RUSTC_WRAPPER`.
/// Records the kernel crate's command when it builds MIR, and every
/// library dependency's (`deps_dir(record)/NAME-HASH.cmd`: library.rs
/// builds a dependency's MIR from it when a kernel needs one of its
/// bodies), then runs rustc unchanged.
pub fn run_as_wrapper(record: &Path, rustc_and_args: &[String]) -> i32 {
    let Some((rustc, args)) = rustc_and_args.split_first() else { return 2 };
    let cmd = || RustcCommand {
        cwd: std::env::current_dir().unwrap_or_default(),
        env: std::env::vars().filter(|(k, _)| k.starts_with("CARGO")).collect(),
        args: args.to_vec(),
    };
    let written = if args.iter().any(|a| a == "--emit=mir") {
        Some((record.to_path_buf(), cmd()))
    } else {
        let c = cmd();
        c.is_library_build().then(|| (deps_dir(record).join(format!("{}.cmd", c.stem())), c))
    };
    if let Some((file, c)) = written {
        let ok = fs::create_dir_all(file.parent().unwrap_or(Path::new("."))).and_then(|_| fs::write(&file, c.serialize()));
        if let Err(e) = ok {
            eprintln!("mir-export: error: cannot write {}: {e}", file.display());
            return 1;
        }
    }
    match Command::new(rustc).args(args).status() {
        Ok(s) => s.code().unwrap_or(1),
        Err(e) => {
            eprintln!("mir-export: error: cannot run {rustc}: {e}");
            1
        }
    }
}

/// Where the wrapper records the dependencies' commands.
pub fn deps_dir(record: &Path) -> PathBuf {
    record.with_file_name("oxide-deps")
}

/// How to call cargo for one kernel crate.
pub struct Build<'a> {
    pub manifest_dir: &'a Path,
    pub target_dir: PathBuf,
    pub rustc: &'a RustcInfo,
    /// `Some(sysroot)`: compile for nvptx64 against that sysroot
    /// (library::device_sysroot); `None`: for the host.
    pub sysroot: Option<PathBuf>,
    pub verbose: bool,
}

impl Build<'_> {
    /// `-nvptx64` when compiling for the GPU target, else empty: the
    /// host's and the GPU's builds keep their records apart.
    fn target_tag(&self) -> &'static str {
        if self.sysroot.is_some() { "-nvptx64" } else { "" }
    }

    /// One record per rustc and target: when cargo finds the crate fresh it
    /// runs no rustc, and the record of the build that made those files is
    /// reused.
    pub fn record_path(&self) -> PathBuf {
        let commit: String = self.rustc.commit_hash.chars().take(12).collect();
        self.target_dir.join(format!("oxide-rustc-command-{}-{commit}{}.txt", self.rustc.release, self.target_tag()))
    }

    /// Where rustc dumps the MIR of the shims it builds (drop glue).
    /// (`shims2`: before, the layout probe's and the NaN bits' reruns of
    /// rustc dumped there too, the latter with `-Zverbose-internals`, in a
    /// form the parser does not read, over the build's; a new directory is
    /// a new argument, so cargo builds the crate again and dumps afresh.)
    pub fn shim_dir(&self) -> PathBuf {
        self.target_dir.join(format!("shims2{}", self.target_tag()))
    }

    /// Builds the crate's MIR; returns the recorded rustc command.
    pub fn run_cargo(&self) -> DResult<RustcCommand> {
        let exe = std::env::current_exe().map_err(|e| Diag::new(Code::Crate, format!("cannot find my own executable: {e}")))?;
        fs::create_dir_all(&self.target_dir).map_err(|e| io_err(&self.target_dir, e))?;
        let cargo = crate::toolchain::pick_cargo(self.rustc);
        let mut cmd = Command::new(&cargo);
        cmd.current_dir(self.manifest_dir)
            .args(["rustc", "--offline", "--release", "--lib", "--target-dir"])
            .arg(&self.target_dir);
        let mut rustflags = "-Zcross-crate-inline-threshold=always".to_string();
        if let Some(sysroot) = &self.sysroot {
            // RUSTFLAGS reach the crates of the target only: build scripts
            // and proc macros stay the host's, with the rustc's own sysroot
            cmd.args(["--target", crate::library::TARGET]);
            rustflags.push_str(&format!(" --sysroot={}", sysroot.display()));
        }
        cmd.arg("--")
            .args(MIR_FLAGS)
            // rustc's drop glue (`drop_in_place::<T>` shims) is in no
            // `--emit=mir` output; its shim builder dumps each one here
            .arg("-Zdump-mir=make_shim")
            .arg(format!("-Zdump-mir-dir={}", self.shim_dir().display()))
            .env("RUSTC_BOOTSTRAP", "1")
            .env("RUSTFLAGS", &rustflags)
            .env("RUSTC", &self.rustc.path)
            .env("RUSTC_WRAPPER", &exe)
            .env(RECORD_ENV, self.record_path());
        if self.verbose {
            eprintln!("mir-export: running {cmd:?}");
        }
        run_captured(cmd, self.verbose, "cargo could not build the kernel crate")?;
        let text = fs::read_to_string(self.record_path()).map_err(|e| {
            let hint = format!("(remove {} and try again)", self.target_dir.display());
            Diag::new(Code::Io, format!("{}: {e} {hint}", self.record_path().display()))
        })?;
        RustcCommand::deserialize(&text).ok_or_else(|| Diag::new(Code::Io, "corrupt record of the rustc command"))
    }
}

/// Runs a command; on failure returns `what` with the command's stderr.
fn run_captured(mut cmd: Command, verbose: bool, what: &str) -> DResult<std::process::Output> {
    if verbose {
        cmd.stderr(Stdio::inherit());
    }
    let out = cmd.output().map_err(|e| Diag::new(Code::Toolchain, format!("cannot run {:?}: {e}", cmd.get_program())))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        return Err(Diag::new(Code::RustcFailed, format!("{what}:\n{}", stderr.trim_end())));
    }
    Ok(out)
}

pub fn io_err(path: &Path, e: std::io::Error) -> Diag {
    Diag::new(Code::Io, format!("{}: {e}", path.display()))
}

/// Writes next to the destination, then renames: a failed run never
/// leaves a partial or stale-looking output file.
pub fn write_atomically(path: &Path, text: &str) -> DResult<()> {
    let tmp = path.with_file_name(format!(
        ".{}.tmp{}",
        path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        std::process::id()
    ));
    fs::write(&tmp, text).map_err(|e| io_err(&tmp, e))?;
    fs::rename(&tmp, path).map_err(|e| {
        let _ = fs::remove_file(&tmp);
        io_err(path, e)
    })
}

/// Asks rustc for the layouts of `names` (probe names:
/// `layout::probe_source`) by compiling a copy of the crate root with
/// probe aliases appended, or inserted in function bodies.
pub struct LayoutProbe<'a> {
    pub cmd: &'a RustcCommand,
    pub rustc: &'a RustcInfo,
    pub keep_temps: bool,
    pub verbose: bool,
}

impl LayoutProbe<'_> {
    pub fn run(&self, names: &[String]) -> DResult<Vec<Result<Layout, String>>> {
        let (stderr, probe) = self.probe(rustc_compat::layout_attr(self.rustc.minor), names)?;
        Ok(layout::read_probe_output(&stderr, &probe, self.rustc.minor))
    }

    /// The element counts of array types `names` (`[(); N]`): the values
    /// of constants `N` (export/probed_consts.rs).
    pub fn run_counts(&self, names: &[String]) -> DResult<Vec<Result<u64, String>>> {
        let (stderr, probe) = self.probe_as("counts", rustc_compat::layout_attr(self.rustc.minor), names)?;
        Ok(layout::read_probe_counts(&stderr, &probe))
    }

    /// The vtable layouts of trait object types `names` (`dyn Shape`),
    /// through `#[rustc_dump_vtable]` (vtable.rs).
    pub fn run_vtables(&self, names: &[String]) -> DResult<Vec<Result<Vec<vtable::Entry>, String>>> {
        let (stderr, probe) = self.probe(vtable::ATTR, names)?;
        Ok(vtable::read_probe_output(&stderr, &probe))
    }

    /// rustc's TypeId and type name of each type of `names` (probe names
    /// that the crate root can spell: reflect.rs), read from the LLVM IR of
    /// the crate root with the probe's functions appended.
    pub fn run_reflect(&self, names: &[String]) -> DResult<Vec<Result<reflect::Reflected, String>>> {
        let root_index = self.cmd.root_index().ok_or_else(|| Diag::new(Code::Export, "cannot find the crate root in rustc's arguments"))?;
        let root = self.cmd.cwd.join(&self.cmd.args[root_index]);
        let mut text = fs::read_to_string(&root).map_err(|e| io_err(&root, e))?;
        if !text.ends_with('\n') {
            text.push('\n');
        }
        let text = reflect::probe_source(&text, names);
        let cache = ProbeCache::new(self.cmd, self.rustc, "reflect-llvm-ir", &text);
        let ir = match cache.as_ref().and_then(|c| c.read()) {
            Some(ir) => ir,
            None => {
                let ir = self.compile_ir(root_index, &root, &text)?;
                if let Some(cache) = cache {
                    cache.write(&ir);
                }
                ir
            }
        };
        Ok(reflect::read_ir(&ir, names.len()))
    }

    /// The LLVM IR (-O2) of the crate root replaced by `text`, compiled
    /// with the recorded arguments less cross-crate inlining (which would
    /// leave the probe's functions uncompiled) and with function merging
    /// off (which could make one an alias of another).
    fn compile_ir(&self, root_index: usize, root: &Path, text: &str) -> DResult<String> {
        let probe_file = root.with_file_name(format!(".oxide-reflect-probe-{}.rs", std::process::id()));
        let out_dir = self.cmd.out_dir().join(format!("oxide-reflect-probe-{}", std::process::id()));
        fs::write(&probe_file, text).map_err(|e| io_err(&probe_file, e))?;
        let mut args: Vec<String> = self
            .cmd
            .rerun_args()
            .into_iter()
            .filter(|(_, a)| !a.starts_with("-Zcross-crate-inline-threshold") && !a.starts_with("-Zdump-mir"))
            .map(|(i, a)| if i == root_index { probe_file.to_string_lossy().into_owned() } else { a.clone() })
            .collect();
        args.extend(["--emit=llvm-ir".into(), "-Copt-level=2".into(), "-Zmerge-functions=disabled".into(), "-Awarnings".into()]);
        args.push(format!("--out-dir={}", out_dir.display()));
        let mut cmd = Command::new(&self.rustc.path);
        cmd.current_dir(&self.cmd.cwd).args(&args).env("RUSTC_BOOTSTRAP", "1").envs(self.cmd.env.iter().cloned());
        if self.verbose {
            eprintln!("mir-export: type identity probe: {cmd:?}");
        }
        let result = run_captured(cmd, self.verbose, "rustc failed on the type identity probe (TypeId::of, type_name)").and_then(|_| {
            let ll = self.cmd.output_file("ll");
            let ll = out_dir.join(ll.file_name().unwrap_or_default());
            fs::read_to_string(&ll).map_err(|e| io_err(&ll, e))
        });
        // what reflect.rs reads: functions' `define` and `ret` lines, globals
        let result = result.map(|ir| {
            let kept = ir.lines().filter(|l| l.starts_with("define ") || l.trim_start().starts_with("ret ") || *l == "}" || l.starts_with('@'));
            kept.collect::<Vec<_>>().join("\n")
        });
        if self.keep_temps {
            eprintln!("mir-export: kept the type identity probe {}", probe_file.display());
        } else {
            let _ = fs::remove_file(&probe_file);
            let _ = fs::remove_dir_all(&out_dir);
        }
        result
    }

    /// Compiles the crate root with one `#[attr]` alias per name
    /// (`layout::probe_source`); rustc's stderr and the probe's source.
    fn probe(&self, attr: &str, names: &[String]) -> DResult<(String, layout::ProbeSource)> {
        self.probe_as(attr, attr, names)
    }

    /// `probe`, its answer cached under `what` (one cache slot per kind
    /// of probe).
    fn probe_as(&self, what: &str, attr: &str, names: &[String]) -> DResult<(String, layout::ProbeSource)> {
        let root_index = self.cmd.root_index().ok_or_else(|| Diag::new(Code::Export, "cannot find the crate root in rustc's arguments"))?;
        let root = self.cmd.cwd.join(&self.cmd.args[root_index]);
        let src = fs::read_to_string(&root).map_err(|e| io_err(&root, e))?;
        let probe = layout::probe_source(&src, attr, names);
        let cache = ProbeCache::new(self.cmd, self.rustc, what, &probe.text);
        if let Some((stderr, file)) = cache.as_ref().and_then(|c| c.read().map(|t| (t, &c.file))) {
            if self.verbose {
                eprintln!("mir-export: layout probe answered from {}", file.display());
            }
            return Ok((stderr, probe));
        }
        // The probe must sit next to the root so that `mod x;` resolves.
        let probe_file = root.with_file_name(format!(".oxide-layout-probe-{}.rs", std::process::id()));
        let out_dir = self.cmd.out_dir().join(format!("oxide-layout-probe-{}", std::process::id()));
        fs::write(&probe_file, &probe.text).map_err(|e| io_err(&probe_file, e))?;
        let result = self.compile(root_index, &probe_file, &out_dir);
        if self.keep_temps {
            eprintln!("mir-export: kept the layout probe {}", probe_file.display());
        } else {
            let _ = fs::remove_file(&probe_file);
            let _ = fs::remove_dir_all(&out_dir);
        }
        let stderr = result?;
        if let Some(cache) = cache {
            cache.write(&stderr);
        }
        Ok((stderr, probe))
    }

    /// Compiles the probe with the recorded arguments; returns stderr
    /// (the layouts are error diagnostics, so rustc's exit status is 1).
    fn compile(&self, root_index: usize, probe_file: &Path, out_dir: &Path) -> DResult<String> {
        let mut args: Vec<String> = self
            .cmd
            .rerun_args()
            .into_iter()
            .map(|(i, a)| if i == root_index { probe_file.to_string_lossy().into_owned() } else { a.clone() })
            .collect();
        args.extend(["--emit=metadata".into(), "--error-format=json".into(), "-Zcrate-attr=feature(rustc_attrs)".into()]);
        // a function item's stand-in implements the closure traits (layout.rs)
        args.extend(["-Zcrate-attr=feature(unboxed_closures)".into(), "-Zcrate-attr=feature(fn_traits)".into()]);
        args.push(format!("--out-dir={}", out_dir.display()));
        let mut cmd = Command::new(&self.rustc.path);
        cmd.current_dir(&self.cmd.cwd).args(&args).env("RUSTC_BOOTSTRAP", "1").envs(self.cmd.env.iter().cloned());
        if self.verbose {
            eprintln!("mir-export: layout probe: {cmd:?}");
        }
        let out = cmd.output().map_err(|e| Diag::new(Code::Toolchain, format!("cannot run {}: {e}", self.rustc.path.display())))?;
        Ok(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// A probe's stderr kept from the last export of the same crate: one file
/// per crate command and attribute in the output directory, whose first
/// line is the key of what it answers -- the rustc's `-vV`, the recorded
/// command, the probe's source and the MIR file's modification time and
/// size. cargo reruns rustc, which rewrites the MIR file, whenever a source
/// file of the crate or a dependency changes, so an unchanged MIR file
/// means unchanged types and layouts; any other change misses.
struct ProbeCache {
    file: PathBuf,
    key: String,
}

impl ProbeCache {
    fn new(cmd: &RustcCommand, rustc: &RustcInfo, attr: &str, text: &str) -> Option<ProbeCache> {
        let meta = fs::metadata(cmd.output_file("mir")).ok()?;
        let mtime = meta.modified().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?;
        let stamp = format!("{}.{:09} {}", mtime.as_secs(), mtime.subsec_nanos(), meta.len());
        let command = cmd.serialize();
        let slot = crate::library::fnv1a([command.as_str(), attr]);
        let key = crate::library::fnv1a([rustc.verbose.as_str(), command.as_str(), attr, text, stamp.as_str(), "probe-v1"]);
        let file = cmd.out_dir().join("oxide-probe-cache").join(format!("{slot:016x}"));
        Some(ProbeCache { file, key: format!("{key:016x}") })
    }

    fn read(&self) -> Option<String> {
        let text = fs::read_to_string(&self.file).ok()?;
        let (key, stderr) = text.split_once('\n')?;
        (key == self.key).then(|| stderr.to_string())
    }

    /// A cache that cannot be written is only slower next time.
    fn write(&self, stderr: &str) {
        if self.file.parent().is_some_and(|dir| fs::create_dir_all(dir).is_ok()) {
            let _ = write_atomically(&self.file, &format!("{}\n{stderr}", self.key));
        }
    }
}

/// The kernel crate's MIR text once more, printed with
/// `-Zverbose-internals` (exact bits of every scalar constant; nanbits.rs):
/// the recorded command with the MIR written to a file of its own and no
/// other output, so cargo's files are left alone.
pub fn verbose_mir(cmd: &RustcCommand, rustc: &RustcInfo, keep_temps: bool, verbose: bool) -> DResult<String> {
    let out_dir = cmd.out_dir().join(format!("oxide-verbose-mir-{}", std::process::id()));
    fs::create_dir_all(&out_dir).map_err(|e| io_err(&out_dir, e))?;
    let mir_file = out_dir.join("verbose.mir");
    let mut args: Vec<String> = cmd.rerun_args().into_iter().map(|(_, a)| a.clone()).collect();
    args.push(format!("--emit=mir={}", mir_file.display()));
    args.push("-Zverbose-internals".into());
    args.push(format!("--out-dir={}", out_dir.display()));
    let mut c = Command::new(&rustc.path);
    c.current_dir(&cmd.cwd).args(&args).env("RUSTC_BOOTSTRAP", "1").envs(cmd.env.iter().cloned());
    if verbose {
        eprintln!("mir-export: NaN bits: {c:?}");
    }
    let result = run_captured(c, verbose, "rustc -Zverbose-internals failed")
        .and_then(|_| fs::read_to_string(&mir_file).map_err(|e| io_err(&mir_file, e)));
    if keep_temps {
        eprintln!("mir-export: kept {}", mir_file.display());
    } else {
        let _ = fs::remove_dir_all(&out_dir);
    }
    result
}

/// Source files listed in a rustc dep-info (`.d`) file.
/// The drop glue rustc built for the crate: the `drop_in_place::<T>`
/// shims dumped into `dir` (`core.ptr-drop_in_place.T.*.SimplifyCfg-
/// make_shim.after.mir`, each `fn core::ptr::drop_in_place(_1: *mut T)`),
/// as bodies named `core::ptr::drop_in_place::<T>`. A file that does not
/// parse is left out (a drop of its type stays an error).
pub fn drop_glue_bodies(dir: &Path) -> Vec<crate::mirparse::ast::Body> {
    let mut files = Vec::new();
    dump_files(dir, &mut files);
    files.sort();
    let mut out: Vec<crate::mirparse::ast::Body> = Vec::new();
    for f in files {
        // (a type naming a closure by its span, `{closure@src/lib.rs:..}`,
        // puts a `/` in the file name: the dump is in a subdirectory)
        let name = f.strip_prefix(dir).map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if !name.starts_with("core.ptr-drop_in_place.") || !name.ends_with("make_shim.after.mir") {
            continue;
        }
        let Ok(text) = fs::read_to_string(&f) else { continue };
        let Ok(file) = crate::mirparse::parse_mir_file(&text) else { continue };
        for mut b in file.bodies {
            let Some(ty) = b.locals.get(1).and_then(|l| l.as_ref()).and_then(|l| l.ty.pointee()).cloned() else { continue };
            let glue = format!("core::ptr::drop_in_place::<{ty}>");
            let Ok(path) = crate::mirparse::parser::parse_str(&glue, |p| p.path(true)) else { continue };
            if b.name != "core::ptr::drop_in_place" || out.iter().any(|o| o.name == path.to_string()) {
                continue;
            }
            b.name = path.to_string();
            b.path = path;
            out.push(b);
        }
    }
    out
}

/// The files under `dir`, subdirectories included.
fn dump_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for e in entries.filter_map(|e| e.ok()) {
        let p = e.path();
        match e.file_type().is_ok_and(|t| t.is_dir()) {
            true => dump_files(&p, out),
            false => out.push(p),
        }
    }
}

pub fn dep_info_sources(d_file: &Path) -> Vec<PathBuf> {
    let Ok(text) = fs::read_to_string(d_file) else { return Vec::new() };
    let mut out: Vec<PathBuf> = Vec::new();
    for line in text.lines() {
        let Some((_, deps)) = line.split_once(": ") else { continue };
        for d in deps.split_whitespace().filter(|d| d.ends_with(".rs")) {
            let p = PathBuf::from(d);
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_record_round_trips() {
        let c = RustcCommand {
            cwd: "/w/k".into(),
            env: vec![("CARGO_PKG_NAME".into(), "k".into())],
            args: vec![
                "--crate-name".into(),
                "k".into(),
                "src/lib.rs".into(),
                "-C".into(),
                "extra-filename=-ab12".into(),
                "--out-dir".into(),
                "/w/k/target/release/deps".into(),
                "--extern".into(),
                "oxide_device=/w/t/liboxide_device-1.rlib".into(),
                "--cfg".into(),
                "a\\b\nc".into(),
            ],
        };
        let back = RustcCommand::deserialize(&c.serialize()).unwrap();
        assert_eq!(back.args, c.args);
        assert_eq!(back.env, c.env);
        assert_eq!(back.root_index(), Some(2));
        assert_eq!(back.output_file("mir"), PathBuf::from("/w/k/target/release/deps/k-ab12.mir"));
        assert_eq!(back.externs()[0].0, "oxide_device");
    }
}
