//! A whole group compiled and run at once: for the kernels that the
//! conformance suite's one-kernel worker (suite::kernel_worker) would
//! pass, the same result files in far fewer processes.
//!
//! The group's JSON is compiled once by oxidec to PTX (and ptxas), and in
//! mode host by `oxidec --target=host` and `cc -shared` into one .so that
//! the harness runs every kernel of (one process, a new child after a
//! trap), each line compared with the CPU reference's. A kernel oxidec
//! reports an error in is taken out and the rest compiled again; a
//! failure that names no kernel splits the set in two. Writes, for every
//! kernel that passed, $W/GROUP/NAME.compile and NAME.result ("PASS
//! GROUP/NAME"), in mode host NAME.actual; nothing for the others (any
//! failure, a kernel mir-export rejected), which the worker checks alone.

use std::collections::{HashMap, VecDeque};
use std::fs;
use std::path::Path;
use std::process::Command;

use crate::conf::{self, read_lossy, remove, Conf};
use crate::rustsrc;

/// The kernels of lib.rs text `lib` around the error lines
/// (`src/lib.rs:LINE:COL: ...`) of log text `log` that are in `names`;
/// nothing when the log's first error is not such a line.
pub fn kernels_at_errors(lib: &str, log: &str, names: &[String]) -> Vec<String> {
    let line_of = |l: &str| -> Option<usize> {
        let rest = l.strip_prefix("src/lib.rs:")?;
        let mut f = rest.splitn(3, ':');
        let (n, col, tail) = (f.next()?, f.next()?, f.next()?);
        let num = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        (num(n) && num(col) && tail.starts_with(' ')).then(|| n.parse().ok()).flatten()
    };
    line_of(crate::verdict::first_error_line(log)).map_or_else(Vec::new, |_| {
        let mut lines: Vec<usize> = log.lines().filter_map(line_of).collect();
        lines.sort_unstable();
        lines.dedup();
        let mut out: Vec<String> = Vec::new();
        for k in lines.into_iter().filter_map(|l| rustsrc::kernel_at_line(lib, l)) {
            if names.contains(&k) && !out.contains(&k) {
                out.push(k);
            }
        }
        out
    })
}

/// Why a set did not compile, and the kernels an error names.
struct Failed {
    bad: Vec<String>,
}

/// One set of kernels of the group, compiled (to PTX and ptxas, in mode
/// host to a .so at `b`.so too): Err when a step failed.
fn compile_set(c: &Conf, host: bool, json: &Path, b: &str, lib: &str, names: &[String]) -> Result<(), Failed> {
    let log = Path::new(&format!("{b}.log")).to_path_buf();
    let none = || Failed { bad: Vec::new() };
    let named = |log: &Path| Failed { bad: kernels_at_errors(lib, &read_lossy(log), names) };
    if conf::run_logged(Command::new(&c.oxidec).arg(json).arg("-o").arg(format!("{b}.ptx")), &log) != 0 {
        return Err(named(&log));
    }
    if c.has_ptxas() {
        let st = conf::run_logged(
            Command::new(&c.ptxas).args(["-arch=sm_90", &format!("{b}.ptx"), "-o", &format!("{b}.cubin")]),
            &log,
        );
        remove(Path::new(&format!("{b}.cubin")));
        if st != 0 {
            return Err(none());
        }
    }
    if !host {
        return Ok(());
    }
    let obj = format!("{b}.o");
    let r = if conf::run_logged(Command::new(&c.oxidec).arg("--target=host").arg(json).arg("-o").arg(&obj), &log) != 0 {
        Err(named(&log))
    } else if conf::run_logged(c.cc_cmd().args(["-shared", &obj, "-o", &format!("{b}.so"), "-lm"]), &log) != 0 {
        Err(none())
    } else {
        Ok(())
    };
    remove(Path::new(&obj));
    r
}

/// The kernels of `names` whose one line of harness output `actual` is
/// the CPU reference's (first line of `expected` for the kernel); every
/// one in compile mode (`expected` None). With the line each.
fn passing(names: &[String], expected: Option<&str>, actual: &str) -> Vec<(String, String)> {
    let Some(exp) = expected else { return names.iter().map(|k| (k.clone(), String::new())).collect() };
    let mut want: HashMap<&str, &str> = HashMap::new();
    for l in exp.lines() {
        let k = l.split_whitespace().next().unwrap_or("");
        if names.iter().any(|n| n == k) {
            want.entry(k).or_insert(l);
        }
    }
    let mut got: HashMap<&str, (&str, usize)> = HashMap::new();
    for l in actual.lines() {
        let k = l.split_whitespace().next().unwrap_or("");
        if names.iter().any(|n| n == k) {
            let e = got.entry(k).or_insert((l, 0));
            *e = (l, e.1 + 1);
        }
    }
    names
        .iter()
        .filter_map(|k| match (got.get(k.as_str()), want.get(k.as_str())) {
            (Some((line, 1)), Some(w)) if line == w => Some((k.clone(), line.to_string())),
            _ => None,
        })
        .collect()
}

