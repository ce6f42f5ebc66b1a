//! Tokens of one line of rustc's MIR text (`--emit=mir`).
//!
//! Every MIR construct that mir-export reads fits on one line, so the lexer
//! works a line at a time and also splits off the trailing `// ...` comment
//! (which carries the scope and span of the line). Three bracketed forms that
//! contain spaces and punctuation are kept whole, because their insides are
//! names, not syntax:
//!
//! - `{closure@src/lib.rs:13:17: 13:25}` (also `{coroutine@…}` and the like)
//! - `<impl at src/lib.rs:4:1: 4:7>`
//! - `{constant#0}`, `{closure#0}`, `{shim:...}` path segments

use std::fmt;

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// Identifier or keyword (`fn`, `copy`, `bb3`, `u32`, `r#type`, ...).
    Ident(String),
    /// A MIR local, `_12`.
    Local(u32),
    /// A number exactly as printed, suffix included: `3_u32`, `0x1f`,
    /// `2.14748365E+9f32`, `1`. Signs are separate `Punct` tokens.
    Num(String),
    /// A string literal, unescaped. `byte` for `b"..."`.
    Str { text: Vec<u8>, byte: bool },
    Char(char),
    /// `{closure@...}` and friends, kept verbatim.
    Closure(String),
    /// `<impl at ...>`, kept verbatim.
    ImplAt(String),
    /// `{constant#0}`-like path segments, kept verbatim.
    Segment(String),
    /// Punctuation; multi-character ones are `::`, `->`, `..`, `=>`.
    Punct(&'static str),
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Ident(s) | Tok::Num(s) | Tok::Closure(s) | Tok::ImplAt(s) | Tok::Segment(s) => {
                f.write_str(s)
            }
            Tok::Local(n) => write!(f, "_{n}"),
            Tok::Str { text, .. } => write!(f, "{:?}", String::from_utf8_lossy(text)),
            Tok::Char(c) => write!(f, "{c:?}"),
            Tok::Punct(p) => f.write_str(p),
        }
    }
}

/// A lexed line: its tokens with their byte ranges in `src`, and the text
/// of its trailing comment (without the `//`), if any.
#[derive(Debug)]
pub struct Line {
    pub src: String,
    pub toks: Vec<Tok>,
    pub spans: Vec<(usize, usize)>,
    pub comment: Option<String>,
}

const PUNCT2: [&str; 4] = ["::", "->", "..", "=>"];
const PUNCT1: &str = "()[]{}<>,:;=&*!#@.+-|?/'^%~";

pub fn lex_line(line: &str) -> Result<Line, String> {
    if let Some(opaque) = asm_line(line) {
        let mut l = Lexer { s: &opaque, pos: 0 }.run()?;
        l.src = line.to_string();
        return Ok(l);
    }
    Lexer { s: line, pos: 0 }.run()
}

/// An `asm!(..)` terminator with its operands dropped: rustc prints the
/// template's text unescaped (`asm!("mov {0}, 1 // "x"", ..)`), which no
/// lexer can split, so the line is cut at its end instead: the ` -> ` of
/// its targets (or the `;`) before the trailing `// scope` comment. The
/// exporter refuses the terminator (`asm!()` with no operands).
fn asm_line(line: &str) -> Option<String> {
    let body = line.trim_start();
    let rest = body.strip_prefix("asm!(")?;
    let indent = &line[..line.len() - body.len()];
    let (code, comment) = match rest.rfind("; // ") {
        Some(k) => (&rest[..k], &rest[k + 2..]),
        None => (rest.strip_suffix(';').unwrap_or(rest), ""),
    };
    let targets = code.rfind(") -> ").map_or("", |k| &code[k + 1..]);
    Some(format!("{indent}asm!(){targets}; {comment}"))
}

struct Lexer<'a> {
    s: &'a str,
    pos: usize,
}

