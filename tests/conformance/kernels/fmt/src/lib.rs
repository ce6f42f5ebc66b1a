//! Conformance group `fmt`: Rust formatting (`core::fmt`) inside kernels,
//! into a fixed buffer through `core::fmt::Write`. core::fmt's machinery
//! (`core::fmt::write`, `Formatter`, the `Display`/`Debug` impls of the
//! primitives, float printing) is exported from core's own MIR, built from
//! the library sources of the rustc in use (docs/DESIGN.md, "Library
//! bodies"); its argument formatters are calls through function pointers
//! and `&mut dyn Write` calls through a vtable ("Indirect calls").
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use core::fmt::Write;
use oxide_device::prelude::*;

/// A fixed buffer that keeps the first 96 bytes written to it.
struct Buf {
    b: [u8; 96],
    n: usize,
}

impl Buf {
    #[inline(always)]
    fn new() -> Self {
        Buf { b: [0; 96], n: 0 }
    }

    /// The digest of the bytes written and their count.
    #[inline(always)]
    fn digest(&self) -> u64 {
        let mut h = mix(H0, self.n as u64);
        let mut k = 0;
        while k < self.n && k < 96 {
            h = mix(h, self.b[k] as u64);
            k += 1;
        }
        h
    }
}

impl Write for Buf {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        for &c in s.as_bytes() {
            if self.n < 96 {
                self.b[self.n] = c;
            }
            self.n += 1;
        }
        Ok(())
    }
}

/// Integers: `{}` of every width and sign, with a literal between.
#[kernel]
pub fn fmt_integers(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let mut b = Buf::new();
    let r = write!(b, "{} {} {}|{} {}", w as u32, w as i64, w as i8, (w >> 40) as u16, w as i32);
    put(&mut out, idx, mix(b.digest(), r.is_ok() as u64));
}

/// Integer format specs: hex, octal, binary, width, fill, sign, `#`.
#[kernel]
pub fn fmt_integer_specs(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let mut b = Buf::new();
    let _ = write!(b, "{:x}/{:#X}/{:o}/{:#b}", w as u32, w, (w >> 50) as u16, w as u8);
    let _ = write!(b, "[{:>8}][{:<6}][{:^7}][{:+}][{:08}]", w as u16, w as u8, (w >> 3) as u8, w as i32, (w as i16) as i64);
    put(&mut out, idx, b.digest());
}

/// Floats: `{}` (shortest round trip), `{:.3}`, `{:e}`, specials included.
#[kernel]
pub fn fmt_floats(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let x = f32_of(w);
    let y = f64::from_bits(w);
    let z = (w % 100_000) as f64 / 7.0;
    let mut b = Buf::new();
    let _ = write!(b, "{} {} {:.3} {:e} {:10.2}", x, y, z, z, x);
    put(&mut out, idx, b.digest());
}

#[derive(Debug, Clone, Copy)]
enum Kind {
    Small(u8),
    Pair { a: i32, b: bool },
    Nothing,
}

#[derive(Debug)]
struct Point {
    x: i16,
    y: u32,
    kind: Kind,
}

/// `{:?}` of derived Debug on a struct, an enum, a tuple, an array, a
/// char, a str and an Option; `{:#?}` too.
#[kernel]
pub fn fmt_debug(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let kind = match w % 3 {
        0 => Kind::Small(w as u8),
        1 => Kind::Pair { a: (w >> 8) as i32, b: w & 16 != 0 },
        _ => Kind::Nothing,
    };
    let p = Point { x: w as i16, y: (w >> 20) as u32, kind };
    let c = char::from_u32((w >> 5) as u32 % 0x3000 + 0x20).unwrap_or('?');
    let mut b = Buf::new();
    let _ = write!(b, "{:?} {:?}", p, ((w as u8, c), [w as u16 % 7; 3]));
    let _ = write!(b, "{:?}{:?}{:#?}", "a\"b\n", Some(w % 5).filter(|v| *v > 2), kind);
    put(&mut out, idx, b.digest());
}

/// A user `Display` impl: `Formatter::pad` and `write!` to the formatter.
struct Temp(i32);

