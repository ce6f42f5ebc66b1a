//! kernel-gen --seed S --count K --out DIR [--device-dir PATH] [options]

use std::path::PathBuf;
use std::process::ExitCode;

use kernel_gen::{features, krate, Config, Features};

const HELP: &str = "\
kernel-gen - random well-defined Rust GPU kernels for differential testing of oxidec

Usage: kernel-gen --seed S [--count K] --out DIR [options]
       kernel-gen --list-features

Writes a kernel crate at DIR (Cargo.toml, Cargo.lock, src/lib.rs) holding the
kernels gen_S .. gen_{S+K-1}, each `#[kernel] pub fn gen_N(input: &[u64],
mut out: DisjointSlice<u64>)` (docs/conformance.md). Kernel gen_N depends only
on N (and the options below), not on S or K.

Options:
  --seed S            first kernel number (default 0)
  --count K           number of kernels (default 1)
  --out DIR           the crate directory (created; files are overwritten)
  --device-dir PATH   the oxide-device crate (default: the one in this source
                      tree); written into Cargo.toml relative to DIR, or as
                      it is when PATH is absolute
  --disable F,..      switch features off (see --list-features)
  --enable F,..       switch features on
  --trap-rate N       1 kernel in N may trap (default 50; 0: none)
  --print             write src/lib.rs to standard output as well
  --list-features     describe what can be generated and exit
  -h, --help          this help
";

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kernel-gen: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut seed = 0u64;
    let mut count = 1u64;
    let mut out: Option<PathBuf> = None;
    let mut device: Option<PathBuf> = None;
    let mut feats = Features::default();
    let mut cfg = Config::default();
    let mut print = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (a.as_str(), None),
        };
        let mut value = || inline.clone().or_else(|| it.next().cloned()).ok_or(format!("{name} needs a value"));
        let num = |s: String| s.parse::<u64>().map_err(|_| format!("{name}: not a number: {s}"));
        match name {
            "-h" | "--help" => {
                print!("{HELP}");
                return Ok(());
            }
            "--list-features" => {
                print!("{}", features::list());
                return Ok(());
            }
            "--seed" => seed = num(value()?)?,
            "--count" => count = num(value()?)?,
            "--out" | "-o" => out = Some(PathBuf::from(value()?)),
            "--device-dir" => device = Some(PathBuf::from(value()?)),
            "--disable" => feats.set(&value()?, false)?,
            "--enable" => feats.set(&value()?, true)?,
            "--trap-rate" => cfg.trap_rate = num(value()?)? as u32,
            "--print" => print = true,
            _ => return Err(format!("unknown argument `{a}` (try --help)")),
        }
    }
    let out = out.ok_or("missing --out DIR (try --help)")?;
    if count == 0 {
        return Err("--count must be at least 1".into());
    }
    let device = match device {
        Some(d) => d,
        None => krate::default_device_dir_relative().map_err(|e| e.to_string())?,
    };
    krate::write(&out, &device, seed, count, &feats, &cfg).map_err(|e| format!("{}: {e}", out.display()))?;
    if print {
        print!("{}", std::fs::read_to_string(out.join("src/lib.rs")).map_err(|e| e.to_string())?);
    }
    Ok(())
}
