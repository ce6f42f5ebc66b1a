//! The format self-test of a rustc build mir-export has not measured
//! (rustc_compat::Acceptance::SelfTest): before it reads a kernel crate's
//! output, mir-export compiles a small probe crate with that rustc and
//! checks that it reads what it must:
//!
//! - the layout dumps of known types (niche and direct tags, reordered
//!   fields, scalar pairs, unions, arrays) give the layouts every known
//!   release gives (`EXPECTED_LAYOUTS`);
//! - the MIR text of known functions parses and holds the constructs it
//!   must (a bounds check, a division check, an int-to-float cast, a float
//!   constant, a switch on a discriminant, an enum's explicit
//!   discriminants, a static's bytes: `check_mir`);
//! - `-Zverbose-internals` gives the bits of a NaN constant (nanbits.rs).
//!
//! Anything else is OX1006 naming the rustc and each difference; the
//! kernel crate is not read. A pass is cached per rustc build (release and
//! commit) in the kernel crate's target directory, so it costs about a
//! second once, nothing afterwards.

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::diag::{Code, DResult, Diag};
use crate::driver::{io_err, MIR_FLAGS};
use crate::layout::{self, Layout, TagEncoding};
use crate::mirparse::ast::{Body, ConstVal, Operand, Rvalue, StatementKind, TerminatorKind};
use crate::rustc_compat;
use crate::toolchain::RustcInfo;
use crate::{mirparse, nanbits};

/// The probe crate (host target; the types' layouts are the same on
/// nvptx64).
const PROBE: &str = r#"#![no_std]
pub struct Reordered { pub a: u8, pub b: u32, pub c: u16 }
pub enum Tagged { A(u8), B, C(u32) }
#[repr(u8)]
pub enum Explicit { X = 10, Y = 20, Z }
pub union Both { pub a: u32, pub b: f32 }
pub static PROBE_TABLE: [u16; 3] = [1, 2, 0x0304];
pub fn probe_index(a: &[u32], i: usize) -> u32 { a[i] }
pub fn probe_table(i: usize) -> &'static u16 { &PROBE_TABLE[i] }
pub fn probe_div(a: i32, b: i32) -> i32 { a / b }
pub fn probe_cast(x: u32, y: f32) -> f32 { (x as f32) * y + 1.5 }
pub fn probe_match(e: &Tagged) -> u32 { match *e { Tagged::A(v) => v as u32, Tagged::B => 7, Tagged::C(v) => v } }
pub fn probe_nan() -> f32 { f32::from_bits(0x7fc0_0001) }
pub fn probe_explicit(e: Explicit) -> u8 { e as u8 }
"#;

/// (type, its layout as `summary` writes it), the same from rustc 1.95,
/// 1.96 and 1.97.
const EXPECTED_LAYOUTS: &[(&str, &str)] = &[
    (
        "core::option::Option<&'static mut f32>",
        "8/8 scalar [ptr 0..=18446744073709551615] fields [0] niche(untagged 1, 0..=0, start 0) tag ptr@0 variants [0: []; 8: [0]]",
    ),
    ("core::option::Option<u32>", "8/4 scalar_pair [i32 0..=1, i32 0..=4294967295] fields [0] direct tag i32@0 variants [4: []; 8: [4]]"),
    ("core::option::Option<bool>", "1/1 scalar [i8 0..=2] fields [0] niche(untagged 1, 0..=0, start 2) tag i8@0 variants [0: []; 1: [0]]"),
    ("(u8, i64)", "16/8 scalar_pair [i8 0..=255, i64 0..=18446744073709551615] fields [0, 8] single 0"),
    ("Reordered", "8/4 memory [] fields [6, 0, 4] single 0"),
    ("Tagged", "8/4 memory [] fields [0] direct tag i8@0 variants [2: [1]; 1: []; 8: [4]]"),
    ("Explicit", "1/1 scalar [i8 10..=21] fields [0] direct tag i8@0 variants [1: []; 1: []; 1: []]"),
    ("Both", "4/4 memory [] fields [0, 0] single 0"),
    ("[u16; 3]", "6/2 memory [] fields [0] single 0"),
];

