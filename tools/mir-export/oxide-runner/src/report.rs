//! The fuzz run's report: a verdict per kernel from its result file
//! (`PASS gen_N`, or `FAIL`/`GAP gen_N: STAGE: message`, BUG or GAP by
//! src/verdict.rs), a reproducer of each failure under FUZZ_DIR/failed/,
//! the failures grouped by message, the clean-up of what passed, and the
//! summary line `fuzz: N passed, M failed[, G gaps] (T s)`.

use std::collections::HashMap;
use std::fs;

use crate::conf::{self, read_lossy, remove};
use crate::fuzz::{kernel_list, Run};
use crate::suite::gpu_variants;
use crate::verdict::{self, Verdict};

/// `s` after the first `sep` (sh `${s#*SEP}`), or all of it.
fn after<'a>(s: &'a str, sep: &str) -> &'a str {
    s.split_once(sep).map_or(s, |(_, r)| r)
}

/// One kernel's outcome.
struct Outcome {
    head: String,
    stage: String,
    msg: String,
    /// the result file's lines after the second
    details: Vec<String>,
}

/// The outcome of kernel `k` of group `g` from its result (or compile)
/// file, and at the GPU when the run had one.
fn outcome(r: &Run, g: &str, k: &str, gpu_log: &str) -> Outcome {
    let d = r.c.w.join(g);
    let mut res = d.join(format!("{k}.result"));
    if !res.is_file() {
        res = d.join(format!("{k}.compile"));
    }
    let text = read_lossy(&res);
    let mut lines = text.lines();
    let head = lines.next().unwrap_or("").to_string();
    let line2 = lines.next().unwrap_or("");
    let details: Vec<String> = lines.map(String::from).collect();
    let (stage, msg) = line2.split_once('\t').unwrap_or((line2, line2));
    let mut o = Outcome { head, stage: stage.into(), msg: msg.into(), details };
    if o.head.starts_with("PASS") && r.o.gpu {
        // a failure at any variant first
        let fail = format!("FAIL {g}/{k}");
        let any = format!(" {g}/{k}");
        let at = |l: &&str, pre: &str| l.strip_prefix(pre).is_some_and(|t| t.starts_with([':', ' ']));
        let gl = gpu_log.lines().find(|l| at(l, &fail)).or_else(|| {
            gpu_log.lines().find(|l| {
                let caps = l.bytes().take_while(u8::is_ascii_uppercase).count();
                at(&&l[caps..], &any)
            })
        });
        let gl = gl.unwrap_or("");
        if !gl.starts_with("PASS") {
            let m = after(gl, ": ");
            o = Outcome { head: format!("FAIL {g}/{k}: gpu: {m}"), stage: "gpu".into(), msg: m.into(), details: o.details };
        }
    } else if o.head.is_empty() {
        o.head = format!("FAIL {g}/{k}: no result (the worker crashed)");
        o.stage = "worker".into();
        o.msg = "no result".into();
    }
    o
}

/// A message for grouping: paths of one run's files and `error: ` off.
fn strip_paths(msg: &str) -> String {
    let mut m = msg;
    // `[^ ]*\.mir:[0-9]*: `
    if let Some(i) = m.find(".mir:") {
        let rest = &m[i + 5..];
        let n = rest.bytes().take_while(u8::is_ascii_digit).count();
        if !m[..i].contains(' ') && rest[n..].starts_with(": ") {
            m = &rest[n + 2..];
        }
    }
    // `[^ ]*\.mir\.json: [^ ]*: `
    if let Some(i) = m.find(".mir.json: ") {
        let rest = &m[i + 11..];
        if !m[..i].contains(' ') {
            if let Some(j) = rest.find(' ') {
                if j > 0 && rest[..j].ends_with(':') {
                    m = &rest[j + 1..];
                }
            }
        }
    }
    m.strip_prefix("error: ").unwrap_or(m).to_string()
}

