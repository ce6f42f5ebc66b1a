//! `gpu_print!` / `gpu_println!`: printing from the GPU with Rust's format
//! syntax (`gpu_println!("i = {}, x = {:.3}", i, x)`).
//!
//! The text is formatted by core::fmt (`Display`, `Debug`, `LowerHex`, the
//! user's own impls, width, precision, fill) into a per-thread buffer of
//! [`LINE_CAPACITY`] bytes on the thread's stack, then printed by ONE call
//! of CUDA's `vprintf("%s", line)`. CUDA keeps each `vprintf` call's output
//! together, so one thread's line is never interleaved with another's (it
//! would be with several `gpu_printf!` calls per line). On the GPU the
//! output appears when the host next synchronises; under emulation the
//! runtime prints it at once.
//!
//! A line holds at most `LINE_CAPACITY - 2` bytes of text (one byte is kept
//! for `gpu_println!`'s newline, one for the NUL). Longer text is cut at a
//! UTF-8 character boundary and ends in `[...]` (then the newline),
//! so a cut line is never mistaken for a whole one and never overruns the
//! buffer. A user impl that returns `fmt::Error` ends the line where its
//! output stopped (std's `print!` would panic; on the GPU a panic traps
//! the whole kernel).
//!
//! core::fmt's machinery is compiled from core's own MIR (docs/DESIGN.md,
//! "Formatting"): it needs a rustc with its library sources (rustup's
//! `rust-src`, Debian's `rust-web-src`). Without them mir-export stops at
//! the `gpu_print!` line with error OX0300.

use core::fmt::{self, Write};

use crate::printf::{vprintf, Args};

/// Bytes of one printed line's buffer, its newline and NUL included.
pub const LINE_CAPACITY: usize = 256;

/// Bytes of text one line holds.
const TEXT_CAPACITY: usize = LINE_CAPACITY - 2;


/// The buffer of one `gpu_print!` line.
#[doc(hidden)]
pub struct Line {
    bytes: [u8; LINE_CAPACITY],
    len: usize,
    truncated: bool,
}

impl Line {
    #[inline(always)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        Line { bytes: [0; LINE_CAPACITY], len: 0, truncated: false }
    }

    /// Formats `args` into the line (core::fmt::write).
    #[inline(always)]
    pub fn format(&mut self, args: fmt::Arguments<'_>) {
        // an error is the buffer's end or a user impl's: the text so far
        // is printed either way
        let _ = self.write_fmt(args);
    }

    /// Ends the line: `[...]` when it was cut, then a newline when
    /// `newline`, then the NUL; the text, NUL excluded.
    #[inline(always)]
    pub fn finish(&mut self, newline: bool) -> &[u8] {
        if self.truncated {
            self.mark_truncated();
            self.truncated = false;
        }
        if newline {
            self.bytes[self.len] = b'\n';
            self.len += 1;
        }
        self.bytes[self.len] = 0;
        &self.bytes[..self.len]
    }

    /// Prints the line (and a newline when `newline`) with one `vprintf`.
    #[inline(always)]
    pub fn print(&mut self, newline: bool) {
        let text = self.finish(newline).as_ptr();
        let mut args = Args::new();
        args.put(text);
        vprintf("%s\0", &args);
    }

    /// Ends a cut line in `[...]`, cutting back to a character boundary
    /// to make room for it. (A literal: a constant of this crate is not
    /// read by mir-export in an inlined body.)
    #[inline(always)]
    fn mark_truncated(&mut self) {
        let marker = b"[...]";
        let mut end = TEXT_CAPACITY - marker.len();
        // bytes[end] was written (the text reached TEXT_CAPACITY); a UTF-8
        // continuation byte there means `end` splits a character
        while end > 0 && self.bytes[end] & 0xC0 == 0x80 {
            end -= 1;
        }
        self.len = end;
        for &b in marker {
            self.bytes[self.len] = b;
            self.len += 1;
        }
    }
}

impl Write for Line {
    /// Appends what fits of `s`; an error once the text is full, which
    /// ends the formatting.
    #[inline(always)]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for &b in s.as_bytes() {
            if self.len == TEXT_CAPACITY {
                self.truncated = true;
                return Err(fmt::Error);
            }
            self.bytes[self.len] = b;
            self.len += 1;
        }
        Ok(())
    }
}

/// `gpu_print!("i = {}, x = {:.3}", i, x)`: prints from the GPU with Rust's
/// format syntax, no newline added (see the module documentation: one
/// `vprintf` per call, at most [`LINE_CAPACITY`]` - 2` bytes of text, a
/// longer text cut and ended in `[...]`). Needs a rustc with its
/// library sources.
#[macro_export]
macro_rules! gpu_print {
    ($($arg:tt)*) => {{
        let mut __oxide_line = $crate::print::Line::new();
        __oxide_line.format(::core::format_args!($($arg)*));
        __oxide_line.print(false)
    }};
}

/// `gpu_println!("i = {}, x = {:.3}", i, x)`: [`gpu_print!`] followed by a
/// newline, in the same `vprintf` call (a cut line keeps its newline).
#[macro_export]
macro_rules! gpu_println {
    () => {{
        let mut __oxide_line = $crate::print::Line::new();
        __oxide_line.print(true)
    }};
    ($($arg:tt)*) => {{
        let mut __oxide_line = $crate::print::Line::new();
        __oxide_line.format(::core::format_args!($($arg)*));
        __oxide_line.print(true)
    }};
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::string::String;

    fn line(newline: bool, args: fmt::Arguments<'_>) -> String {
        let mut l = Line::new();
        l.format(args);
        String::from_utf8(l.finish(newline).to_vec()).expect("a line is UTF-8")
    }

    #[test]
    fn formats_and_ends_lines() {
        assert_eq!(line(true, format_args!("i = {}, x = {:.3}", 7, 0.5f32)), "i = 7, x = 0.500\n");
        assert_eq!(line(false, format_args!("{:>4}|{:x}", "ab", 255u8)), "  ab|ff");
        assert_eq!(line(true, format_args!("")), "\n");
    }

    #[test]
    fn a_full_line_is_not_cut() {
        let text = "y".repeat(TEXT_CAPACITY);
        assert_eq!(line(true, format_args!("{text}")), text + "\n");
    }

    #[test]
    fn a_long_line_is_cut_and_marked() {
        let text = "x".repeat(TEXT_CAPACITY + 1);
        let want = "x".repeat(TEXT_CAPACITY - 5) + "[...]\n";
        assert_eq!(line(true, format_args!("{text}")), want);
        assert_eq!(want.len(), LINE_CAPACITY - 1);
    }

    #[test]
    fn a_cut_keeps_whole_characters() {
        // two-byte characters: the cut at an odd offset backs off one byte
        let text = "\u{e9}".repeat(200);
        assert_eq!(line(false, format_args!("{text}")), "\u{e9}".repeat(124) + "[...]");
        let text = "a\u{20ac}".repeat(100);
        let got = line(true, format_args!("{text}"));
        assert!(got.ends_with("[...]\n") && got.len() <= LINE_CAPACITY - 1, "{got:?}");
    }

    struct Fails;

    impl fmt::Display for Fails {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("so far")?;
            Err(fmt::Error)
        }
    }

    #[test]
    fn a_failing_impl_ends_the_line_unmarked() {
        assert_eq!(line(true, format_args!("<{}>{}", Fails, 1)), "<so far\n");
    }
}
