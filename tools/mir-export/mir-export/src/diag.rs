//! User-facing errors: `file:line:col: error: message` when the problem is
//! at a place in the user's Rust source, `mir-export: error: message`
//! otherwise (cproc style). Every error ends the run with exit code 1.

use std::fmt;

#[derive(Debug)]
pub struct Diag {
    /// `file:line:col` of the Rust construct, when known.
    pub loc: Option<String>,
    pub msg: String,
}

impl Diag {
    pub fn new(msg: impl Into<String>) -> Diag {
        Diag { loc: None, msg: msg.into() }
    }

    pub fn at(loc: impl Into<String>, msg: impl Into<String>) -> Diag {
        Diag { loc: Some(loc.into()), msg: msg.into() }
    }
}

impl fmt::Display for Diag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.loc {
            Some(loc) => write!(f, "{loc}: error: {}", self.msg),
            None => write!(f, "mir-export: error: {}", self.msg),
        }
    }
}

impl From<String> for Diag {
    fn from(msg: String) -> Diag {
        Diag::new(msg)
    }
}

pub type DResult<T> = Result<T, Diag>;