/// The reproducer of failing kernel `k` (seed `seed`): the kernel alone
/// in FUZZ_DIR/failed/K with its results; the line to print.
fn reproduce(r: &Run, g: &str, k: &str, seed: u64) -> Option<String> {
    let dir = r.f.join("failed").join(k);
    if !r.gen(seed, 1, &dir, true) {
        return None;
    }
    for x in ["compile", "result", "log", "actual", "ptx"] {
        let p = r.c.w.join(g).join(format!("{k}.{x}"));
        if p.is_file() {
            let _ = fs::copy(&p, dir.join(format!("{k}.{x}")));
        }
    }
    let want = format!("{k} ");
    let exp: String =
        read_lossy(&r.f.join(format!("{g}.expected"))).lines().filter(|l| l.starts_with(&want)).map(|l| format!("{l}\n")).collect();
    let _ = fs::write(dir.join("expected"), exp);
    let tag = format!("/// Random kernel {seed}");
    let lib = read_lossy(&dir.join("src/lib.rs"));
    let line = lib
        .lines()
        .position(|l| l.strip_prefix(&tag).is_some_and(|t| t.starts_with([' ', ',', '('])))
        .map_or(String::new(), |i| (i + 1).to_string());
    Some(format!(
        "    seed {seed}: {}/src/lib.rs:{line} (kernel-gen --seed {seed}{})",
        dir.display(),
        r.feats()
    ))
}

/// The counts of the verdicts.
#[derive(Default)]
struct Counts {
    pass: u32,
    fail: u32,
    gaps: u32,
}

/// Every kernel's verdict printed, failures recorded in failures.tsv;
/// the counts and the groups to keep (those with a failure).
fn verdicts(r: &Run) -> (Counts, Vec<String>) {
    let gpu_log = read_lossy(&r.f.join("gpu.log"));
    let mut n = Counts::default();
    let mut kept: Vec<String> = Vec::new();
    let mut tsv = String::new();
    for (g, k) in kernel_list(&r.c) {
        let mut o = outcome(r, &g, &k, &gpu_log);
        if o.head.starts_with("PASS") {
            n.pass += 1;
            println!("PASS {k}");
            remove(&r.f.join("failed").join(&k));
            continue;
        }
        if o.stage == "run" {
            o.stage = "host emulation".into();
        }
        if o.msg.ends_with(':') {
            // e.g. "LLVM module is invalid ...:": what LLVM said is a detail line
            let pat = after(&o.msg, ": ").to_string();
            let more = o.details.iter().map(|l| l.trim_start_matches(' ')).find(|l| !l.contains(&pat) && !l.is_empty());
            o.msg = format!("{} {}", o.msg, more.unwrap_or(""));
        }
        // the result's first line holds the tool's first error line (its code)
        let status = read_lossy(&r.c.w.join(&g).join(format!("{k}.status")));
        let status = status.trim();
        let kind = match status.parse::<i32>() {
            Ok(st) => verdict::classify(&o.stage, verdict::first_error_line(&o.head), Some(st)),
            Err(_) if status.is_empty() => verdict::classify(&o.stage, verdict::first_error_line(&o.head), None),
            Err(_) => Verdict::Bug,
        };
        let gap = kind == Verdict::Gap && r.o.gaps_ok;
        tsv.push_str(&format!("{k}\t{kind}\t{}\t{}\n", o.stage, strip_paths(&o.msg)));
        println!("{} {k}: {}", if gap { "GAP" } else { "FAIL" }, after(&o.head, ": "));
        let shown = after(after(&o.head, ": "), ": ");
        o.details.iter().filter(|l| !l.contains(shown)).take(4).for_each(|l| println!("{l}"));
        if gap {
            n.gaps += 1;
            continue;
        }
        n.fail += 1;
        if !kept.contains(&g) {
            kept.push(g.clone());
        }
        remove(&r.f.join("failed").join(&k));
        let seed = k.strip_prefix("gen_").unwrap_or(&k);
        let Ok(seed) = seed.parse::<u64>() else { continue };
        if r.o.crates.is_empty() {
            if let Some(line) = reproduce(r, &g, &k, seed) {
                println!("{line}");
            }
        }
    }
    let _ = fs::write(r.f.join("failures.tsv"), tsv);
    (n, kept)
}

