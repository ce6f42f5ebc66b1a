//! Command line: `mir-export <CRATE_DIR | FILE.rs> -o OUT.mir.json [options]`.
//! man/mir-export.1 says the same as `HELP`.

use std::path::PathBuf;

pub const HELP: &str = "\
mir-export - export the MIR of Rust GPU kernels as oxide-mir JSON for oxidec

Usage: mir-export <CRATE_DIR | FILE.rs> -o <OUT.mir.json> [options]

Arguments:
  CRATE_DIR          a kernel crate: a directory with a Cargo.toml whose
                     library depends on oxide-device
  FILE.rs            a single kernel source file, built as a crate that
                     depends on oxide-device

Options:
  -o, --output FILE  where to write the JSON (required); written only when
                     the export succeeds
      --rustc PATH   the rustc to compile with (default: $RUSTC, else rustc
                     on PATH); measured: 1.95.x, 1.96.x, the 1.97.0
                     nightly of 2026-05-19; any later build must pass a
                     format self-test first (OX1006 when it does not)
      --keep-going   leave out a kernel that cannot be exported instead of
                     stopping: its error is printed, then `mir-export: note:
                     kernel `NAME` left out`, and the other kernels are
                     exported as if its #[kernel] were not there (exit 3)
      --keep-temps   keep the layout probe and, for FILE.rs, the generated
                     crate, and print where they are
  -v, --verbose      print the commands run and cargo's output
  -h, --help         print this help and exit
  -V, --version      print the version and exit

Environment:
  RUSTC              the rustc to use when --rustc is not given
  CARGO              the cargo to run (default: the toolchain's own when
                     the rustc is a rustup proxy, else cargo on PATH)
  OXIDE_DEVICE_DIR   the oxide-device crate for FILE.rs (default: found
                     next to the mir-export executable)

Exit status: 0 on success, 1 on an error (the message names the Rust
source line where there is one), 2 on a usage error, 3 when --keep-going
left out kernels (the JSON of the others is written). Errors are printed
as `error[OXnnnn]: message`, the code a stable class of error (the list:
man mir-export, DIAGNOSTICS).
";

#[derive(Debug, Default, PartialEq)]
pub struct Options {
    pub input: PathBuf,
    pub output: PathBuf,
    pub rustc: Option<PathBuf>,
    pub keep_temps: bool,
    pub keep_going: bool,
    pub verbose: bool,
}

/// What the command line asks for.
#[derive(Debug, PartialEq)]
pub enum Command {
    Export(Options),
    Help,
    Version,
}

/// Parses the arguments after the program name. `Err` is a usage error.
pub fn parse_args(args: &[String]) -> Result<Command, String> {
    let mut o = Options::default();
    let mut input = None;
    let mut output = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().cloned().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "-V" | "--version" => return Ok(Command::Version),
            "-o" | "--output" => output = Some(PathBuf::from(value(a)?)),
            "--rustc" => o.rustc = Some(PathBuf::from(value(a)?)),
            "--keep-temps" => o.keep_temps = true,
            "--keep-going" => o.keep_going = true,
            "-v" | "--verbose" => o.verbose = true,
            _ if a.starts_with("--output=") => output = Some(PathBuf::from(&a["--output=".len()..])),
            _ if a.starts_with("--rustc=") => o.rustc = Some(PathBuf::from(&a["--rustc=".len()..])),
            _ if a.starts_with('-') && a != "-" => return Err(format!("unknown option `{a}`")),
            _ if input.is_some() => return Err(format!("unexpected argument `{a}`: only one input is allowed")),
            _ => input = Some(PathBuf::from(a)),
        }
    }
    o.input = input.ok_or("missing the input (a kernel crate directory or a .rs file)")?;
    o.output = output.ok_or("missing `-o OUT.mir.json`")?;
    Ok(Command::Export(o))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_options() {
        let Command::Export(o) = parse_args(&args("k -o out.json --rustc /usr/bin/rustc -v --keep-temps --keep-going")).unwrap() else {
            panic!()
        };
        assert_eq!(o.input, PathBuf::from("k"));
        assert_eq!(o.output, PathBuf::from("out.json"));
        assert_eq!(o.rustc, Some(PathBuf::from("/usr/bin/rustc")));
        assert!(o.verbose && o.keep_temps && o.keep_going);
        assert_eq!(parse_args(&args("--help")), Ok(Command::Help));
        assert!(parse_args(&args("k")).unwrap_err().contains("-o"));
        assert!(parse_args(&args("k -o x --bogus")).unwrap_err().contains("--bogus"));
    }
}
