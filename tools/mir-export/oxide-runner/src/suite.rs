//! The conformance suite's steps shared by its drivers (oxide-runner
//! conformance, conformance-gpu and fuzz): the C tools (mirsplit, the
//! harness), the CPU reference, the one-kernel worker, the comparison of a
//! harness line with the CPU reference's, the expected errors, the GPU
//! variants' modules of a group and their pack (docs/conformance.md).
//!
//! Results, small enough to carry to a GPU machine ($B, CONF_BUILD,
//! default build/conformance): GROUP.expected (the CPU reference's lines),
//! GROUP.kernels and GROUP.LEVEL.EXT (--gpu-artifacts: the kernels that
//! compiled, their module for each GPU variant, MODULE.failed those left
//! out of one), failures.tsv and failures.txt. Everything else ($W,
//! CONF_WORK, default build/conformance-work): tools/ (mirsplit,
//! harness), cpu-ref-target/, kernels.list ("GROUP NAME" of every
//! kernel), export/ (oxide-runner export-group), GROUP.mir.json,
//! GROUP.export-errors, GROUP/NAME.* (one kernel: JSON, PTX / .o / .so,
//! logs, NAME.result), gpu/ (conformance-gpu).

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::conf::{self, first_error, read_lossy, remove, Conf, CONF};

/// A fatal error of a driver: its message (printed as `conformance: ...`).
pub type Die = String;

/// The exit status as sh reports it: the code, or 128 + the signal.
pub fn sh_status(st: std::io::Result<ExitStatus>) -> i32 {
    match st {
        Ok(s) => s.code().or_else(|| s.signal().map(|n| 128 + n)).unwrap_or(1),
        Err(_) => 127,
    }
}

/// Runs `cmd` with its output appended to `out`, or inherited when None;
/// its exit status (sh_status).
pub fn run_out(cmd: &mut Command, out: Option<&Path>) -> i32 {
    cmd.stdin(Stdio::null());
    if let Some(log) = out {
        let f = OpenOptions::new().create(true).append(true).open(log);
        let Ok(f) = f else { return 127 };
        let Ok(f2) = f.try_clone() else { return 127 };
        cmd.stdout(f).stderr(f2);
    }
    sh_status(cmd.status())
}

/// Runs `cmd` with its output in `log` (truncated); its exit status.
pub fn run_log(cmd: &mut Command, log: &Path) -> i32 {
    let _ = File::create(log);
    run_out(cmd, Some(log))
}

/// `msg` as an error of a step run for `out`: appended to the log when
/// there is one (where the fuzz runner looks), returned.
fn die_to(out: Option<&Path>, msg: &str) -> Die {
    if let Some(log) = out {
        if let Ok(mut f) = OpenOptions::new().create(true).append(true).open(log) {
            let _ = writeln!(f, "conformance: {msg}");
        }
    }
    msg.to_string()
}

/// Seconds since the epoch (the drivers' times are differences of these,
/// as `date +%s` gives them).
pub fn now_s() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// Whether file `a` is newer than file `b` (sh `test a -nt b`).
fn newer(a: &Path, b: &Path) -> bool {
    let t = |p: &Path| fs::metadata(p).and_then(|m| m.modified()).ok();
    match (t(a), t(b)) {
        (Some(x), Some(y)) => x > y,
        (Some(_), None) => true,
        _ => false,
    }
}

/// mirsplit (tests/conformance/mirsplit.c) built into $W/tools unless it
/// is there and newer than its source.
pub fn build_tools(c: &Conf) -> Result<(), Die> {
    let _ = fs::create_dir_all(c.w.join("tools"));
    let (t, src) = (c.tool("mirsplit"), Path::new(CONF).join("mirsplit.c"));
    if !conf::is_executable(&t) || newer(&src, &t) {
        let st = run_out(c.cc_cmd().args(["-O2", "-std=c11", "-o"]).arg(&t).arg(&src).arg("-lcjson"), None);
        if st != 0 {
            return Err("cannot build mirsplit (needs cJSON: libcjson-dev)".into());
        }
    }
    Ok(())
}

/// The emulator's sources: src/runtime/oxemu.c and its pieces oxemu_*.c,
/// in name order.
fn emulator_sources() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir("src/runtime")
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with("oxemu") && name.ends_with(".c")
        })
        .collect();
    v.sort();
    v
}

