//! Generic kernels with named instances (`#[kernel(instances(..))]`):
//! exported as one kernel per instance, and the errors around them.

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Output};

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mir-export-test-{}-{name}", std::process::id()));
    fs::create_dir_all(&d).unwrap();
    d
}

/// mir-export of one-file crate `src` named `name`: its output and the
/// JSON (compacted), when written.
fn export(name: &str, src: &str) -> (Output, Option<String>) {
    let dir = scratch(name);
    let file = dir.join(format!("{name}.rs"));
    fs::write(&file, src).unwrap();
    let out = dir.join("out.json");
    let o = Command::new(env!("CARGO_BIN_EXE_mir-export"))
        .args([file.to_str().unwrap(), "-o", out.to_str().unwrap()])
        .output()
        .unwrap();
    let json = fs::read_to_string(&out).ok().map(|j| j.lines().map(str::trim).collect::<Vec<_>>().join(""));
    (o, json)
}

/// Exports `src`, which must fail (exit 1, no output file): stderr.
fn export_failing(name: &str, src: &str) -> String {
    let (o, json) = export(name, src);
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "expected exit 1, stderr:\n{stderr}");
    assert!(json.is_none(), "no output file may be written on error");
    stderr
}

const PRELUDE: &str = "#![no_std]
use oxide_device::prelude::*;
pub mod a { #[derive(Clone, Copy)] pub struct Pair(pub u32); }
pub mod b { #[derive(Clone, Copy)] pub struct Pair(pub u32); }
";

#[test]
fn instances_are_kernels_with_the_attributes() {
    let src = format!(
        "{PRELUDE}
#[kernel(instances(f32, a::Pair), launch_bounds(256))]
pub fn copy<T: Copy>(x: T, out: &mut T) {{ *out = x; }}
#[kernel(instances((f32, u64)), reqntid(32))]
pub fn two<X: Copy, Y: Copy>(x: X, y: Y, o1: &mut X, o2: &mut Y) {{ *o1 = x; *o2 = y; }}
"
    );
    let (o, json) = export("instances", &src);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let json = json.unwrap();
    for (k, attrs) in [
        ("copy_f32", "{\"maxntid\": \"256\"}"),
        ("copy_Pair", "{\"maxntid\": \"256\"}"),
        ("two_f32_u64", "{\"reqntid\": \"32\"}"),
    ] {
        let want = format!(
            "\"name\": \"{k}\",\"symbol\": \"{k}\",\"kind\": \"kernel\",\"kernel\": {{\"name\": \"{k}\",\"attrs\": {attrs}}}"
        );
        assert!(json.contains(&want), "missing `{want}`");
    }
    // the generic functions themselves are no kernels (nor functions:
    // their bodies are inlined into each instance)
    assert!(!json.contains("\"name\": \"copy\""));
    assert!(!json.contains("\"name\": \"two\""));
}

#[test]
fn generic_kernel_without_instances_is_an_error_at_the_attribute() {
    let err = export_failing("no_instances", &format!("{PRELUDE}#[kernel]\npub fn scale<T: Copy>(x: T, out: &mut T) {{ *out = x; }}\n"));
    assert!(err.contains("error: generic kernel `scale` needs `instances(..)`"), "{err}");
    assert!(err.contains("no_instances.rs:5:1"), "{err}");
}

#[test]
fn two_instances_of_one_name_are_an_error() {
    let err = export_failing(
        "same_name",
        &format!("{PRELUDE}#[kernel(instances(a::Pair, b::Pair))]\npub fn k<T: Copy>(x: T, out: &mut T) {{ *out = x; }}\n"),
    );
    assert!(err.contains("instances `a::Pair` and `b::Pair` of kernel `k` both make the kernel `k_Pair`"), "{err}");
    assert!(err.contains("same_name.rs:5:29"), "{err}");
}

#[test]
fn an_instance_named_like_another_kernel_is_an_error() {
    // in one module: rustc's E0428; in another: the symbol clash
    let err = export_failing(
        "clash_module",
        &format!(
            "{PRELUDE}#[kernel(instances(f32))]\npub fn k<T: Copy>(x: T, out: &mut T) {{ *out = x; }}\n\
             #[kernel]\npub fn k_f32(x: f32, out: &mut f32) {{ *out = x; }}\n"
        ),
    );
    assert!(err.contains("the name `k_f32` is defined multiple times"), "{err}");
    let err = export_failing(
        "clash_crate",
        &format!(
            "{PRELUDE}#[kernel(instances(f32))]\npub fn k<T: Copy>(x: T, out: &mut T) {{ *out = x; }}\n\
             pub mod m {{ use oxide_device::prelude::*;\n#[kernel]\npub fn k_f32(x: f32, out: &mut f32) {{ *out = x; }} }}\n"
        ),
    );
    assert!(err.contains("symbol `k_f32` is already defined"), "{err}");
}

#[test]
fn unsupported_generics_are_errors() {
    let err = export_failing(
        "const_generic",
        &format!("{PRELUDE}#[kernel(instances(f32))]\npub fn k<T: Copy, const N: usize>(x: T, out: &mut T) {{ *out = x; }}\n"),
    );
    assert!(err.contains("const generic parameters are not supported"), "{err}");
    let err = export_failing(
        "not_generic",
        &format!("{PRELUDE}#[kernel(instances(f32))]\npub fn k(x: f32, out: &mut f32) {{ *out = x; }}\n"),
    );
    assert!(err.contains("kernel `k` is not generic"), "{err}");
    let err = export_failing(
        "tuple_instance",
        &format!("{PRELUDE}#[kernel(instances((f32, u32)))]\npub fn k<T: Copy>(x: T, out: &mut T) {{ *out = x; }}\n"),
    );
    assert!(err.contains("kernel `k` has one type parameter (`T`)"), "{err}");
    let err = export_failing(
        "array_instance",
        &format!("{PRELUDE}#[kernel(instances([f32; 2]))]\npub fn k<T: Copy>(x: T, out: &mut T) {{ *out = x; }}\n"),
    );
    assert!(err.contains("an instance type must be a type path"), "{err}");
    // bounds are rustc's to check, at the instance
    let err = export_failing(
        "bound",
        &format!("{PRELUDE}pub trait F: Copy {{}}\nimpl F for f32 {{}}\n#[kernel(instances(f32, u32))]\npub fn k<T: F>(x: T, out: &mut T) {{ *out = x; }}\n"),
    );
    assert!(err.contains("the trait bound `u32: F` is not satisfied"), "{err}");
    assert!(err.contains("bound.rs:7:25"), "{err}");
}