impl core::fmt::Display for Temp {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.0 < 0 {
            f.pad("cold")
        } else {
            write!(f, "{}.{}C", self.0 / 10, self.0 % 10)
        }
    }
}

/// `{}`, `{:>12}` and `{:-^9}` of a user `Display` impl (padding applies
/// to what `pad` writes, not to `write!`'s).
#[kernel]
pub fn fmt_display_impl(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let t = Temp((w % 600) as i32 - 100);
    let mut b = Buf::new();
    let _ = write!(b, "<{}><{:>12}><{:-^9}>", t, t, Temp(-(w as i32 & 7)));
    put(&mut out, idx, b.digest());
}

/// Float format specs: width with alignment and precision, a sign, `{:e}`
/// padded, precision 0 (round half to even), `{:E}` of an f32.
#[kernel]
pub fn fmt_float_specs(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let x = f32_of(w);
    let z = (w % 1_000_000) as f64 / 64.0 - 5000.0;
    let mut b = Buf::new();
    let _ = write!(b, "[{:>10.3}][{:<+9.1}][{:^14e}][{:.0}][{:E}]", z, z, z, z, x);
    put(&mut out, idx, b.digest());
}

/// One of five words, some of them multibyte (2, 3 and 4 bytes a char).
struct Word(u64);

impl core::fmt::Display for Word {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self.0 % 5 {
            0 => "ab",
            1 => "\u{e9}",
            2 => "x\u{20ac}",
            3 => "\u{1d11e}",
            _ => "{}",
        })
    }
}

/// `Word(w >> k)` for k = 0, 1, ...: `w % 160` words, up to about 400
/// bytes.
struct Words(u64);

impl core::fmt::Display for Words {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for k in 0..self.0 % 160 {
            write!(f, "{}", Word(self.0.rotate_right(k as u32)))?;
        }
        Ok(())
    }
}

/// The digest of `gpu_println!`'s line and its length.
#[inline(always)]
fn line_digest(text: &[u8]) -> u64 {
    let mut h = mix(H0, text.len() as u64);
    for &c in text {
        h = mix(h, c as u64);
    }
    h
}

/// `gpu_print!`'s line (`oxide_device::print::Line`, what it hands to
/// vprintf): user `Display` impls through `f.write_str` and `write!`, a
/// literal with `{{}}`, and lines longer than the buffer, cut at a
/// character boundary and ended in `[...]` (and the newline of
/// `gpu_println!`, when there is one).
#[kernel]
pub fn fmt_print_line(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let mut line = oxide_device::print::Line::new();
    line.format(format_args!("{}{{}}{}|{}", Word(w), Word(w >> 7), Words(w)));
    let text = line.finish(w & 32 != 0);
    put(&mut out, idx, line_digest(text));
}

/// `gpu_println!("i = {}, x = {:.3}", i, x)`'s line: integers and a float
/// with a precision, through core's formatters.
#[kernel]
pub fn fmt_print_numbers(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let mut line = oxide_device::print::Line::new();
    line.format(format_args!("i = {}, x = {:.3}", i, (w % 100_000) as f64 / 7.0));
    let text = line.finish(true);
    put(&mut out, idx, line_digest(text));
}

/// `w` and its neighbours, `w % 60` of them: up to about 1200 bytes.
struct Numbers(u64);

impl core::fmt::Display for Numbers {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for k in 0..self.0 % 60 {
            write!(f, "{},", self.0.wrapping_mul(k + 1) as i64 >> (k % 40))?;
        }
        Ok(())
    }
}

/// `gpu_println!`'s line of integers: every width and sign, width, fill,
/// `+`, an inline capture, and a list long enough to be cut.
#[kernel]
pub fn fmt_print_integers(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let small = w as i8;
    let mut line = oxide_device::print::Line::new();
    line.format(format_args!(
        "i = {i:>4}, {} {:<6}|{:+}|{:^9}|{small:03} {}",
        w as u32,
        (w >> 48) as u16,
        w as i32,
        (w >> 20) as i16,
        Numbers(w)
    ));
    let text = line.finish(w & 64 != 0);
    put(&mut out, idx, line_digest(text));
}