/// The C harness (tests/conformance/harness.c) with both backends of the
/// runtime (the driver's and the emulator's: oxrt.c picks one per
/// module), its compiler's output to `out`.
pub fn build_harness(c: &Conf, out: Option<&Path>) -> Result<(), Die> {
    let _ = fs::create_dir_all(c.w.join("tools"));
    let mut cmd = c.cc_cmd();
    cmd.args(["-O2", "-std=c11", "-rdynamic", "-o"]).arg(c.tool("harness")).arg(Path::new(CONF).join("harness.c"));
    cmd.args(["src/runtime/oxrt.c", "src/runtime/oxcuda.c", "src/runtime/oxmath.c"]).args(emulator_sources());
    cmd.args(["-ldl", "-lm", "-lpthread"]);
    if run_out(&mut cmd, out) != 0 {
        return Err(die_to(out, "cannot build the harness"));
    }
    Ok(())
}

/// The CPU reference (`conf_dir`/cpu-ref, conf_dir tests/conformance or
/// the fuzz run's directory): one cargo build, every group crate once,
/// then the expected lines of every group ($B/GROUP.expected) and the
/// list of kernels ($W/kernels.list). Its tools' output to `out`.
pub fn cpu_reference(c: &Conf, conf_dir: &Path, out: Option<&Path>) -> Result<(), Die> {
    let cargo = std::env::var("CARGO").ok().filter(|v| !v.is_empty()).unwrap_or("cargo".into());
    let target = c.w.join("cpu-ref-target");
    let mut cmd = Command::new(cargo);
    cmd.args(["build", "--release", "--offline", "--quiet", "--manifest-path"]);
    cmd.arg(conf_dir.join("cpu-ref/Cargo.toml")).arg("--target-dir").arg(&target);
    // the intrinsics group uses core_intrinsics, as mir-export allows it
    cmd.env("RUSTC_BOOTSTRAP", "1");
    // cargo reads .cargo/config.toml from its working directory's
    // ancestors, not the manifest's: a suite's own (tests/crates) is named
    let cfg = conf_dir.join(".cargo/config.toml");
    if cfg.is_file() {
        cmd.arg("--config").arg(&cfg);
    }
    if run_out(&mut cmd, out) != 0 {
        return Err(die_to(out, "the CPU reference does not build"));
    }
    let reference = target.join("release/conformance-cpu-ref");
    let _ = fs::create_dir_all(&c.b);
    let list = File::create(c.w.join("kernels.list"));
    let mut cmd = Command::new(&reference);
    cmd.arg("--list");
    let st = match list {
        Ok(f) => {
            cmd.stdin(Stdio::null()).stdout(f);
            if let Some(log) = out {
                if let Ok(l) = OpenOptions::new().create(true).append(true).open(log) {
                    cmd.stderr(l);
                }
            }
            sh_status(cmd.status())
        }
        Err(_) => 1,
    };
    if st != 0 {
        return Err(die_to(out, "cpu-ref --list failed"));
    }
    if run_out(Command::new(&reference).arg("--out").arg(&c.b), out) != 0 {
        return Err(die_to(out, "the CPU reference failed"));
    }
    Ok(())
}

/// `s` without `prefix` when it starts with it.
fn strip<'a>(s: &'a str, prefix: &str) -> &'a str {
    s.strip_prefix(prefix).unwrap_or(s)
}

/// `s` without a leading `error: ` or `error[OXnnnn]: ` (any digits).
fn strip_error(s: &str) -> &str {
    if let Some(r) = s.strip_prefix("error: ") {
        return r;
    }
    let Some(r) = s.strip_prefix("error[OX") else { return s };
    let d = r.bytes().take_while(u8::is_ascii_digit).count();
    r[d..].strip_prefix("]: ").unwrap_or(s)
}

/// Whether `s` is one or more ASCII digits.
fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// `s` without a leading place `FILE:LINE:COL: ` (no space in FILE).
fn strip_place(s: &str) -> &str {
    let Some((tok, rest)) = s.split_once(' ') else { return s };
    let Some(t) = tok.strip_suffix(':') else { return s };
    let mut it = t.rsplitn(3, ':');
    match (it.next(), it.next(), it.next()) {
        (Some(col), Some(line), Some(_)) if digits(col) && digits(line) => rest,
        _ => s,
    }
}