/// A layout in one line: size/align, abi, scalars, field offsets, tag and
/// variants (their size and field offsets; variant alignments are left
/// out: rustc 1.97 does not print them).
pub fn summary(l: &Layout) -> String {
    let sc: Vec<String> = l.scalars.iter().map(|s| format!("{} {}..={}", s.prim, s.valid_start, s.valid_end)).collect();
    let offs = |f: &[u64]| f.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
    let mut s = format!("{}/{} {} [{}] fields [{}]", l.size, l.align, l.abi, sc.join(", "), offs(&l.fields));
    if let Some(v) = &l.variants {
        match &v.encoding {
            TagEncoding::Direct => s.push_str(" direct"),
            TagEncoding::Niche { untagged_variant, niche_variants, niche_start } => s.push_str(&format!(
                " niche(untagged {untagged_variant}, {}..={}, start {niche_start})",
                niche_variants.0, niche_variants.1
            )),
        }
        s.push_str(&format!(" tag {}@{}", v.tag.prim, v.tag_offset));
        let vs: Vec<String> = v.layouts.iter().map(|vl| format!("{}: [{}]", vl.size, offs(&vl.fields))).collect();
        s.push_str(&format!(" variants [{}]", vs.join("; ")));
    }
    if let (Some(i), None) = (l.single_variant, &l.variants) {
        s.push_str(&format!(" single {i}"));
    }
    s
}

/// Runs the self-test unless a pass of this rustc build is cached in
/// `cache_dir`.
pub fn ensure(info: &RustcInfo, cache_dir: &Path, verbose: bool) -> DResult<()> {
    let commit: String = info.commit_hash.chars().take(12).collect();
    let stamp = cache_dir.join(format!("oxide-rustc-selftest-{}-{commit}.ok", info.release));
    if stamp.exists() {
        return Ok(());
    }
    let work = cache_dir.join(format!("oxide-rustc-selftest-{}", std::process::id()));
    fs::create_dir_all(&work).map_err(|e| io_err(&work, e))?;
    let result = run(info, &work, verbose);
    let _ = fs::remove_dir_all(&work);
    let differences = result?;
    if !differences.is_empty() {
        return Err(Diag::new(
            Code::Format,
            format!(
                "rustc {} ({}, commit {}) has not been measured by mir-export, and its format self-test found output that differs from what mir-export reads:\n  {}\n(known releases: {}; docs/rustc-releases.md says how to adopt a new one)",
                info.release,
                info.path.display(),
                info.commit_hash,
                differences.join("\n  "),
                rustc_compat::KNOWN_MINORS.iter().map(|m| format!("1.{m}")).collect::<Vec<_>>().join(", ")
            ),
        ));
    }
    fs::write(&stamp, format!("{}\nself-test passed\n", info.verbose)).map_err(|e| io_err(&stamp, e))?;
    Ok(())
}

/// The differences found (empty: passed).
fn run(info: &RustcInfo, work: &Path, verbose: bool) -> DResult<Vec<String>> {
    let src = work.join("probe.rs");
    fs::write(&src, PROBE).map_err(|e| io_err(&src, e))?;
    let mir_file = work.join("probe.mir");
    let verbose_file = work.join("probe.verbose.mir");
    let mut diffs = Vec::new();
    // the MIR, plain and with exact constants
    for (file, extra) in [(&mir_file, None), (&verbose_file, Some("-Zverbose-internals"))] {
        let mut args: Vec<String> = MIR_FLAGS.iter().filter(|a| !a.starts_with("--emit")).map(|a| a.to_string()).collect();
        args.push(format!("--emit=mir={}", file.display()));
        args.extend(extra.map(str::to_string));
        let out = rustc(info, work, &src, &args, verbose)?;
        if !out.status.success() {
            diffs.push(format!("rustc could not compile the probe crate: {}", String::from_utf8_lossy(&out.stderr).trim()));
            return Ok(diffs);
        }
    }
    let plain = fs::read_to_string(&mir_file).map_err(|e| io_err(&mir_file, e))?;
    let verbose_text = fs::read_to_string(&verbose_file).map_err(|e| io_err(&verbose_file, e))?;
    diffs.extend(check_mir(&plain, &verbose_text));
    // the layouts
    let names: Vec<String> = EXPECTED_LAYOUTS.iter().map(|(t, _)| t.to_string()).collect();
    let probe = layout::probe_source(PROBE, rustc_compat::layout_attr(info.minor), &names);
    let lsrc = work.join("layouts.rs");
    fs::write(&lsrc, &probe.text).map_err(|e| io_err(&lsrc, e))?;
    let args = ["--emit=metadata", "--error-format=json", "-Zcrate-attr=feature(rustc_attrs)"].map(String::from);
    let out = rustc(info, work, &lsrc, &args, verbose)?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    diffs.extend(check_layouts(&layout::read_probe_output(&stderr, &probe, info.minor)));
    Ok(diffs)
}