/// `s` with every `<...>` (innermost first) as `(T)`.
fn blur_generics(s: &str) -> String {
    let mut s = s.to_string();
    loop {
        let b = s.as_bytes();
        let hit = (0..b.len()).filter(|&i| b[i] == b'<').find_map(|i| {
            let j = b[i + 1..].iter().position(|&c| c == b'<' || c == b'>')?;
            (b[i + 1 + j] == b'>').then_some((i, i + 2 + j))
        });
        let Some((i, j)) = hit else { return s };
        s.replace_range(i..j, "(T)");
    }
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The length of the digits at the start of `b`.
fn digits(b: &[u8]) -> usize {
    b.iter().take_while(|c| c.is_ascii_digit()).count()
}

/// `s` with generated names blurred: `S12_3` (S, E, f, m) -> `SN_N`,
/// `_12` -> `_N` (whole words), array lengths `; 16]` -> `; N]`,
/// `src/lib.rs:L:C[: L:C]` -> `src/lib.rs:L`.
fn blur_names(s: &str) -> String {
    let s = s.replace("src/lib.rs:", "\u{1}");
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        let word_start = i == 0 || !is_word(b[i - 1]);
        let ends = |j: usize| j >= b.len() || !is_word(b[j]);
        if b[i] == 1 {
            // the place: L:C, then maybe ": L:C"
            let place = |j: usize| -> Option<usize> {
                let n = digits(&b[j..]);
                (n > 0 && b.get(j + n) == Some(&b':')).then_some(())?;
                let m = digits(&b[j + n + 1..]);
                (m > 0).then_some(j + n + 1 + m)
            };
            match place(i + 1) {
                Some(mut j) => {
                    if b[j..].starts_with(b": ") {
                        if let Some(e) = place(j + 2) {
                            j = e;
                        }
                    }
                    out.push_str("src/lib.rs:L");
                    i = j;
                }
                None => {
                    out.push_str("src/lib.rs:");
                    i += 1;
                }
            }
            continue;
        }
        if word_start && b"SEfm".contains(&b[i]) {
            let n = digits(&b[i + 1..]);
            if n > 0 && b.get(i + 1 + n) == Some(&b'_') {
                let m = digits(&b[i + 2 + n..]);
                if m > 0 && ends(i + 2 + n + m) {
                    out.push(b[i] as char);
                    out.push_str("N_N");
                    i += 2 + n + m;
                    continue;
                }
            }
        }
        if word_start && b[i] == b'_' {
            let n = digits(&b[i + 1..]);
            if n > 0 && ends(i + 1 + n) {
                out.push_str("_N");
                i += 1 + n;
                continue;
            }
        }
        if b[i..].starts_with(b"; ") {
            let n = digits(&b[i + 2..]);
            if n > 0 && b.get(i + 2 + n) == Some(&b']') {
                out.push_str("; N]");
                i += 3 + n;
                continue;
            }
        }
        let c = s[i..].chars().next().unwrap();
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// The failures grouped by message: what the compilers need next.
fn by_message(tsv: &str) {
    let mut groups: HashMap<String, (usize, String)> = HashMap::new();
    for line in tsv.lines() {
        let line = blur_names(&blur_generics(line));
        let f: Vec<&str> = line.splitn(4, '\t').collect();
        let [k, kind, stage, msg] = f[..] else { continue };
        let e = groups.entry(format!("{kind}\t{stage}: {msg}")).or_default();
        e.0 += 1;
        if e.0 <= 8 {
            e.1.push_str(&format!(" {k}"));
        } else if e.0 == 9 {
            e.1.push_str(" ...");
        }
    }
    let mut rows: Vec<(usize, String, String)> = groups.into_iter().map(|(key, (n, ks))| (n, key, ks)).collect();
    // by count, then by message (and kernels)
    rows.sort_by(|a, b| {
        let rest = |r: &(usize, String, String)| format!("{}\t{}", after(&r.1, "\t"), r.2);
        b.0.cmp(&a.0).then_with(|| rest(a).cmp(&rest(b)))
    });
    println!();
    println!("fuzz: failures by message (count, BUG/GAP, stage: message, kernels):");
    for (n, key, ks) in rows {
        let (kind, what) = key.split_once('\t').unwrap_or(("", &key));
        println!("{n:4}  {kind}  {}\n       {ks}", conf::cut(what, 240));
    }
}

/// Without --keep, the files of the groups without a failure removed.
fn clean(r: &Run, kept: &[String]) {
    let (f, w) = (&r.f, &r.c.w);
    for g in r.groups.iter().filter(|g| !kept.contains(g)) {
        for p in [w.join(g), w.join("export").join(g), w.join("work").join(g), f.join("kernels").join(g)] {
            remove(&p);
        }
        let dot = format!("{g}.");
        for dir in [w, f] {
            conf::entries(dir).iter().filter(|p| conf::file_name(p).starts_with(&dot)).for_each(|p| remove(p));
        }
    }
}

/// The report of the run; its exit status (1 when a kernel failed).
pub fn report(r: &Run, gpu_groups: &[String]) -> i32 {
    let (n, kept) = verdicts(r);
    let tsv = read_lossy(&r.f.join("failures.tsv"));
    if !tsv.is_empty() {
        by_message(&tsv);
    }
    if !r.o.keep {
        clean(r, &kept);
    }
    if r.o.gpu_art && !r.o.gpu && !gpu_groups.is_empty() {
        let f = r.f.display();
        let pack = r.f.join("gpu-pack.tar.xz");
        // as `du -k`: the blocks it takes
        let kib = fs::metadata(&pack).map_or(0, |m| std::os::unix::fs::MetadataExt::blocks(&m) / 2);
        let list: String = gpu_groups.iter().map(|g| format!(" {g}")).collect();
        println!();
        println!(
            "fuzz: GPU artifacts in {f} ({} groups, variants {}), packed in {f}/gpu-pack.tar.xz ({kib} KiB);",
            gpu_groups.len(),
            gpu_variants().join(" ")
        );
        println!("on the GPU machine, with the tree, that file and the runner (make gpu-pack packs it:");
        println!("build/gpu-pack/runner.tar.xz): tar -xJf {f}/gpu-pack.tar.xz, then");
        println!("  CONF_BUILD={f} sh tests/conformance/run-gpu.sh{list}");
    }
    println!();
    if r.o.gaps_ok {
        println!("fuzz: {} passed, {} failed, {} gaps ({} s)", n.pass, n.fail, n.gaps, r.secs());
    } else {
        println!("fuzz: {} passed, {} failed ({} s)", n.pass, n.fail, r.secs());
    }
    i32::from(n.fail != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blurring() {
        assert_eq!(blur_generics("a<b<c>, d> x<y>"), "a(T) x(T)");
        assert_eq!(
            blur_names("gen_1\tBUG\toxidec\tsrc/lib.rs:12:5: 12:9: `S12_3` _45 x_4 [u8; 16] f1_2b"),
            "gen_1\tBUG\toxidec\tsrc/lib.rs:L: `SN_N` _N x_4 [u8; N] f1_2b"
        );
        assert_eq!(blur_names("src/lib.rs:3:4 at"), "src/lib.rs:L at");
    }

    #[test]
    fn paths_off() {
        assert_eq!(strip_paths("/w/a/k.mir:12: error: bad"), "bad");
        assert_eq!(strip_paths("w/k.mir.json: $.fns[0]: must be"), "must be");
        assert_eq!(strip_paths("error: x"), "x");
        assert_eq!(strip_paths("expected u32, got i32"), "expected u32, got i32");
    }
}