/// `s` without a leading `FILE.json: PATH: ` (no spaces in either).
fn strip_json_place(s: &str) -> &str {
    let Some((tok, rest)) = s.split_once(' ') else { return s };
    if !tok.ends_with(".json:") {
        return s;
    }
    match rest.split_once(' ') {
        Some((path, tail)) if path.ends_with(':') => tail,
        _ => s,
    }
}

/// `s` without a leading `in NAME: ` (NAME of [A-Za-z0-9_]).
fn strip_in(s: &str) -> &str {
    let Some(r) = s.strip_prefix("in ") else { return s };
    let n = r.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
    r[n..].strip_prefix(": ").unwrap_or(s)
}

/// `s` without a leading `ptxas FILE, line N; `.
fn strip_ptxas(s: &str) -> &str {
    let Some(r) = s.strip_prefix("ptxas ") else { return s };
    let Some(comma) = r.find(',') else { return s };
    let Some(r) = r[comma..].strip_prefix(", line ") else { return s };
    let n = r.bytes().take_while(u8::is_ascii_digit).count();
    r[n..].strip_prefix("; ").unwrap_or(s)
}

/// A compiler message without its location and prefixes, for grouping.
pub fn normalise(msg: &str) -> String {
    let s = strip(strip(msg, "oxidec: "), "mir-export: ");
    let s = strip_json_place(strip_place(strip_error(s)));
    strip_ptxas(strip_in(strip_error(s))).to_string()
}

/// The number mawk sees in a field (C strtod over the whole field:
/// decimal or 0x hex, not inf or nan), or None for a string.
fn awk_number(s: &str) -> Option<f64> {
    let t = s.trim_matches(|c: char| c == ' ' || c == '\t' || c == '\n');
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let l = body.to_ascii_lowercase();
    let hex = l.strip_prefix("0x");
    let (m, e) = match hex {
        Some(h) => h.split_once('p').map_or((h, None), |(m, e)| (m, Some(e))),
        None => l.split_once('e').map_or((l.as_str(), None), |(m, e)| (m, Some(e))),
    };
    let (ip, fp) = m.split_once('.').unwrap_or((m, ""));
    let radix = if hex.is_some() { 16 } else { 10 };
    let is_digit = |b: u8| (b as char).is_digit(radix);
    let num_ok = !(ip.is_empty() && fp.is_empty()) && ip.bytes().all(is_digit) && fp.bytes().all(is_digit);
    if !num_ok || !e.is_none_or(|e| digits(e.strip_prefix(['+', '-']).unwrap_or(e))) {
        return None;
    }
    let v = if hex.is_some() {
        let mant = |d: &str, v: f64| d.bytes().fold(v, |a, b| a * 16.0 + (b as char).to_digit(16).unwrap_or(0) as f64);
        let scale = 16f64.powi(fp.len() as i32);
        let exp: i32 = e.map_or(Some(0), |e| e.parse().ok())?;
        mant(fp, mant(ip, 0.0)) / scale * 2f64.powi(exp)
    } else {
        l.parse().ok()?
    };
    Some(if neg { -v } else { v })
}

/// Whether awk (mawk) finds fields `a` and `b` (None: past the end of
/// the split) equal: numerically when both look like numbers, else as
/// strings.
fn awk_eq(a: Option<&str>, b: Option<&str>) -> bool {
    let num = |x: Option<&str>| x.map_or(Some(0.0), awk_number);
    match (num(a), num(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a.unwrap_or("") == b.unwrap_or(""),
    }
}

/// The first line of `text` whose first word is `k`, or "".
pub fn line_of<'a>(text: &'a str, k: &str) -> &'a str {
    text.lines().find(|l| l.split_whitespace().next() == Some(k)).unwrap_or("")
}