fn rustc(info: &RustcInfo, work: &Path, src: &Path, args: &[String], verbose: bool) -> DResult<std::process::Output> {
    let mut cmd = Command::new(&info.path);
    cmd.current_dir(work)
        .args(["--crate-type=lib", "--crate-name=oxide_selftest", "--edition=2021", "-Cpanic=abort"])
        .arg(src)
        .args(args)
        .arg(format!("--out-dir={}", work.display()))
        .env("RUSTC_BOOTSTRAP", "1");
    if verbose {
        eprintln!("mir-export: self-test: {cmd:?}");
    }
    cmd.output().map_err(|e| Diag::new(Code::Toolchain, format!("cannot run {}: {e}", info.path.display())))
}

fn check_layouts(got: &[Result<Layout, String>]) -> Vec<String> {
    let mut diffs = Vec::new();
    for ((ty, want), got) in EXPECTED_LAYOUTS.iter().zip(got) {
        match got {
            Ok(l) if summary(l) == *want => {}
            Ok(l) => diffs.push(format!("layout of `{ty}`: read as `{}`, expected `{want}`", summary(l))),
            Err(e) => diffs.push(format!("layout of `{ty}`: {}", e.lines().next().unwrap_or(""))),
        }
    }
    diffs
}

/// What the probe's MIR must hold once parsed.
fn check_mir(plain: &str, verbose: &str) -> Vec<String> {
    let mut diffs = Vec::new();
    let (resolved, report) = nanbits::resolve(plain, verbose);
    if report.resolved != 1 || report.unresolved != 0 {
        diffs.push(format!(
            "-Zverbose-internals: {} NaN constants resolved, {} not{} (expected 1 and 0)",
            report.resolved,
            report.unresolved,
            report.mismatch.map(|m| format!(": {m}")).unwrap_or_default()
        ));
    }
    let mir = match mirparse::parse_mir_file(&resolved) {
        Ok(m) => m,
        Err(e) => {
            diffs.push(format!("MIR line {}: {}", e.line, e.msg));
            return diffs;
        }
    };
    let body = |name: &str| mir.bodies.iter().find(|b| b.name == name);
    let mut want = |name: &str, what: &str, ok: &dyn Fn(&Body) -> bool| match body(name) {
        None => diffs.push(format!("MIR: no body `{name}`")),
        Some(b) if !ok(b) => diffs.push(format!("MIR of `{name}`: no {what}")),
        Some(_) => {}
    };
    want("probe_index", "bounds-check assert", &|b| asserts(b).any(|m| m.contains("index out of bounds")));
    want("probe_div", "division-by-zero assert", &|b| asserts(b).any(|m| m.contains("divide") && m.contains("zero")));
    want("probe_div", "division-overflow assert", &|b| asserts(b).any(|m| m.contains("overflow")));
    want("probe_cast", "IntToFloat cast", &|b| rvalues(b).any(|r| matches!(r, Rvalue::Cast { kind, .. } if kind == "IntToFloat")));
    want("probe_cast", "float constant 1.5", &|b| {
        rvalues(b).any(|r| matches!(r, Rvalue::Binary { rhs: Operand::Const(c), .. } | Rvalue::Binary { lhs: Operand::Const(c), .. } if matches!(&c.val, ConstVal::Float(f) if f.starts_with("1.5"))))
    });
    want("probe_match", "switch on a discriminant", &|b| {
        rvalues(b).any(|r| matches!(r, Rvalue::Discriminant(_)))
            && b.blocks.iter().any(|bl| matches!(&bl.terminator.kind, TerminatorKind::SwitchInt { targets, .. } if targets.len() >= 2))
    });
    want("probe_nan", "NaN constant with its bits", &|b| {
        b.blocks.iter().flat_map(|bl| &bl.statements).any(|s| matches!(&s.kind, StatementKind::Assign(_, Rvalue::Use(Operand::Const(c))) if matches!(&c.val, ConstVal::Float(f) if f.contains("0x7fc00001"))))
    });
    let discr = |n: &str| mir.consts.iter().find(|c| c.name.starts_with(n) && c.name.contains("{constant#")).map(|c| c.value.clone());
    let is = |c: Option<crate::mirparse::ast::Const>, v: &str| matches!(c.map(|c| c.val), Some(ConstVal::Int { negative: false, text }) if text.starts_with(v));
    if !is(discr("Explicit::X"), "10") || !is(discr("Explicit::Y"), "20") {
        diffs.push("MIR: the explicit discriminants of `Explicit` (`Explicit::X::{constant#0}` = 10, Y = 20)".into());
    }
    let table = mir.allocs.iter().find(|a| a.static_name.as_deref() == Some("PROBE_TABLE"));
    let bytes: Option<Vec<Option<u8>>> = table.map(|a| a.bytes.clone());
    if bytes != Some([1u8, 0, 2, 0, 4, 3].map(Some).to_vec()) {
        diffs.push(format!("MIR: the bytes of `static PROBE_TABLE` (01 00 02 00 04 03): {bytes:?}"));
    }
    diffs
}

