//! A tiny JSON value and writer (std only).
//!
//! Output is indented, except that arrays of scalars stay on one line so
//! spans (`[0, 7, 15, 7, 16]`) and offset lists remain readable.

use std::fmt::Write;

#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    /// Integers only: every number in oxide-mir is an index or a small
    /// count; anything that can exceed 2^53 is written as a string.
    Int(i64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

/// `obj![ "k" => v, ... ]` builds a `Json::Obj` keeping key order.
#[macro_export]
macro_rules! obj {
    ($($k:expr => $v:expr),* $(,)?) => {
        $crate::json::Json::Obj(vec![$(($k.to_string(), $crate::json::Json::from($v))),*])
    };
}

impl From<bool> for Json {
    fn from(b: bool) -> Self {
        Json::Bool(b)
    }
}

macro_rules! from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Json {
            fn from(n: $t) -> Self {
                Json::Int(n as i64)
            }
        }
    )*};
}
from_int!(i32, u32, usize, u8);

impl From<&str> for Json {
    fn from(s: &str) -> Self {
        Json::Str(s.to_string())
    }
}

impl From<String> for Json {
    fn from(s: String) -> Self {
        Json::Str(s)
    }
}

impl From<Vec<Json>> for Json {
    fn from(v: Vec<Json>) -> Self {
        Json::Arr(v)
    }
}

impl<T: Into<Json>> From<Option<T>> for Json {
    fn from(o: Option<T>) -> Self {
        o.map_or(Json::Null, Into::into)
    }
}

impl Json {
    /// Appends `key: value` to an object (no-op on other values).
    pub fn push(&mut self, key: &str, value: impl Into<Json>) {
        if let Json::Obj(fields) = self {
            fields.push((key.to_string(), value.into()));
        }
    }

    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn to_pretty(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, 0);
        out.push('\n');
        out
    }

    fn is_scalar(&self) -> bool {
        !matches!(self, Json::Arr(_) | Json::Obj(_))
    }

    fn write(&self, out: &mut String, indent: usize) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Int(n) => write!(out, "{n}").unwrap(),
            Json::Str(s) => write_str(out, s),
            Json::Arr(items) if items.iter().all(Json::is_scalar) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    item.write(out, indent);
                }
                out.push(']');
            }
            Json::Arr(items) => write_seq(out, indent, '[', ']', items.iter().map(|v| (None, v))),
            Json::Obj(fields) if fields.is_empty() => out.push_str("{}"),
            Json::Obj(fields) => write_seq(out, indent, '{', '}', fields.iter().map(|(k, v)| (Some(k), v))),
        }
    }
}

fn write_seq<'a>(
    out: &mut String,
    indent: usize,
    open: char,
    close: char,
    items: impl Iterator<Item = (Option<&'a String>, &'a Json)>,
) {
    out.push(open);
    let mut first = true;
    for (key, value) in items {
        out.push_str(if first { "\n" } else { ",\n" });
        first = false;
        out.push_str(&" ".repeat(indent + 1));
        if let Some(k) = key {
            write_str(out, k);
            out.push_str(": ");
        }
        value.write(out, indent + 1);
    }
    out.push('\n');
    out.push_str(&" ".repeat(indent));
    out.push(close);
}