/// "PASS g/k", or "FAIL g/k: ..." + "run<TAB>what" + the differences,
/// for the harness's output `actual` (its trailing newlines cut) against
/// the CPU reference's line in $B/GROUP.expected; lines ending in "\n".
pub fn compare_line(b: &Path, g: &str, k: &str, actual: &str) -> String {
    let exp = read_lossy(&b.join(format!("{g}.expected")));
    let want = line_of(&exp, k);
    let gk = format!("{g}/{k}");
    if actual == want {
        return format!("PASS {gk}\n");
    }
    let w: Vec<&str> = want.split_whitespace().collect();
    let a: Vec<&str> = actual.lines().next().unwrap_or("").split_whitespace().collect();
    let (wf, af) = (|i: usize| w.get(i - 1).copied(), |i: usize| a.get(i - 1).copied());
    if af(2) == Some("error") {
        let msg = a[2..].join(" ");
        return format!("FAIL {gk}: {msg}\nrun\terror: {msg}\n");
    }
    if a.is_empty() {
        return format!("FAIL {gk}: no output\nrun\tno output\n");
    }
    if !awk_eq(wf(2), af(2)) {
        let (x, y) = (wf(2).unwrap_or(""), af(2).unwrap_or(""));
        return format!("FAIL {gk}: expected {x}, got {y}\nrun\texpected {x}, got {y}\n");
    }
    let n = w.len();
    let bad: Vec<usize> = (3..=n).filter(|&i| !awk_eq(wf(i), af(i))).collect();
    let mut r = format!("FAIL {gk}: {} of {} words differ\nrun\twrong result\n", bad.len(), n as i64 - 2);
    for &i in bad.iter().take(4) {
        r.push_str(&format!("    out[{}]: expected {}, got {}\n", i - 3, wf(i).unwrap_or(""), af(i).unwrap_or("")));
    }
    r
}

/// Field `n` (0-based) of the first line of `text` whose field 0 is `key`
/// (tab-separated, as awk -F '\t'), None when no line has it.
pub fn tsv_lookup<'a>(text: &'a str, key: &str, n: usize) -> Option<&'a str> {
    let line = text.lines().find(|l| l.split('\t').next() == Some(key))?;
    Some(line.split('\t').nth(n).unwrap_or(""))
}

/// The expected errors listed for kernel `key` in an expected-errors.txt
/// for an export by rustc `release` (`1.96.0`; None: not known): (code,
/// message substring) of each of its lines. A kernel has several when
/// toolchains stop it at different points (rustc 1.95 without core's
/// library bodies, 1.96 with them); its error must match one of them. A
/// line with a fourth field (`rustc 1.95`: releases, space-separated, each
/// a release or its prefix at a `.`) is for an export by those releases
/// only: through another, the kernel must compile and match unless another
/// of its lines is for that release.
pub fn expected_for<'a>(text: &'a str, key: &str, release: Option<&str>) -> Vec<(&'a str, &'a str)> {
    text.lines()
        .filter(|l| l.split('\t').next() == Some(key))
        .filter(|l| line_is_for(l.split('\t').nth(3), release))
        .map(|l| {
            let mut f = l.split('\t').skip(1);
            (f.next().unwrap_or(""), f.next().unwrap_or(""))
        })
        .filter(|(_, sub)| !sub.is_empty())
        .collect()
}

/// Whether a line whose release field is `only` applies to an export by
/// rustc `release`.
fn line_is_for(only: Option<&str>, release: Option<&str>) -> bool {
    let (Some(only), Some(release)) = (only, release) else { return true };
    let releases = only.strip_prefix("rustc ").unwrap_or(only).split_whitespace();
    releases.into_iter().any(|r| release == r || release.strip_prefix(r).is_some_and(|rest| rest.starts_with('.')))
}

/// The release of the rustc that exported group `g` (`"release"` in the
/// `rustc` object at the top of $W/GROUP.mir.json), if its JSON was
/// written.
pub fn export_release(c: &Conf, g: &str) -> Option<String> {
    use std::io::Read;
    let mut head = [0u8; 4096];
    let n = File::open(c.w.join(format!("{g}.mir.json"))).and_then(|mut f| f.read(&mut head)).ok()?;
    let text = String::from_utf8_lossy(&head[..n]);
    let rustc = &text[text.find("\"rustc\":")?..];
    let value = rustc[rustc.find("\"release\":")? + 10..].trim_start().strip_prefix('"')?;
    Some(value[..value.find('"')?].to_string())
}

/// tests/conformance/expected-errors.txt (CONF_SUITE's): kernels that use
/// a construct oxidec or mir-export does not support yet,
/// "GROUP/NAME<TAB>CODE<TAB>substring of the message".
pub fn expected_errors() -> String {
    read_lossy(&conf::suite_dir().join("expected-errors.txt"))
}

/// The message text `s` (the shell's "$(...)": trailing newlines cut).
fn chomp(s: &str) -> &str {
    s.trim_end_matches('\n')
}

