//! Links oxrt, the C runtime every oxidec host program uses (libcuda
//! dlopen'ed at run time, the CPU emulator of `.so` modules): inside the
//! oxidec tree it is built here from `src/runtime/*.c` with the system C
//! compiler (`$CC`, default `cc`), as the Makefile's `liboxrt.a` (one
//! relocatable object, so the emulator comes with any `ox_*` call);
//! outside it (the crate as `make install` puts it in share/oxide/) the
//! installed `liboxrt.a` found by `pkg-config oxrt`. `OXRT_LIB_DIR`
//! names a directory holding a `liboxrt.a` to use instead.
use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

fn run(cmd: &mut Command) {
    let status = cmd.status().unwrap_or_else(|e| panic!("oxide-host: cannot run {cmd:?}: {e}"));
    if !status.success() {
        panic!("oxide-host: {cmd:?} failed ({status})");
    }
}

/// liboxrt.a from the tree's sources into out; the directory holding it.
fn build_in_tree(runtime: &Path, out: &Path) -> PathBuf {
    let cc = env::var("CC").unwrap_or_else(|_| "cc".into());
    let mut objs = Vec::new();
    let mut srcs: Vec<PathBuf> = std::fs::read_dir(runtime)
        .expect("oxide-host: src/runtime")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    srcs.sort();
    for src in &srcs {
        let obj = out.join(src.file_stem().unwrap()).with_extension("o");
        run(Command::new(&cc)
            .args(["-std=c11", "-O2", "-ffp-contract=off", "-fPIC", "-Wall", "-Wextra", "-c"])
            .arg(src)
            .arg("-o")
            .arg(&obj));
        objs.push(obj);
    }
    let all = out.join("oxrt-all.o");
    run(Command::new(&cc).args(["-r", "-nostdlib", "-o"]).arg(&all).args(&objs));
    let lib = out.join("liboxrt.a");
    let _ = std::fs::remove_file(&lib);
    run(Command::new(env::var("AR").unwrap_or_else(|_| "ar".into())).arg("rcs").arg(&lib).arg(&all));
    for entry in std::fs::read_dir(runtime).unwrap().flatten() {
        println!("cargo:rerun-if-changed={}", entry.path().display());
    }
    out.to_path_buf()
}

fn pkg_config_libdir() -> PathBuf {
    let out = Command::new("pkg-config")
        .args(["--variable=libdir", "oxrt"])
        .output()
        .unwrap_or_else(|e| panic!("oxide-host: not in the oxidec tree and cannot run pkg-config: {e}"));
    let dir = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if !out.status.success() || dir.is_empty() {
        panic!(
            "oxide-host: not in the oxidec tree, and pkg-config finds no oxrt ({}): install oxidec \
             (make install) and set PKG_CONFIG_PATH, or set OXRT_LIB_DIR",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    PathBuf::from(dir)
}

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let out = PathBuf::from(env::var("OUT_DIR").unwrap());
    let runtime = manifest.join("../../src/runtime");
    println!("cargo:rerun-if-env-changed=OXRT_LIB_DIR");
    println!("cargo:rerun-if-env-changed=CC");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    let dir = if let Some(d) = env::var_os("OXRT_LIB_DIR") {
        PathBuf::from(d)
    } else if runtime.join("oxrt.c").is_file() {
        build_in_tree(&runtime, &out)
    } else {
        pkg_config_libdir()
    };
    println!("cargo:rustc-link-search=native={}", dir.display());
    println!("cargo:rustc-link-lib=static=oxrt");
    println!("cargo:rustc-link-lib=dylib=dl");
    println!("cargo:rustc-link-lib=dylib=m");
}