impl Lexer<'_> {
    fn rest(&self) -> &str {
        &self.s[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn run(mut self) -> Result<Line, String> {
        let mut line = Line { src: self.s.to_string(), toks: Vec::new(), spans: Vec::new(), comment: None };
        loop {
            let skipped = self.rest().len() - self.rest().trim_start().len();
            self.pos += skipped;
            if self.rest().is_empty() {
                return Ok(line);
            }
            if let Some(c) = self.rest().strip_prefix("//") {
                line.comment = Some(c.trim().to_string());
                return Ok(line);
            }
            let start = self.pos;
            line.toks.push(self.token()?);
            line.spans.push((start, self.pos));
        }
    }

    fn token(&mut self) -> Result<Tok, String> {
        let c = self.peek().unwrap();
        if let Some(t) = self.bracketed_name() {
            return Ok(t);
        }
        if c == '"' || self.rest().starts_with("b\"") {
            return self.string();
        }
        if c == '\'' {
            if let Some(t) = self.char_lit()? {
                return Ok(t);
            }
        }
        if c.is_ascii_digit() {
            return Ok(Tok::Num(self.number()));
        }
        if c == '_' || c.is_alphabetic() {
            return Ok(self.word());
        }
        for p in PUNCT2 {
            if self.rest().starts_with(p) {
                self.pos += 2;
                return Ok(Tok::Punct(p));
            }
        }
        if let Some(i) = PUNCT1.find(c) {
            self.pos += 1;
            return Ok(Tok::Punct(&PUNCT1[i..i + 1]));
        }
        Err(format!("unexpected character {c:?} in MIR text"))
    }

    /// `{closure@…}`, `<impl at …>` and `{name#N}` / `{shim:…}` segments.
    fn bracketed_name(&mut self) -> Option<Tok> {
        let rest = self.rest();
        let (open, close) = if rest.starts_with("<impl at ") {
            ('<', '>')
        } else if rest.starts_with('{') && is_segment_start(&rest[1..]) {
            ('{', '}')
        } else {
            return None;
        };
        let len = matching_close(rest, open, close)?;
        let text = rest[..len].to_string();
        self.pos += len;
        Some(if open == '<' {
            Tok::ImplAt(text)
        } else if text.contains('@') {
            Tok::Closure(text)
        } else {
            Tok::Segment(text)
        })
    }

    fn string(&mut self) -> Result<Tok, String> {
        let byte = self.rest().starts_with('b');
        self.pos += if byte { 2 } else { 1 };
        let mut text = Vec::new();
        loop {
            let c = self.peek().ok_or("unterminated string literal")?;
            self.pos += c.len_utf8();
            match c {
                '"' => return Ok(Tok::Str { text, byte }),
                '\\' => self.escape(&mut text)?,
                _ => {
                    let mut buf = [0u8; 4];
                    text.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
            }
        }
    }

    /// One escape after a backslash, as Rust's `Debug` for str/bytes prints it.
    fn escape(&mut self, out: &mut Vec<u8>) -> Result<(), String> {
        let c = self.peek().ok_or("unterminated escape")?;
        self.pos += 1;
        let simple = match c {
            'n' => Some(b'\n'),
            't' => Some(b'\t'),
            'r' => Some(b'\r'),
            '0' => Some(0),
            '\\' | '"' | '\'' => Some(c as u8),
            _ => None,
        };
        if let Some(b) = simple {
            out.push(b);
            return Ok(());
        }
        match c {
            'x' => {
                let hex = self.rest().get(..2).ok_or("bad \\x escape")?;
                out.push(u8::from_str_radix(hex, 16).map_err(|e| e.to_string())?);
                self.pos += 2;
            }
            'u' => {
                let end = self.rest().find('}').ok_or("bad \\u escape")?;
                let hex = &self.rest()[1..end];
                let ch = u32::from_str_radix(hex, 16)
                    .ok()
                    .and_then(char::from_u32)
                    .ok_or("bad \\u escape")?;
                self.pos += end + 1;
                let mut buf = [0u8; 4];
                out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
            }
            _ => return Err(format!("unknown escape \\{c}")),
        }
        Ok(())
    }

    /// A char literal, or `None` for a lifetime such as `'_` or `'a`.
    fn char_lit(&mut self) -> Result<Option<Tok>, String> {
        let rest = &self.rest()[1..];
        let mut chars = rest.chars();
        let first = chars.next().ok_or("stray quote")?;
        if first != '\\' {
            if chars.next() != Some('\'') {
                return Ok(None);
            }
            self.pos += 2 + first.len_utf8();
            return Ok(Some(Tok::Char(first)));
        }
        self.pos += 2;
        let mut bytes = Vec::new();
        self.escape(&mut bytes)?;
        if self.peek() != Some('\'') {
            return Err("unterminated char literal".into());
        }
        self.pos += 1;
        let s = String::from_utf8(bytes).map_err(|e| e.to_string())?;
        Ok(Some(Tok::Char(s.chars().next().ok_or("empty char literal")?)))
    }

    /// Digits, an optional fraction and exponent, and a suffix: `1.5e-7f32`.
    /// A `.` is part of the number only when a digit follows, so that the
    /// field projection `_3.1` and the range `0..` lex as expected.
    fn number(&mut self) -> String {
        let bytes = self.rest().as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            let next_is_digit = bytes.get(i + 1).is_some_and(u8::is_ascii_digit);
            let exp_sign = (b == b'+' || b == b'-') && i > 0 && matches!(bytes[i - 1], b'e' | b'E');
            let ok = b.is_ascii_alphanumeric() || b == b'_' || (b == b'.' && next_is_digit) || exp_sign;
            if !ok || (b == b'.' && bytes[..i].contains(&b'.')) {
                break;
            }
            i += 1;
        }
        let text = self.rest()[..i].to_string();
        self.pos += i;
        text
    }

    fn word(&mut self) -> Tok {
        let end = self
            .rest()
            .find(|c: char| !(c == '_' || c.is_alphanumeric()))
            .unwrap_or(self.rest().len());
        let mut w = self.rest()[..end].to_string();
        self.pos += end;
        if w == "r" && self.peek() == Some('#') {
            self.pos += 1;
            if let Tok::Ident(rest) = self.word() {
                w = format!("r#{rest}");
            }
            return Tok::Ident(w);
        }
        match w.strip_prefix('_') {
            Some(n) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                Tok::Local(n.parse().unwrap_or(u32::MAX))
            }
            _ => Tok::Ident(w),
        }
    }
}