/// One kernel, as the suite checks it alone: writes $W/GROUP/NAME.result,
/// line 1 "PASS ..." or "FAIL ...", line 2 (FAIL) "STAGE<TAB>message" for
/// grouping, then details; on a FAIL, $W/GROUP/NAME.status: the exit
/// status of the tool that failed. Mode host: `oxidec --target=host`,
/// `cc -shared` and the harness, the line compared with the CPU
/// reference's; compile: `oxidec -o K.ptx` and `ptxas -arch=sm_90`.
pub fn kernel_worker(c: &Conf, host: bool, g: &str, k: &str) {
    let d = c.w.join(g);
    let f = |ext: &str| d.join(format!("{k}.{ext}"));
    let (res, log) = (f("result"), f("log"));
    // stage, message, the log to show, the failed tool's status (0: none)
    let fail = |stage: &str, msg: &str, detail: Option<&Path>, st: i32| {
        if st != 0 {
            let _ = fs::write(f("status"), format!("{st}\n"));
        }
        let first = stage.split(' ').next().unwrap_or("");
        let msg = strip(msg, &format!("{first}: "));
        let mut r = format!("FAIL {g}/{k}: {stage}: {msg}\n{stage}\t{}\n", normalise(msg));
        for l in detail.map(read_lossy).unwrap_or_default().lines().take(20) {
            r.push_str(&format!("    {l}\n"));
        }
        let _ = fs::write(&res, r);
    };
    remove(&f("status"));
    let errs = read_lossy(&c.w.join(format!("{g}.export-errors")));
    if let Some(e) = tsv_lookup(&errs, k, 1).filter(|e| !e.is_empty()) {
        return fail("mir-export", e, None, 0);
    }
    let json = c.w.join(format!("{g}.mir.json"));
    if !json.is_file() {
        return fail("mir-export", &format!("no export of group {g}"), None, 1);
    }
    let st = run_log(Command::new(c.tool("mirsplit")).arg(&json).arg(f("mir.json")).arg(k), &log);
    if st != 0 {
        return fail("mirsplit", &first_error(&log), None, st);
    }
    if !host {
        let st = run_log(Command::new(&c.oxidec).arg(f("mir.json")).arg("-o").arg(f("ptx")), &log);
        if st != 0 {
            return fail("oxidec", &first_error(&log), Some(&log), st);
        }
        if c.has_ptxas() {
            let st = run_log(Command::new(&c.ptxas).arg("-arch=sm_90").arg(f("ptx")).arg("-o").arg(f("cubin")), &log);
            if st != 0 {
                return fail("ptxas", &first_error(&log), Some(&log), st);
            }
            remove(&f("cubin"));
        }
        let _ = fs::write(&res, format!("PASS {g}/{k}\n"));
        return;
    }
    let st = run_log(Command::new(&c.oxidec).arg("--target=host").arg(f("mir.json")).arg("-o").arg(f("o")), &log);
    if st != 0 {
        return fail("oxidec --target=host", &first_error(&log), Some(&log), st);
    }
    let st = run_log(c.cc_cmd().arg("-shared").arg(f("o")).arg("-o").arg(f("so")).arg("-lm"), &log);
    if st != 0 {
        return fail("cc -shared", &first_error(&log), Some(&log), st);
    }
    if let (Ok(o), Ok(e)) = (File::create(f("actual")), File::create(&log)) {
        let _ = Command::new(c.tool("harness")).arg(f("so")).arg(k).stdin(Stdio::null()).stdout(o).stderr(e).status();
    }
    let _ = fs::write(&res, compare_line(&c.b, g, k, chomp(&read_lossy(&f("actual")))));
}

// ------------------------------------------------------------ GPU variants

/// GPU_VARIANTS as given (default "O3/ptx O3/cubin O0/ptx O0/cubin"):
/// optimisation level / module kind. .cubin is made here by oxidec
/// (nvJitLink), .ptx is JIT-compiled by the driver there; LEVEL/so is a
/// host-emulation module (conformance-gpu's own test without a GPU).
pub fn gpu_variants_text() -> String {
    std::env::var("GPU_VARIANTS").ok().filter(|v| !v.is_empty()).unwrap_or("O3/ptx O3/cubin O0/ptx O0/cubin".into())
}

/// The GPU variants, one by one.
pub fn gpu_variants() -> Vec<String> {
    gpu_variants_text().split_whitespace().map(String::from).collect()
}

/// The level and the module kind of variant `v` ("O3", "ptx").
pub fn variant_parts(v: &str) -> (&str, &str) {
    (v.rsplit_once('/').map_or(v, |p| p.0), v.split_once('/').map_or(v, |p| p.1))
}

