//! Generates `$OUT_DIR/kernels.rs`: every group crate under ../kernels and
//! every `#[kernel] pub fn NAME` of its `src/lib.rs`, as
//!
//! ```ignore
//! pub static GROUPS: &[Group] = &[
//!     Group { name: "ints", kernels: &[("ints_u8_arith", conf_ints::ints_u8_arith), …] },
//!     …
//! ];
//! ```
//!
//! so the list of kernels is never written twice. Fails when a group
//! directory is not a dependency in Cargo.toml, or a kernel has no `///`
//! line saying what it covers.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let kernels_dir = manifest_dir.join("../kernels");
    let own_manifest = fs::read_to_string(manifest_dir.join("Cargo.toml")).unwrap();
    println!("cargo:rerun-if-changed={}", kernels_dir.display());
    println!("cargo:rerun-if-changed=Cargo.toml");

    let mut groups: Vec<PathBuf> = fs::read_dir(&kernels_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .collect();
    groups.sort();

    let mut errors = Vec::new();
    let mut code = String::from("pub static GROUPS: &[Group] = &[\n");
    for dir in &groups {
        let group = dir.file_name().unwrap().to_string_lossy().into_owned();
        let package = package_name(&dir.join("Cargo.toml"));
        if !own_manifest.contains(&format!("path = \"../kernels/{group}\"")) {
            errors.push(format!(
                "group {group} is not a dependency: add `{package} = {{ path = \"../kernels/{group}\" }}` to {}",
                manifest_dir.join("Cargo.toml").display()
            ));
            continue;
        }
        let lib = dir.join("src/lib.rs");
        println!("cargo:rerun-if-changed={}", lib.display());
        println!("cargo:rerun-if-changed={}", dir.join("Cargo.toml").display());
        let krate = package.replace('-', "_");
        writeln!(code, "    Group {{ name: {group:?}, kernels: &[").unwrap();
        for name in kernel_names(&lib, &mut errors) {
            writeln!(code, "        ({name:?}, {krate}::{name}),").unwrap();
        }
        code.push_str("    ] },\n");
    }
    code.push_str("];\n");
    if !errors.is_empty() {
        for e in &errors {
            println!("cargo:warning={e}");
        }
        panic!("conformance cpu-ref: {}", errors.join("; "));
    }
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("kernels.rs");
    fs::write(out, code).unwrap();
}

/// `name = "…"` of the `[package]` section.
fn package_name(manifest: &Path) -> String {
    let text = fs::read_to_string(manifest).unwrap();
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("name"))
        .filter_map(|r| r.trim().strip_prefix('='))
        .map(|r| r.trim().trim_matches('"').to_string())
        .next()
        .unwrap_or_else(|| panic!("{}: no package name", manifest.display()))
}

/// Names of the `#[kernel]` functions, in source order. After `#[kernel]`,
/// other attributes may come before `pub fn NAME(`. A generic kernel,
/// `#[kernel(instances(f32, my::Pair))]` on one line, is its instances
/// (`NAME_f32`, `NAME_Pair`: oxide-macros' names).
fn kernel_names(lib: &Path, errors: &mut Vec<String>) -> Vec<String> {
    let text = fs::read_to_string(lib).unwrap();
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let mut names = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if *line != "#[kernel]" && !line.starts_with("#[kernel(") {
            continue;
        }
        let suffixes = instance_suffixes(line);
        let Some(sig) = lines[i + 1..].iter().find(|l| !l.starts_with("#[") && !l.starts_with("//")) else {
            errors.push(format!("{}:{}: #[kernel] without a function", lib.display(), i + 1));
            continue;
        };
        let Some(rest) = sig.strip_prefix("pub fn ") else {
            errors.push(format!("{}:{}: expected `pub fn NAME(` after #[kernel]", lib.display(), i + 1));
            continue;
        };
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        let documented = lines[..i].iter().rev().take_while(|l| l.starts_with("#[") || l.starts_with("//")).any(|l| l.starts_with("///"));
        if !documented {
            errors.push(format!("{}:{}: kernel {name} has no `///` line saying what it covers", lib.display(), i + 1));
        }
        match &suffixes {
            None => names.push(name),
            Some(sfx) => names.extend(sfx.iter().map(|s| format!("{name}{s}"))),
        }
    }
    names
}

/// `#[kernel(instances(f32, (f64, u64)), reqntid(64))]` → `_f32`,
/// `_f64_u64`: each type's last path segment, its generic arguments'
/// words appended (`Wrap<f32>` → `Wrap_f32`). None without `instances`.
fn instance_suffixes(attr: &str) -> Option<Vec<String>> {
    let start = attr.find("instances(")? + "instances(".len();
    let mut depth = 1;
    let mut end = start;
    for (k, c) in attr[start..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if depth == 0 {
            end = start + k;
            break;
        }
    }
    let split = |s: &str| -> Vec<String> {
        let (mut out, mut cur, mut d) = (Vec::new(), String::new(), 0);
        for c in s.chars() {
            match c {
                '(' | '<' => d += 1,
                ')' | '>' => d -= 1,
                ',' if d == 0 => {
                    out.push(std::mem::take(&mut cur));
                    continue;
                }
                _ => {}
            }
            cur.push(c);
        }
        out.push(cur);
        out.into_iter().map(|t| t.trim().to_string()).filter(|t| !t.is_empty()).collect()
    };
    let name = |ty: &str| -> String {
        let mut d = 0;
        let mut seg = 0;
        let b = ty.as_bytes();
        for k in 0..b.len() {
            match b[k] {
                b'<' => d += 1,
                b'>' => d -= 1,
                b':' if d == 0 && k + 1 < b.len() && b[k + 1] == b':' => seg = k + 2,
                _ => {}
            }
        }
        let words: Vec<&str> = ty[seg..].split(|c: char| !c.is_ascii_alphanumeric() && c != '_').filter(|w| !w.is_empty()).collect();
        words.join("_")
    };
    let mut out = Vec::new();
    for inst in split(&attr[start..end]) {
        let types = match inst.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
            Some(inner) => split(inner),
            None => vec![inst],
        };
        out.push(types.iter().map(|t| format!("_{}", name(t))).collect());
    }
    Some(out)
}