/// After a `{`: `closure@`, `constant#`, `shim:` and similar name forms.
fn is_segment_start(s: &str) -> bool {
    let word_len = s.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(s.len());
    word_len > 0 && matches!(s[word_len..].chars().next(), Some('@' | '#' | ':'))
        && !s.starts_with("alloc")
        && !s.starts_with("transmute")
}

/// Length of `s` up to and including the bracket that closes the first
/// `open` (`s[0]` in the lexer); None when none does. The one bracket
/// matcher of the exporter's text walks (export/implty.rs, callee.rs,
/// spanclosures.rs). The `>` of an arrow (`impl<F: FnMut() -> A>`) closes
/// nothing.
pub(crate) fn matching_close(s: &str, open: char, close: char) -> Option<usize> {
    let mut depth = 0isize;
    for (i, c) in s.char_indices() {
        if c == open {
            depth += 1;
        } else if c == close && !is_arrow_head(s, i) {
            depth -= 1;
            if depth == 0 {
                return Some(i + 1);
            }
        }
    }
    None
}

/// Whether the `>` at byte `i` of `s` ends an arrow (`->`).
pub(crate) fn is_arrow_head(s: &str, i: usize) -> bool {
    s[..i].ends_with('-') && s[i..].starts_with('>')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_arrow_closes_no_angle_bracket() {
        let s = "<A, F: FnMut() -> A> Iterator for RepeatWith<F>";
        assert_eq!(matching_close(s, '<', '>'), Some("<A, F: FnMut() -> A>".len()));
        assert_eq!(matching_close("<fn(u8) -> u8, (u8, u8)> x", '<', '>'), Some(24));
        assert_eq!(matching_close("(a -> b) c", '(', ')'), Some(8));
    }

    fn toks(s: &str) -> Vec<String> {
        lex_line(s).unwrap().toks.iter().map(|t| t.to_string()).collect()
    }

    #[test]
    fn statement_with_comment() {
        let l = lex_line("        _9 = Lt(copy _17, copy _8);      // scope 3 at src/lib.rs:11:15: 11:19").unwrap();
        assert_eq!(l.toks.len(), 11);
        assert_eq!(l.toks[0], Tok::Local(9));
        assert_eq!(l.comment.as_deref(), Some("scope 3 at src/lib.rs:11:15: 11:19"));
    }

    #[test]
    fn numbers_and_projections() {
        assert_eq!(toks("(_3.1: usize)"), ["(", "_3", ".", "1", ":", "usize", ")"]);
        assert_eq!(toks("const 2.14748365E+9f32"), ["const", "2.14748365E+9f32"]);
        assert_eq!(toks("const -2_isize"), ["const", "-", "2_isize"]);
        assert_eq!(toks("_7[2 of 3]"), ["_7", "[", "2", "of", "3", "]"]);
    }

    #[test]
    fn bracketed_names() {
        let t = lex_line("fn <impl at src/lib.rs:5:10: 5:15>::clone(_1: &{closure@src/lib.rs:29:13: 29:21})")
            .unwrap()
            .toks;
        assert_eq!(t[1], Tok::ImplAt("<impl at src/lib.rs:5:10: 5:15>".into()));
        assert_eq!(t[8], Tok::Closure("{closure@src/lib.rs:29:13: 29:21}".into()));
        assert_eq!(toks("Mode::A::{constant#0}")[4], "{constant#0}");
        assert_eq!(toks("const {alloc1: &[u32; 4]}")[1], "{");
    }

    #[test]
    fn strings_chars_lifetimes() {
        let t = lex_line(r#"const "hi\n\"there\"" 'a' '\u{1f600}' '_ b"\x00""#).unwrap().toks;
        assert_eq!(t[1], Tok::Str { text: b"hi\n\"there\"".to_vec(), byte: false });
        assert_eq!(t[2], Tok::Char('a'));
        assert_eq!(t[3], Tok::Char('\u{1f600}'));
        assert_eq!(t[4], Tok::Punct("'"));
        assert_eq!(t[6], Tok::Str { text: vec![0], byte: true });
    }

    #[test]
    fn comment_marker_inside_string_is_text() {
        let a = lex_line(r#"        asm!("add {0}, 1 // "q" {{", inout(reg) copy _1 => _1, options()) -> [return: bb1, unwind unreachable]; // scope 1 at a.rs:7:14: 7:78"#).unwrap();
        assert_eq!(a.comment.as_deref(), Some("scope 1 at a.rs:7:14: 7:78"));
        assert_eq!(a.toks[..4], [Tok::Ident("asm".into()), Tok::Punct("!"), Tok::Punct("("), Tok::Punct(")")]);
        let l = lex_line(r#"_0 = const "a//b"; // scope 0"#).unwrap();
        assert_eq!(l.toks[3], Tok::Str { text: b"a//b".to_vec(), byte: false });
        assert_eq!(l.comment.as_deref(), Some("scope 0"));
    }
}