fn write_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => write!(out, "\\u{:04x}", c as u32).unwrap(),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Parses JSON text (used for rustc's `--error-format=json` diagnostics).
/// Numbers are kept only when they are integers.
pub fn parse(text: &str) -> Result<Json, String> {
    let mut r = Reader { s: text.as_bytes(), pos: 0 };
    let v = r.value()?;
    r.ws();
    if r.pos != r.s.len() {
        return Err(format!("trailing characters at byte {}", r.pos));
    }
    Ok(v)
}

struct Reader<'a> {
    s: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn ws(&mut self) {
        while self.s.get(self.pos).is_some_and(u8::is_ascii_whitespace) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        let yes = self.s.get(self.pos) == Some(&c);
        self.pos += yes as usize;
        yes
    }

    fn value(&mut self) -> Result<Json, String> {
        self.ws();
        let c = *self.s.get(self.pos).ok_or("unexpected end of JSON")?;
        match c {
            b'{' => self.object(),
            b'[' => self.array(),
            b'"' => Ok(Json::Str(self.string()?)),
            b't' | b'f' | b'n' => self.word(),
            _ => self.number(),
        }
    }

    fn object(&mut self) -> Result<Json, String> {
        self.pos += 1;
        let mut fields = Vec::new();
        if self.eat(b'}') {
            return Ok(Json::Obj(fields));
        }
        loop {
            self.ws();
            let k = self.string()?;
            if !self.eat(b':') {
                return Err(format!("expected `:` at byte {}", self.pos));
            }
            fields.push((k, self.value()?));
            if self.eat(b'}') {
                return Ok(Json::Obj(fields));
            }
            if !self.eat(b',') {
                return Err(format!("expected `,` at byte {}", self.pos));
            }
        }
    }

    fn array(&mut self) -> Result<Json, String> {
        self.pos += 1;
        let mut items = Vec::new();
        if self.eat(b']') {
            return Ok(Json::Arr(items));
        }
        loop {
            items.push(self.value()?);
            if self.eat(b']') {
                return Ok(Json::Arr(items));
            }
            if !self.eat(b',') {
                return Err(format!("expected `,` at byte {}", self.pos));
            }
        }
    }

    fn string(&mut self) -> Result<String, String> {
        if self.s.get(self.pos) != Some(&b'"') {
            return Err(format!("expected a string at byte {}", self.pos));
        }
        self.pos += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let c = *self.s.get(self.pos).ok_or("unterminated string")?;
            self.pos += 1;
            match c {
                b'"' => return String::from_utf8(out).map_err(|e| e.to_string()),
                b'\\' => self.escape(&mut out)?,
                _ => out.push(c),
            }
        }
    }

    fn escape(&mut self, out: &mut Vec<u8>) -> Result<(), String> {
        let c = *self.s.get(self.pos).ok_or("unterminated escape")?;
        self.pos += 1;
        let ch = match c {
            b'n' => '\n',
            b't' => '\t',
            b'r' => '\r',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'u' => self.unicode_escape()?,
            _ => c as char,
        };
        let mut buf = [0u8; 4];
        out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
        Ok(())
    }

    /// `\uXXXX`, combining UTF-16 surrogate pairs.
    fn unicode_escape(&mut self) -> Result<char, String> {
        let hi = self.hex4()?;
        if (0xd800..0xdc00).contains(&hi) && self.s[self.pos..].starts_with(b"\\u") {
            self.pos += 2;
            let lo = self.hex4()?;
            let c = 0x10000 + ((hi - 0xd800) << 10) + (lo.wrapping_sub(0xdc00) & 0x3ff);
            return Ok(char::from_u32(c).unwrap_or('\u{fffd}'));
        }
        Ok(char::from_u32(hi).unwrap_or('\u{fffd}'))
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let h = self.s.get(self.pos..self.pos + 4).ok_or("bad \\u escape")?;
        self.pos += 4;
        u32::from_str_radix(std::str::from_utf8(h).unwrap_or(""), 16).map_err(|e| e.to_string())
    }

    fn word(&mut self) -> Result<Json, String> {
        for (w, v) in [("true", Json::Bool(true)), ("false", Json::Bool(false)), ("null", Json::Null)] {
            if self.s[self.pos..].starts_with(w.as_bytes()) {
                self.pos += w.len();
                return Ok(v);
            }
        }
        Err(format!("unexpected token at byte {}", self.pos))
    }

    fn number(&mut self) -> Result<Json, String> {
        let start = self.pos;
        while self.s.get(self.pos).is_some_and(|c| c.is_ascii_digit() || b"+-.eE".contains(c)) {
            self.pos += 1;
        }
        let text = std::str::from_utf8(&self.s[start..self.pos]).unwrap_or("");
        match text.parse::<i64>() {
            Ok(n) => Ok(Json::Int(n)),
            Err(_) if !text.is_empty() => Ok(Json::Null),
            Err(_) => Err(format!("unexpected character at byte {start}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_nested_values() {
        let v = obj!["a" => 1, "s" => "x\"\n", "span" => vec![Json::Int(0), Json::Int(7)], "n" => Json::Null];
        assert_eq!(v.to_pretty(), "{\n \"a\": 1,\n \"s\": \"x\\\"\\n\",\n \"span\": [0, 7],\n \"n\": null\n}\n");
        assert_eq!(parse(&v.to_pretty()).unwrap(), v);
    }

    #[test]
    fn reads_rustc_diagnostics() {
        let v = parse(r#"{"message":"layout_of(u8) = \u00e9","spans":[{"line_start":3,"x":-1.5}],"ok":true}"#).unwrap();
        assert_eq!(v.get("message"), Some(&Json::Str("layout_of(u8) = \u{e9}".into())));
        assert_eq!(v.get("ok"), Some(&Json::Bool(true)));
    }
}
