//! Source spans: the file table and the walk from an inlined statement out
//! to the user's own code.
//!
//! A statement inlined from `core` or oxide-device carries a span in that
//! library. Its scope, though, sits inside `scope N (inlined f) { // at
//! CALLSITE }` scopes; the callsite of the innermost such scope that lies in
//! the kernel crate is where the user wrote the code.

use std::collections::HashMap;
use std::path::{Path as FsPath, PathBuf};

use crate::json::Json;
use crate::mirparse::ast::{Body, SrcSpan};

pub struct SpanTable {
    /// Directory of the kernel crate: relative paths and absolute paths
    /// below it are the user's files.
    crate_dir: PathBuf,
    pub files: Vec<String>,
    index: HashMap<String, usize>,
}

impl SpanTable {
    pub fn new(crate_dir: &FsPath) -> Self {
        SpanTable { crate_dir: crate_dir.to_path_buf(), files: Vec::new(), index: HashMap::new() }
    }

    /// The file's path relative to the crate directory, if it is inside.
    pub fn user_path(&self, file: &str) -> Option<String> {
        let p = FsPath::new(file);
        if p.is_relative() {
            return Some(file.to_string());
        }
        p.strip_prefix(&self.crate_dir).ok().map(|r| r.to_string_lossy().into_owned())
    }

    /// The innermost span in the user's files for a line in `scope` whose
    /// own span is `span`; the span itself when no user span encloses it.
    pub fn resolve(&self, body: &Body, scope: u32, span: Option<&SrcSpan>) -> Option<SrcSpan> {
        let span = span?;
        if self.user_path(&span.file).is_some() {
            return Some(self.normalize(span));
        }
        let mut cur = Some(scope);
        while let Some(s) = cur {
            let sc = body.scopes.get(s as usize)?;
            if let Some((_, Some(call))) = &sc.inlined {
                if self.user_path(&call.file).is_some() {
                    return Some(self.normalize(call));
                }
            }
            cur = sc.parent;
        }
        Some(span.clone())
    }

    fn normalize(&self, s: &SrcSpan) -> SrcSpan {
        SrcSpan { file: self.user_path(&s.file).unwrap_or_else(|| s.file.clone()), ..s.clone() }
    }

    /// `[file, line, col, end_line, end_col]` or null.
    pub fn intern(&mut self, span: Option<&SrcSpan>) -> Json {
        let Some(s) = span else { return Json::Null };
        let file = match self.index.get(&s.file) {
            Some(&i) => i,
            None => {
                self.files.push(s.file.clone());
                self.index.insert(s.file.clone(), self.files.len() - 1);
                self.files.len() - 1
            }
        };
        Json::Arr([file as u32, s.line, s.col, s.end_line, s.end_col].into_iter().map(Json::from).collect())
    }

    /// Reads the source text a span covers (for `<impl at ...>` headers).
    pub fn source_text(&self, s: &SrcSpan) -> Option<String> {
        source_text_at(&self.crate_dir.join(&s.file), s)
    }
}

/// The text of span `s` in file `path`, its lines joined by spaces.
pub fn source_text_at(path: &FsPath, s: &SrcSpan) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    for l in s.line..=s.end_line {
        let line = lines.get((l as usize).checked_sub(1)?)?;
        let start = if l == s.line { (s.col as usize).checked_sub(1)? } else { 0 };
        let end = if l == s.end_line { (s.end_col as usize).saturating_sub(1).min(line.len()) } else { line.len() };
        out.push_str(line.get(start..end)?);
        out.push(' ');
    }
    Some(out.trim().to_string())
}