/// The module of group `g` for variant `v`: $B/GROUP.O3.ptx, ...
pub fn variant_module(b: &Path, g: &str, v: &str) -> PathBuf {
    let (lvl, ext) = variant_parts(v);
    PathBuf::from(format!("{}/{g}.{lvl}.{ext}", b.display()))
}

/// `p` with `.ext` appended to its name.
fn with_ext(p: &Path, ext: &str) -> PathBuf {
    PathBuf::from(format!("{}.{ext}", p.display()))
}

/// oxidec -`level` of JSON `json` to module `m` (a PTX module must pass
/// ptxas too; a .so is a host-emulation module), its messages in `log`;
/// false (and no module) when that fails.
fn gpu_module_try(c: &Conf, json: &Path, m: &Path, level: &str, log: &Path) -> bool {
    let lvl = format!("-{level}");
    if m.extension().is_some_and(|e| e == "so") {
        let o = with_ext(m, "o");
        let ok = run_log(Command::new(&c.oxidec).args(["--target=host", &lvl]).arg(json).arg("-o").arg(&o), log) == 0
            && run_out(c.cc_cmd().arg("-shared").arg(&o).arg("-o").arg(m).arg("-lm"), Some(log)) == 0;
        remove(&o);
        if !ok {
            remove(m);
        }
        return ok;
    }
    if run_log(Command::new(&c.oxidec).arg(&lvl).arg(json).arg("-o").arg(m), log) != 0 {
        remove(m);
        return false;
    }
    if m.extension().is_some_and(|e| e == "ptx") && c.has_ptxas() {
        let cubin = with_ext(m, "cubin");
        let ok = run_out(Command::new(&c.ptxas).arg("-arch=sm_90").arg(m).arg("-o").arg(&cubin), Some(log)) == 0;
        remove(&cubin);
        if !ok {
            remove(m);
        }
        return ok;
    }
    true
}

/// Appends `line` and a newline to file `p`.
fn append_line(p: &Path, line: &str) {
    if let Ok(mut f) = OpenOptions::new().create(true).append(true).open(p) {
        let _ = writeln!(f, "{line}");
    }
}

/// The module of group `g` for every variant of `variants`, of the
/// kernels in $B/GROUP.kernels ($W/GROUP/all.mir.json holds them). A
/// kernel that does not compile at a variant is left out of that
/// variant's module and listed in MODULE.failed ("NAME<TAB>message");
/// the module is made of the others.
pub fn gpu_modules(c: &Conf, g: &str, variants: &[String]) {
    let (wg, whole) = (c.w.join(g), c.w.join(format!("{g}.mir.json")));
    let mirsplit = c.tool("mirsplit");
    for v in variants {
        let m = variant_module(&c.b, g, v);
        let (lvl, ext) = variant_parts(v);
        let failed = with_ext(&m, "failed");
        remove(&m);
        remove(&failed);
        if gpu_module_try(c, &wg.join("all.mir.json"), &m, lvl, &wg.join(format!("all.{lvl}.{ext}.log"))) {
            continue;
        }
        // the kernels that fail alone
        let mut good = Vec::new();
        for k in read_lossy(&c.b.join(format!("{g}.kernels"))).split_whitespace() {
            let (json, module, log) = (wg.join(format!("{k}.one.json")), wg.join(format!("{k}.one.{ext}")), wg.join(format!("{k}.one.log")));
            if run_log(Command::new(&mirsplit).arg(&whole).arg(&json).arg(k), &log) == 0
                && gpu_module_try(c, &json, &module, lvl, &log)
            {
                good.push(k.to_string());
            } else {
                append_line(&failed, &format!("{k}\t{}", first_error(&log)));
            }
            remove(&json);
            remove(&module);
        }
        if good.is_empty() {
            continue;
        }
        let (json, log) = (wg.join("good.json"), wg.join("good.log"));
        if !(run_log(Command::new(&mirsplit).arg(&whole).arg(&json).args(&good), &log) == 0
            && gpu_module_try(c, &json, &m, lvl, &log))
        {
            append_line(&failed, &format!("*\tthe module of the kernels that compile alone does not: {}", first_error(&log)));
        }
    }
}

