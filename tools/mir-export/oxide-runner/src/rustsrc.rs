//! The text edits of a group crate that the exporter makes: where the
//! kernels of a lib.rs are, their `#[kernel]` commented out (line numbers
//! kept), and in rustc's MIR the kernels' marker constants
//! (`const __OXIDE_KERNEL_NAME: &str`) renamed so that mir-export leaves
//! them out without a rebuild; which kernels reach a source place in the
//! MIR. Pure functions on text.

/// Whether `c` is a character of an identifier.
fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The identifier at the start of `s`.
fn ident_prefix(s: &str) -> &str {
    &s[..s.find(|c| !is_ident(c)).unwrap_or(s.len())]
}

/// Whether `line` is a `#[kernel]` attribute, `// #[kernel]` (one left
/// out) too when `commented`.
fn is_kernel_attr(line: &str, commented: bool) -> bool {
    let t = line.trim_start_matches([' ', '\t']);
    let t = if commented { t.strip_prefix("// ").unwrap_or(t) } else { t };
    t.starts_with("#[kernel]")
}

/// A kernel's lines in lib.rs: from its `#[kernel]` to the first `}` in
/// column 0 (1-based, inclusive), and its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub name: String,
}

/// The kernels of lib.rs text `src`, kernels left out (`// #[kernel]`) too.
pub fn kernel_spans(src: &str) -> Vec<Span> {
    let mut spans = Vec::new();
    let mut cur: Option<Span> = None;
    for (i, line) in src.lines().enumerate() {
        let nr = i + 1;
        if is_kernel_attr(line, true) {
            cur = Some(Span { start: nr, end: 0, name: String::new() });
            continue;
        }
        let Some(sp) = cur.as_mut() else { continue };
        if sp.name.is_empty() && line.starts_with("pub fn ") {
            sp.name = ident_prefix(&line[7..]).to_string();
        } else if line.starts_with('}') {
            sp.end = nr;
            spans.push(cur.take().unwrap());
        }
    }
    spans
}

/// The kernel whose definition spans line `line` of lib.rs text `src`.
pub fn kernel_at_line(src: &str, line: usize) -> Option<String> {
    kernel_spans(src).into_iter().find(|s| s.start <= line && line <= s.end).map(|s| s.name)
}

/// The names of the `#[kernel]` + `pub fn NAME` of a lib.rs (a crate
/// given to the fuzz runner with --crate).
pub fn kernel_names(src: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut attr = false;
    for line in src.lines() {
        if is_kernel_attr(line, false) {
            attr = true;
        } else if attr {
            if let Some(i) = line.rfind("pub fn ") {
                let n = ident_prefix(&line[i + 7..]);
                if !n.is_empty() {
                    names.push(n.to_string());
                }
                attr = false;
            }
        }
    }
    names
}

