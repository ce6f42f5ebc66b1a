//! oxide-runner fuzz: random kernels (kernel-gen) through the whole
//! pipeline, differentially checked against rustc's CPU code. The steps,
//! options and files are in HELP (`oxide-runner fuzz --help`) and
//! docs/fuzzing.md; the verdicts and the report are in src/report.rs.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use crate::conf::{self, first_error, read_lossy, remove, Conf, CONF};
use crate::{batch, export, report, rustsrc, suite};

pub const HELP: &str = "\
oxide-runner fuzz: random kernels (tools/mir-export/kernel-gen) through the
whole pipeline, differentially checked against rustc's CPU code.

  oxide-runner fuzz [--seeds N] [--start S] [--per-crate K] [options]
  (sh tests/fuzz/run.sh ... runs it from the repository root)

Kernels gen_S .. gen_{S+N-1} are generated K to a crate under
build/fuzz/kernels/; each crate is a conformance \"group crate\"
(docs/conformance.md) and goes through the conformance machinery:
  1. the CPU reference: tests/conformance/cpu-ref (its main.rs and
     build.rs, through a manifest generated here over the fuzz crates);
  2. mir-export of each crate (oxide-runner export-group: a kernel
     mir-export rejects fails alone, with its own error; the crate is
     built once, and a rejected kernel is left out without a rebuild);
  3. each crate at once (oxide-runner batch-group): oxidec -> PTX and
     ptxas -arch=sm_90 once, oxidec --target=host and cc -shared once, and
     one harness.c process (oxrt's emulator) runs every kernel, each line
     compared byte for byte with the CPU reference's. A kernel that fails
     there, or that a compiler error names, is checked again alone by
     the conformance suite's worker (oxide-runner kernel), in compile
     mode (mirsplit, oxidec -> PTX, ptxas), then in host mode (oxidec --target=host,
     cc -shared, harness): each failure has its own message and files;
  4. with --gpu, oxide-runner conformance-gpu on the PTX of the kernels
     that passed (needs a GPU).
Prints `PASS gen_N` or `FAIL gen_N: STAGE: message` per kernel, the
failures grouped by message, then `fuzz: N passed, M failed`. A failing
kernel is written again alone to build/fuzz/failed/gen_N/ (a crate with
just that kernel: gen_N depends only on N and the feature options), with
its results, and the line of its source is printed; the group crate of a
failure is kept in build/fuzz/kernels/.

With no arguments: seeds 0..23, 8 per crate (CI; about 20 s).

Many kernels: 100 a crate. Each crate has a fixed cost (a cargo run,
the layout probe, one oxidec, ptxas, cc and harness process each),
while each kernel mir-export rejects costs a retry that reads the whole
crate's MIR again: 100 balances the two. On two otherwise idle cores
  sh tests/fuzz/run.sh --seeds 10000 --start 1000000 --per-crate 100 --gaps-ok
takes about 25 minutes (7 kernels a second; a sixth of it the CPU
reference, a third the exports, half the crates' compiles; longer where
many kernels are rejected or checked alone), and build/fuzz holds up to
about 2.5 GB meanwhile.
FUZZ_DIR gives a run a directory of its own.

Options:
  --seeds N --start S --per-crate K   the kernels (defaults 24, 0, 8)
  --disable F,.. / --enable F,..      kernel-gen features (kernel-gen --list-features)
  --trap-rate N                       1 kernel in N may trap (default 50)
  --gaps-ok   a construct that mir-export or oxidec cleanly reports as
              not supported yet (error[OX0200]) or not possible on the
              GPU (error[OX0300]) is a GAP, not a failure
  --compile-only   no CPU reference and no host emulation
  --gpu       also run the PTX on the GPU (oxide-runner conformance-gpu)
  --gpu-artifacts   leave in build/fuzz what conformance-gpu needs for a GPU
              machine without Rust (GROUP.kernels, the kernels that
              passed; GROUP.expected; their module for each GPU variant,
              GPU_VARIANTS: GROUP.O3.ptx, GROUP.O3.cubin,
              GROUP.O0.ptx, GROUP.O0.cubin), all packed in
              build/fuzz/gpu-pack.tar.xz: there, unpack it and run
              CONF_BUILD=build/fuzz sh tests/conformance/run-gpu.sh
  --keep      keep the crates and build products of passing kernels too
  --no-batch  check every kernel alone (step 3 without the crate at
              once: the same checks and messages, several times slower)
  --crate DIR check an existing kernel crate instead of generating (to
              reduce a failure by hand; repeatable; DIR's name is its
              group name; its oxide-device dependency is repointed to
              this tree's)

Environment: as oxide-runner conformance (JOBS, MIR_EXPORT, OXIDEC,
PTXAS, CC, CARGO, GPU_VARIANTS); B (the build directory, build);
KERNEL_GEN (default: built into $CARGO_TARGET, default $B/cargo);
FUZZ_DIR (default build/fuzz: everything the run writes).
";

/// The command line.
#[derive(Debug, Default)]
pub struct Options {
    pub seeds: u64,
    pub start: u64,
    pub per: u64,
    /// kernel-gen's feature options
    pub feats: Vec<String>,
    pub gaps_ok: bool,
    pub compile_only: bool,
    pub gpu: bool,
    pub gpu_art: bool,
    pub keep: bool,
    pub batch: bool,
    /// --crate: absolute directories
    pub crates: Vec<PathBuf>,
}

/// Parses the options; Err(message) on a usage error, Ok(None) for --help.
pub fn parse(args: &[String]) -> Result<Option<Options>, String> {
    let mut o = Options { seeds: 24, per: 8, batch: true, ..Options::default() };
    let mut it = args.iter();
    let num = |v: Option<&String>| -> Result<u64, String> {
        v.and_then(|v| v.parse().ok()).ok_or_else(|| "--seeds, --start, --per-crate take numbers".to_string())
    };
    while let Some(a) = it.next() {
        match a.as_str() {
            "--seeds" => o.seeds = num(it.next())?,
            "--start" => o.start = num(it.next())?,
            "--per-crate" => o.per = num(it.next())?,
            "--disable" | "--enable" | "--trap-rate" => {
                let v = it.next().ok_or_else(|| format!("{a} takes a value"))?;
                o.feats.extend([a.clone(), v.clone()]);
            }
            "--gaps-ok" => o.gaps_ok = true,
            "--compile-only" => o.compile_only = true,
            "--gpu" => (o.gpu, o.gpu_art) = (true, true),
            "--gpu-artifacts" => (o.gpu_art, o.keep) = (true, true),
            "--keep" => o.keep = true,
            "--no-batch" => o.batch = false,
            "--crate" => {
                let d = it.next().ok_or("--crate takes a directory")?;
                o.crates.push(fs::canonicalize(d).map_err(|e| format!("{d}: {e}"))?);
            }
            "-h" | "--help" => return Ok(None),
            _ => return Err(format!("unknown argument {a} (see --help)")),
        }
    }
    if o.per < 1 || o.seeds < 1 {
        return Err("--seeds and --per-crate must be >= 1".into());
    }
    Ok(Some(o))
}

/// A fatal error of the run: its message (printed as `fuzz: ...`).
pub type Fatal = String;

/// The run's state.
pub struct Run {
    pub o: Options,
    pub c: Conf,
    /// FUZZ_DIR
    pub f: PathBuf,
    pub root: PathBuf,
    pub kg: PathBuf,
    pub start: Instant,
    /// group crates, in order
    pub groups: Vec<String>,
    /// "host" or "compile"
    pub mode: &'static str,
    pub jobs: usize,
}

impl Run {
    pub fn secs(&self) -> u64 {
        self.start.elapsed().as_secs()
    }

    /// kernel-gen of `count` kernels from `seed` into crate `out`.
    pub fn gen(&self, seed: u64, count: u64, out: &Path, quiet: bool) -> bool {
        let mut cmd = Command::new(&self.kg);
        cmd.args(["--seed", &seed.to_string(), "--count", &count.to_string(), "--out"]).arg(out);
        cmd.arg("--device-dir").arg(self.root.join("tools/mir-export/oxide-device")).args(&self.o.feats);
        if quiet {
            cmd.stderr(std::process::Stdio::null());
        }
        cmd.status().is_ok_and(|s| s.success())
    }

    /// The feature options as printed (" --disable x").
    pub fn feats(&self) -> String {
        self.o.feats.iter().map(|f| format!(" {f}")).collect()
    }

    /// The conformance settings with the group crates of the fuzz run.
    fn conf_fuzz(&self) -> Conf {
        Conf { kernels: self.f.join("kernels"), ..self.c.clone() }
    }
}

/// The run; its exit status.
pub fn main(o: Options) -> Result<i32, Fatal> {
    let mut r = setup(o)?;
    crates(&mut r)?;
    let missing = checks(&mut r)?;
    if !missing.is_empty() {
        println!("fuzz: checks that cannot run:{missing}");
    }
    if r.mode == "host" {
        println!(
            "fuzz: checks: export, oxidec + ptxas, host emulation vs CPU reference{}",
            if r.o.gpu { ", GPU vs CPU reference" } else { "" }
        );
    } else {
        println!("fuzz: checks: export, oxidec + ptxas (compile only: no differential comparison)");
    }
    export_all(&mut r);
    if r.o.batch {
        batch_all(&r);
    }
    workers(&r);
    let gpu_groups = if r.o.gpu_art { gpu_artifacts(&r) } else { Vec::new() };
    if r.o.gpu {
        let log = r.f.join("gpu.log");
        if !gpu_groups.is_empty() {
            let me = std::env::current_exe().map_err(|e| format!("oxide-runner: {e}"))?;
            conf::run_logged(Command::new(me).arg("conformance-gpu").args(&gpu_groups), &log);
        }
        println!("fuzz: GPU: {}", read_lossy(&log).lines().last().unwrap_or(""));
    }
    Ok(report::report(&r, &gpu_groups))
}

/// The options checked, the directories and tools set up, the old run
/// cleaned (but failed/, the C tools and the CPU reference's cargo cache).
fn setup(o: Options) -> Result<Run, Fatal> {
    for f in ["mirsplit.c", "harness.c", "cpu-ref/src/main.rs", "cpu-ref/build.rs"].map(|f| format!("{CONF}/{f}")) {
        if !Path::new(&f).is_file() {
            return Err(format!("{f} is missing: the conformance machinery is needed"));
        }
    }
    let f = PathBuf::from(std::env::var("FUZZ_DIR").ok().filter(|v| !v.is_empty()).unwrap_or("build/fuzz".into()));
    // results (expected lines, GPU modules) in F, everything else in F/work
    std::env::set_var("CONF_BUILD", &f);
    std::env::set_var("CONF_WORK", f.join("work"));
    let c = Conf::from_env();
    if !conf::is_executable(Path::new(&c.mir_export)) {
        return Err(format!("{} is missing: run make", c.mir_export));
    }
    if !conf::is_executable(Path::new(&c.oxidec)) {
        return Err(format!("{} is missing: run make", c.oxidec));
    }
    let jobs = conf::jobs();
    std::env::set_var("JOBS", jobs.to_string());
    let build = std::env::var("B").ok().filter(|v| !v.is_empty()).unwrap_or("build".into());
    let ct = std::env::var("CARGO_TARGET").ok().filter(|v| !v.is_empty()).unwrap_or(format!("{build}/cargo"));
    let kg = match std::env::var("KERNEL_GEN").ok().filter(|v| !v.is_empty()) {
        Some(k) => PathBuf::from(k),
        None => {
            if o.crates.is_empty() {
                build_kernel_gen(&ct)?;
            }
            PathBuf::from(&ct).join("release/kernel-gen")
        }
    };
    let start = Instant::now();
    for x in conf::entries(&f).into_iter().chain(conf::entries(&c.w)) {
        if !matches!(conf::file_name(&x).as_str(), "failed" | "work" | "cpu-ref-target" | "tools") {
            remove(&x);
        }
    }
    for d in [f.join("kernels"), f.join("failed"), c.w.clone()] {
        fs::create_dir_all(&d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    let root = std::env::current_dir().map_err(|e| e.to_string())?;
    Ok(Run { o, c, f, root, kg, start, groups: Vec::new(), mode: "compile", jobs })
}

fn build_kernel_gen(ct: &str) -> Result<(), Fatal> {
    let cargo = std::env::var("CARGO").ok().filter(|v| !v.is_empty()).unwrap_or("cargo".into());
    let ok = Command::new(cargo)
        .args(["build", "--release", "--offline", "--quiet", "--manifest-path", "tools/mir-export/Cargo.toml", "--target-dir", ct, "-p", "kernel-gen"])
        .status()
        .is_ok_and(|s| s.success());
    ok.then_some(()).ok_or_else(|| "cannot build kernel-gen".to_string())
}

/// The group crates: the --crate ones copied in, or generated; their
/// kernels in F/fuzz.list ("GROUP NAME").
fn crates(r: &mut Run) -> Result<(), Fatal> {
    // export_group copies the suite's common.rs next to the groups (unused
    // by the generated crates, which carry their own digest helpers)
    let _ = fs::copy(Path::new(CONF).join("kernels/common.rs"), r.f.join("kernels/common.rs"));
    let mut list = String::new();
    for c in r.o.crates.clone() {
        let g = conf::file_name(&c);
        let dst = r.f.join("kernels").join(&g);
        copy_crate(r, &c, &dst)?;
        let names = rustsrc::kernel_names(&read_lossy(&c.join("src/lib.rs")));
        if names.is_empty() {
            return Err(format!("no `#[kernel]` + `pub fn NAME` in {}/src/lib.rs", c.display()));
        }
        names.iter().for_each(|k| list.push_str(&format!("{g} {k}\n")));
        r.groups.push(g);
    }
    if r.o.crates.is_empty() {
        let end = r.o.start + r.o.seeds;
        let mut s = r.o.start;
        while s < end {
            let k = r.o.per.min(end - s);
            let g = format!("fuzz_{s}_{k}");
            if !r.gen(s, k, &r.f.join("kernels").join(&g), false) {
                return Err("kernel-gen failed".into());
            }
            (s..s + k).for_each(|j| list.push_str(&format!("{g} gen_{j}\n")));
            r.groups.push(g);
            s += k;
        }
    }
    let _ = fs::write(r.f.join("fuzz.list"), list);
    if r.o.crates.is_empty() {
        println!(
            "fuzz: kernels gen_{}..gen_{}, {} per crate, in {}{}",
            r.o.start,
            r.o.start + r.o.seeds - 1,
            r.o.per,
            r.f.join("kernels").display(),
            r.feats()
        );
    } else {
        let names: String = r.o.crates.iter().map(|c| format!(" {}", c.display())).collect();
        println!("fuzz: crates{names}");
    }
    Ok(())
}

/// A --crate crate copied to `dst`, its oxide-device dependency
/// repointed to this tree's.
fn copy_crate(r: &Run, c: &Path, dst: &Path) -> Result<(), Fatal> {
    fs::create_dir_all(dst).map_err(|e| e.to_string())?;
    let dev = r.root.join("tools/mir-export/oxide-device");
    let toml: String = read_lossy(&c.join("Cargo.toml"))
        .lines()
        .map(|l| {
            let t = l.strip_prefix("oxide-device").map(str::trim_start).and_then(|t| t.strip_prefix('='));
            let t = t.map(str::trim_start).and_then(|t| t.strip_prefix('{')).map(str::trim_start);
            let t = t.and_then(|t| t.strip_prefix("path")).map(str::trim_start).and_then(|t| t.strip_prefix('='));
            let t = t.map(str::trim_start).and_then(|t| t.strip_prefix('"')).and_then(|t| t.split_once('"'));
            match t {
                Some((_, tail)) => format!("oxide-device = {{ path = \"{}\"{tail}\n", dev.display()),
                None => format!("{l}\n"),
            }
        })
        .collect();
    fs::write(dst.join("Cargo.toml"), toml).map_err(|e| e.to_string())?;
    if c.join("Cargo.lock").is_file() {
        let _ = fs::copy(c.join("Cargo.lock"), dst.join("Cargo.lock"));
    }
    conf::run_quiet(Command::new("cp").arg("-R").arg(c.join("src")).arg(dst));
    Ok(())
}

/// What can be checked: the mode (host when oxidec, the emulator, the
/// harness and the CPU reference are there), and what cannot run.
fn checks(r: &mut Run) -> Result<String, Fatal> {
    let mut missing = String::new();
    if suite::build_tools(&r.c).is_err() {
        return Err("cannot build the C tools".into());
    }
    if !r.o.compile_only {
        r.mode = "host";
        let help = Command::new(&r.c.oxidec).arg("--help").output().map(|o| {
            let mut t = o.stdout;
            t.extend(o.stderr);
            String::from_utf8_lossy(&t).into_owned()
        });
        let harness_log = r.f.join("harness.log");
        if !help.unwrap_or_default().contains("--target=") {
            r.mode = "compile";
            missing.push_str("\n  oxidec has no --target=host (host emulation)");
        } else if !Path::new("src/runtime/oxemu.c").is_file() {
            r.mode = "compile";
            missing.push_str("\n  src/runtime/oxemu.c (oxrt's host emulation) is missing");
        } else if fresh_log(&harness_log) && suite::build_harness(&r.c, Some(&harness_log)).is_err() {
            r.mode = "compile";
            missing.push_str(&format!(
                "\n  the C harness does not build ({}): {}",
                harness_log.display(),
                first_error(&harness_log)
            ));
        }
    }
    if r.mode == "host" {
        cpu_ref_manifest(r)?;
        let log = r.f.join("cpu-ref.log");
        if fresh_log(&log) && suite::cpu_reference(&r.c, &r.f, Some(&log)).is_err() {
            r.mode = "compile";
            missing.push_str(&format!(
                "\n  the CPU reference did not build or run ({}): {}",
                log.display(),
                first_error(&log)
            ));
        }
    }
    // the list of kernels is ours (the CPU reference's is the same when it ran)
    let _ = fs::copy(r.f.join("fuzz.list"), r.c.w.join("kernels.list"));
    if !r.c.has_ptxas() {
        missing.push_str(&format!("\n  ptxas ({}): PTX is not validated", r.c.ptxas));
    }
    if r.o.gpu_art && r.mode != "host" {
        missing.push_str("\n  --gpu and --gpu-artifacts need the CPU reference");
        (r.o.gpu, r.o.gpu_art) = (false, false);
    }
    Ok(missing)
}

/// `log` emptied (the steps append to it); true.
fn fresh_log(log: &Path) -> bool {
    let _ = fs::write(log, "");
    true
}

/// F/cpu-ref/Cargo.toml: the suite's main.rs and build.rs over our
/// crates, the suite's [profile.release] (its semantics) verbatim.
fn cpu_ref_manifest(r: &Run) -> Result<(), Fatal> {
    let root = r.root.display();
    let mut t = String::new();
    t.push_str("# Generated by oxide-runner fuzz: the conformance CPU reference over the fuzz crates.\n");
    t.push_str("[package]\nname = \"conformance-cpu-ref\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n");
    t.push_str(&format!("build = \"{root}/{CONF}/cpu-ref/build.rs\"\n\n"));
    t.push_str(&format!("[[bin]]\nname = \"conformance-cpu-ref\"\npath = \"{root}/{CONF}/cpu-ref/src/main.rs\"\n\n"));
    t.push_str(&format!("[dependencies]\noxide-device = {{ path = \"{root}/tools/mir-export/oxide-device\" }}\n"));
    for g in &r.groups {
        t.push_str(&format!("{g} = {{ path = \"../kernels/{g}\" }}\n"));
    }
    t.push_str("\n[workspace]\n\n");
    let mut in_profile = false;
    for l in read_lossy(&Path::new(CONF).join("cpu-ref/Cargo.toml")).lines() {
        if l.starts_with("[profile.release]") {
            in_profile = true;
        } else if l.starts_with('[') {
            in_profile = false;
        }
        if in_profile {
            t.push_str(l);
            t.push('\n');
        }
    }
    conf::write(&r.f.join("cpu-ref/Cargo.toml"), &t).map_err(|e| e.to_string())
}

/// Every group exported; a crate-wide export failure (no src/lib.rs line
/// to blame: MIR that mir-export cannot parse, say) fails every kernel of
/// the group, so those kernels are exported again, each in a crate of its
/// own.
fn export_all(r: &mut Run) {
    let cf = r.conf_fuzz();
    for g in &r.groups {
        let _ = fs::create_dir_all(cf.w.join(g));
    }
    // oxide-device built once for every export (a copy in each)
    if let Some(g) = r.groups.first() {
        export::deps_template(&cf, g);
    }
    conf::parallel(r.jobs, r.groups.clone(), |g| export::export_group(&cf, &g));
    let split = if r.o.crates.is_empty() { split_groups(r) } else { Vec::new() };
    if !split.is_empty() {
        println!("fuzz: {} kernels of crate-wide export failures exported again alone", split.len());
        conf::parallel(r.jobs, split.clone(), |g| export::export_group(&cf, &g));
        r.groups.extend(split);
    }
    // the target directories (rustc's MIR: 10 MB a group) were only a cache
    for d in conf::entries(&cf.w.join("export")) {
        remove(&d.join("target"));
    }
    remove(&cf.w.join("export/.deps"));
    println!("fuzz: exported ({} s)", r.secs());
}

/// The kernels of crate-wide export failures, each generated again in a
/// group of its own (fuzz_SEED_1), kernels.list rewritten; the new groups.
fn split_groups(r: &Run) -> Vec<String> {
    let (b, w) = (&r.c.b, &r.c.w);
    let mut split = Vec::new();
    let mut moved: Vec<(String, String, String)> = Vec::new();
    for g in &r.groups {
        let errs = read_lossy(&w.join(format!("{g}.export-errors")));
        let ks: Vec<&str> = errs
            .lines()
            .filter_map(|l| l.split_once('\t'))
            .filter(|(_, m)| !crate_wide_excluded(m))
            .map(|(k, _)| k)
            .collect();
        if ks.len() < 2 {
            continue;
        }
        for k in ks {
            let Some(seed) = k.strip_prefix("gen_").and_then(|s| s.parse::<u64>().ok()) else { continue };
            let ng = format!("fuzz_{seed}_1");
            if !r.gen(seed, 1, &r.f.join("kernels").join(&ng), false) {
                continue;
            }
            let exp = b.join(format!("{g}.expected"));
            if exp.is_file() {
                let lines: String =
                    read_lossy(&exp).lines().filter(|l| l.starts_with(&format!("{k} "))).map(|l| format!("{l}\n")).collect();
                let _ = fs::write(b.join(format!("{ng}.expected")), lines);
            }
            let _ = fs::create_dir_all(w.join(&ng));
            moved.push((g.clone(), k.to_string(), ng.clone()));
            split.push(ng);
        }
    }
    if !moved.is_empty() {
        let sl: String = moved.iter().map(|(g, k, ng)| format!("{g} {k} {ng}\n")).collect();
        let _ = fs::write(r.f.join("split.list"), sl);
        let list: String = read_lossy(&w.join("kernels.list"))
            .lines()
            .map(|l| {
                let mut f = l.split_whitespace();
                let (g, k) = (f.next().unwrap_or(""), f.next().unwrap_or(""));
                match moved.iter().find(|(mg, mk, _)| mg == g && mk == k) {
                    Some((_, _, ng)) => format!("{ng} {k}\n"),
                    None => format!("{l}\n"),
                }
            })
            .collect();
        let _ = fs::write(w.join("kernels.list"), list);
    }
    split
}

/// Whether an export error names a line of src/lib.rs (then it is the
/// kernel's own, not crate-wide).
fn crate_wide_excluded(msg: &str) -> bool {
    msg.strip_prefix("src/lib.rs:").is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
}

/// Each group compiled and run at once (src/batch.rs).
fn batch_all(r: &Run) {
    let host = r.mode == "host";
    conf::parallel(r.jobs, r.groups.clone(), |g| batch::batch_group(&r.c, host, &g));
    let n = kernel_list(&r.c)
        .iter()
        .filter(|(g, k)| r.c.w.join(g).join(format!("{k}.compile")).is_file())
        .count();
    println!("fuzz: batch compile and run: {n} kernels passed, the others are checked alone ({} s)", r.secs());
}

/// $W/kernels.list as (GROUP, NAME).
pub fn kernel_list(c: &Conf) -> Vec<(String, String)> {
    read_lossy(&c.w.join("kernels.list"))
        .lines()
        .filter_map(|l| {
            let mut f = l.split_whitespace();
            Some((f.next()?.to_string(), f.next()?.to_string()))
        })
        .collect()
}

/// The suite's one-kernel worker on each of `todo` ("MODE GROUP NAME"),
/// in parallel.
fn run_workers(r: &Run, todo: Vec<String>) {
    conf::parallel(r.jobs, todo, |t| {
        if let [mode, g, k] = t.split(' ').collect::<Vec<_>>()[..] {
            suite::kernel_worker(&r.c, mode == "host", g, k);
        }
    });
}

/// Compile mode for every kernel the batch did not settle, then host mode
/// for those that compiled (the worker writes $W/GROUP/NAME.result:
/// "PASS ..." or "FAIL ..." then "STAGE<TAB>message").
fn workers(r: &Run) {
    let w = &r.c.w;
    let compile: Vec<(String, String)> =
        kernel_list(&r.c).into_iter().filter(|(g, k)| !w.join(g).join(format!("{k}.compile")).is_file()).collect();
    let todo: Vec<String> = compile.iter().map(|(g, k)| format!("compile {g} {k}")).collect();
    let _ = fs::write(r.f.join("compile.todo"), todo.iter().map(|t| format!("{t}\n")).collect::<String>());
    run_workers(r, todo);
    let mut host = Vec::new();
    for (g, k) in &compile {
        let (res, comp) = (w.join(g).join(format!("{k}.result")), w.join(g).join(format!("{k}.compile")));
        if res.is_file() {
            let _ = fs::rename(&res, &comp);
        }
        if conf::first_line(&comp).starts_with("PASS") {
            host.push(format!("host {g} {k}"));
        }
    }
    let _ = fs::write(r.f.join("host.todo"), host.iter().map(|t| format!("{t}\n")).collect::<String>());
    if r.mode == "host" {
        run_workers(r, host);
    }
}

/// --gpu-artifacts: the group modules of the kernels that passed, for
/// every GPU variant, packed; the groups that have one.
fn gpu_artifacts(r: &Run) -> Vec<String> {
    let (b, w) = (&r.c.b, &r.c.w);
    let mut groups = Vec::new();
    for g in &r.groups {
        let passed: Vec<String> = r
            .c
            .kernels_of(g)
            .into_iter()
            .filter(|k| conf::first_line(&w.join(g).join(format!("{k}.result"))).starts_with("PASS"))
            .collect();
        let _ = fs::write(b.join(format!("{g}.kernels")), passed.iter().map(|k| format!("{k}\n")).collect::<String>());
        if passed.is_empty() {
            continue;
        }
        let log = w.join(g).join("all.log");
        let mut cmd = Command::new(r.c.tool("mirsplit"));
        cmd.arg(w.join(format!("{g}.mir.json"))).arg(w.join(g).join("all.mir.json")).args(&passed);
        if conf::run_logged(&mut cmd, &log) == 0 {
            groups.push(g.clone());
        } else {
            println!("fuzz: mirsplit of the module of {g} failed: {}", first_error(&log));
        }
    }
    // every GPU variant's module, in parallel
    let variants = suite::gpu_variants();
    conf::parallel(r.jobs, groups.clone(), |g| suite::gpu_modules(&r.c, &g, &variants));
    for g in &groups {
        for v in &variants {
            let m = suite::variant_module(b, g, v);
            let failed = read_lossy(Path::new(&format!("{}.failed", m.display())));
            let n = failed.lines().filter(|l| !l.is_empty()).count();
            if n > 0 {
                println!("fuzz: {n} kernels of {g} do not compile at {v}, e.g. {}", failed.lines().next().unwrap_or(""));
            }
        }
    }
    if !groups.is_empty() {
        let pack = r.f.join("gpu-pack.tar.xz");
        if let Err(m) = suite::gpu_pack(&r.c, &pack, &b.to_string_lossy()) {
            eprintln!("conformance: {m}");
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn options() {
        let o = parse(&a(&["--seeds", "5", "--disable", "x,y", "--gpu-artifacts"])).unwrap().unwrap();
        assert_eq!((o.seeds, o.start, o.per), (5, 0, 8));
        assert_eq!(o.feats, a(&["--disable", "x,y"]));
        assert!(o.gpu_art && o.keep && !o.gpu && o.batch);
        assert!(parse(&a(&["--seeds", "x"])).is_err());
        assert!(parse(&a(&["--per-crate", "0"])).is_err());
        assert!(parse(&a(&["--frob"])).is_err());
        assert!(parse(&a(&["--help"])).unwrap().is_none());
    }

    #[test]
    fn crate_wide_errors() {
        assert!(crate_wide_excluded("src/lib.rs:3:4: error: x"));
        assert!(!crate_wide_excluded("mir-export: error[OX1004]: cannot parse"));
        assert!(!crate_wide_excluded("src/common.rs:3:4: error: x"));
    }
}
