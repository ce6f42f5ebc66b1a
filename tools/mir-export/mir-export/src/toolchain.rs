//! Which rustc will compile the kernel crate, and whether mir-export
//! understands its MIR text.
//!
//! MIR text and the layout debug format are rustc-internal; which releases
//! are read, and how they differ, is rustc_compat.rs. A release or build
//! mir-export has not measured must first pass the format self-test
//! (selftest.rs); one older than every known release is refused.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::diag::{Code, DResult, Diag};
use crate::rustc_compat::{self, Acceptance, KNOWN_MINORS};

/// The parsed `rustc -vV`.
#[derive(Clone, Debug, Default)]
pub struct RustcInfo {
    pub path: PathBuf,
    pub release: String,
    pub commit_hash: String,
    pub host: String,
    pub llvm: String,
    pub verbose: String,
    pub minor: u32,
    /// `rustc --print sysroot`, run once (`None` when it failed).
    pub sysroot: Option<PathBuf>,
    /// `path` is a rustup toolchain's own rustc, found through its proxy.
    pub unproxied: bool,
    /// Not measured: the format self-test must pass before use.
    pub needs_selftest: bool,
}

/// The rustc to use: `--rustc`, else `$RUSTC`, else `rustc` from `PATH`.
pub fn pick_rustc(cli: Option<&Path>) -> PathBuf {
    if let Some(p) = cli {
        return p.to_path_buf();
    }
    match std::env::var_os("RUSTC") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => PathBuf::from("rustc"),
    }
}

/// Runs `rustc --print sysroot` in `dir`, the kernel crate's directory
/// (where a rustup proxy picks the toolchain, as it would for cargo), then
/// `-vV`, and checks the release (a release or build that has not been
/// measured gets `needs_selftest`). A rustup proxy is replaced by its
/// toolchain's own rustc, so that this rustc -- the one checked -- is the
/// one cargo and the probes run, without the proxy's start each time.
pub fn probe_rustc(rustc: &Path, dir: &Path) -> DResult<RustcInfo> {
    let sysroot = print_sysroot(rustc, dir);
    let direct = sysroot.as_deref().and_then(|s| unproxied(rustc, s));
    let path = direct.clone().unwrap_or_else(|| rustc.to_path_buf());
    let out = Command::new(&path)
        .arg("-vV")
        .output()
        .map_err(|e| Diag::new(Code::Toolchain, format!("cannot run `{} -vV`: {e}", path.display())))?;
    if !out.status.success() {
        return Err(Diag::new(Code::Toolchain, format!("`{} -vV` failed: {}", path.display(), String::from_utf8_lossy(&out.stderr).trim())));
    }
    let mut info = parse_version(&String::from_utf8_lossy(&out.stdout))?;
    info.path = path;
    info.sysroot = sysroot;
    info.unproxied = direct.is_some();
    check_supported(&mut info)?;
    Ok(info)
}

fn print_sysroot(rustc: &Path, dir: &Path) -> Option<PathBuf> {
    let out = Command::new(rustc).current_dir(dir).args(["--print", "sysroot"]).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    (out.status.success() && !text.trim().is_empty()).then(|| PathBuf::from(text.trim()))
}

/// `SYSROOT/bin/rustc` when `rustc` (a path or a name on `PATH`) is a
/// rustup proxy: a link to the `rustup` executable.
fn unproxied(rustc: &Path, sysroot: &Path) -> Option<PathBuf> {
    let found = if rustc.components().count() > 1 {
        rustc.to_path_buf()
    } else {
        std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join(rustc)).find(|p| p.is_file())?
    };
    let target = std::fs::canonicalize(found).ok()?;
    let direct = sysroot.join("bin").join("rustc");
    (target.file_name()? == "rustup" && direct.is_file()).then_some(direct)
}

/// The cargo to run: `$CARGO`, else the toolchain's own when the rustc
/// came through a rustup proxy (the toolchain the proxy picks for `cargo`
/// in the same directory), else `cargo` from `PATH`.
pub fn pick_cargo(rustc: &RustcInfo) -> PathBuf {
    match std::env::var_os("CARGO") {
        Some(c) if !c.is_empty() => PathBuf::from(c),
        _ => own_cargo(rustc).unwrap_or_else(|| PathBuf::from("cargo")),
    }
}

