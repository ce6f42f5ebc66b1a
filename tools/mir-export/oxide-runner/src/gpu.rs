//! oxide-runner conformance-gpu: the conformance suite on this machine's
//! GPU, from the modules and expected lines that conformance-build-gpu
//! left in build/conformance/ (HELP). Needs only a C compiler and the
//! CUDA driver: this program travels to the GPU machine built
//! (make gpu-pack packs it).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::conf::{self, read_lossy, Conf};
use crate::suite::{self, now_s, Die};

pub const HELP: &str = "\
oxide-runner conformance-gpu: the conformance suite on this machine's GPU,
with the modules and expected lines that conformance-build-gpu left in
build/conformance/ (sh tests/conformance/run-gpu.sh runs it; needs only a
C compiler and the CUDA driver).

  oxide-runner conformance-gpu [GROUP...]

For each GPU variant (GPU_VARIANTS, default: each of O3/ptx O3/cubin
O0/ptx O0/cubin that has modules here: GROUP.O3.ptx, ...) and each group:
builds the C harness once (tests/conformance/harness.c with the runtime:
src/runtime/oxrt.c and its backends), runs every kernel of GROUP.kernels
from the variant's module (2 blocks x 64 threads, in a harness child
process so that a trap does not take the others down; JOBS groups at
once), and compares each line with the CPU reference's byte for byte.
Kernels that did not compile are failures too (with the compiler's
message from failures.tsv, or MODULE.failed for one variant). Kernels
that do not compile because they use a construct listed in
tests/conformance/expected-errors.txt (the host run checks their error)
print UNSUPPORTED and are counted apart.

Prints \"PASS GROUP/NAME [VARIANT]\" / \"FAIL GROUP/NAME [VARIANT]: why\"
lines, then per variant \"conformance-gpu[O3/ptx]: N passed, M failed\",
and last \"conformance-gpu: N passed, M failed\" over all variants. Exit
status 1 when any failed.

Environment: CC, CONF_BUILD (default build/conformance), CONF_WORK
(default build/conformance-work), JOBS (default: CPUs), GPU_VARIANTS (a
variant LEVEL/so runs host-emulation modules of the same build, made with
GPU_VARIANTS=O3/so on the build machine: the runner's own test without a
GPU).
";

/// The directory of variant `v`'s results: $W/gpu/O3-ptx.
fn variant_dir(c: &Conf, v: &str) -> PathBuf {
    c.w.join("gpu").join(v.replace('/', "-"))
}

/// Whether $B holds a module of variant `v` (a file *.LEVEL.EXT).
fn has_modules(files: &[PathBuf], v: &str) -> bool {
    let (lvl, ext) = suite::variant_parts(v);
    let tail = format!(".{lvl}.{ext}");
    files.iter().map(|p| conf::file_name(p)).any(|n| n.ends_with(&tail) && !n.starts_with('.'))
}

/// Group `g` at variant `v`: the harness's lines in $W/gpu/VARIANT/GROUP.actual.
fn run_group(c: &Conf, v: &str, g: &str) {
    let m = suite::variant_module(&c.b, g, v);
    let d = variant_dir(c, v);
    let actual = d.join(format!("{g}.actual"));
    let _ = fs::write(&actual, "");
    let mut kernels: Vec<String> =
        read_lossy(&c.b.join(format!("{g}.kernels"))).split_whitespace().map(String::from).collect();
    let failed = PathBuf::from(format!("{}.failed", m.display()));
    if conf::nonempty(&failed) {
        let skip: Vec<String> = read_lossy(&failed).lines().map(|l| l.split('\t').next().unwrap_or("").to_string()).collect();
        let _ = fs::write(d.join(format!("{g}.skip")), skip.iter().map(|s| format!("{s}\n")).collect::<String>());
        kernels.retain(|k| !skip.contains(k));
    }
    if kernels.is_empty() || !m.is_file() {
        return;
    }
    if let (Ok(o), Ok(e)) = (fs::File::create(&actual), fs::File::create(d.join(format!("{g}.log")))) {
        let _ = Command::new(c.tool("harness")).arg(&m).args(&kernels).stdin(std::process::Stdio::null()).stdout(o).stderr(e).status();
    }
}

