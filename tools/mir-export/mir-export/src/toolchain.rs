//! Which rustc will compile the kernel crate, and whether mir-export
//! understands its MIR text.
//!
//! MIR text and the layout debug format are rustc-internal; mir-export is
//! tested against the releases in `SUPPORTED_MINORS` and refuses others.
//! Nightlies of the next release are allowed with a warning, because their
//! output usually still parses.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::diag::{Code, DResult, Diag};

/// Supported `1.N.x` releases.
pub const SUPPORTED_MINORS: [u32; 2] = [95, 96];

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

/// Runs `rustc -vV` and checks the release. `warn` receives a warning for
/// a nightly of the next release.
pub fn probe_rustc(rustc: &Path, warn: &mut dyn FnMut(String)) -> DResult<RustcInfo> {
    let out = Command::new(rustc)
        .arg("-vV")
        .output()
        .map_err(|e| Diag::new(Code::Toolchain, format!("cannot run `{} -vV`: {e}", rustc.display())))?;
    if !out.status.success() {
        return Err(Diag::new(Code::Toolchain, format!("`{} -vV` failed: {}", rustc.display(), String::from_utf8_lossy(&out.stderr).trim())));
    }
    let mut info = parse_version(&String::from_utf8_lossy(&out.stdout))?;
    info.path = rustc.to_path_buf();
    check_supported(&info, warn)?;
    Ok(info)
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

fn check_supported(info: &RustcInfo, warn: &mut dyn FnMut(String)) -> DResult<()> {
    let supported = || SUPPORTED_MINORS.iter().map(|m| format!("1.{m}.x")).collect::<Vec<_>>().join(" or ");
    let is_major_one = info.release.starts_with("1.");
    if is_major_one && SUPPORTED_MINORS.contains(&info.minor) {
        return Ok(());
    }
    let next = SUPPORTED_MINORS[SUPPORTED_MINORS.len() - 1] + 1;
    if is_major_one && info.minor == next && info.release.contains("nightly") {
        warn(format!("rustc {} is a nightly mir-export is not tested with; supported: {}", info.release, supported()));
        return Ok(());
    }
    Err(Diag::new(
        Code::Toolchain,
        format!(
            "rustc {} ({}) is not supported: mir-export reads rustc's internal MIR text and needs rustc {}",
            info.release,
            info.path.display(),
            supported()
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const V195: &str = "rustc 1.95.0 (59807616e 2026-04-14)\nbinary: rustc\ncommit-hash: 59807616e1fa2540724bfbac14d7976d7e4a3860\ncommit-date: 2026-04-14\nhost: x86_64-unknown-linux-gnu\nrelease: 1.95.0\nLLVM version: 22.1.2\n";

    #[test]
    fn parses_and_checks_versions() {
        let info = parse_version(V195).unwrap();
        assert_eq!((info.release.as_str(), info.minor, info.llvm.as_str()), ("1.95.0", 95, "22.1.2"));
        assert!(check_supported(&info, &mut |_| {}).is_ok());
        let old = parse_version(&V195.replace("1.95.0", "1.90.0")).unwrap();
        let err = check_supported(&old, &mut |_| {}).unwrap_err();
        assert!(err.msg.contains("needs rustc 1.95.x or 1.96.x"), "{}", err.msg);
        let nightly = parse_version(&V195.replace("release: 1.95.0", "release: 1.97.0-nightly")).unwrap();
        let mut warned = false;
        assert!(check_supported(&nightly, &mut |_| warned = true).is_ok());
        assert!(warned);
    }
}
