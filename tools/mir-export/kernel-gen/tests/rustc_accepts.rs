//! Every generated kernel must be a Rust program that rustc accepts: seeds
//! 0..200 are written as one crate (so one cargo build checks them all) and
//! built for the host with the kernel crates' profile. Also checks
//! determinism of the written crate and a few feature subsets.

use std::path::{Path, PathBuf};
use std::process::Command;

use kernel_gen::{krate, Config, Features};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kernel-gen-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// `cargo build --offline` (or `check`: type, borrow and MIR lint checks
/// without code generation) of the crate at `dir`; panics with rustc's
/// errors on failure. `rustc` overrides the compiler.
fn cargo(verb: &str, dir: &Path, target: &Path, rustc: Option<&str>) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args([verb, "--offline", "--quiet", "--target-dir"]).arg(target).current_dir(dir);
    // the crate must not inherit anything from the test's own build
    cmd.env_remove("RUSTFLAGS").env_remove("CARGO_TARGET_DIR").env_remove("CARGO_BUILD_TARGET");
    cmd.env("RUSTFLAGS", "-D warnings");
    match rustc {
        Some(r) => cmd.env("RUSTC", r),
        None => cmd.env_remove("RUSTC"),
    };
    let out = cmd.output().expect("cannot run cargo");
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let first: Vec<&str> = err.lines().take(60).collect();
        panic!("cargo {verb} of {} failed:\n{}", dir.display(), first.join("\n"));
    }
}

fn write(dir: &Path, seed: u64, count: u64, f: &Features) {
    krate::write(dir, &krate::default_device_dir(), seed, count, f, &Config::default()).expect("cannot write the crate");
}

#[test]
fn seeds_0_to_200_build() {
    let dir = tmp("all");
    write(&dir, 0, 200, &Features::default());
    cargo("check", &dir, &dir.join("target"), None);
    // the other supported toolchain, when installed (Debian's rustc 1.96)
    if let Some(other) = other_rustc() {
        let sub = tmp("other");
        write(&sub, 0, 40, &Features::default());
        cargo("check", &sub, &sub.join("target"), Some(&other));
        let _ = std::fs::remove_dir_all(&sub);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn feature_subsets_build() {
    let dir = tmp("subsets");
    let target = dir.join("target");
    // everything off but the basics, and the defaults without each of a few
    let mut minimal = Features::default();
    minimal.set("all", false).unwrap();
    let mut no_float = Features::default();
    no_float.set("float,int128,enums,helpers", false).unwrap();
    let mut extra = Features::default();
    extra.set("float-rem,generic-noinline", true).unwrap();
    for (k, f) in [minimal, no_float, extra].iter().enumerate() {
        let d = dir.join(format!("c{k}"));
        write(&d, 1000 + 100 * k as u64, 20, f);
        // one real build (code generation), checks for the others
        cargo(if k == 2 { "build" } else { "check" }, &d, &target, None);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn written_crate_is_deterministic() {
    let a = tmp("det-a");
    let b = tmp("det-b");
    write(&a, 7, 5, &Features::default());
    write(&b, 7, 5, &Features::default());
    for f in ["Cargo.toml", "Cargo.lock", "src/lib.rs"] {
        assert_eq!(std::fs::read(a.join(f)).unwrap(), std::fs::read(b.join(f)).unwrap(), "{f} differs");
    }
    let _ = std::fs::remove_dir_all(&a);
    let _ = std::fs::remove_dir_all(&b);
}

/// A supported rustc other than the default one, if installed.
fn other_rustc() -> Option<String> {
    let version = |r: &str| -> Option<String> {
        let o = Command::new(r).arg("-V").output().ok()?;
        o.status.success().then(|| String::from_utf8_lossy(&o.stdout).into_owned())
    };
    let default = version(&std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))?;
    let other = "/usr/bin/rustc";
    let v = version(other)?;
    (v != default && (v.starts_with("rustc 1.95") || v.starts_with("rustc 1.96"))).then(|| other.to_string())
}