/// `r` (a verdict's lines) with its second line dropped and " [v]" after
/// the name on its first: "FAIL g/k [O0/ptx]: ...".
fn tag(r: &str, v: &str) -> String {
    let mut lines: Vec<String> = r.lines().map(String::from).collect();
    if lines.len() > 1 {
        lines.remove(1);
    }
    if let Some(first) = lines.first_mut() {
        let caps = first.bytes().take_while(u8::is_ascii_uppercase).count();
        if first[caps..].starts_with(' ') {
            let name = first[caps + 1..].bytes().take_while(|&b| b != b' ' && b != b':').count();
            first.insert_str(caps + 1 + name, &format!(" [{v}]"));
        }
    }
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// The verdicts of variant `v` over groups `sel`, its summary line last.
fn verdicts(c: &Conf, v: &str, sel: &[String]) -> String {
    let d = variant_dir(c, v);
    let expected_errors = suite::expected_errors();
    let tsv = read_lossy(&c.b.join("failures.tsv"));
    let (mut pass, mut fail, mut unsupported) = (0, 0, 0);
    let mut out = String::new();
    for g in sel {
        let m = suite::variant_module(&c.b, g, v);
        let failed = read_lossy(Path::new(&format!("{}.failed", m.display())));
        let kernels = read_lossy(&c.b.join(format!("{g}.kernels")));
        let actual = read_lossy(&d.join(format!("{g}.actual")));
        let expected = read_lossy(&c.b.join(format!("{g}.expected")));
        for k in expected.lines().filter_map(|l| l.split_whitespace().next()) {
            let notbuilt = failed
                .lines()
                .find(|l| matches!(l.split('\t').next(), Some(f) if f == k || f == "*"))
                .map_or("", |l| l.split('\t').nth(1).unwrap_or(""));
            let r = if kernels.split_whitespace().any(|x| x == k) {
                if !notbuilt.is_empty() {
                    format!("FAIL {g}/{k}: not compiled at {v}: {notbuilt}")
                } else if !m.is_file() {
                    format!("FAIL {g}/{k}: no module {}", m.display())
                } else {
                    suite::compare_line(&c.b, g, k, suite::line_of(&actual, k))
                }
            } else {
                // a construct not supported yet: the host run checked that
                // it fails with its expected error
                let gk = format!("{g}/{k}");
                let want = suite::tsv_lookup(&expected_errors, &gk, 1)
                    .map(|code| format!("error[{code}]: ... {}", suite::tsv_lookup(&expected_errors, &gk, 2).unwrap_or("")));
                match want {
                    Some(w) => format!("UNSUPPORTED {gk}: expected error: {w}"),
                    None => {
                        let why = suite::tsv_lookup(&tsv, &gk, 1)
                            .map(|s| format!("{s}: {}", suite::tsv_lookup(&tsv, &gk, 2).unwrap_or("")));
                        format!("FAIL {gk}: not compiled: {}", why.unwrap_or("see build-gpu.sh".into()))
                    }
                }
            };
            let r = tag(&r, v);
            if r.starts_with("PASS") {
                pass += 1;
            } else if r.starts_with("UNSUPPORTED") {
                unsupported += 1;
            } else {
                fail += 1;
            }
            out.push_str(&r);
        }
    }
    let extra = if unsupported > 0 { format!(" ({unsupported} not supported yet: expected-errors.txt)") } else { String::new() };
    out.push_str(&format!("conformance-gpu[{v}]: {pass} passed, {fail} failed{extra}\n"));
    out
}

/// The run; its exit status (a fatal error: printed, 1).
pub fn main(groups: &[String]) -> i32 {
    match run(groups) {
        Ok(st) => st,
        Err(m) => {
            eprintln!("conformance: {m}");
            1
        }
    }
}

fn run(groups: &[String]) -> Result<i32, Die> {
    let c = Conf::from_env();
    let b = c.b.display().to_string();
    let files = conf::entries(&c.b);
    let names: Vec<String> = files.iter().map(|p| conf::file_name(p)).collect();
    let expected: Vec<String> =
        names.iter().filter_map(|n| n.strip_suffix(".expected")).filter(|n| !n.is_empty()).map(String::from).collect();
    if expected.is_empty() {
        return Err(format!("{b}/*.expected missing: run tests/conformance/build-gpu.sh first (where Rust and LLVM are)"));
    }
    // the GPU's name and driver, when nvidia-smi is there
    let _ = Command::new("nvidia-smi").args(["--query-gpu=name,driver_version", "--format=csv,noheader"]).status();
    suite::build_harness(&c, None)?;
    let sel: Vec<String> = if groups.is_empty() { expected } else { groups.to_vec() };
    let variants: Vec<String> = suite::gpu_variants().into_iter().filter(|v| has_modules(&files, v)).collect();
    if variants.is_empty() {
        return Err(format!(
            "no modules in {b} for any of {}: run tests/conformance/build-gpu.sh",
            suite::gpu_variants_text()
        ));
    }
    if let Some(g) = sel.iter().find(|g| !c.b.join(format!("{g}.expected")).is_file()) {
        return Err(format!("no {b}/{g}.expected"));
    }
    let jobs = crate::conformance::jobs(4);
    let start = now_s();
    let mut todo = Vec::new();
    for v in &variants {
        let _ = fs::create_dir_all(variant_dir(&c, v));
        todo.extend(sel.iter().map(|g| (v.clone(), g.clone())));
    }
    conf::parallel(jobs, todo, |(v, g)| run_group(&c, &v, &g));
    // every variant's verdicts at once (thousands of kernels), printed in order
    let mut texts: Vec<String> = vec![String::new(); variants.len()];
    std::thread::scope(|s| {
        for (t, v) in texts.iter_mut().zip(&variants) {
            let (c, sel) = (&c, &sel);
            s.spawn(move || *t = verdicts(c, v, sel));
        }
    });
    let mut summary = String::new();
    for (t, v) in texts.iter().zip(&variants) {
        let _ = fs::write(c.w.join("gpu").join(format!("{}.verdicts", v.replace('/', "-"))), t);
        t.lines().filter(|l| !l.starts_with("conformance-gpu")).for_each(|l| println!("{l}"));
        summary.push_str(&format!("{}\n", t.lines().last().unwrap_or("")));
    }
    let _ = fs::write(c.w.join("gpu/summary"), &summary);
    println!();
    print!("{summary}");
    let field = |n: usize| -> u64 {
        summary.lines().filter_map(|l| l.split_whitespace().nth(n).and_then(|x| x.parse::<u64>().ok())).sum()
    };
    let (tp, tf) = (field(1), field(3));
    println!("conformance-gpu: {tp} passed, {tf} failed ({} variants, {} s)", variants.len(), now_s().saturating_sub(start));
    Ok(i32::from(tf > 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_after_the_name() {
        assert_eq!(tag("PASS g/k\n", "O3/ptx"), "PASS g/k [O3/ptx]\n");
        assert_eq!(tag("FAIL g/k: 1 of 2\nrun\tx\n    out[0]: y\n", "O0/so"), "FAIL g/k [O0/so]: 1 of 2\n    out[0]: y\n");
        assert_eq!(tag("UNSUPPORTED g/k: e", "v"), "UNSUPPORTED g/k [v]: e\n");
    }
}
