//! A failing kernel's verdict: GAP when a compiler cleanly rejected a
//! construct it does not support (yet) or that the GPU cannot have, BUG
//! otherwise (a wrong result, a crash, invalid JSON between the two tools,
//! a back-end rejection, an internal error, ...).

use std::fmt;

/// An error code, `OXnnnn` as a number.
pub type Code = u32;

/// OX0200: a Rust construct oxidec (or mir-export) does not support yet.
pub const UNSUPPORTED: Code = 200;
/// OX0300: not possible on the GPU (heap allocation, std, formatting).
pub const GPU: Code = 300;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Bug,
    Gap,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::Bug => "BUG",
            Verdict::Gap => "GAP",
        })
    }
}

/// The code of the first `error[OXnnnn]` in `text` (a line or a log).
pub fn first_code(text: &str) -> Option<Code> {
    let mut rest = text;
    while let Some(i) = rest.find("error[OX") {
        let digits = &rest[i + 8..];
        let n = digits.bytes().take_while(u8::is_ascii_digit).count();
        if n == 4 && digits.as_bytes().get(4) == Some(&b']') {
            return digits[..4].parse().ok();
        }
        rest = &rest[i + 8..];
    }
    None
}

/// The first line of `text` that says "error" (any case), else its first
/// line: where the runners take a failure's message from.
pub fn first_error_line(text: &str) -> &str {
    text.lines().find(|l| l.to_ascii_lowercase().contains("error")).or_else(|| text.lines().next()).unwrap_or("")
}

/// Whether `stage` is one of the two compilers (the suite's stage names).
fn is_compiler(stage: &str) -> bool {
    matches!(stage, "mir-export" | "oxidec" | "oxidec --target=host")
}

/// The verdict of a failure at `stage` whose first error line is `line`;
/// `status` is the tool's exit status when known (a clean rejection
/// exits with 1; 3 is mir-export --keep-going's "kernels left out").
pub fn classify(stage: &str, line: &str, status: Option<i32>) -> Verdict {
    if !is_compiler(stage) || !matches!(status, None | Some(1) | Some(3)) {
        return Verdict::Bug;
    }
    match first_code(line) {
        Some(UNSUPPORTED | GPU) => Verdict::Gap,
        _ => Verdict::Bug,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_read_from_the_first_error() {
        assert_eq!(first_code("src/lib.rs:3:4: error[OX0200]: x is not supported"), Some(200));
        assert_eq!(first_code("oxidec: error[OX0900]: internal error at a.c:1: y"), Some(900));
        assert_eq!(first_code("error[OX12]: short, then error[OX0300]: z"), Some(300));
        assert_eq!(first_code("src/lib.rs:3:4: error: not supported"), None);
        assert_eq!(first_code("error[E0308]: mismatched types"), None);
        assert_eq!(first_error_line("note: a\nx: error[OX0200]: b\ny: error[OX0100]: c"), "x: error[OX0200]: b");
        assert_eq!(first_error_line("Aborted\n"), "Aborted");
    }

    /// The verdict table: every class of error at every stage.
    #[test]
    fn verdict_table() {
        let table: &[(&str, &str, Option<i32>, Verdict)] = &[
            ("oxidec", "l.rs:1:1: error[OX0200]: `x` is not supported", Some(1), Verdict::Gap),
            ("oxidec --target=host", "error[OX0300]: heap", Some(1), Verdict::Gap),
            ("mir-export", "l.rs:1:1: error[OX0300]: heap allocation", None, Verdict::Gap),
            ("mir-export", "l.rs:1:1: error[OX0200]: dyn", Some(3), Verdict::Gap),
            // the text does not matter, the code does
            ("oxidec", "x.json: $.a: error[OX0100]: y is not supported", Some(1), Verdict::Bug),
            ("oxidec", "oxidec: error[OX0400]: LLVM: not supported", Some(1), Verdict::Bug),
            ("oxidec", "oxidec: error[OX0900]: internal error at x.c:3", Some(134), Verdict::Bug),
            ("oxidec", "oxidec: error[OX0001]: unknown option", Some(2), Verdict::Bug),
            ("oxidec", "oxidec: error[OX0002]: cannot read", Some(1), Verdict::Bug),
            ("mir-export", "mir-export: error[OX1004]: cannot parse rustc's MIR", Some(1), Verdict::Bug),
            ("mir-export", "mir-export: error[OX1001]: cargo could not build", Some(1), Verdict::Bug),
            ("mir-export", "thread 'main' panicked at src/x.rs: not supported", Some(101), Verdict::Bug),
            // a clean code with a crash's exit status is a crash
            ("oxidec", "l.rs:1:1: error[OX0200]: `x` is not supported", Some(139), Verdict::Bug),
            // no code at all: a bug
            ("oxidec", "l.rs:1:1: error: `x` is not supported", Some(1), Verdict::Bug),
            // other stages are never gaps
            ("ptxas", "ptxas error[OX0200]", Some(255), Verdict::Bug),
            ("host emulation", "wrong result", None, Verdict::Bug),
            ("cc -shared", "error[OX0200]", Some(1), Verdict::Bug),
            ("gpu", "expected 1, got 2", None, Verdict::Bug),
        ];
        for (stage, line, status, want) in table {
            assert_eq!(classify(stage, line, *status), *want, "{stage}: {line} (status {status:?})");
        }
    }
}
