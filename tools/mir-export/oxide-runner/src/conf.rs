//! The conformance machinery's settings and small tools shared by the
//! runner's commands: the directories and compilers (from the environment),
//! logged commands, the first
//! error of a log, the kernel list, glob-free directory helpers, and a
//! pool of worker threads.

use std::collections::VecDeque;
use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;

/// The conformance suite's sources (its C harness and tools).
pub const CONF: &str = "tests/conformance";

/// The suite whose groups run: its `kernels/`, `cpu-ref/` and
/// `expected-errors.txt`. CONF_SUITE, default tests/conformance;
/// tests/crates/run.sh sets tests/crates (groups that use Debian's crates).
pub fn suite_dir() -> PathBuf {
    PathBuf::from(env_or("CONF_SUITE", CONF))
}

/// Copies `src`/.cargo (a cargo configuration: tests/crates replaces
/// crates.io with Debian's registry) into `dst`, where cargo runs.
pub fn copy_cargo_config(src: &Path, dst: &Path) {
    let cfg = src.join(".cargo/config.toml");
    if cfg.is_file() {
        let _ = fs::create_dir_all(dst.join(".cargo"));
        let _ = fs::copy(&cfg, dst.join(".cargo/config.toml"));
    }
}

/// Where the machinery reads and writes, and the tools it runs. Paths
/// are relative to the repository root, the working directory.
#[derive(Clone, Debug)]
pub struct Conf {
    /// the group crates (GROUP/Cargo.toml, common.rs)
    pub kernels: PathBuf,
    /// results: expected lines, GPU modules (CONF_BUILD)
    pub b: PathBuf,
    /// everything else (CONF_WORK)
    pub w: PathBuf,
    pub mir_export: String,
    pub oxidec: String,
    pub ptxas: String,
    /// the C compiler, a command line (`$CC` unquoted)
    pub cc: Vec<String>,
}

fn env_or(name: &str, default: &str) -> String {
    std::env::var(name).ok().filter(|v| !v.is_empty()).unwrap_or_else(|| default.to_string())
}

impl Conf {
    /// The settings from the environment (CONF_BUILD, CONF_WORK, MIR_EXPORT,
    /// OXIDEC, PTXAS or CUDA_HOME, CC).
    pub fn from_env() -> Conf {
        let cuda = env_or("CUDA_HOME", "/usr/local/cuda");
        Conf {
            kernels: suite_dir().join("kernels"),
            b: env_or("CONF_BUILD", "build/conformance").into(),
            w: env_or("CONF_WORK", "build/conformance-work").into(),
            mir_export: env_or("MIR_EXPORT", "build/bin/mir-export"),
            oxidec: env_or("OXIDEC", "build/bin/oxidec"),
            ptxas: env_or("PTXAS", &format!("{cuda}/bin/ptxas")),
            cc: env_or("CC", "cc").split_whitespace().map(String::from).collect(),
        }
    }

    /// The kernels of group `g`, from $W/kernels.list ("GROUP NAME" lines).
    pub fn kernels_of(&self, g: &str) -> Vec<String> {
        let list = read_lossy(&self.w.join("kernels.list"));
        list.lines()
            .filter_map(|l| {
                let mut f = l.split_whitespace();
                (f.next() == Some(g)).then(|| f.next().map(String::from)).flatten()
            })
            .collect()
    }

    /// A command for the C compiler.
    pub fn cc_cmd(&self) -> Command {
        let mut c = Command::new(&self.cc[0]);
        c.args(&self.cc[1..]);
        c
    }

    /// The C tool `name` (mirsplit, harness) built into $W/tools.
    pub fn tool(&self, name: &str) -> PathBuf {
        self.w.join("tools").join(name)
    }

    /// Whether ptxas is there to validate PTX.
    pub fn has_ptxas(&self) -> bool {
        is_executable(Path::new(&self.ptxas))
    }
}

/// Whether `p` is an executable file.
pub fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(p).map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0).unwrap_or(false)
}

/// A file's text (lossy UTF-8), empty when it cannot be read.
pub fn read_lossy(p: &Path) -> String {
    fs::read(p).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default()
}

/// At most `n` characters of `s`.
pub fn cut(s: &str, n: usize) -> &str {
    s.char_indices().nth(n).map_or(s, |(i, _)| &s[..i])
}

/// The first line of a log that says "error" (any case), else its first
/// line, at most 400 characters.
pub fn first_error(log: &Path) -> String {
    let text = read_lossy(log);
    cut(crate::verdict::first_error_line(&text), 400).to_string()
}

/// Runs `cmd` with its standard output and error in `log` (truncated);
/// its exit status, -1 when it could not start or died by a signal.
pub fn run_logged(cmd: &mut Command, log: &Path) -> i32 {
    let Ok(f) = File::create(log) else { return -1 };
    let Ok(f2) = f.try_clone() else { return -1 };
    cmd.stdin(Stdio::null()).stdout(f).stderr(f2);
    cmd.status().ok().and_then(|s| s.code()).unwrap_or(-1)
}

/// Runs `cmd` with its output discarded; whether it exited with 0.
pub fn run_quiet(cmd: &mut Command) -> bool {
    cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
    cmd.status().map(|s| s.success()).unwrap_or(false)
}

/// Removes a file or a directory tree; missing is fine.
pub fn remove(p: &Path) {
    match fs::symlink_metadata(p) {
        Ok(m) if m.is_dir() => drop(fs::remove_dir_all(p)),
        Ok(_) => drop(fs::remove_file(p)),
        Err(_) => {}
    }
}

/// The entries of directory `dir` (paths), sorted; empty when unreadable.
pub fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> =
        fs::read_dir(dir).map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect()).unwrap_or_default();
    v.sort();
    v
}

/// The last component of `p` as text.
pub fn file_name(p: &Path) -> String {
    p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Writes `text` to `p`, creating the parent directory.
pub fn write(p: &Path, text: &str) -> io::Result<()> {
    if let Some(d) = p.parent() {
        fs::create_dir_all(d)?;
    }
    fs::write(p, text)
}

/// Whether `p` is a file with at least one byte (sh `test -s`).
pub fn nonempty(p: &Path) -> bool {
    fs::metadata(p).map(|m| m.len() > 0).unwrap_or(false)
}

/// The first line of file `p`, without its newline ("" when none).
pub fn first_line(p: &Path) -> String {
    read_lossy(p).lines().next().unwrap_or("").to_string()
}

/// Runs `work` on every item with at most `jobs` threads at once.
pub fn parallel<T: Send>(jobs: usize, items: Vec<T>, work: impl Fn(T) + Sync) {
    let queue = Mutex::new(items.into_iter().collect::<VecDeque<T>>());
    let next = || queue.lock().unwrap().pop_front();
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| {
                while let Some(item) = next() {
                    work(item);
                }
            });
        }
    });
}

/// JOBS, default the number of CPUs.
pub fn jobs() -> usize {
    std::env::var("JOBS")
        .ok()
        .and_then(|j| j.parse().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_counts_characters() {
        assert_eq!(cut("abc", 2), "ab");
        assert_eq!(cut("ab", 5), "ab");
        assert_eq!(cut("é€x", 2), "é€");
    }
}