fn asserts(b: &Body) -> impl Iterator<Item = &str> {
    b.blocks.iter().filter_map(|bl| match &bl.terminator.kind {
        TerminatorKind::Assert { msg, .. } => Some(msg.as_str()),
        _ => None,
    })
}

fn rvalues(b: &Body) -> impl Iterator<Item = &Rvalue> {
    b.blocks.iter().flat_map(|bl| &bl.statements).filter_map(|s| match &s.kind {
        StatementKind::Assign(_, r) => Some(r),
        _ => None,
    })
}

/// For tests: where a rustc of each release is, when installed.
#[cfg(test)]
pub fn installed_rustcs() -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for p in ["/usr/bin/rustc"] {
        if Path::new(p).exists() {
            out.push(p.into());
        }
    }
    for tc in ["stable", "nightly"] {
        if let Ok(o) = Command::new("rustup").args(["which", "--toolchain", tc, "rustc"]).output() {
            if o.status.success() {
                out.push(String::from_utf8_lossy(&o.stdout).trim().into());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolchain::parse_version;

    /// The self-test on every installed rustc (skipped where none is):
    /// each known release must pass it, i.e. read the same layouts and MIR.
    #[test]
    fn every_installed_rustc_passes() {
        let mut failed = Vec::new();
        for path in installed_rustcs() {
            let Ok(out) = Command::new(&path).arg("-vV").output() else { continue };
            let mut info = parse_version(&String::from_utf8_lossy(&out.stdout)).unwrap();
            info.path = path.clone();
            let work = std::env::temp_dir().join(format!("oxide-selftest-test-{}-{}", std::process::id(), info.minor));
            fs::create_dir_all(&work).unwrap();
            let diffs = run(&info, &work, false).unwrap();
            let _ = fs::remove_dir_all(&work);
            if !diffs.is_empty() {
                failed.push(format!("rustc {} ({}): {diffs:#?}", info.release, path.display()));
            }
        }
        assert!(failed.is_empty(), "{}", failed.join("\n"));
    }

    #[test]
    fn a_changed_format_is_a_difference() {
        // the layout of a struct whose offsets moved, a MIR without bodies
        let mut l = layout::Layout::memory(8, 4);
        l.fields = vec![0, 4, 6];
        let d = check_layouts(&[Ok(l)]);
        assert!(d[0].contains("Option<&'static mut f32>") && d[0].contains("expected"), "{d:?}");
        let d = check_mir("", "");
        assert!(d.iter().any(|m| m.contains("no body `probe_index`")), "{d:?}");
        assert!(d.iter().any(|m| m.contains("NaN")), "{d:?}");
    }
}
