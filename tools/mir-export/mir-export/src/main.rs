//! mir-export: compiles a Rust GPU kernel crate with rustc, reads the MIR
//! text rustc prints, and writes it as oxide-mir JSON for oxidec.
//!
//! Pipeline (one function each below): check the toolchain (toolchain.rs),
//! build the MIR with cargo (driver.rs), parse it (mirparse/), read the
//! ADT declarations of the sources (adts.rs), export reachable bodies with
//! rustc's layouts (export/, layout.rs, types.rs), write the file (json.rs).

mod adts;
mod cli;
mod diag;
mod driver;
mod export;
mod json;
mod layout;
mod library;
mod mirparse;
mod nanbits;
mod rustc_compat;
mod selftest;
mod toolchain;
mod types;
mod reflect;
mod usetree;
mod vtable;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cli::{Command, Options};
use diag::{Code, DResult, Diag};
use driver::{Build, LayoutProbe, RustcCommand};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(record) = std::env::var_os(driver::RECORD_ENV) {
        return ExitCode::from(driver::run_as_wrapper(Path::new(&record), &args) as u8);
    }
    match cli::parse_args(&args) {
        Ok(Command::Help) => print!("{}", cli::HELP),
        Ok(Command::Version) => println!("mir-export {}", env!("CARGO_PKG_VERSION")),
        Ok(Command::Export(opts)) => {
            match run(&opts) {
                Err(d) => {
                    eprintln!("{d}");
                    return ExitCode::from(1);
                }
                // --keep-going left kernels out
                Ok(n) if n > 0 => return ExitCode::from(3),
                Ok(_) => {}
            }
        }
        Err(msg) => {
            eprintln!("mir-export: error[{}]: {msg}\nTry `mir-export --help`.", Code::Usage);
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}

/// The export; its result is the number of kernels --keep-going left out.
fn run(opts: &Options) -> DResult<usize> {
    let rustc = toolchain::pick_rustc(opts.rustc.as_deref());
    let krate = KernelCrate::open(&opts.input)?;
    let info = match toolchain::probe_rustc(&rustc, &krate.user_dir, &krate.manifest_dir.join("target").join("mir-export")) {
        Ok(info) => info,
        Err(d) => {
            krate.cleanup(opts.keep_temps);
            return Err(d);
        }
    };
    if info.needs_selftest {
        let cache = krate.manifest_dir.join("target").join("mir-export");
        if let Err(d) = fs::create_dir_all(&cache).map_err(|e| driver::io_err(&cache, e)).and_then(|_| selftest::ensure(&info, &cache, opts.verbose)) {
            krate.cleanup(opts.keep_temps);
            return Err(d);
        }
    }
    let mut left_out = 0;
    let mut report = |k: &str, d: &Diag| {
        eprintln!("{d}\nmir-export: note: kernel `{k}` left out");
        left_out += 1;
    };
    let result = export_crate(opts, &info, &krate, opts.keep_going.then_some(&mut report as &mut export::LeftOut));
    krate.cleanup(opts.keep_temps);
    let doc = result?;
    driver::write_atomically(&opts.output, &doc.to_pretty())?;
    Ok(left_out)
}

fn export_crate(
    opts: &Options,
    info: &toolchain::RustcInfo,
    krate: &KernelCrate,
    left_out: Option<&mut export::LeftOut>,
) -> DResult<json::Json> {
    let build = Build {
        manifest_dir: &krate.manifest_dir,
        target_dir: krate.manifest_dir.join("target").join("mir-export"),
        rustc: info,
        sysroot: library::device_sysroot(info, opts.verbose)?,
        verbose: opts.verbose,
    };
    let cmd = build.run_cargo()?;
    let mir_path = cmd.output_file("mir");
    let mut text = fs::read_to_string(&mir_path).map_err(|e| driver::io_err(&mir_path, e))?;
    if nanbits::has_nan(&text) {
        text = recover_nan_bits(opts, info, &cmd, text);
    }
    let mut mir = mirparse::parse_mir_file(&text)
        .map_err(|e| Diag::at(format!("{}:{}", mir_path.display(), e.line), Code::MirParse, format!("cannot parse rustc's MIR: {}", e.msg)))?;
    mir.bodies.extend(driver::drop_glue_bodies(&build.shim_dir()));
    let deps = library::DepCrates::find(&cmd, &driver::deps_dir(&build.record_path()));
    let adts = read_adt_decls(&cmd, &deps);
    let externs: Vec<String> = cmd.externs().into_iter().map(|e| e.0).collect();
    let crate_name = cmd.crate_name().unwrap_or("kernels").to_string();
    let library = library::Libraries::new(info, deps, opts.verbose);
    let input = export::ExportInput {
        mir: &mir,
        mir_text: &text,
        crate_name: &crate_name,
        crate_dir: &krate.user_dir,
        rustc: info,
        target: if build.sysroot.is_some() { library::TARGET } else { info.host.as_str() },
        adts: &adts,
        extern_crates: &externs,
        library: &library,
    };
    let probe = LayoutProbe { cmd: &cmd, rustc: info, keep_temps: opts.keep_temps, verbose: opts.verbose };
    export::export(
        &input,
        &mut |names| probe.run(names),
        &mut |names| probe.run_vtables(names),
        &mut |names| probe.run_reflect(names),
        &mut |names| probe.run_counts(names),
        left_out,
    )
}

/// The MIR text with the bits of its NaN constants (nanbits.rs), taken from
/// a second rustc run with `-Zverbose-internals`. A NaN left without bits
/// is refused where a body uses it.
fn recover_nan_bits(opts: &Options, info: &toolchain::RustcInfo, cmd: &RustcCommand, text: String) -> String {
    let verbose = match driver::verbose_mir(cmd, info, opts.keep_temps, opts.verbose) {
        Ok(v) => v,
        Err(d) => {
            if opts.verbose {
                eprintln!("mir-export: NaN bits: {d}");
            }
            return text;
        }
    };
    let (resolved, report) = nanbits::resolve(&text, &verbose);
    if opts.verbose {
        eprintln!(
            "mir-export: NaN bits: {} constants resolved, {} not{}",
            report.resolved,
            report.unresolved,
            report.mismatch.map(|m| format!(" ({m})")).unwrap_or_default()
        );
    }
    resolved
}

/// ADT declarations of the kernel crate and its dependencies, from the
/// source files listed in their dep-info files (the first is the crate
/// root), each under its crate and module path. A crate the kernel reaches
/// only through re-exports is under the kernel's spelling of it (digest's
/// `core_api::TruncSide` is `sha2::digest::core_api::TruncSide`).
fn read_adt_decls(cmd: &RustcCommand, deps: &library::DepCrates) -> adts::AdtTable {
    let mut table = adts::AdtTable::new();
    let mut d_files = vec![(String::new(), cmd.output_file("d"))];
    for (name, lib) in cmd.externs() {
        // `.../liboxide_device-HASH.rlib` → `.../oxide_device-HASH.d`
        let stem = lib.file_stem().map(|s| s.to_string_lossy().trim_start_matches("lib").to_string());
        if let Some(stem) = stem {
            d_files.push((name, lib.with_file_name(format!("{stem}.d"))));
        }
    }
    for (spelled, dep) in deps.spelled() {
        if !d_files.iter().any(|(k, _)| k == spelled) {
            d_files.push((spelled.to_string(), dep.output_file("d")));
        }
    }
    for (krate, d) in d_files {
        let sources: Vec<PathBuf> = driver::dep_info_sources(&d).iter().map(|s| cmd.cwd.join(s)).collect();
        let Some(root) = sources.first() else { continue };
        for src in &sources {
            // a file outside the module layout: no exact module (its
            // types are found by name within the crate)
            let module = adts::module_of_file(root, src).unwrap_or_else(|| "?".to_string());
            if let Ok(text) = fs::read_to_string(src) {
                table.add_file(&krate, &module, &text);
            }
        }
    }
    table
}

/// The crate to build: a crate directory, or a generated crate around a
/// single `.rs` file.
struct KernelCrate {
    manifest_dir: PathBuf,
    /// Files below this directory are the user's (spans, diagnostics).
    user_dir: PathBuf,
    /// The generated crate of FILE.rs mode, removed afterwards.
    temp: Option<PathBuf>,
}

impl KernelCrate {
    fn open(input: &Path) -> DResult<KernelCrate> {
        let abs = fs::canonicalize(input).map_err(|e| driver::io_err(input, e))?;
        if abs.is_dir() {
            if !abs.join("Cargo.toml").is_file() {
                return Err(Diag::new(Code::Crate, format!("{}: no Cargo.toml in this directory", input.display())));
            }
            return Ok(KernelCrate { manifest_dir: abs.clone(), user_dir: abs, temp: None });
        }
        if abs.extension().is_none_or(|e| e != "rs") {
            return Err(Diag::new(Code::Crate, format!("{}: expected a crate directory or a .rs file", input.display())));
        }
        Self::generate(&abs)
    }

    /// A crate whose library is `file` and which depends on oxide-device.
    fn generate(file: &Path) -> DResult<KernelCrate> {
        let device = find_oxide_device()?;
        let stem = file.file_stem().unwrap_or_default().to_string_lossy().replace('-', "_");
        let dir = std::env::temp_dir().join(format!("mir-export-{}-{stem}", std::process::id()));
        let manifest = format!(
            "[package]\nname = \"{stem}\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n\
             [lib]\npath = {file:?}\n\n\
             [dependencies]\noxide-device = {{ path = {device:?} }}\n\n\
             [workspace]\n\n[profile.release]\npanic = \"abort\"\n",
        );
        fs::create_dir_all(&dir).map_err(|e| driver::io_err(&dir, e))?;
        fs::write(dir.join("Cargo.toml"), manifest).map_err(|e| driver::io_err(&dir, e))?;
        let user_dir = file.parent().unwrap_or(Path::new("/")).to_path_buf();
        Ok(KernelCrate { manifest_dir: dir.clone(), user_dir, temp: Some(dir) })
    }

    fn cleanup(&self, keep: bool) {
        match (&self.temp, keep) {
            (Some(dir), true) => eprintln!("mir-export: kept the generated crate {}", dir.display()),
            (Some(dir), false) => {
                let _ = fs::remove_dir_all(dir);
            }
            (None, _) => {}
        }
    }
}

/// `$OXIDE_DEVICE_DIR`, else the first of `tools/mir-export/oxide-device`
/// (a source tree, e.g. exe in build/bin), `oxide-device` (the workspace,
/// exe in its target dir) and `share/oxide/oxide-device` (make install)
/// found in a directory above the executable.
fn find_oxide_device() -> DResult<PathBuf> {
    if let Some(dir) = std::env::var_os("OXIDE_DEVICE_DIR") {
        return Ok(PathBuf::from(dir));
    }
    let exe = std::env::current_exe().map_err(|e| Diag::new(Code::Crate, format!("cannot find my own executable: {e}")))?;
    for base in exe.ancestors().skip(1) {
        for rel in ["tools/mir-export/oxide-device", "oxide-device", "share/oxide/oxide-device"] {
            let cand = base.join(rel);
            if cand.join("Cargo.toml").is_file() {
                return Ok(cand);
            }
        }
    }
    Err(Diag::new(Code::Crate, "cannot find the oxide-device crate; set OXIDE_DEVICE_DIR to its directory"))
}
