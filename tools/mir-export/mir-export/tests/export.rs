//! End-to-end tests: run the mir-export binary on the example kernel
//! crates and on small kernels that must be rejected.
//!
//! The JSON is checked with plain text searches: the crate has no JSON
//! dependency for tests, and the facts checked are short fragments.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..").canonicalize().unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mir-export-test-{}-{name}", std::process::id()));
    fs::create_dir_all(&d).unwrap();
    d
}

fn mir_export(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mir-export")).args(args).output().unwrap()
}

/// Exports `examples/<name>` and returns the JSON text (compacted: no
/// newlines or indentation, so fragments can be searched).
fn export_example(name: &str, extra: &[&str]) -> String {
    let out = scratch(name).join(format!("{name}.mir.json"));
    let dir = repo().join("examples").join(name);
    let mut args = vec![dir.to_str().unwrap(), "-o", out.to_str().unwrap()];
    args.extend(extra);
    let o = mir_export(&args);
    assert!(o.status.success(), "mir-export {name} failed:\n{}", String::from_utf8_lossy(&o.stderr));
    compact(&fs::read_to_string(out).unwrap())
}

fn compact(json: &str) -> String {
    json.lines().map(str::trim).collect::<Vec<_>>().join("")
}

fn assert_has(json: &str, fragment: &str) {
    assert!(json.contains(fragment), "missing `{fragment}` in:\n{}", &json[..json.len().min(3000)]);
}

/// Every call of a kernel must be a GPU primitive, an intrinsic, a panic or
/// an exported function.
fn assert_calls_resolved(json: &str) {
    let prefix = "\"callee\": {\"kind\": \"";
    for (i, _) in json.match_indices(prefix) {
        let kind = json[i + prefix.len()..].split('"').next().unwrap().to_string();
        assert!(["device", "intrinsic", "panic", "function"].contains(&kind.as_str()), "{kind}");
    }
}

#[test]
fn hello_constant() {
    let j = export_example("hello_constant", &[]);
    assert_has(&j, "\"format\": \"oxide-mir\",\"version\": 1");
    assert_has(&j, "\"name\": \"hello_constant\",\"symbol\": \"hello_constant\",\"kind\": \"kernel\"");
    assert_has(&j, "\"name\": \"&mut u32\",\"kind\": \"ref\"");
    assert_has(&j, "\"const\": {\"kind\": \"scalar\",\"bits\": \"0x0000002a\"}");
    assert_has(&j, "\"arg_count\": 1");
    assert_has(&j, "\"files\": [\"src/lib.rs\"]");
}

#[test]
fn vecadd() {
    let j = export_example("vecadd", &[]);
    assert_has(&j, "\"name\": \"vecadd\",\"symbol\": \"vecadd\",\"kind\": \"kernel\"");
    assert_has(&j, "\"name\": \"oxide_device::DisjointSlice<'_, f32>\",\"kind\": \"adt\",\"adt_kind\": \"struct\"");
    assert_has(&j, "\"size\": \"16\",\"align\": 8,\"abi\": \"scalar_pair\"");
    for prim in ["__oxide_ctaid_x", "__oxide_ntid_x", "__oxide_tid_x"] {
        assert_has(&j, &format!("\"callee\": {{\"kind\": \"device\",\"symbol\": \"{prim}\"}}"));
    }
    assert_has(&j, "\"msg\": {\"kind\": \"BoundsCheck\"}");
    assert_has(&j, "\"op\": \"Add\"");
    // The niche of Option<&mut f32> comes from rustc: None is the null pointer.
    assert_has(&j, "\"encoding\": {\"niche\": {\"untagged_variant\": 1,\"niche_variants\": [0, 0],\"niche_start\": \"0\"}}");
    assert_has(&j, "{\"name\": \"None\",\"discr\": \"0\",\"fields\": []}");
    assert!(!j.contains("StorageLive"));
    // Spans of code inlined from oxide-device point at the kernel's lines.
    assert_has(&j, "\"files\": [\"src/lib.rs\"]");
    assert_calls_resolved(&j);
}

#[test]
fn saxpy() {
    let j = export_example("saxpy", &[]);
    assert_has(&j, "\"name\": \"saxpy\",\"symbol\": \"saxpy\",\"kind\": \"kernel\"");
    assert_has(&j, "\"op\": \"Mul\"");
    assert_has(&j, "\"op\": \"Add\"");
    assert_has(&j, "\"name\": \"a\",\"span\": [0, 7, 14, 7, 15]");
    assert_calls_resolved(&j);
}