/// The sets to compile again after set `names` failed.
fn retry_sets(names: &[String], bad: &[String]) -> Vec<Vec<String>> {
    if !bad.is_empty() {
        let rest: Vec<String> = names.iter().filter(|k| !bad.contains(k)).cloned().collect();
        return if rest.is_empty() { vec![] } else { vec![rest] };
    }
    if names.len() > 2 {
        let (a, b) = names.split_at(names.len() / 2);
        return vec![a.to_vec(), b.to_vec()];
    }
    vec![]
}

/// Group `g` at once, in mode host (`host`) or compile.
pub fn batch_group(c: &Conf, host: bool, g: &str) {
    let d = c.w.join(g);
    let json = c.w.join(format!("{g}.mir.json"));
    let lib = read_lossy(&c.w.join("export").join(g).join("lib.rs.orig"));
    let _ = fs::create_dir_all(&d);
    for e in conf::entries(&d) {
        if conf::file_name(&e).starts_with("batch") {
            remove(&e);
        }
    }
    if !json.is_file() {
        return;
    }
    let mirsplit = c.tool("mirsplit");
    let listed: Vec<String> = Command::new(&mirsplit)
        .arg("--list")
        .arg(&json)
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).split_whitespace().map(String::from).collect())
        .unwrap_or_default();
    let errs = read_lossy(&c.w.join(format!("{g}.export-errors")));
    let rejected: Vec<&str> = errs.lines().map(|l| l.split('\t').next().unwrap_or("")).collect();
    let first: Vec<String> =
        c.kernels_of(g).into_iter().filter(|k| !rejected.contains(&k.as_str()) && listed.contains(k)).collect();
    let mut sets: VecDeque<Vec<String>> = VecDeque::new();
    if !first.is_empty() {
        sets.push_back(first);
    }
    let mut sorted_listed = listed.clone();
    sorted_listed.sort();
    let expected = host.then(|| read_lossy(&c.b.join(format!("{g}.expected"))));
    let mut i = 0;
    while let Some(names) = sets.pop_front() {
        i += 1;
        let b = d.join(format!("batch{i}")).to_string_lossy().into_owned();
        let mut sorted = names.clone();
        sorted.sort();
        let whole = sorted == sorted_listed;
        let bjson = if whole { json.clone() } else { format!("{b}.mir.json").into() };
        let split_ok = whole
            || conf::run_logged(Command::new(&mirsplit).arg(&json).arg(&bjson).args(&names), Path::new(&format!("{b}.log")))
                == 0;
        let r = if split_ok { compile_set(c, host, &bjson, &b, &lib, &names) } else { Err(Failed { bad: vec![] }) };
        if let Err(f) = r {
            for s in retry_sets(&names, &f.bad).into_iter().rev() {
                sets.push_front(s);
            }
            remove(Path::new(&format!("{b}.ptx")));
            remove(Path::new(&format!("{b}.so")));
            if !whole {
                remove(&bjson);
            }
            continue;
        }
        let actual = if host {
            let out = fs::File::create(format!("{b}.actual"));
            let err = fs::File::create(format!("{b}.log"));
            if let (Ok(out), Ok(err)) = (out, err) {
                let _ = Command::new(c.tool("harness")).arg(format!("{b}.so")).args(&names).stdout(out).stderr(err).status();
            }
            read_lossy(Path::new(&format!("{b}.actual")))
        } else {
            let _ = fs::write(format!("{b}.actual"), "");
            String::new()
        };
        for (k, line) in passing(&names, expected.as_deref(), &actual) {
            if host {
                let _ = fs::write(d.join(format!("{k}.actual")), format!("{line}\n"));
            }
            let pass = format!("PASS {g}/{k}\n");
            let _ = fs::write(d.join(format!("{k}.result")), &pass);
            let _ = fs::write(d.join(format!("{k}.compile")), &pass);
        }
        if !whole {
            remove(&bjson);
        }
        remove(Path::new(&format!("{b}.so")));
        remove(Path::new(&format!("{b}.ptx")));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn compare_with_the_reference() {
        let exp = "a u32 1 2\nb u32 3\nc u32 5\n";
        let act = "a u32 1 2\nb u32 4\nc u32 5\nc u32 5\n";
        assert_eq!(passing(&s(&["a", "b", "c"]), Some(exp), act), vec![("a".to_string(), "a u32 1 2".to_string())]);
        assert_eq!(passing(&s(&["a", "b"]), None, "").len(), 2);
    }

    #[test]
    fn failed_sets() {
        assert_eq!(retry_sets(&s(&["a", "b", "c"]), &s(&["b"])), vec![s(&["a", "c"])]);
        assert_eq!(retry_sets(&s(&["a", "b", "c"]), &[]), vec![s(&["a"]), s(&["b", "c"])]);
        assert!(retry_sets(&s(&["a", "b"]), &[]).is_empty());
    }

    #[test]
    fn errors_name_kernels() {
        let lib = "#[kernel]\npub fn a() {\n}\n#[kernel]\npub fn b() {\n}\n";
        let log = "src/lib.rs:5:1: error[OX0200]: x\nsrc/lib.rs:2:1: error: y\n";
        assert_eq!(kernels_at_errors(lib, log, &s(&["a", "b"])), s(&["a", "b"]));
        assert!(kernels_at_errors(lib, "oxidec: error: x\nsrc/lib.rs:2:1: e\n", &s(&["a"])).is_empty());
    }
}
