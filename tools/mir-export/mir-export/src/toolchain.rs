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

/// Finds the rustc's sysroot and `-vV`, and checks the release (a release
/// or build that has not been measured gets `needs_selftest`).
///
/// A rustup proxy is asked `--print sysroot` in `dir`, the kernel crate's
/// directory (where it picks the toolchain, as it would for cargo), every
/// time, and is then replaced by its toolchain's own rustc, so that this
/// rustc -- the one checked -- is the one cargo and the probes run,
/// without the proxy's start each time. The rest is kept in `cache_dir`
/// (`RustcCache`) while the rustc's executable and its librustc_driver
/// are the same files, as cargo keeps its `.rustc_info.json`: a warm
/// export of a proxied toolchain runs one rustc instead of two, a direct
/// rustc none.
pub fn probe_rustc(rustc: &Path, dir: &Path, cache_dir: &Path) -> DResult<RustcInfo> {
    let exe = find_exe(rustc);
    let proxied = exe.as_deref().is_none_or(is_rustup);
    let (mut sysroot, mut direct) = (None, None);
    if proxied {
        sysroot = proxy_sysroot(rustc, dir, cache_dir, &RustupEnv::current());
        direct = sysroot.as_deref().and_then(|s| unproxied(rustc, s));
    }
    let path = direct.clone().unwrap_or_else(|| rustc.to_path_buf());
    // a proxy whose toolchain was not found is not kept: its choice varies
    let cache = (!proxied || direct.is_some()).then(|| RustcCache::new(cache_dir, &path)).flatten();
    let (sysroot, verbose) = match cache.as_ref().and_then(|c| c.read(sysroot.as_deref())) {
        Some(hit) => hit,
        None => {
            let sysroot = sysroot.or_else(|| print_sysroot(&path, dir));
            let out = Command::new(&path)
                .arg("-vV")
                .output()
                .map_err(|e| Diag::new(Code::Toolchain, format!("cannot run `{} -vV`: {e}", path.display())))?;
            if !out.status.success() {
                return Err(Diag::new(Code::Toolchain, format!("`{} -vV` failed: {}", path.display(), String::from_utf8_lossy(&out.stderr).trim())));
            }
            let verbose = String::from_utf8_lossy(&out.stdout).into_owned();
            if let Some(c) = &cache {
                c.write(sysroot.as_deref(), &verbose);
            }
            (sysroot, verbose)
        }
    };
    let mut info = parse_version(&verbose)?;
    info.path = path;
    info.sysroot = sysroot;
    info.unproxied = direct.is_some();
    check_supported(&mut info)?;
    Ok(info)
}

/// The file `rustc` (a path, or a name on `PATH`) runs.
fn find_exe(rustc: &Path) -> Option<PathBuf> {
    if rustc.components().count() > 1 {
        return rustc.is_file().then(|| rustc.to_path_buf());
    }
    std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join(rustc)).find(|p| p.is_file())
}

/// Whether `exe` is a rustup proxy: a link to the `rustup` executable.
fn is_rustup(exe: &Path) -> bool {
    std::fs::canonicalize(exe).is_ok_and(|t| t.file_name().is_some_and(|n| n == "rustup"))
}

/// What one rustc said (`--print sysroot`, `-vV`), kept in
/// `DIR/oxide-rustc-info/HASH` (HASH: the rustc's path) under a key of
/// the identities (device, inode, size, mtime) of the rustc executable
/// and of every `librustc_driver*` in its sysroot's `lib/` and the
/// directories right below it (Debian's is in `lib/x86_64-linux-gnu`):
/// installing another rustc there changes one of them.
struct RustcCache {
    file: PathBuf,
    exe: String,
}

impl RustcCache {
    fn new(dir: &Path, rustc: &Path) -> Option<RustcCache> {
        let exe = find_exe(rustc)?;
        let exe = file_identity(&std::fs::canonicalize(&exe).ok()?)?;
        let slot = crate::library::fnv1a([rustc.to_string_lossy().as_ref()]);
        Some(RustcCache { file: dir.join("oxide-rustc-info").join(format!("{slot:016x}")), exe })
    }

