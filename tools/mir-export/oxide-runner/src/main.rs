//! oxide-runner verdict [--status N] STAGE FILE|-
//!
//! The verdict (BUG or GAP, src/verdict.rs) of a kernel that failed at
//! STAGE, from the code of the first error line of FILE (a compiler's log or a
//! runner's result file; - is standard input).

use std::io::Read;
use std::process::ExitCode;

use oxide_runner::verdict;

const HELP: &str = "\
oxide-runner - verdicts of the fuzz and conformance runners

Usage: oxide-runner verdict [--status N] STAGE FILE

Prints GAP when STAGE is a compiler (mir-export, oxidec, oxidec --target=host)
and the code of the first error line of FILE (the first line that says
\"error\", - for standard input: a compiler's log, a runner's result) is
error[OX0200] (not
supported yet) or OX0300 (not possible on the GPU), and the tool's exit
status N, when given, is that of a clean error (1, or 3 for mir-export
--keep-going); BUG otherwise. The codes: man oxidec, man mir-export
(DIAGNOSTICS). Exit status 0, or 2 on a usage error.
";

fn usage(msg: &str) -> ExitCode {
    eprintln!("oxide-runner: {msg}\nTry `oxide-runner --help`.");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter().map(String::as_str);
    match it.next() {
        Some("-h" | "--help") => {
            print!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Some("verdict") => {}
        Some(other) => return usage(&format!("unknown command `{other}`")),
        None => return usage("no command"),
    }
    let mut status = None;
    let mut rest = Vec::new();
    while let Some(a) = it.next() {
        match a {
            "--status" => match it.next().and_then(|n| n.parse().ok()) {
                Some(n) => status = Some(n),
                None => return usage("--status takes a number"),
            },
            _ => rest.push(a),
        }
    }
    let [stage, file] = rest[..] else { return usage("verdict takes STAGE and FILE") };
    let text = if file == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).map(|_| s)
    } else {
        std::fs::read(file).map(|b| String::from_utf8_lossy(&b).into_owned())
    };
    match text {
        Ok(t) => {
            println!("{}", verdict::classify(stage, verdict::first_error_line(&t), status));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("oxide-runner: {file}: {e}");
            ExitCode::from(1)
        }
    }
}
