//! The batch exporter: mir-export of one group crate, where a construct
//! mir-export rejects fails only the kernels that use it.
//!
//! With --keep-going, mir-export leaves such kernels out itself (one run).
//! Otherwise (or when that run fails as a whole) the kernel around each
//! reported line is left out and the export retried; when the line is not
//! inside a kernel (a helper that kernels call), the kernels that fail
//! alone are found by bisection. A kernel is left out by renaming its
//! marker in the MIR rustc already wrote (rustsrc::mir_leave_out): no
//! rebuild, so a retry costs a fraction of a build. Should cargo rebuild
//! after all, the MIR not be there, or the bisection contradict itself,
//! the `#[kernel]` is commented out in the copy of the crate instead (a
//! rebuild each time) and every remaining kernel exported alone.
//!
//! Files (docs/conformance.md): $W/export/GROUP/ the copy of the crate
//! (lib.rs.orig the original lib.rs; left with the `#[kernel]` of the
//! kernels left out commented out), $W/export/GROUP.log mir-export's last
//! log, $W/GROUP.mir.json the export, $W/GROUP.export-errors
//! "NAME<TAB>message" of each kernel left out.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::conf::{self, first_error, read_lossy, remove, Conf};
use crate::rustsrc;

/// The line of a group's Cargo.toml that names oxide-device, with the
/// path made absolute (the work directories may be anywhere).
fn absolute_device(toml: &str, root: &Path) -> String {
    let dev = root.join("tools/mir-export/oxide-device");
    let mut out = String::new();
    for line in toml.lines() {
        let rest = line.strip_prefix("oxide-device = { path = \"").and_then(|r| {
            let q = r.find('"')?;
            r[q..].strip_prefix("\" }")
        });
        match rest {
            Some(tail) => out.push_str(&format!("oxide-device = {{ path = \"{}\" }}{tail}", dev.display())),
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// Runs mir-export on work dir `work` into `json`, its output in `log`;
/// its exit status. `MIR_EXPORT_RUSTC`, when set, is the rustc mir-export
/// compiles the kernels with (`--rustc`); the CPU reference keeps cargo's
/// own rustc, so that a kernel exported through another toolchain is
/// checked against the default one's CPU results.
///
/// A group whose Cargo.toml says `rustc = "with-library-sources"` (group
/// `library`: kernels that need core's own MIR) is exported, without
/// `MIR_EXPORT_RUSTC`, through the first rustc that has its library
/// sources (`library_rustc`), with core's MIR cached in build/ unless
/// OXIDE_MIR_EXPORT_CACHE says where.
fn run_mir_export(c: &Conf, work: &Path, json: &Path, log: &Path, extra: &[&str]) -> i32 {
    let mut cmd = Command::new(&c.mir_export);
    cmd.arg(work).arg("-o").arg(json).args(extra);
    let needs_sources = read_lossy(&work.join("Cargo.toml")).contains("rustc = \"with-library-sources\"");
    if let Some(r) = std::env::var_os("MIR_EXPORT_RUSTC").filter(|r| !r.is_empty()) {
        cmd.arg("--rustc").arg(r);
    } else if needs_sources {
        match library_rustc() {
            Some(r) => {
                cmd.arg("--rustc").arg(r);
            }
            None => {
                let _ = fs::write(log, "oxide-runner: no installed rustc has its library sources (rust-src; Debian: rust-web-src)\n");
                return 1;
            }
        }
    }
    if needs_sources && std::env::var_os("OXIDE_MIR_EXPORT_CACHE").is_none() {
        let root = std::env::current_dir().unwrap_or_default();
        cmd.env("OXIDE_MIR_EXPORT_CACHE", root.join("build/mir-export-cache"));
    }
    conf::run_logged(&mut cmd, log)
}

/// The first of `rustc` (PATH) and /usr/bin/rustc whose sysroot holds
/// the library sources (`lib/rustlib/src/rust/library/core`).
fn library_rustc() -> Option<PathBuf> {
    ["rustc", "/usr/bin/rustc"].iter().map(PathBuf::from).find(|r| {
        let out = Command::new(r).args(["--print", "sysroot"]).output();
        out.ok().filter(|o| o.status.success()).is_some_and(|o| {
            let sysroot = PathBuf::from(String::from_utf8_lossy(&o.stdout).trim());
            sysroot.join("lib/rustlib/src/rust/library/core/src/lib.rs").is_file()
        })
    })
}

/// Whether mir-export can leave kernels out itself.
fn has_keep_going(c: &Conf) -> bool {
    let out = Command::new(&c.mir_export).arg("--help").output();
    out.map(|o| {
        let mut t = o.stdout;
        t.extend(o.stderr);
        String::from_utf8_lossy(&t).contains("--keep-going")
    })
    .unwrap_or(false)
}

/// The paths under `dir` matching `pattern`, whose components may hold
/// `*` (any characters but `/`).
fn glob(dir: &Path, pattern: &str) -> Vec<PathBuf> {
    let mut found = vec![dir.to_path_buf()];
    for comp in pattern.split('/') {
        let mut next = Vec::new();
        for d in &found {
            if !comp.contains('*') {
                let p = d.join(comp);
                if p.exists() {
                    next.push(p);
                }
                continue;
            }
            for e in conf::entries(d) {
                if wild_match(comp, &conf::file_name(&e)) {
                    next.push(e);
                }
            }
        }
        found = next;
    }
    found
}

/// Whether `name` matches `pat` (`*`: any characters).
fn wild_match(pat: &str, name: &str) -> bool {
    match pat.split_once('*') {
        None => pat == name,
        Some((head, tail)) => {
            let Some(rest) = name.strip_prefix(head) else { return false };
            (0..=rest.len()).any(|i| rest.is_char_boundary(i) && wild_match(tail, &rest[i..]))
        }
    }
}

/// The group crates' dependencies (oxide-device, oxide-macros) built once
/// in $W/export/.deps/target, with the Cargo.toml of group `g` (its
/// profile) around an empty library. export_group starts a group's target
/// directory as a copy of it (cargo still rebuilds whatever does not
/// match) instead of building them again for every group.
pub fn deps_template(c: &Conf, g: &str) {
    let t = c.w.join("export/.deps");
    remove(&t);
    let _ = fs::create_dir_all(t.join("src"));
    let root = std::env::current_dir().unwrap_or_default();
    let toml = absolute_device(&read_lossy(&c.kernels.join(g).join("Cargo.toml")), &root);
    let mut named = false;
    let toml: String = toml
        .lines()
        .map(|l| {
            if !named && l.starts_with("name") && l[4..].trim_start().starts_with('=') {
                named = true;
                "name = \"oxide-export-deps\"\n".to_string()
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let _ = fs::write(t.join("Cargo.toml"), toml);
    let _ = fs::write(t.join("src/lib.rs"), "");
    conf::copy_cargo_config(&conf::suite_dir(), &t);
    // fails (no kernels) once the dependencies are built
    run_mir_export(c, &t, &t.join("deps.mir.json"), &t.join("log"), &[]);
    for pat in [
        "target/mir-export/*/deps/*oxide_export_deps*",
        "target/mir-export/*/*oxide_export_deps*",
        "target/mir-export/*/.fingerprint/oxide-export-deps-*",
        "target/mir-export/oxide-rustc-command-*",
    ] {
        glob(&t, pat).iter().for_each(|p| remove(p));
    }
    if glob(&t, "target/mir-export/*/deps/liboxide_device-*").is_empty() {
        remove(&t);
    }
}

/// The kernels a mir-export with --keep-going left out, from its log:
/// (NAME, the error line before its "mir-export: note: kernel `NAME` left
/// out").
pub fn left_out(log: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut last = "";
    for line in log.lines() {
        if let Some(rest) = line.strip_prefix("mir-export: note: kernel `") {
            if let Some((k, tail)) = rest.split_once('`') {
                if tail.starts_with(" left out") {
                    let k = k.rsplit("::").next().unwrap_or(k);
                    out.push((k.to_string(), conf::cut(last, 400).to_string()));
                    continue;
                }
            }
        }
        if line.to_ascii_lowercase().contains("error") {
            last = line;
        }
    }
    out
}

/// The line number of an error line `src/lib.rs:LINE:COL: ...`, or None.
fn lib_rs_line(line: &str) -> Option<usize> {
    let rest = line.strip_prefix("src/lib.rs:")?;
    let (l, rest) = rest.split_once(':')?;
    let (col, _) = rest.split_once(':')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(l) && digits(col)).then(|| l.parse().ok()).flatten()
}

/// Whether `line` is an error at a place: `FILE.rs:L:C: error[OXnnnn]: `
/// (any FILE without spaces, `error: ` too); the place.
fn error_place(line: &str) -> Option<&str> {
    let i = line.find(": error")?;
    let place = &line[..i];
    let code = &line[i + 7..];
    let code_ok = code.starts_with(": ")
        || (code.starts_with("[OX") && code[3..].find("]: ").is_some_and(|j| code[3..3 + j].bytes().all(|b| b.is_ascii_digit())));
    let mut parts = place.rsplitn(3, ':');
    let (col, l, file) = (parts.next()?, parts.next()?, parts.next()?);
    let num = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (code_ok && num(col) && num(l) && file.ends_with(".rs") && !file.contains(' ')).then_some(place)
}

/// The kernels mir-export rejected, from its log: (NAME, message) for
/// every error at a line of lib.rs inside a kernel, the first error of
/// each kernel. Nothing when the log's first error is not such a line
/// (a crate-wide failure).
pub fn rejects(log: &str, lib: &str) -> Vec<(String, String)> {
    let spans = rustsrc::kernel_spans(lib);
    let first = conf::cut(crate::verdict::first_error_line(log), 400).to_string();
    let errors = log.lines().filter(|l| error_place(l).is_some_and(|p| p.starts_with("src/lib.rs:")) && lib_rs_line(l).is_some());
    let mut out: Vec<(String, String)> = Vec::new();
    for (i, line) in std::iter::once(first.as_str()).chain(std::iter::once("")).chain(errors).enumerate() {
        let k = lib_rs_line(line).and_then(|l| spans.iter().find(|s| s.start <= l && l <= s.end));
        match k {
            None if i == 0 => return out,
            Some(s) if !out.iter().any(|(n, _)| *n == s.name) => {
                out.push((s.name.clone(), conf::cut(line, 400).to_string()))
            }
            _ => {}
        }
    }
    out
}

/// One group's export (the state of export_group).
struct Export<'a> {
    c: &'a Conf,
    g: String,
    work: PathBuf,
    json: PathBuf,
    log: PathBuf,
    one: PathBuf,
    orig: String,
    all: Vec<String>,
    /// the kernels left out, with their error
    errs: Vec<(String, String)>,
}

impl Export<'_> {
    fn skip(&self) -> Vec<String> {
        self.errs.iter().map(|(k, _)| k.clone()).collect()
    }

    fn skipped(&self, k: &str) -> bool {
        self.errs.iter().any(|(n, _)| n == k)
    }

    fn left(&self) -> Vec<String> {
        self.all.iter().filter(|k| !self.skipped(k)).cloned().collect()
    }

    fn add(&mut self, k: &str, msg: String) {
        if !self.skipped(k) {
            self.errs.push((k.to_string(), msg));
        }
    }

    fn export(&self, json: &Path, extra: &[&str]) -> i32 {
        run_mir_export(self.c, &self.work, json, &self.log, extra)
    }

    /// The copy's lib.rs with the `#[kernel]` of `skip` commented out.
    fn strip(&self, skip: &[String]) {
        let _ = fs::write(self.work.join("src/lib.rs"), rustsrc::strip_kernels(&self.orig, skip));
    }

    /// rustc's MIR of the copy: one, written since the copy was made.
    fn mir_file(&self) -> Option<PathBuf> {
        let found = glob(&self.work, "target/mir-export/*/deps/*.mir");
        let [mf] = &found[..] else { return None };
        let t = |p: &Path| fs::metadata(p).and_then(|m| m.modified()).ok();
        (mf.is_file() && t(mf)? > t(&self.work.join("lib.rs.orig"))?).then(|| mf.clone())
    }

    /// Leaves the kernels `skip` (the others put back) out of the next
    /// export by their markers in the MIR; false when the MIR or a marker
    /// is not there.
    fn leave_out(&self, skip: &[String]) -> bool {
        let Some(mf) = self.mir_file() else { return false };
        let Some(text) = rustsrc::mir_leave_out(&read_lossy(&mf), skip) else { return false };
        let new = mf.with_extension("mir.new");
        fs::write(&new, text).is_ok() && fs::rename(&new, &mf).is_ok()
    }

    /// Whether the MIR still leaves out exactly `skip` (no rebuild since).
    fn leaves_out(&self, skip: &[String]) -> bool {
        self.mir_file().is_some_and(|mf| rustsrc::mir_leaves_out(&read_lossy(&mf), skip))
    }

    /// One export with only the kernels `ks`, by the MIR: Some(whether it
    /// succeeded), None when it could not be tried so.
    fn try_only(&self, ks: &[String]) -> Option<bool> {
        let others: Vec<String> = self.all.iter().filter(|k| !ks.contains(k)).cloned().collect();
        if !self.leave_out(&others) {
            return None;
        }
        let st = self.export(&self.one, &[]);
        remove(&self.one);
        // a rebuild reads a MIR with every kernel again
        self.leaves_out(&others).then_some(st == 0)
    }

    /// The kernels that fail when exported alone, with that error, when
    /// the remaining kernels fail together; None when it cannot tell.
    fn bisect(&self) -> Option<Vec<(String, String)>> {
        let mut found = Vec::new();
        // first the kernels whose MIR holds the error's place (a helper
        // inlined into them), each exported alone
        let first = first_error(&self.log);
        let at = match (error_place(&first), self.mir_file()) {
            (Some(loc), Some(mf)) => rustsrc::mir_kernels_at(&read_lossy(&mf), loc),
            _ => Vec::new(),
        };
        for k in at.iter().filter(|k| !self.skipped(k) && self.all.contains(k)) {
            if !self.try_only(std::slice::from_ref(k))? {
                found.push((k.clone(), first_error(&self.log)));
            }
        }
        if !found.is_empty() {
            return Some(found);
        }
        // else bisection: sets of kernels that hold a failing one
        let mut sets = vec![self.left()];
        while let Some(cur) = sets.pop() {
            if cur.len() == 1 {
                // alone: it must fail
                if self.try_only(&cur)? {
                    return None;
                }
                found.push((cur[0].clone(), first_error(&self.log)));
                continue;
            }
            let (a, b) = cur.split_at(cur.len() / 2);
            if self.try_only(a)? {
                sets.push(b.to_vec()); // then b holds the failing one
                continue;
            }
            self.settle(a, &mut sets, &mut found);
            // b is tried on its own
            if !self.try_only(b)? {
                self.settle(b, &mut sets, &mut found);
            }
        }
        Some(found)
    }

    /// A set that failed: a kernel found, or a set to split again.
    fn settle(&self, set: &[String], sets: &mut Vec<Vec<String>>, found: &mut Vec<(String, String)>) {
        if set.len() == 1 {
            found.push((set[0].clone(), first_error(&self.log)));
        } else {
            sets.push(set.to_vec());
        }
    }

    /// Every remaining kernel exported alone, then the others together.
    fn each_alone(&mut self) {
        for k in self.left() {
            let others: Vec<String> = self.all.iter().filter(|o| **o != k).cloned().collect();
            self.strip(&others);
            if self.export(&self.one, &[]) != 0 {
                let msg = first_error(&self.log);
                self.add(&k, msg);
            }
        }
        remove(&self.one);
        self.strip(&self.skip());
        if self.left().is_empty() {
            return;
        }
        if self.export(&self.json, &[]) != 0 {
            let msg = first_error(&self.log);
            for k in self.left() {
                self.add(&k, format!("export of the group failed: {msg}"));
            }
            remove(&self.json);
        }
    }

    /// mir-export --keep-going; true when that settled the group.
    fn keep_going(&mut self) -> bool {
        match self.export(&self.json, &["--keep-going"]) {
            0 => return true,
            3 if self.json.is_file() => {
                self.errs = left_out(&read_lossy(&self.log));
                self.strip(&self.skip());
                return true;
            }
            _ => {}
        }
        self.errs.clear();
        remove(&self.json);
        self.leave_out(&[]); // every marker as rustc wrote it
        false
    }

    /// The retries without --keep-going.
    fn retry(&mut self) {
        let mut bymir = true; // kernels left out in the MIR (else in the source)
        while !self.left().is_empty() {
            if self.export(&self.json, &[]) == 0 {
                // the MIR read must have been the one edited (no rebuild since)
                if !bymir || self.errs.is_empty() || self.leaves_out(&self.skip()) {
                    break;
                }
                bymir = false;
                self.strip(&self.skip());
                continue;
            }
            let rej = rejects(&read_lossy(&self.log), &self.orig);
            let mut k = rej.first().map(|r| r.0.clone());
            if k.as_deref().is_some_and(|k| self.skipped(k)) {
                // one left out before: rebuilt after all
                if bymir {
                    bymir = false;
                    self.strip(&self.skip());
                    continue;
                }
                k = None;
            }
            if k.is_some() {
                for (k, msg) in rej {
                    self.add(&k, msg);
                }
                if !bymir || !self.leave_out(&self.skip()) {
                    bymir = false;
                    self.strip(&self.skip());
                }
                continue;
            }
            // not attributable; an error at a source line (a helper that
            // kernels call): the kernels that fail alone, by bisection
            if bymir && error_place(&first_error(&self.log)).is_some() {
                if let Some(found) = self.bisect().filter(|f| !f.is_empty()) {
                    for (k, msg) in found {
                        self.add(&k, msg);
                    }
                    if self.leave_out(&self.skip()) {
                        continue;
                    }
                }
            }
            self.each_alone();
            return;
        }
        if bymir {
            self.strip(&self.skip());
        }
    }
}

/// mir-export of group `g` (the crate `c.kernels`/GROUP, its kernels those
/// of $W/kernels.list) into $W/GROUP.mir.json, the kernels left out in
/// $W/GROUP.export-errors.
pub fn export_group(c: &Conf, g: &str) {
    let root = std::env::current_dir().unwrap_or_default();
    let src = c.kernels.join(g);
    let work = c.w.join("export").join(g);
    let _ = fs::create_dir_all(work.join("src"));
    let _ = fs::copy(c.kernels.join("common.rs"), c.w.join("export/common.rs"));
    let _ = fs::write(work.join("Cargo.toml"), absolute_device(&read_lossy(&src.join("Cargo.toml")), &root));
    if src.join("Cargo.lock").is_file() {
        let _ = fs::copy(src.join("Cargo.lock"), work.join("Cargo.lock"));
    }
    conf::copy_cargo_config(&conf::suite_dir(), &work);
    conf::run_quiet(Command::new("cp").arg("-R").arg(src.join("src/.")).arg(work.join("src/")));
    let _ = fs::copy(work.join("src/lib.rs"), work.join("lib.rs.orig"));
    let deps = c.w.join("export/.deps/target");
    if !work.join("target").is_dir() && deps.is_dir() {
        // cargo's fingerprints need the times kept
        conf::run_quiet(Command::new("cp").arg("-Rp").arg(&deps).arg(work.join("target")));
    }
    let mut e = Export {
        c,
        g: g.to_string(),
        json: c.w.join(format!("{g}.mir.json")),
        log: c.w.join("export").join(format!("{g}.log")),
        one: c.w.join("export").join(format!("{g}.one.json")),
        orig: read_lossy(&work.join("lib.rs.orig")),
        all: c.kernels_of(g),
        errs: Vec::new(),
        work,
    };
    remove(&e.json);
    e.strip(&[]);
    if !(has_keep_going(c) && e.keep_going()) {
        e.retry();
    }
    let text: String = e.errs.iter().map(|(k, m)| format!("{k}\t{m}\n")).collect();
    let _ = fs::write(c.w.join(format!("{}.export-errors", e.g)), text);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn left_out_kernels() {
        let log = "src/lib.rs:8:13: error[OX0300]: heap allocation\nmir-export: note: kernel `c::k1` left out\n\
                   mir-export: note: kernel `k2` left out (see above)\n";
        let l = left_out(log);
        assert_eq!(l[0], ("k1".into(), "src/lib.rs:8:13: error[OX0300]: heap allocation".into()));
        assert_eq!(l[1].0, "k2");
    }

    #[test]
    fn rejected_kernels() {
        let lib = "#[kernel]\npub fn a() {\n}\n#[kernel]\npub fn b() {\n  x\n}\nfn h() {}\n";
        let log = "warning: w\nsrc/lib.rs:6:3: error[OX0200]: x\nsrc/lib.rs:2:1: error: y\nsrc/lib.rs:6:1: error: z\n";
        let r = rejects(log, lib);
        assert_eq!(r, vec![("b".into(), "src/lib.rs:6:3: error[OX0200]: x".into()), ("a".into(), "src/lib.rs:2:1: error: y".into())]);
        // the first error outside a kernel: crate-wide
        assert!(rejects("src/lib.rs:8:1: error[OX0200]: h\nsrc/lib.rs:6:3: error: x\n", lib).is_empty());
        assert!(rejects("mir-export: error[OX1004]: cannot parse\n", lib).is_empty());
    }

    #[test]
    fn places() {
        assert_eq!(error_place("src/lib.rs:3:4: error[OX0200]: x"), Some("src/lib.rs:3:4"));
        assert_eq!(error_place("common.rs:3:4: error: x"), Some("common.rs:3:4"));
        assert_eq!(error_place("mir-export: error[OX1004]: x"), None);
        assert_eq!(error_place("src/lib.rs:3:4: error[OXab]: x"), None);
    }

    #[test]
    fn globs() {
        assert!(wild_match("lib*-*", "liboxide_device-123"));
        assert!(!wild_match("*.mir", "a.mir.new"));
        assert!(wild_match("*", ""));
    }

    #[test]
    fn device_path() {
        let t = absolute_device("[dependencies]\noxide-device = { path = \"../../x\" }\n", Path::new("/r"));
        assert_eq!(t, "[dependencies]\noxide-device = { path = \"/r/tools/mir-export/oxide-device\" }\n");
    }
}