    /// The sysroot and `-vV` kept, when the files are the same and the
    /// sysroot is `sysroot` (a proxy's, asked this time) if given.
    fn read(&self, sysroot: Option<&Path>) -> Option<(Option<PathBuf>, String)> {
        let text = std::fs::read_to_string(&self.file).ok()?;
        let mut lines = text.splitn(4, '\n');
        let (version, exe, root, driver) = (lines.next()?, lines.next()?, lines.next()?, lines.next()?);
        let (driver, verbose) = driver.split_once('\n')?;
        let root = (!root.is_empty()).then(|| PathBuf::from(root));
        let fresh = version == CACHE_VERSION
            && exe == self.exe
            && sysroot.is_none_or(|s| root.as_deref() == Some(s))
            && driver == driver_identity(root.as_deref());
        fresh.then_some((root, verbose.to_string()))
    }

    /// A cache that cannot be written is only slower next time.
    fn write(&self, sysroot: Option<&Path>, verbose: &str) {
        let root = sysroot.map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        if root.contains('\n') || !self.file.parent().is_some_and(|d| std::fs::create_dir_all(d).is_ok()) {
            return;
        }
        let text = format!("{CACHE_VERSION}\n{}\n{root}\n{}\n{verbose}", self.exe, driver_identity(sysroot));
        let _ = crate::driver::write_atomically(&self.file, &text);
    }
}

const CACHE_VERSION: &str = "oxide-rustc-info 1";

/// `PATH dev ino size mtime` of a file; None when it cannot be read.
fn file_identity(path: &Path) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(path).ok()?;
    Some(format!("{} {} {} {} {}.{:09}", path.display(), m.dev(), m.ino(), m.size(), m.mtime(), m.mtime_nsec()))
}

/// The identities of the `librustc_driver*` files of a sysroot, sorted
/// and joined by `;` (empty without a sysroot or such files).
fn driver_identity(sysroot: Option<&Path>) -> String {
    let Some(lib) = sysroot.map(|s| s.join("lib")) else { return String::new() };
    let mut dirs = vec![lib.clone()];
    if let Ok(rd) = std::fs::read_dir(&lib) {
        dirs.extend(rd.flatten().map(|e| e.path()).filter(|p| p.is_dir() && !p.ends_with("rustlib")));
    }
    let mut ids: Vec<String> = dirs
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flat_map(|rd| rd.flatten().map(|e| e.path()))
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("librustc_driver")))
        .filter_map(|p| file_identity(&p))
        .collect();
    ids.sort();
    ids.join(";")
}

/// The sysroot of the toolchain a rustup proxy picks in `dir`: its
/// `--print sysroot` (the proxy's start and a rustc's, about 65 ms of CPU
/// of a warm export), kept in `DIR/oxide-rustc-info/proxy-HASH` under
/// the identities of everything rustup picks by (`proxy_choice`); a
/// sysroot whose `bin/rustc` is gone is asked again.
fn proxy_sysroot(rustc: &Path, dir: &Path, cache_dir: &Path, env: &RustupEnv) -> Option<PathBuf> {
    let key = env.home.as_deref().and_then(|h| proxy_choice(rustc, dir, h, &env.toolchain));
    let slot = crate::library::fnv1a([rustc.to_string_lossy().as_ref(), &dir.to_string_lossy()]);
    let file = cache_dir.join("oxide-rustc-info").join(format!("proxy-{slot:016x}"));
    let kept = key.as_ref().and_then(|k| {
        let text = std::fs::read_to_string(&file).ok()?;
        let (cached, root) = text.rsplit_once('\n')?;
        (cached == k && Path::new(root).join("bin/rustc").is_file()).then(|| PathBuf::from(root))
    });
    if kept.is_some() {
        return kept;
    }
    let sysroot = print_sysroot(rustc, dir)?;
    let root = sysroot.to_string_lossy();
    if let Some(k) = key.filter(|_| !root.contains('\n')) {
        if file.parent().is_some_and(|d| std::fs::create_dir_all(d).is_ok()) {
            let _ = crate::driver::write_atomically(&file, &format!("{k}\n{root}"));
        }
    }
    Some(sysroot)
}