/// Packs the GPU artifacts of $B (expected lines, kernel lists, modules,
/// failure lists) into `archive` (.tar.xz), under directory `dir` there
/// (paths relative to the tree's root).
pub fn gpu_pack(c: &Conf, archive: &Path, dir: &str) -> Result<(), Die> {
    if let Some(p) = archive.parent() {
        let _ = fs::create_dir_all(p);
    }
    let keep = |n: &str| {
        n == "failures.tsv" || [".expected", ".kernels", ".ptx", ".cubin", ".failed"].iter().any(|e| n.ends_with(e))
    };
    let names: String =
        conf::entries(&c.b).iter().map(|p| conf::file_name(p)).filter(|n| keep(n)).map(|n| format!("{n}\n")).collect();
    let mut cmd = Command::new("tar");
    cmd.arg("-cJf").arg(archive).arg("-C").arg(&c.b).arg("--transform").arg(format!("s#^#{dir}/#")).args(["-T", "-"]);
    let ok = cmd.stdin(Stdio::piped()).spawn().and_then(|mut ch| {
        if let Some(mut i) = ch.stdin.take() {
            i.write_all(names.as_bytes())?;
        }
        ch.wait()
    });
    match ok {
        Ok(s) if s.success() => Ok(()),
        _ => Err(format!("cannot pack {}", archive.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_normalised() {
        assert_eq!(normalise("oxidec: error[OX0200]: x y"), "x y");
        assert_eq!(normalise("src/lib.rs:3:4: error[OX0200]: in k_1: not yet"), "not yet");
        assert_eq!(normalise("a.mir.json: $.functions[3]: error: bad"), "bad");
        assert_eq!(normalise("ptxas /t/k.ptx, line 12; error   : Unknown"), "error   : Unknown");
        assert_eq!(normalise("mir-export: error: x:1:2: y"), "y");
        assert_eq!(normalise("error[OXab]: z"), "error[OXab]: z");
        assert_eq!(normalise("a:b:1:2: w"), "w");
        assert_eq!(normalise("a:1: w"), "a:1: w");
    }

    #[test]
    fn awk_comparison() {
        assert!(awk_eq(Some("0"), Some("00")));
        assert!(awk_eq(Some("0x10"), Some("16")));
        assert!(awk_eq(Some("1e3"), Some("1000")));
        assert!(awk_eq(Some("0x1p4"), Some("16")));
        assert!(!awk_eq(Some("inf"), Some("infinity")));
        assert!(!awk_eq(Some("1e"), Some("1")));
        assert!(!awk_eq(Some("abc"), Some("abd")));
        assert!(awk_eq(None, Some("0")));
        assert!(!awk_eq(None, Some("x")));
        assert!(!awk_eq(Some("e5"), Some("5")));
    }

    #[test]
    fn places_in_tables() {
        let t = "# g/k\tOX0200\tz\na/b\tOX0200\tmsg\tmore\na/c\tOX0300\n";
        assert_eq!(tsv_lookup(t, "a/b", 2), Some("msg"));
        assert_eq!(tsv_lookup(t, "a/c", 2), Some(""));
        assert_eq!(tsv_lookup(t, "a/d", 1), None);
        let t2 = "a/b\tOX0200\tone\n# a/b\tOX0200\tcomment\na/c\tOX0200\tx\na/b\tOX1004\ttwo\n";
        assert_eq!(expected_for(t2, "a/b", None), vec![("OX0200", "one"), ("OX1004", "two")]);
        assert_eq!(expected_for(t, "a/c", None), vec![]);
        // a line for some releases only
        let t3 = "a/b\tOX0200\tone\trustc 1.95\na/b\tOX1004\ttwo\trustc 1.96 1.97.0\na/c\tOX0200\tall\n";
        assert_eq!(expected_for(t3, "a/b", Some("1.95.0")), vec![("OX0200", "one")]);
        assert_eq!(expected_for(t3, "a/b", Some("1.96.1")), vec![("OX1004", "two")]);
        assert_eq!(expected_for(t3, "a/b", Some("1.97.0")), vec![("OX1004", "two")]);
        assert_eq!(expected_for(t3, "a/b", Some("1.9.0")), vec![]);
        assert_eq!(expected_for(t3, "a/b", Some("1.951.0")), vec![]);
        assert_eq!(expected_for(t3, "a/b", None).len(), 2);
        assert_eq!(expected_for(t3, "a/c", Some("1.96.0")), vec![("OX0200", "all")]);
        assert_eq!(variant_parts("O3/ptx"), ("O3", "ptx"));
    }
}