fn own_cargo(rustc: &RustcInfo) -> Option<PathBuf> {
    let cargo = rustc.sysroot.as_ref()?.join("bin").join("cargo");
    (rustc.unproxied && cargo.is_file()).then_some(cargo)
}

pub fn parse_version(text: &str) -> DResult<RustcInfo> {
    let mut info = RustcInfo { verbose: text.trim_end().to_string(), ..RustcInfo::default() };
    for line in text.lines() {
        let Some((k, v)) = line.split_once(": ") else { continue };
        let v = v.trim().to_string();
        match k {
            "release" => info.release = v,
            "commit-hash" => info.commit_hash = v,
            "host" => info.host = v,
            "LLVM version" => info.llvm = v,
            _ => {}
        }
    }
    let minor = info.release.split('.').nth(1).and_then(|m| m.parse().ok());
    info.minor = minor.ok_or_else(|| Diag::new(Code::Toolchain, format!("cannot read the rustc release from:\n{text}")))?;
    Ok(info)
}

fn check_supported(info: &mut RustcInfo) -> DResult<()> {
    let known = || KNOWN_MINORS.iter().map(|m| format!("1.{m}.x")).collect::<Vec<_>>().join(", ");
    match rustc_compat::acceptance(&info.release, info.minor, &info.commit_hash) {
        Acceptance::Known => Ok(()),
        Acceptance::SelfTest => {
            info.needs_selftest = true;
            Ok(())
        }
        Acceptance::TooOld => Err(Diag::new(
            Code::Toolchain,
            format!(
                "rustc {} ({}) is not supported: mir-export reads rustc's internal MIR text and needs rustc {} or later (known: {})",
                info.release,
                info.path.display(),
                format_args!("1.{}", KNOWN_MINORS[0]),
                known()
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const V195: &str = "rustc 1.95.0 (59807616e 2026-04-14)\nbinary: rustc\ncommit-hash: 59807616e1fa2540724bfbac14d7976d7e4a3860\ncommit-date: 2026-04-14\nhost: x86_64-unknown-linux-gnu\nrelease: 1.95.0\nLLVM version: 22.1.2\n";

    #[test]
    fn a_rustup_proxy_is_replaced_by_its_toolchains_rustc() {
        let dir = std::env::temp_dir().join(format!("mir-export-unproxied-{}", std::process::id()));
        let (bin, sysroot) = (dir.join("cargo-bin"), dir.join("toolchain"));
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::create_dir_all(sysroot.join("bin")).unwrap();
        std::fs::write(bin.join("rustup"), "").unwrap();
        std::fs::write(bin.join("plain-rustc"), "").unwrap();
        std::os::unix::fs::symlink("rustup", bin.join("rustc")).unwrap();
        std::fs::write(sysroot.join("bin/rustc"), "").unwrap();
        std::fs::write(sysroot.join("bin/cargo"), "").unwrap();
        assert_eq!(unproxied(&bin.join("rustc"), &sysroot), Some(sysroot.join("bin/rustc")));
        // not a proxy, or a toolchain without its own rustc: used as given
        assert_eq!(unproxied(&bin.join("plain-rustc"), &sysroot), None);
        assert_eq!(unproxied(&bin.join("rustc"), &dir.join("elsewhere")), None);
        // the toolchain's own cargo only with its proxied rustc
        let info = RustcInfo { sysroot: Some(sysroot.clone()), unproxied: true, ..RustcInfo::default() };
        assert_eq!(own_cargo(&info), Some(sysroot.join("bin/cargo")));
        assert_eq!(own_cargo(&RustcInfo { unproxied: false, ..info }), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn parses_and_checks_versions() {
        let mut info = parse_version(V195).unwrap();
        assert_eq!((info.release.as_str(), info.minor, info.llvm.as_str()), ("1.95.0", 95, "22.1.2"));
        assert!(check_supported(&mut info).is_ok());
        assert!(!info.needs_selftest);
        let mut old = parse_version(&V195.replace("1.95.0", "1.90.0")).unwrap();
        let err = check_supported(&mut old).unwrap_err();
        assert!(err.msg.contains("needs rustc 1.95 or later"), "{}", err.msg);
        let mut nightly = parse_version(&V195.replace("release: 1.95.0", "release: 1.98.0-nightly")).unwrap();
        assert!(check_supported(&mut nightly).is_ok());
        assert!(nightly.needs_selftest);
    }
}