/// lib.rs text `src` with the `#[kernel]` of the kernels in `skip` turned
/// into the comment `// #[kernel] (left out)`: plain functions that
/// mir-export does not export. Line numbers are kept.
pub fn strip_kernels(src: &str, skip: &[String]) -> String {
    let mut out = String::with_capacity(src.len() + 64);
    let mut held: Option<String> = None; // attributes after #[kernel]
    for line in src.lines() {
        let t = line.trim_start_matches([' ', '\t']);
        if t.trim_end_matches([' ', '\t']) == "#[kernel]" {
            held = Some(String::new());
            continue;
        }
        if let Some(buf) = held.as_mut() {
            if t.starts_with("#[") {
                buf.push_str(line);
                buf.push('\n');
                continue;
            }
            let name = ident_prefix(t.strip_prefix("pub fn ").unwrap_or(t));
            let left_out = skip.iter().any(|s| s == name);
            out.push_str(if left_out { "// #[kernel] (left out)\n" } else { "#[kernel]\n" });
            out.push_str(buf);
            held = None;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

const KERNEL: &str = "__OXIDE_KERNEL_";
const LEFT_OUT: &str = "__OXIDE_LEFT_OUT_";

/// The kernel named by a MIR line `const __OXIDE_KERNEL_NAME: ...` (or
/// `__OXIDE_LEFT_OUT_NAME`), and whether it is left out.
fn marker(line: &str) -> Option<(&str, bool)> {
    let mut f = line.split_whitespace();
    if f.next() != Some("const") {
        return None;
    }
    let field = f.next()?.strip_suffix(':')?;
    for (pre, out) in [(KERNEL, false), (LEFT_OUT, true)] {
        if let Some(i) = field.find(pre) {
            let name = &field[i + pre.len()..];
            if !name.is_empty() && name.chars().all(is_ident) {
                return Some((name, out));
            }
        }
    }
    None
}

/// The MIR text `mir` with the markers of the kernels in `skip` renamed
/// to `__OXIDE_LEFT_OUT_NAME` and every other marker `__OXIDE_KERNEL_NAME`
/// (line numbers kept); None when the markers of `skip` are not all
/// there, once each.
pub fn mir_leave_out(mir: &str, skip: &[String]) -> Option<String> {
    let mut out = String::with_capacity(mir.len());
    let mut found = 0;
    for line in mir.split_inclusive('\n') {
        match marker(line) {
            Some((k, _)) => {
                let left = skip.iter().any(|s| s == k);
                found += usize::from(left);
                let (from, to) = first_prefix(line);
                out.push_str(&line[..from]);
                out.push_str(if left { LEFT_OUT } else { KERNEL });
                out.push_str(&line[to..]);
            }
            None => out.push_str(line),
        }
    }
    (found == skip.len()).then_some(out)
}

/// Where the first marker prefix of `line` is (start, end).
fn first_prefix(line: &str) -> (usize, usize) {
    let k = line.find(KERNEL).map(|i| (i, i + KERNEL.len()));
    let l = line.find(LEFT_OUT).map(|i| (i, i + LEFT_OUT.len()));
    match (k, l) {
        (Some(a), Some(b)) => a.min(b),
        (a, b) => a.or(b).unwrap(),
    }
}

/// Whether the markers of MIR text `mir` leave out exactly the kernels in
/// `skip` (no rebuild since mir_leave_out edited it).
pub fn mir_leaves_out(mir: &str, skip: &[String]) -> bool {
    let mut found = 0;
    for line in mir.lines() {
        if let Some((k, out)) = marker(line) {
            let left = skip.iter().any(|s| s == k);
            found += usize::from(left);
            if left != out {
                return false;
            }
        }
    }
    found == skip.len()
}

/// The callee of a MIR call line `_3 = path::f::<T>(move _4) -> ...`, or
/// None when the line is no call.
fn callee(line: &str) -> Option<String> {
    // ` = CALLEE(ARGS) -> `: CALLEE without spaces or '('
    let ok = line.match_indices(" = ").any(|(i, _)| {
        let rest = &line[i + 3..];
        let j = rest.find([' ', '(']).unwrap_or(rest.len());
        j > 0 && rest[j..].starts_with('(') && rest[j..].contains(") -> ")
    });
    if !ok {
        return None;
    }
    let mut c = match line.find('=') {
        Some(i) if line[i + 1..].starts_with(' ') => &line[i + 2..],
        _ => line,
    };
    c = &c[..c.find('(').unwrap_or(c.len())];
    c = &c[..c.find("::<").unwrap_or(c.len())];
    Some(c.rsplit("::").next().unwrap_or(c).to_string())
}

/// The function a MIR line `fn NAME(...` starts, its last path segment
/// (closures count as their parent).
fn fn_name(line: &str) -> Option<String> {
    if !line.starts_with("fn ") {
        return None;
    }
    let mut n = line.split_whitespace().nth(1).unwrap_or("");
    n = &n[..n.find('(').unwrap_or(n.len())];
    n = &n[..n.find("::{closure").unwrap_or(n.len())];
    Some(n.rsplit("::").next().unwrap_or(n).to_string())
}

/// The kernels whose body in MIR text `mir` holds source place `loc`
/// ("src/lib.rs:LINE:COL"): in code inlined there, or in a function (or
/// closure) they call, directly or not. Sorted.
pub fn mir_kernels_at(mir: &str, loc: &str) -> Vec<String> {
    use std::collections::{BTreeMap, BTreeSet};
    let loc = format!("{loc}: ");
    let mut kern = BTreeSet::new();
    let mut hit = BTreeSet::new();
    let mut calls: BTreeMap<String, String> = BTreeMap::new();
    let mut name = String::new();
    for line in mir.lines() {
        if let Some((k, _)) = marker(line) {
            kern.insert(k.to_string());
            continue;
        }
        if let Some(n) = fn_name(line) {
            name = n;
            continue;
        }
        if line.starts_with('}') {
            name.clear();
            continue;
        }
        if name.is_empty() {
            continue;
        }
        if line.contains(&loc) {
            hit.insert(name.clone());
        }
        if let Some(c) = callee(line) {
            calls.entry(name.clone()).or_default().push_str(&format!(" {c} "));
        }
    }
    loop {
        let more: Vec<String> = calls
            .iter()
            .filter(|(b, cs)| !hit.contains(*b) && hit.iter().any(|h| cs.contains(&format!(" {h} "))))
            .map(|(b, _)| b.clone())
            .collect();
        if more.is_empty() {
            break;
        }
        hit.extend(more);
    }
    hit.into_iter().filter(|n| kern.contains(n)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIB: &str = "\
use oxide_device::*;
#[kernel]
#[allow(unused)]
pub fn a(x: &mut [u32]) {
    x[0] = 1;
}
fn helper() {}
  #[kernel]
pub fn b(x: &mut [u32]) {
    helper();
}
";

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn spans_and_names() {
        let sp = kernel_spans(LIB);
        assert_eq!(sp, vec![
            Span { start: 2, end: 6, name: "a".into() },
            Span { start: 8, end: 11, name: "b".into() }
        ]);
        assert_eq!(kernel_at_line(LIB, 10), Some("b".into()));
        assert_eq!(kernel_at_line(LIB, 7), None);
        assert_eq!(kernel_names(LIB), s(&["a", "b"]));
    }

    #[test]
    fn strip_keeps_lines() {
        let out = strip_kernels(LIB, &s(&["b"]));
        assert_eq!(out.lines().count(), LIB.lines().count());
        assert!(out.contains("#[kernel]\n#[allow(unused)]\npub fn a"));
        assert!(out.contains("// #[kernel] (left out)\npub fn b"));
        // the kernels left out are still kernels to kernel_spans
        assert_eq!(kernel_spans(&out).len(), 2);
        // an indented `#[kernel]` comes back in column 0
        assert_eq!(strip_kernels(LIB, &[]), LIB.replace("  #[kernel]", "#[kernel]"));
    }

    const MIR: &str = "\
const __OXIDE_KERNEL_a: &str = \"a\";
const __OXIDE_KERNEL_b: &str = \"b\";
fn a(_1: &mut [u32]) -> () {
    bb0: {
        _2 = c::helper() -> [return: bb1, unwind continue];
    }
}
fn helper() -> () {
    scope 1 { // at src/lib.rs:7:1: 7:14
    }
}
fn b(_1: &mut [u32]) -> () {
}
";

    #[test]
    fn markers() {
        let m = mir_leave_out(MIR, &s(&["b"])).unwrap();
        assert!(m.contains("const __OXIDE_LEFT_OUT_b: &str") && m.contains("const __OXIDE_KERNEL_a:"));
        assert!(mir_leaves_out(&m, &s(&["b"])));
        assert!(!mir_leaves_out(&m, &[]));
        assert!(!mir_leaves_out(MIR, &s(&["b"])));
        assert_eq!(mir_leave_out(&m, &[]).unwrap(), MIR);
        assert!(mir_leave_out(MIR, &s(&["zz"])).is_none());
    }

    #[test]
    fn kernels_at_a_place() {
        assert_eq!(mir_kernels_at(MIR, "src/lib.rs:7:1"), s(&["a"]));
        assert!(mir_kernels_at(MIR, "src/lib.rs:9:1").is_empty());
    }
}
