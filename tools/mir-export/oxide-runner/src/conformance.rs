//! oxide-runner conformance: the conformance suite without a GPU, and
//! conformance-build-gpu: the same in compile mode with the GPU
//! variants' modules, packed for a GPU machine (HELP, docs/conformance.md).

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::Command;

use crate::conf::{self, first_error, read_lossy, remove, Conf};
use crate::suite::{self, now_s, Die};
use crate::export;

pub const HELP: &str = "\
oxide-runner conformance: the conformance suite without a GPU
(docs/conformance.md; sh tests/conformance/run-host.sh runs it).

  oxide-runner conformance [--mode=auto|host|compile] [--gpu-artifacts] [GROUP...]
  oxide-runner conformance-build-gpu [GROUP...]

For every group crate under tests/conformance/kernels/ (or each GROUP):
  1. the CPU reference (tests/conformance/cpu-ref, one cargo build for all
     groups) writes the expected lines, build/conformance/GROUP.expected;
  2. mir-export exports the group once (as oxide-runner export-group: a
     kernel that mir-export rejects is left out and reported, the
     others go on);
  3. every kernel is compiled on its own (tests/conformance/mirsplit.c
     cuts it out of the group's JSON), so that one construct oxidec does
     not support yet fails only the kernels that use it;
  4. mode host: `oxidec --target=host`, `cc -shared`, and the C harness
     (tests/conformance/harness.c through oxrt's emulator) runs it; its
     line must equal the CPU reference's byte for byte.
     mode compile: `oxidec -o K.ptx` and `ptxas -arch=sm_90` must accept
     it. With --gpu-artifacts build/conformance/ then holds GROUP.kernels,
     the kernels that compiled, and their module for each GPU variant
     (GPU_VARIANTS: GROUP.O3.ptx, GROUP.O3.cubin, GROUP.O0.ptx,
     GROUP.O0.cubin; a kernel that does not compile at one is left out of
     it and listed in MODULE.failed).
  auto (default): host when oxidec knows --target=host, else compile.
A kernel listed in tests/conformance/expected-errors.txt passes only when
it fails with the error given there (a line with a fourth field, `rustc
1.95`, only when the group was exported by that rustc release).

Prints \"PASS group/name\" or \"FAIL group/name: why\" (with the differing
words or the compiler's message), then the failures grouped by message
(also in build/conformance/failures.txt), then
\"conformance: N passed, M failed\". Exit status 1 when any failed.

conformance-build-gpu (sh tests/conformance/build-gpu.sh) is
`conformance --mode=compile --gpu-artifacts GROUP...`, then packs
build/conformance/ into build/gpu-pack/conformance.tar.xz for a GPU
machine without Rust or LLVM (oxide-runner conformance-gpu runs it there).

Environment: JOBS (parallel kernels, default: CPUs), MIR_EXPORT, OXIDEC,
PTXAS, CC, CARGO, CONF_BUILD (results, default build/conformance),
CONF_WORK (work files, default build/conformance-work), CONF_SUITE (the
suite: its kernels/, cpu-ref/ and expected-errors.txt; default
tests/conformance, tests/crates/run.sh sets tests/crates and
conformance-build-gpu then packs build/gpu-pack/crates.tar.xz), CONF_GROUPS (the
groups when none is given), GPU_VARIANTS (--gpu-artifacts; default
\"O3/ptx O3/cubin O0/ptx O0/cubin\"), MIR_EXPORT_RUSTC (the rustc that
mir-export compiles the kernels with, its --rustc; the CPU reference
keeps cargo's: tests/exporter/run.sh runs groups so through each
non-default toolchain).
";

/// The command line.
#[derive(Debug)]
pub struct Options {
    pub mode: String,
    pub gpu_art: bool,
    pub groups: Vec<String>,
}

/// Parses the options; Err(message) on a usage error, Ok(None) for --help.
pub fn parse(args: &[String]) -> Result<Option<Options>, Die> {
    let mut o = Options { mode: "auto".into(), gpu_art: false, groups: Vec::new() };
    for a in args {
        match a.as_str() {
            "-h" | "--help" => return Ok(None),
            "--gpu-artifacts" => o.gpu_art = true,
            _ if a.starts_with("--mode=") => o.mode = a["--mode=".len()..].to_string(),
            _ if a.starts_with('-') => return Err(format!("unknown option {a}")),
            _ => o.groups.push(a.clone()),
        }
    }
    Ok(Some(o))
}

/// The groups: those given, CONF_GROUPS, else every crate of the suite.
fn groups(o: &Options) -> Vec<String> {
    if !o.groups.is_empty() {
        return o.groups.clone();
    }
    if let Some(g) = std::env::var("CONF_GROUPS").ok().filter(|v| !v.trim().is_empty()) {
        return g.split_whitespace().map(String::from).collect();
    }
    let dirs = conf::entries(&conf::suite_dir().join("kernels"));
    dirs.iter().filter(|d| d.join("Cargo.toml").is_file()).map(|d| conf::file_name(d)).collect()
}

/// JOBS, default the CPUs online (getconf _NPROCESSORS_ONLN).
pub fn jobs(fallback: usize) -> usize {
    if let Some(j) = std::env::var("JOBS").ok().and_then(|j| j.trim().parse().ok()) {
        return j;
    }
    let online = conf::read_lossy(Path::new("/sys/devices/system/cpu/online"));
    let n: usize = online
        .trim()
        .split(',')
        .filter_map(|r| {
            let (a, b) = r.split_once('-').unwrap_or((r, r));
            Some(b.parse::<usize>().ok()? + 1 - a.parse::<usize>().ok()?)
        })
        .sum();
    if n > 0 {
        n
    } else {
        std::thread::available_parallelism().map_or(fallback, |n| n.get())
    }
}

/// The run's state.
struct Run {
    c: Conf,
    host: bool,
    mode: String,
    gpu_art: bool,
    groups: Vec<String>,
    jobs: usize,
    start: u64,
    pass: usize,
    fail: usize,
    /// failures.tsv: "GROUP/NAME<TAB>STAGE<TAB>message" lines
    tsv: String,
}

impl Run {
    fn secs(&self) -> u64 {
        now_s().saturating_sub(self.start)
    }
}

/// The mode from `--mode=`: auto is host when oxidec knows --target=.
fn pick_mode(c: &Conf, mode: &str) -> Result<String, Die> {
    let mode = if mode == "auto" {
        let help = Command::new(&c.oxidec).arg("--help").output().map(|o| {
            let mut t = o.stdout;
            t.extend(o.stderr);
            String::from_utf8_lossy(&t).into_owned()
        });
        if help.unwrap_or_default().contains("--target=") { "host" } else { "compile" }
    } else {
        mode
    };
    match mode {
        "host" | "compile" => Ok(mode.to_string()),
        _ => Err(format!("unknown mode {mode}")),
    }
}

/// The suite; its exit status (a fatal error: printed, 1).
pub fn main(o: Options) -> i32 {
    match run(o) {
        Ok(st) => st,
        Err(m) => {
            eprintln!("conformance: {m}");
            1
        }
    }
}

/// The steps up to the kernels' results, then the verdicts.
fn run(o: Options) -> Result<i32, Die> {
    let c = Conf::from_env();
    for t in [&c.mir_export, &c.oxidec] {
        if !conf::is_executable(Path::new(t)) {
            return Err(format!("{t} is missing: run make"));
        }
    }
    let mode = pick_mode(&c, &o.mode)?;
    let mut r = Run {
        host: mode == "host",
        mode,
        gpu_art: o.gpu_art,
        groups: groups(&o),
        jobs: jobs(2),
        start: now_s(),
        pass: 0,
        fail: 0,
        tsv: String::new(),
        c,
    };
    fs::create_dir_all(&r.c.b).map_err(|e| format!("{}: {e}", r.c.b.display()))?;
    fs::create_dir_all(&r.c.w).map_err(|e| format!("{}: {e}", r.c.w.display()))?;
    suite::build_tools(&r.c)?;
    if r.host {
        suite::build_harness(&r.c, None)?;
    }
    println!("conformance: mode {}, {} jobs", r.mode, r.jobs);
    suite::cpu_reference(&r.c, &conf::suite_dir(), None)?;
    for g in &r.groups {
        if r.c.kernels_of(g).is_empty() {
            return Err(format!("group {g} has no kernels in the CPU reference"));
        }
        remove(&r.c.w.join(g));
        let _ = fs::create_dir_all(r.c.w.join(g));
    }
    let n = read_lossy(&r.c.w.join("kernels.list")).matches('\n').count();
    println!("conformance: CPU reference: {n} kernels ({} s)", r.secs());
    conf::parallel(r.jobs, r.groups.clone(), |g| export_one(&r.c, &g));
    println!("conformance: exported ({} s)", r.secs());
    let todo: Vec<(String, String)> =
        r.groups.iter().flat_map(|g| r.c.kernels_of(g).into_iter().map(move |k| (g.clone(), k))).collect();
    conf::parallel(r.jobs, todo, |(g, k)| suite::kernel_worker(&r.c, r.host, &g, &k));
    verdicts(&mut r);
    if r.gpu_art && !r.host {
        gpu_artifacts(&mut r);
    }
    let _ = fs::write(r.c.b.join("failures.tsv"), &r.tsv);
    if !r.tsv.is_empty() {
        by_message(&r);
    }
    println!();
    println!("conformance: {} passed, {} failed ({} s, mode {})", r.pass, r.fail, r.secs(), r.mode);
    Ok(i32::from(r.fail > 0))
}

/// The export of group `g` (oxide-runner export-group).
fn export_one(c: &Conf, g: &str) {
    let k = c.kernels.join(g);
    if k.join("Cargo.toml").is_file() {
        export::export_group(c, g);
    } else {
        eprintln!("oxide-runner: {}: no group crate", k.display());
    }
}

/// The verdict of kernel `k` of group `g` from its result file, printed
/// and counted; whether it passed (not as an expected error).
fn verdict(r: &mut Run, expected: &str, release: Option<&str>, g: &str, k: &str) -> bool {
    let gk = format!("{g}/{k}");
    let res = r.c.w.join(g).join(format!("{k}.result"));
    if !res.is_file() {
        println!("FAIL {gk}: no result (the worker crashed)");
        r.fail += 1;
        return false;
    }
    let text = read_lossy(&res);
    let first = text.lines().next().unwrap_or("");
    let wants = suite::expected_for(expected, &gk, release);
    if !wants.is_empty() {
        let shown: Vec<String> = wants.iter().map(|(code, sub)| format!("error[{code}]: ... {sub}")).collect();
        let matches = |(code, sub): &(&str, &str)| {
            let code = format!("error[{code}]: ");
            first.find(&code).is_some_and(|i| first[i + code.len()..].contains(sub))
        };
        if first.starts_with("PASS") {
            println!("FAIL {gk}: compiled, but expected-errors.txt says: {} (remove it there)", shown.join(" | "));
            r.fail += 1;
        } else if let Some(i) = wants.iter().position(matches) {
            println!("PASS {gk} (expected error: {})", shown[i]);
            r.pass += 1;
        } else {
            println!("{first}\n    (expected the error: {})", shown.join(" | "));
            r.fail += 1;
        }
        return false;
    }
    println!("{first}");
    if first.starts_with("PASS") {
        r.pass += 1;
        return true;
    }
    r.fail += 1;
    text.lines().skip(2).for_each(|l| println!("{l}"));
    r.tsv.push_str(&format!("{gk}\t{}\n", text.lines().nth(1).unwrap_or("")));
    false
}

/// Every kernel's verdict, group by group; with --gpu-artifacts (compile
/// mode) each group's kernels that compiled, and their JSON.
fn verdicts(r: &mut Run) {
    let expected = suite::expected_errors();
    let listed = read_lossy(&r.c.w.join("kernels.list"));
    for g in r.groups.clone() {
        let json = r.c.w.join(format!("{g}.mir.json"));
        if json.is_file() {
            // kernels mir-export found that the CPU reference does not know
            let out = Command::new(r.c.tool("mirsplit")).arg("--list").arg(&json).output();
            let names = out.map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap_or_default();
            for k in names.split_whitespace() {
                if !listed.lines().any(|l| l == format!("{g} {k}")) {
                    println!("FAIL {g}/{k}: exported by mir-export but unknown to the CPU reference");
                    r.fail += 1;
                }
            }
        }
        // the rustc that exported the group (expected-errors.txt lines
        // for one toolchain: suite::expected_for)
        let release = suite::export_release(&r.c, &g);
        let mut passed = Vec::new();
        for k in r.c.kernels_of(&g) {
            if verdict(r, &expected, release.as_deref(), &g, &k) {
                passed.push(k);
            }
        }
        if r.gpu_art && !r.host {
            group_json(r, &g, &passed);
        }
    }
}

/// $B/GROUP.kernels (the kernels that compiled) and their JSON,
/// $W/GROUP/all.mir.json; the group's old modules removed.
fn group_json(r: &mut Run, g: &str, passed: &[String]) {
    let (b, w) = (&r.c.b, &r.c.w);
    for p in conf::entries(b) {
        let n = conf::file_name(&p);
        if n.starts_with(&format!("{g}.")) && [".ptx", ".cubin", ".failed"].iter().any(|e| n.ends_with(e)) {
            remove(&p);
        }
    }
    remove(&w.join(g).join("all.mir.json"));
    let _ = fs::write(b.join(format!("{g}.kernels")), passed.iter().map(|k| format!("{k}\n")).collect::<String>());
    if passed.is_empty() {
        return;
    }
    let log = w.join(g).join("all.log");
    let mut cmd = Command::new(r.c.tool("mirsplit"));
    cmd.arg(w.join(format!("{g}.mir.json"))).arg(w.join(g).join("all.mir.json")).args(passed);
    if suite::run_log(&mut cmd, &log) != 0 {
        println!("FAIL {g}: mirsplit of the group module: {}", first_error(&log));
        r.fail += 1;
    }
}

/// --gpu-artifacts: every group's module for each GPU variant, in
/// parallel; a kernel left out of one is a failure.
fn gpu_artifacts(r: &mut Run) {
    let variants = suite::gpu_variants();
    let todo: Vec<String> = r.groups.iter().filter(|g| r.c.w.join(g).join("all.mir.json").is_file()).cloned().collect();
    conf::parallel(r.jobs, todo, |g| suite::gpu_modules(&r.c, &g, &variants));
    for g in r.groups.clone() {
        for v in &variants {
            let failed = read_lossy(Path::new(&format!("{}.failed", suite::variant_module(&r.c.b, &g, v).display())));
            let n = failed.lines().filter(|l| !l.is_empty()).count();
            if n > 0 {
                println!("FAIL {g} [{v}]: {n} kernels do not compile at {v}, e.g. {}", failed.lines().next().unwrap_or(""));
                r.fail += n;
            }
        }
    }
    println!("conformance: GPU modules ({}) in {} ({} s)", suite::gpu_variants_text(), r.c.b.display(), r.secs());
}

/// `msg` with every `name` in backquotes masked as `_`.
fn mask(msg: &str) -> String {
    let mut out = String::new();
    let mut rest = msg;
    while let Some(i) = rest.find('`') {
        match rest[i + 1..].find('`') {
            Some(j) => {
                out.push_str(&rest[..i]);
                out.push_str("`_`");
                rest = &rest[i + j + 2..];
            }
            None => break,
        }
    }
    out.push_str(rest);
    out
}

/// The failures grouped by message (names in backquotes masked, one full
/// message shown): what the compilers need next; also in failures.txt.
fn by_message(r: &Run) {
    // key -> (count, example, kernels)
    let mut groups: BTreeMap<String, (usize, String, String)> = BTreeMap::new();
    for l in r.tsv.lines() {
        let f: Vec<&str> = l.split('\t').collect();
        let (gk, stage, msg) = (f[0], f.get(1).copied().unwrap_or(""), f.get(2).copied().unwrap_or(""));
        let key = format!("{stage}: {}", mask(msg));
        let e = groups.entry(key).or_insert((0, format!("{stage}: {msg}"), String::new()));
        e.0 += 1;
        e.2.push_str(&format!(" {gk}"));
    }
    let mut rows: Vec<(usize, String)> =
        groups.into_iter().map(|(key, (n, ex, ks))| (n, format!("{key}\t{ex}\t{ks}"))).collect();
    rows.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let txt: String = rows.iter().map(|(n, rest)| format!("{n}\t{rest}\n")).collect();
    let _ = fs::write(r.c.b.join("failures.txt"), txt);
    println!();
    println!("failures by message (count, stage: message, e.g., kernels):");
    for (n, rest) in &rows {
        let f: Vec<&str> = rest.splitn(3, '\t').collect();
        println!("{n:4}  {}", f[0]);
        if f[1] != f[0] {
            println!("      e.g. {}", f[1]);
        }
        println!("      {}", f[2]);
    }
}

/// conformance-build-gpu: conformance --mode=compile --gpu-artifacts, the
/// modules counted and packed into build/gpu-pack/conformance.tar.xz
/// (unpacked as build/conformance/); the suite's exit status.
pub fn build_gpu(args: &[String]) -> i32 {
    let mut all = vec!["--mode=compile".to_string(), "--gpu-artifacts".to_string()];
    all.extend(args.iter().cloned());
    let st = match parse(&all) {
        Ok(Some(o)) => main(o),
        Ok(None) => {
            print!("{HELP}");
            return 0;
        }
        Err(m) => {
            eprintln!("conformance: {m}");
            1
        }
    };
    let c = Conf::from_env();
    let files = conf::entries(&c.b);
    let n: usize = files
        .iter()
        .filter(|p| conf::file_name(p).ends_with(".kernels"))
        .map(|p| read_lossy(p).lines().filter(|l| !l.is_empty()).count())
        .sum();
    for v in suite::gpu_variants() {
        let (lvl, ext) = suite::variant_parts(&v);
        let tail = format!(".{lvl}.{ext}");
        let m = files.iter().filter(|p| conf::file_name(p).ends_with(&tail)).count();
        println!("build-gpu: {v}: {m} group modules in {}", c.b.display());
    }
    // another suite (CONF_SUITE=tests/crates) packs as its own name:
    // build/gpu-pack/crates.tar.xz, unpacked into build/crates
    let suite = conf::suite_dir();
    let name = match suite == Path::new(conf::CONF) {
        true => "conformance".to_string(),
        false => conf::file_name(&suite),
    };
    let pack = Path::new("build/gpu-pack").join(format!("{name}.tar.xz"));
    let pack = pack.as_path();
    if let Err(m) = suite::gpu_pack(&c, pack, &format!("build/{name}")) {
        eprintln!("conformance: {m}");
        return 1;
    }
    println!("build-gpu: {n} kernels; packed in {} ({} KiB)", pack.display(), kib(pack));
    st
}

/// The disk usage of file `p` in KiB (du -k).
pub fn kib(p: &Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    fs::metadata(p).map_or(0, |m| (m.blocks() * 512).div_ceil(1024))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_masked() {
        assert_eq!(mask("a `x` b `y`"), "a `_` b `_`");
        assert_eq!(mask("a `x"), "a `x");
        assert_eq!(mask("``"), "`_`");
    }

    #[test]
    fn options() {
        let a = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let o = parse(&a(&["--mode=compile", "ints"])).unwrap().unwrap();
        assert_eq!((o.mode.as_str(), o.gpu_art, o.groups.len()), ("compile", false, 1));
        assert!(parse(&a(&["-x"])).is_err());
        assert!(parse(&a(&["--help"])).unwrap().is_none());
    }
}
