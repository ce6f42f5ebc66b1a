//! The verdict of each class of error as a compiler prints it: a fake
//! oxidec (a shell script) prints each class with its exit status, and
//! oxide-runner must classify its log as the table says.

use std::path::PathBuf;
use std::process::Command;

fn runner() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_oxide-runner"))
}

/// Runs a fake compiler that prints `stderr` and exits with `status`;
/// returns oxide-runner's verdict of its log.
fn verdict_of(stage: &str, stderr: &str, status: i32) -> String {
    let dir = std::env::temp_dir().join(format!("oxide-runner-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join(format!("log-{status}-{}", stderr.len()));
    let script = format!("printf '%s\\n' '{}' >&2; exit {status}", stderr.replace('\'', "'\\''"));
    let out = Command::new("sh").arg("-c").arg(&script).output().unwrap();
    assert_eq!(out.status.code(), Some(status));
    std::fs::write(&log, &out.stderr).unwrap();
    let v = Command::new(runner())
        .args(["verdict", "--status", &status.to_string(), stage])
        .arg(&log)
        .output()
        .unwrap();
    assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stderr));
    String::from_utf8(v.stdout).unwrap().trim().to_string()
}

#[test]
fn each_error_class() {
    let table = [
        ("oxidec", "oxidec: error[OX0001]: unknown option '-x'\ntry 'oxidec --help'", 2, "BUG"),
        ("oxidec", "k.mir.json: error[OX0002]: cannot read: No such file", 1, "BUG"),
        ("oxidec", "oxidec: error[OX0003]: cannot load libnvJitLink.so.13", 1, "BUG"),
        ("oxidec", "k.mir.json: $.functions[0]: error[OX0100]: must be an integer", 1, "BUG"),
        ("oxidec", "src/lib.rs:3:5: error[OX0200]: rvalue `thread_local_ref` is not supported", 1, "GAP"),
        ("oxidec --target=host", "src/lib.rs:3:5: error[OX0300]: heap allocation", 1, "GAP"),
        ("oxidec", "oxidec: error[OX0400]: LLVM: Cannot select", 1, "BUG"),
        ("oxidec", "oxidec: error[OX0900]: internal error at src/x.c:12: unreachable", 134, "BUG"),
        ("mir-export", "src/lib.rs:8:13: error[OX0300]: heap allocation is not supported on the GPU", 1, "GAP"),
        ("mir-export", "src/lib.rs:8:13: error[OX0200]: dynamic dispatch is not supported", 3, "GAP"),
        ("mir-export", "mir-export: error[OX1001]: cargo could not build the kernel crate:", 1, "BUG"),
        ("mir-export", "mir-export: error[OX1004]: cannot parse rustc's MIR", 1, "BUG"),
        ("mir-export", "thread 'main' panicked at src/x.rs:1:1:\nnot supported", 101, "BUG"),
        // the first error decides, not a later one
        ("oxidec", "a.rs:1:1: error[OX0100]: bad\nb.rs:2:2: error[OX0200]: not supported", 1, "BUG"),
        ("oxidec", "warning: w\na.rs:1:1: error[OX0200]: not supported\nb: error[OX0100]: x", 1, "GAP"),
    ];
    for (stage, stderr, status, want) in table {
        assert_eq!(verdict_of(stage, stderr, status), want, "{stage} printing {stderr:?}, exit {status}");
    }
}

#[test]
fn usage_errors_exit_2() {
    let out = Command::new(runner()).args(["verdict", "oxidec"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(runner()).arg("frobnicate").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}