/// The environment a rustup proxy reads: `RUSTUP_HOME` (default
/// `~/.rustup`) and `RUSTUP_TOOLCHAIN`.
struct RustupEnv {
    home: Option<PathBuf>,
    toolchain: String,
}

impl RustupEnv {
    fn current() -> RustupEnv {
        let home = std::env::var_os("RUSTUP_HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".rustup")));
        let toolchain = std::env::var_os("RUSTUP_TOOLCHAIN").unwrap_or_default().to_string_lossy().into_owned();
        RustupEnv { home, toolchain }
    }
}

/// What a rustup proxy picks its toolchain by in `dir`, as identities
/// (rustup's order: `RUSTUP_TOOLCHAIN`, a directory override or the
/// default in `RUSTUP_HOME/settings.toml`, a `rust-toolchain` or
/// `rust-toolchain.toml` in `dir` or a directory above it), with the
/// rustup executable's own; None when one cannot be read (then the proxy
/// is asked every time). The key is taken before the proxy is asked, so a
/// change made meanwhile is a miss next time.
fn proxy_choice(rustc: &Path, dir: &Path, rustup_home: &Path, toolchain_env: &str) -> Option<String> {
    let rustup = std::fs::canonicalize(find_exe(rustc)?).ok()?;
    let dir = std::fs::canonicalize(dir).ok()?;
    let mut key = format!("oxide-proxy-choice 1\n{toolchain_env}\n{}\n", file_identity(&rustup)?);
    key.push_str(&file_identity(&rustup_home.join("settings.toml"))?);
    for d in dir.ancestors() {
        for name in ["rust-toolchain", "rust-toolchain.toml"] {
            let f = d.join(name);
            key.push('\n');
            key.push_str(&file_identity(&f).unwrap_or_else(|| format!("{} -", f.display())));
        }
    }
    Some(key)
}

fn print_sysroot(rustc: &Path, dir: &Path) -> Option<PathBuf> {
    let out = Command::new(rustc).current_dir(dir).args(["--print", "sysroot"]).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    (out.status.success() && !text.trim().is_empty()).then(|| PathBuf::from(text.trim()))
}

/// `SYSROOT/bin/rustc` when `rustc` (a path or a name on `PATH`) is a
/// rustup proxy: a link to the `rustup` executable.
fn unproxied(rustc: &Path, sysroot: &Path) -> Option<PathBuf> {
    let direct = sysroot.join("bin").join("rustc");
    (is_rustup(&find_exe(rustc)?) && direct.is_file()).then_some(direct)
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
    fn keeps_what_a_rustc_said_while_its_files_are_the_same() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("mir-export-rustc-info-{}", std::process::id()));
        let sysroot = dir.join("sysroot");
        let lib = sysroot.join("lib/x86_64-linux-gnu");
        std::fs::create_dir_all(sysroot.join("bin")).unwrap();
        std::fs::create_dir_all(&lib).unwrap();
        std::fs::write(dir.join("vV"), V195).unwrap();
        std::fs::write(lib.join("librustc_driver-1.so"), "one").unwrap();
        let rustc = sysroot.join("bin/rustc");
        let script = |extra: &str| {
            let text = format!(
                "#!/bin/sh\necho run >> {d}/runs\ncase \"$1\" in -vV) cat {d}/vV;; --print) echo {s};; esac\n{extra}",
                d = dir.display(),
                s = sysroot.display()
            );
            std::fs::write(&rustc, text).unwrap();
            std::fs::set_permissions(&rustc, std::fs::Permissions::from_mode(0o755)).unwrap();
        };
        let runs = || std::fs::read_to_string(dir.join("runs")).map_or(0, |t| t.lines().count());
        script("");
        let cache = dir.join("target");
        let info = probe_rustc(&rustc, &dir, &cache).unwrap();
        assert_eq!((info.release.as_str(), info.sysroot.as_deref()), ("1.95.0", Some(sysroot.as_path())));
        assert_eq!(runs(), 2, "--print sysroot and -vV");
        let again = probe_rustc(&rustc, &dir, &cache).unwrap();
        assert_eq!((again.verbose.as_str(), again.sysroot.as_deref()), (info.verbose.as_str(), Some(sysroot.as_path())));
        assert_eq!(runs(), 2, "kept");
        // another librustc_driver, then another executable: asked again
        std::fs::write(lib.join("librustc_driver-1.so"), "other").unwrap();
        probe_rustc(&rustc, &dir, &cache).unwrap();
        assert_eq!(runs(), 4);
        probe_rustc(&rustc, &dir, &cache).unwrap();
        assert_eq!(runs(), 4);
        script("# rebuilt\n");
        probe_rustc(&rustc, &dir, &cache).unwrap();
        assert_eq!(runs(), 6);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn keeps_a_proxys_choice_while_what_rustup_picks_by_is_the_same() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("mir-export-proxy-choice-{}", std::process::id()));
        let (bin, home, krate) = (dir.join("cargo-bin"), dir.join("rustup-home"), dir.join("work/krate"));
        let (one, two) = (home.join("toolchains/one"), home.join("toolchains/two"));
        for d in [&bin, &krate, &one.join("bin"), &two.join("bin")] {
            std::fs::create_dir_all(d).unwrap();
        }
        std::fs::write(one.join("bin/rustc"), "").unwrap();
        std::fs::write(two.join("bin/rustc"), "").unwrap();
        std::fs::write(home.join("settings.toml"), "default_toolchain = \"one\"\n").unwrap();
        std::fs::write(dir.join("pick"), one.to_string_lossy().as_ref()).unwrap();
        // the proxy: prints the toolchain named in `pick`, counting its runs
        let rustup = bin.join("rustup");
        let d = dir.display();
        std::fs::write(&rustup, format!("#!/bin/sh\necho run >> {d}/runs\ncat {d}/pick\n")).unwrap();
        std::fs::set_permissions(&rustup, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::os::unix::fs::symlink("rustup", bin.join("rustc")).unwrap();
        let runs = || std::fs::read_to_string(dir.join("runs")).map_or(0, |t| t.lines().count());
        let (rustc, cache) = (bin.join("rustc"), dir.join("target"));
        let env = RustupEnv { home: Some(home.clone()), toolchain: String::new() };
        let ask = |env: &RustupEnv| proxy_sysroot(&rustc, &krate, &cache, env);
        assert_eq!(ask(&env), Some(one.clone()));
        assert_eq!(ask(&env), Some(one.clone()));
        assert_eq!(runs(), 1, "kept");
        // each thing rustup picks by: asked again, then kept again
        let pick = |tc: &Path| std::fs::write(dir.join("pick"), tc.to_string_lossy().as_ref()).unwrap();
        pick(&two);
        std::fs::write(dir.join("work/rust-toolchain.toml"), "[toolchain]\nchannel = \"two\"\n").unwrap();
        assert_eq!((ask(&env), ask(&env), runs()), (Some(two.clone()), Some(two.clone()), 2));
        pick(&one);
        std::fs::remove_file(dir.join("work/rust-toolchain.toml")).unwrap();
        assert_eq!((ask(&env), runs()), (Some(one.clone()), 3));
        pick(&two);
        let env_two = RustupEnv { toolchain: "two".into(), ..env };
        assert_eq!((ask(&env_two), ask(&env_two), runs()), (Some(two.clone()), Some(two.clone()), 4));
        let env = RustupEnv { toolchain: String::new(), ..env_two };
        std::fs::write(home.join("settings.toml"), "default_toolchain = \"two\"\n").unwrap();
        assert_eq!((ask(&env), runs()), (Some(two.clone()), 5));
        // a toolchain removed since: asked again
        std::fs::remove_file(two.join("bin/rustc")).unwrap();
        pick(&one);
        assert_eq!((ask(&env), runs()), (Some(one.clone()), 6));
        // no settings.toml: nothing kept
        std::fs::remove_file(home.join("settings.toml")).unwrap();
        assert_eq!((ask(&env), ask(&env), runs()), (Some(one.clone()), Some(one), 8));
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
