//! User-facing errors: `file:line:col: error[OXnnnn]: message` when the
//! problem is at a place in the user's Rust source, `mir-export:
//! error[OXnnnn]: message` otherwise (cproc style, with rustc's codes).
//! Every error ends the run with exit code 1 (2 for a usage error).
//!
//! The code names the class of the error, which tools (the fuzz runner,
//! scripts) may rely on; the message may change, the class may not. The
//! codes below 1000 are shared with oxidec (src/util.h, the same meaning);
//! OX1xxx are mir-export's own. One table, `Code`, each with its meaning
//! (also in man/mir-export.1, DIAGNOSTICS).

use std::fmt;

/// The stable error codes of mir-export.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    /// OX0001 command line: an unknown option, a missing or extra argument
    Usage = 1,
    /// OX0002 a file cannot be read or written
    Io = 2,
    /// OX0200 a Rust construct oxidec does not support (yet); the message names it and its Rust line
    Unsupported = 200,
    /// OX0300 not possible on the GPU (heap allocation, std, formatting, ...)
    Gpu = 300,
    /// OX1001 cargo or rustc could not build the kernel crate (the Rust error is in the message)
    RustcFailed = 1001,
    /// OX1002 rustc is missing or of a release mir-export does not read
    Toolchain = 1002,
    /// OX1003 the crate's layout: no Cargo.toml, no kernels, oxide-device not found
    Crate = 1003,
    /// OX1004 rustc's MIR text (or its layout output) that mir-export cannot parse
    MirParse = 1004,
    /// OX1005 MIR that mir-export cannot export (an undeclared local, a
    /// missing allocation, a layout rustc does not give, ...): a bug in mir-export
    Export = 1005,
    /// OX1006 a rustc release mir-export has not been tested with whose output differs from what mir-export reads (the format self-test failed; the message says what differed)
    Format = 1006,
}

/// Every code with its meaning (the man page's DIAGNOSTICS list; the test
/// below checks that man/mir-export.1 lists each).
#[cfg_attr(not(test), allow(dead_code))]
pub const CODES: &[(Code, &str)] = &[
    (
        Code::Usage,
        "command line: an unknown option, a missing or extra argument",
    ),
    (Code::Io, "a file cannot be read or written"),
    (
        Code::Unsupported,
        "a Rust construct oxidec does not support (yet); the message names it and its Rust line",
    ),
    (
        Code::Gpu,
        "not possible on the GPU (heap allocation, std, formatting, ...)",
    ),
    (
        Code::RustcFailed,
        "cargo or rustc could not build the kernel crate (the Rust error is in the message)",
    ),
    (
        Code::Toolchain,
        "rustc is missing or of a release mir-export does not read",
    ),
    (
        Code::Crate,
        "the crate's layout: no Cargo.toml, no kernels, oxide-device not found",
    ),
    (
        Code::MirParse,
        "rustc's MIR text (or its layout output) that mir-export cannot parse",
    ),
    (
        Code::Export,
        "MIR that mir-export cannot export consistently: a bug in mir-export",
    ),
    (
        Code::Format,
        "a rustc release mir-export has not been tested with whose output differs from what mir-export reads (the format self-test failed; the message says what differed)",
    ),
];

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OX{:04}", *self as u32)
    }
}

#[derive(Debug)]
pub struct Diag {
    /// `file:line:col` of the Rust construct, when known.
    pub loc: Option<String>,
    pub code: Code,
    pub msg: String,
}

impl Diag {
    pub fn new(code: Code, msg: impl Into<String>) -> Diag {
        Diag {
            loc: None,
            code,
            msg: msg.into(),
        }
    }

    pub fn at(loc: impl Into<String>, code: Code, msg: impl Into<String>) -> Diag {
        Diag {
            loc: Some(loc.into()),
            code,
            msg: msg.into(),
        }
    }
}

impl fmt::Display for Diag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.loc {
            Some(loc) => write!(f, "{loc}: error[{}]: {}", self.code, self.msg),
            None => write!(f, "mir-export: error[{}]: {}", self.code, self.msg),
        }
    }
}

pub type DResult<T> = Result<T, Diag>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_print_as_ox_and_four_digits() {
        assert_eq!(
            Diag::new(Code::Usage, "x").to_string(),
            "mir-export: error[OX0001]: x"
        );
        assert_eq!(
            Diag::at("src/lib.rs:3:4", Code::Gpu, "y").to_string(),
            "src/lib.rs:3:4: error[OX0300]: y"
        );
        assert_eq!(Code::RustcFailed.to_string(), "OX1001");
        assert_eq!(CODES.len(), 10);
    }

    #[test]
    fn the_man_page_lists_every_code() {
        let man = include_str!("../../../../man/mir-export.1");
        for (c, _) in CODES {
            assert!(man.contains(&format!("OX{:04}", *c as u32)), "man/mir-export.1 does not list {c}");
        }
    }
}
