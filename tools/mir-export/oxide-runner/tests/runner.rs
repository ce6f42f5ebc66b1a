//! The runner's own failures: the exporter's bisection must isolate the
//! one kernel a (stand-in) mir-export rejects by an error in a helper,
//! and the fuzz run must report a kernel that a (stand-in, miscompiling)
//! oxidec makes disagree with its CPU reference as a BUG.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn runner() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_oxide-runner"))
}

/// The repository root (the runner runs from there).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..").canonicalize().unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("oxide-runner-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}

fn write_exec(p: &Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    fs::write(p, text).unwrap();
    fs::set_permissions(p, fs::Permissions::from_mode(0o755)).unwrap();
}

/// A stand-in mir-export without --keep-going. Like cargo, it "builds"
/// the crate's MIR once (target/mir-export/x/deps/k.mir, one marker and
/// one fn per `#[kernel] pub fn`) and reads that file again while it is
/// there; an export that holds kernel `bad` fails at a helper's line (not
/// inside any kernel). Every run is counted in $CONF_WORK/runs.
const FAKE_MIR_EXPORT: &str = r#"#!/bin/sh
case $1 in --help) echo "usage: mir-export CRATE -o OUT [-v]"; exit 0 ;; esac
w=$1 out=$3
echo run >>"$w/../../runs"
mir=$w/target/mir-export/x/deps/k.mir
if [ ! -f "$mir" ]; then
	mkdir -p "${mir%/*}"
	awk '/^#\[kernel\]$/ { k = 1; next } k && /^pub fn / { n = $3; sub(/\(.*/, "", n)
		printf "const __OXIDE_KERNEL_%s: &str = \"%s\";\nfn %s() -> () {\n}\n", n, n, n; k = 0 }' "$w/src/lib.rs" >"$mir"
fi
ks=$(sed -n 's/^const __OXIDE_KERNEL_\([A-Za-z0-9_]*\):.*/\1/p' "$mir")
for k in $ks; do
	[ "$k" = bad ] && { echo "src/lib.rs:2:5: error[OX0200]: \`helper\` is not supported" >&2; exit 1; }
done
[ -n "$ks" ] || { echo "mir-export: error[OX1003]: no kernels" >&2; exit 1; }
printf '{"kernels": "%s"}\n' "$(echo $ks)" >"$out"
"#;

#[test]
fn bisection_isolates_the_rejected_kernel() {
    let d = scratch("bisect");
    let names = ["k0", "k1", "k2", "k3", "bad", "k5", "k6", "k7"];
    let crate_dir = d.join("kernels/g");
    fs::create_dir_all(crate_dir.join("src")).unwrap();
    fs::write(crate_dir.join("Cargo.toml"), "[package]\nname = \"g\"\n").unwrap();
    fs::write(d.join("kernels/common.rs"), "").unwrap();
    let mut lib = String::from("fn helper() {\n    x();\n}\n");
    for k in names {
        lib.push_str(&format!("#[kernel]\npub fn {k}() {{\n    helper();\n}}\n"));
    }
    fs::write(crate_dir.join("src/lib.rs"), &lib).unwrap();
    let w = d.join("work");
    fs::create_dir_all(&w).unwrap();
    fs::write(w.join("kernels.list"), names.iter().map(|k| format!("g {k}\n")).collect::<String>()).unwrap();
    write_exec(&d.join("mir-export"), FAKE_MIR_EXPORT);

    let st = Command::new(runner())
        .current_dir(&d)
        .args(["export-group", "--kernels", "kernels", "g"])
        .env("MIR_EXPORT", d.join("mir-export"))
        .env("CONF_WORK", "work")
        .env("CONF_BUILD", "build")
        .status()
        .unwrap();
    assert!(st.success());
    let errs = fs::read_to_string(w.join("g.export-errors")).unwrap();
    assert_eq!(errs, "bad\tsrc/lib.rs:2:5: error[OX0200]: `helper` is not supported\n");
    let json = fs::read_to_string(w.join("g.mir.json")).unwrap();
    assert_eq!(json.trim(), r#"{"kernels": "k0 k1 k2 k3 k5 k6 k7"}"#);
    // the copy of the crate: `bad` left out, the others kernels still
    let copy = fs::read_to_string(w.join("export/g/src/lib.rs")).unwrap();
    assert!(copy.contains("// #[kernel] (left out)\npub fn bad()"), "{copy}");
    assert_eq!(copy.matches("\n#[kernel]\n").count(), 7);
    // by bisection in the MIR (no rebuild): fewer exports than one a kernel
    let runs = fs::read_to_string(w.join("runs")).unwrap().lines().count();
    assert!(runs < names.len(), "{runs} exports");
    let _ = fs::remove_dir_all(&d);
}

/// The built compilers: $OXIDEC and $MIR_EXPORT (tests/run.sh exports
/// them), else build/ of this tree; None when they are not built.
fn compilers() -> Option<(PathBuf, PathBuf)> {
    let pick = |var: &str, name: &str| {
        let p = std::env::var_os(var).map(PathBuf::from).unwrap_or_else(|| root().join("build/bin").join(name));
        p.is_file().then_some(p)
    };
    Some((pick("OXIDEC", "oxidec")?, pick("MIR_EXPORT", "mir-export")?))
}

/// `oxide-runner fuzz --crate tests/mismatch` with `oxidec`; its exit
/// status and output.
fn fuzz_mismatch(fuzz_dir: &Path, oxidec: &Path, mir_export: &Path) -> (i32, String) {
    let out = Command::new(runner())
        .current_dir(root())
        .args(["fuzz", "--crate"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mismatch"))
        .env("FUZZ_DIR", fuzz_dir)
        .env("OXIDEC", oxidec)
        .env("MIR_EXPORT", mir_export)
        .env("JOBS", "2")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn a_wrong_result_is_a_bug() {
    let Some((oxidec, mir_export)) = compilers() else {
        eprintln!("skipped: oxidec and mir-export are not built (make)");
        return;
    };
    let d = scratch("mismatch");
    // an oxidec that compiles the kernel's constant 0x5eedf00d as 0x5eedf00e
    let bad = d.join("oxidec");
    write_exec(
        &bad,
        &format!(
            "#!/bin/sh\nfor a; do\n\tcase $a in *.json) sed 's/0x000000005eedf00d/0x000000005eedf00e/' \"$a\" >\"$a.bad\"; a=$a.bad ;; esac\n\
             \tset -- \"$@\" \"$a\"; shift\ndone\nexec '{}' \"$@\"\n",
            oxidec.display()
        ),
    );
    let f = d.join("fuzz");
    let (st, out) = fuzz_mismatch(&f, &oxidec, &mir_export);
    assert_eq!(st, 0, "the real oxidec:\n{out}");
    assert!(out.contains("PASS mismatch_k\n") && out.contains("fuzz: 1 passed, 0 failed"), "{out}");
    let (st, out) = fuzz_mismatch(&f, &bad, &mir_export);
    assert_eq!(st, 1, "{out}");
    assert!(out.contains("FAIL mismatch_k: "), "{out}");
    assert!(out.contains("BUG  host emulation: wrong result"), "{out}");
    assert!(out.contains("fuzz: 0 passed, 1 failed"), "{out}");
    let tsv = fs::read_to_string(f.join("failures.tsv")).unwrap();
    assert_eq!(tsv, "mismatch_k\tBUG\thost emulation\twrong result\n");
    // the group crate of a failure is kept
    assert!(f.join("kernels/mismatch/src/lib.rs").is_file());
    let _ = fs::remove_dir_all(&d);
}