#[test]
fn row_sum_loop() {
    let j = export_example("row_sum", &[]);
    assert_has(&j, "\"name\": \"row_sum\",\"symbol\": \"row_sum\",\"kind\": \"kernel\"");
    // The range iterator is inlined away: an Option<usize> and no calls to core.
    assert_has(&j, "\"name\": \"core::option::Option<usize>\",\"kind\": \"adt\",\"adt_kind\": \"enum\"");
    assert_has(&j, "\"op\": \"AddUnchecked\"");
    assert_has(&j, "\"const\": {\"kind\": \"scalar\",\"bits\": \"0x00000000\"}");
    assert!(!j.contains("\"kind\": \"function\""));
    assert_calls_resolved(&j);
}

/// The Debian rustc 1.96, where installed, must export the same kernel
/// (different library paths and layout attribute name).
#[test]
fn vecadd_with_rustc_1_96() {
    let rustc = Path::new("/usr/bin/rustc");
    let Ok(v) = Command::new(rustc).arg("-V").output() else { return };
    if !String::from_utf8_lossy(&v.stdout).contains(" 1.96.") {
        eprintln!("skipped: /usr/bin/rustc is not 1.96");
        return;
    }
    // A copy, so that the 1.95 tests never share a target directory with it.
    let dir = scratch("vecadd96");
    let src = repo().join("examples/vecadd");
    fs::create_dir_all(dir.join("src")).unwrap();
    fs::copy(src.join("src/lib.rs"), dir.join("src/lib.rs")).unwrap();
    let manifest = fs::read_to_string(src.join("Cargo.toml")).unwrap();
    let device = repo().join("tools/mir-export/oxide-device");
    let manifest = manifest.replace("../../tools/mir-export/oxide-device", device.to_str().unwrap());
    fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    let out = dir.join("out.json");
    let o = mir_export(&[dir.to_str().unwrap(), "-o", out.to_str().unwrap(), "--rustc", "/usr/bin/rustc"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j = compact(&fs::read_to_string(&out).unwrap());
    assert_has(&j, "\"release\": \"1.96.0\"");
    assert_has(&j, "\"encoding\": {\"niche\"");
    assert_has(&j, "\"files\": [\"src/lib.rs\"]");
    assert_calls_resolved(&j);
}

/// Exports a one-file kernel that must fail; returns stderr.
fn export_failing(name: &str, src: &str) -> String {
    let dir = scratch(name);
    let file = dir.join(format!("{name}.rs"));
    fs::write(&file, src).unwrap();
    let out = dir.join("out.json");
    let o = mir_export(&[file.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "expected exit 1, stderr:\n{stderr}");
    assert!(!out.exists(), "no output file may be written on error");
    stderr
}

#[test]
fn dyn_kernel_parameter_is_rejected_at_its_line() {
    let err = export_failing(
        "dyn_call",
        "#![no_std]
use oxide_device::prelude::*;
pub trait Tr { fn f(&self) -> f32; }
#[kernel]
pub fn k(t: &dyn Tr, out: &mut f32) {
    *out = t.f();
}
",
    );
    // calls through vtables compile (conformance group dyn), but a
    // kernel's trait object would carry the host's vtable
    assert!(err.starts_with("dyn_call.rs:5:10: error[OX0300]: kernel parameter type `&dyn Tr` holds a trait object"), "{err}");
}

#[test]
fn non_inlined_generic_call_gets_an_instance() {
    let dir = scratch("generic_call");
    let file = dir.join("generic_call.rs");
    fs::write(
        &file,
        "#![no_std]
use oxide_device::prelude::*;
#[inline(never)]
fn twice<T: Copy + core::ops::Add<Output = T>>(x: T) -> T { x + x }
#[kernel]
pub fn k(out: &mut f32) {
    *out = twice(1.5f32);
}
",
    )
    .unwrap();
    let out = dir.join("out.json");
    let o = mir_export(&[file.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let json = compact(&fs::read_to_string(out).unwrap());
    // the instance, a real function (noinline), whose `x + x` is an Add
    assert_has(&json, "\"name\": \"twice::<f32>\"");
    assert_has(&json, "\"inline\": \"never\"");
    assert_has(&json, "\"op\": \"Add\"");
    assert_calls_resolved(&json);
}

/// The layout that the JSON gives the first type whose name is `name` or,
/// for a name ending in `@`, starts with it (its `"layout": {..}`).
fn layout_of(json: &str, name: &str) -> String {
    let key = match name.ends_with('@') {
        true => format!("{{\"name\": \"{name}"),
        false => format!("{{\"name\": \"{name}\","),
    };
    let at = json.find(&key).unwrap_or_else(|| panic!("no type `{name}`"));
    let l = at + json[at..].find("\"layout\": ").unwrap();
    json[l..l + json[l..].find('}').unwrap() + 1].to_string()
}

/// A struct declared inside a method of a generic impl (printed
/// `Holder<T>::run::Local`): no probe can name it; it gets the layout of a
/// struct of its field types, which is rustc's (`Flat`, the same fields at
/// the crate root, probed by name: a tuple of them would put `a` at 10);
/// so does a closure.
#[test]
fn struct_and_closure_layouts_are_rustcs() {
    let dir = scratch("local_struct");
    let file = dir.join("local_struct.rs");
    fs::write(
        &file,
        "#![no_std]
use oxide_device::prelude::*;
pub struct Flat { a: u8, b: u64, c: u16, out: *mut u64 }
pub struct Holder<T>(pub T);
impl<T: Copy + Into<u64>> Holder<T> {
    #[inline(always)]
    pub fn run(&self, out: &mut u64) {
        struct Local { a: u8, b: u64, c: u16, out: *mut u64 }
        impl Drop for Local {
            fn drop(&mut self) { unsafe { *self.out = self.a as u64 + self.b + self.c as u64; } }
        }
        let l = Local { a: 1, b: self.0.into(), c: 3, out: out as *mut u64 };
        drop(l);
    }
}
#[kernel]
pub fn k(x: u64, out: &mut u64, f: &mut Flat) {
    Holder(x).run(out);
    f.a = 1;
}
#[inline(never)]
fn call<F: FnOnce() -> u64>(f: F) -> u64 { f() }
#[kernel]
pub fn k2(x: u64, out: &mut u64) {
    let (a, b, c, p) = (x as u8, x, x as u16, out as *mut u64);
    *out = call(move || unsafe { *p = 1; a as u64 + b + c as u64 });
}
",
    )
    .unwrap();
    let out = dir.join("out.json");
    let o = mir_export(&[file.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let json = compact(&fs::read_to_string(out).unwrap());
    let flat = layout_of(&json, "Flat");
    assert!(flat.contains("\"fields\": [\"18\", \"0\", \"16\", \"8\"]"), "{flat}");
    assert_eq!(layout_of(&json, "Holder<T>::run::Local"), flat);
    // its Drop impl, declared in the method too, is the shim's callee
    assert_has(&json, "\"name\": \"<impl at ");
    // a closure is laid out by the same rule: captures p, a, b, c (in
    // the aggregate's order) at 0, 18, 8, 16, as rustc puts them (a tuple
    // would keep c last, at 18)
    let clo = layout_of(&json, "{closure@");
    assert!(clo.contains("\"fields\": [\"0\", \"18\", \"8\", \"16\"]"), "{clo}");
    assert_calls_resolved(&json);
}

#[test]
fn repr_struct_declared_in_a_generic_method_is_refused() {
    let err = export_failing(
        "local_repr",
        "#![no_std]
use oxide_device::prelude::*;
pub struct Holder<T>(pub T);
impl<T: Copy + Into<u64>> Holder<T> {
    #[inline(always)]
    pub fn run(&self, out: &mut u64) {
        #[repr(C)]
        struct Local { a: u8, b: u64, out: *mut u64 }
        impl Drop for Local {
            fn drop(&mut self) { unsafe { *self.out = self.a as u64 + self.b; } }
        }
        drop(Local { a: 1, b: self.0.into(), out: out as *mut u64 });
    }
}
#[kernel]
pub fn k(x: u64, out: &mut u64) {
    Holder(x).run(out);
}
",
    );
    assert!(err.contains("error[OX0200]: `Holder<T>::run::Local` is declared inside a generic function") && err.contains("`#[repr(..)]`"), "{err}");
}

#[test]
fn function_pointer_kernel_parameter_is_rejected() {
    let err = export_failing(
        "fn_ptr",
        "#![no_std]
use oxide_device::prelude::*;
#[kernel]
pub fn k(f: fn(u32) -> u32, out: &mut u32) {
    *out = f(1);
}
",
    );
    assert!(err.starts_with("fn_ptr.rs:4:10: error[OX0300]: kernel parameter type `fn(u32) -> u32` holds a function pointer"), "{err}");
}

/// --keep-going: a kernel that uses something mir-export rejects (here a
/// helper that two kernels share, and a parameter in a third) is left out
/// with its error; the others are written, with exit status 3.
#[test]
fn keep_going_leaves_out_the_kernels_in_error() {
    let dir = scratch("keep_going");
    let file = dir.join("keep_going.rs");
    fs::write(
        &file,
        "#![no_std]
use oxide_device::prelude::*;
pub trait Tr { fn f(&self) -> u32; }
impl Tr for u32 { fn f(&self) -> u32 { *self } }
fn dbl(x: u32) -> u32 { x * 2 }
#[inline(never)]
fn call(v: u32) -> u32 { let f: &dyn Fn(u32) -> u32 = &dbl; f(v) }
#[kernel]
pub fn bad_a(out: &mut u32) { *out = call(1); }
#[kernel]
pub fn good(out: &mut u32) { *out = 7; }
#[kernel]
pub fn bad_b(out: &mut u32) { *out = call(2) + 1; }
#[kernel]
pub fn bad_dyn(t: &dyn Tr, out: &mut u32) { *out = t.f(); }
",
    )
    .unwrap();
    let out = dir.join("out.json");
    let o = mir_export(&[file.to_str().unwrap(), "-o", out.to_str().unwrap(), "--keep-going"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    for k in ["bad_a", "bad_b", "bad_dyn"] {
        assert!(err.contains(&format!("mir-export: note: kernel `{k}` left out")), "{err}");
    }
    assert!(!err.contains("kernel `good` left out"), "{err}");
    // each note follows its kernel's error line
    let lines: Vec<&str> = err.lines().collect();
    for (i, _) in lines.iter().enumerate().filter(|(_, l)| l.contains("left out")) {
        assert!(i > 0 && lines[i - 1].contains(": error[OX"), "{err}");
    }
    let json = compact(&fs::read_to_string(&out).unwrap());
    assert_has(&json, "\"name\": \"good\"");
    for k in ["bad_a", "bad_b", "bad_dyn", "call"] {
        assert!(!json.contains(&format!("\"name\": \"{k}\"")), "{k} exported");
    }
    // without the option: exit 1, nothing written
    fs::remove_file(&out).unwrap();
    let o = mir_export(&[file.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!out.exists());
    // every kernel in error: exit 1, nothing written
    fs::write(&file, "#![no_std]\nuse oxide_device::prelude::*;\n#[kernel]\npub fn k(f: fn(u32) -> u32, out: &mut u32) { *out = f(1); }\n").unwrap();
    let o = mir_export(&[file.to_str().unwrap(), "-o", out.to_str().unwrap(), "--keep-going"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("kernel `k` left out") && err.contains("every kernel was left out"), "{err}");
    assert!(!out.exists());
}

#[test]
fn crate_without_kernels_is_an_error() {
    let err = export_failing("no_kernel", "#![no_std]\npub fn f() {}\n");
    assert!(err.contains("has no kernels"), "{err}");
}

#[test]
fn unsupported_rustc_is_refused() {
    let dir = scratch("old_rustc");
    let fake = dir.join("rustc");
    fs::write(&fake, "#!/bin/sh\necho 'rustc 1.80.0 (deadbeef 2024-07-21)'\necho 'release: 1.80.0'\n").unwrap();
    Command::new("chmod").arg("+x").arg(&fake).status().unwrap();
    let out = dir.join("out.json");
    let example = repo().join("examples/hello_constant");
    let o = mir_export(&[example.to_str().unwrap(), "-o", out.to_str().unwrap(), "--rustc", fake.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1));
    assert!(err.contains("rustc 1.80.0") && err.contains("needs rustc 1.95 or later"), "{err}");
    assert!(!out.exists());
}

/// A copy of an example in a scratch directory (its own target directory).
fn example_copy(name: &str, scratch_name: &str) -> PathBuf {
    let dir = scratch(scratch_name);
    let src = repo().join("examples").join(name);
    fs::create_dir_all(dir.join("src")).unwrap();
    fs::copy(src.join("src/lib.rs"), dir.join("src/lib.rs")).unwrap();
    let manifest = fs::read_to_string(src.join("Cargo.toml")).unwrap();
    let device = repo().join("tools/mir-export/oxide-device");
    let manifest = manifest.replace("../../tools/mir-export/oxide-device", device.to_str().unwrap());
    fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    dir
}

/// A fake rustc 1.99.0 (a release mir-export does not know): `real`, with
/// `sed_script` applied to what it writes on stderr.
fn fake_rustc_1_99(dir: &Path, real: &str, sed_script: &str) -> PathBuf {
    let fake = dir.join("rustc-1.99");
    let script = format!(
        "#!/bin/sh\ncase \"$*\" in *-vV*) {real} -vV | sed -e 's/^release: .*/release: 1.99.0/' -e 's/^rustc [^ ]*/rustc 1.99.0/'; exit;; esac\n\
         t=$(mktemp); {real} \"$@\" 2>\"$t\"; rc=$?; sed -e '{sed_script}' \"$t\" >&2; rm -f \"$t\"; exit $rc\n"
    );
    fs::write(&fake, script).unwrap();
    Command::new("chmod").arg("+x").arg(&fake).status().unwrap();
    fake
}

/// An unknown release whose layout dump changed: the self-test finds it,
/// OX1006 names the rustc and what differed, nothing is written.
#[test]
fn unknown_rustc_with_another_format_fails_its_self_test() {
    let dir = example_copy("hello_constant", "rustc199_bad");
    let fake = fake_rustc_1_99(&dir, "rustc", "s/layout_of(/layout(/g; s/Size(/Bytes(/g");
    let out = dir.join("out.json");
    let o = mir_export(&[dir.to_str().unwrap(), "-o", out.to_str().unwrap(), "--rustc", fake.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("error[OX1006]") && err.contains("rustc 1.99.0"), "{err}");
    assert!(err.contains("layout of `core::option::Option<&'static mut f32>`"), "{err}");
    assert!(!out.exists());
    assert!(!dir.join("target/mir-export").read_dir().unwrap().any(|e| e.unwrap().file_name().to_string_lossy().contains("selftest")));
}

/// An unknown release whose output reads as a known one (rustup's nightly
/// 1.97 underneath, where installed: 1.99 is read as the newest known
/// release): the self-test passes, the export goes on, and the pass is
/// cached.
#[test]
fn unknown_rustc_with_a_known_format_passes_its_self_test_once() {
    let nightly = Command::new("rustup").args(["which", "--toolchain", "nightly", "rustc"]).output();
    let Some(nightly) = nightly.ok().filter(|o| o.status.success()).map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string()) else {
        eprintln!("skipped: no nightly rustc");
        return;
    };
    let dir = example_copy("hello_constant", "rustc199_good");
    let fake = fake_rustc_1_99(&dir, &nightly, "");
    let out = dir.join("out.json");
    let o = mir_export(&[dir.to_str().unwrap(), "-o", out.to_str().unwrap(), "--rustc", fake.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_has(&compact(&fs::read_to_string(&out).unwrap()), "\"release\": \"1.99.0\"");
    let stamps: Vec<_> = dir.join("target/mir-export").read_dir().unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).filter(|n| n.starts_with("oxide-rustc-selftest-1.99.0-") && n.ends_with(".ok")).collect();
    assert_eq!(stamps.len(), 1, "{stamps:?}");
    // the second run does not test again
    let o = mir_export(&[dir.to_str().unwrap(), "-o", out.to_str().unwrap(), "--rustc", fake.to_str().unwrap(), "--verbose"]);
    assert!(o.status.success());
    assert!(!String::from_utf8_lossy(&o.stderr).contains("self-test:"));
}

#[test]
fn usage_errors_exit_2_and_help_matches_the_man_page() {
    assert_eq!(mir_export(&[]).status.code(), Some(2));
    let help = String::from_utf8(mir_export(&["--help"]).stdout).unwrap();
    assert!(help.contains("Usage: mir-export <CRATE_DIR | FILE.rs> -o <OUT.mir.json> [options]"));
    let man = fs::read_to_string(repo().join("man/mir-export.1")).unwrap();
    for opt in ["--rustc", "--keep-temps", "--keep-going", "--verbose", "OXIDE_DEVICE_DIR"] {
        assert!(help.contains(opt) && man.contains(&opt.replace('-', "\\-")), "{opt}");
    }
}
