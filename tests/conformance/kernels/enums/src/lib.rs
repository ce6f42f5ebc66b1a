//! Conformance group `enums`: direct tags, explicit discriminants, niche
//! encodings (Option<&T>, Option<NonZero>, Option<bool>, Option<char>,
//! nested Options), Result, enums crossing device calls.
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

use core::num::NonZero;

#[derive(Clone, Copy)]
enum Shape {
    Circle(f32),
    Rect { w: u16, h: u16 },
    Tri(u8, u8, u8),
    Empty,
}

#[inline(always)]
fn shape_of(w: u64) -> Shape {
    match w % 4 {
        0 => Shape::Circle((w >> 8) as u16 as f32 * 0.5),
        1 => Shape::Rect { w: (w >> 8) as u16, h: (w >> 24) as u16 },
        2 => Shape::Tri(w as u8, (w >> 8) as u8, (w >> 16) as u8),
        _ => Shape::Empty,
    }
}

#[inline(always)]
fn area(s: Shape) -> u64 {
    match s {
        Shape::Circle(r) => canon32(r * r * 3.0),
        Shape::Rect { w, h } => w as u64 * h as u64,
        Shape::Tri(a, b, c) => a as u64 + b as u64 + c as u64,
        Shape::Empty => 7,
    }
}

/// Enum with data in every variant shape (tuple, struct, unit), direct tag.
#[kernel]
pub fn enums_direct_tag(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let s = shape_of(at(input, i));
    let t = shape_of(at(input, i + 1));
    put(&mut out, idx, mix(area(s), area(t)));
}

#[inline(never)]
fn area_call(s: Shape) -> u64 {
    area(s)
}

#[inline(never)]
fn make_shape(w: u64) -> Shape {
    shape_of(w)
}

/// Enum values passed to and returned from device functions.
#[kernel]
pub fn enums_across_calls(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let s = make_shape(at(input, i));
    put(&mut out, idx, area_call(s));
}

#[derive(Clone, Copy, PartialEq)]
#[repr(u8)]
enum Op {
    Add = 3,
    Sub = 10,
    Xor = 200,
    Neg = 255,
}

/// Fieldless #[repr(u8)] enum with explicit sparse discriminants, matched.
#[kernel]
pub fn enums_explicit_discriminants(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let op = match w % 4 {
        0 => Op::Add,
        1 => Op::Sub,
        2 => Op::Xor,
        _ => Op::Neg,
    };
    let a = at(input, i + 1);
    let r = match op {
        Op::Add => a.wrapping_add(w),
        Op::Sub => a.wrapping_sub(w),
        Op::Xor => a ^ w,
        Op::Neg => a.wrapping_neg(),
    };
    put(&mut out, idx, mix(mix(H0, r), op as u8 as u64 + (op == Op::Xor) as u64));
}

#[derive(Clone, Copy)]
#[repr(i32)]
enum Level {
    Low = -1000,
    Mid = 0,
    High = 1 << 30,
}

#[derive(Clone, Copy)]
#[repr(i8)]
enum WithData {
    A(u32) = -5,
    B { x: u16 } = 7,
    C = 100,
}

/// Discriminants written as constant expressions, which rustc prints as
/// MIR bodies (mir-export evaluates them): shifts, checked arithmetic,
/// negation, a symbolic limit, casts.
#[derive(Clone, Copy)]
#[repr(i64)]
enum Computed {
    A = 1 << 40,
    B = (3 * 7 + 1) << 2,
    C = -(1 << 20) - 5,
    D = i64::MAX >> 3,
    E = (u16::MAX as i64) * -3,
    F,
}

#[derive(Clone, Copy)]
#[repr(u8)]
enum Small {
    X = !0 - 3,
    Y = 0x0f & 0x3c,
    Z = 200 / 7 % 9,
}

/// The computed discriminants, as integers and in matches.
#[kernel]
pub fn enums_computed_discriminants(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let c = [Computed::A, Computed::B, Computed::C, Computed::D, Computed::E, Computed::F][(w % 6) as usize];
    let s = [Small::X, Small::Y, Small::Z][(w % 3) as usize];
    let mut h = mix(H0, c as i64 as u64);
    h = mix(h, s as u8 as u64);
    h = mix(h, matches!(c, Computed::F) as u64);
    h = mix(h, matches!(s, Small::Y) as u64);
    put(&mut out, idx, h);
}

/// Negative and data-carrying explicit discriminants (#[repr(i32)], #[repr(i8)]).
#[kernel]
pub fn enums_negative_discriminants(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let l = match w % 3 {
        0 => Level::Low,
        1 => Level::Mid,
        _ => Level::High,
    };
    let d = match (w >> 4) % 3 {
        0 => WithData::A(w as u32),
        1 => WithData::B { x: (w >> 16) as u16 },
        _ => WithData::C,
    };
    let v = match d {
        WithData::A(x) => x as u64,
        WithData::B { x } => x as u64 + 1,
        WithData::C => 3,
    };
    put(&mut out, idx, mix(mix(H0, l as i32 as u64), v));
}

/// Option<&u64>: the null-pointer niche (None is 0).
#[kernel]
pub fn enums_option_ref(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let r: Option<&u64> = if w & 1 == 0 { input.get(i * 3 % 1024) } else { input.get(2000) };
    let v = match r {
        Some(x) => *x,
        None => 0x5555,
    };
    put(&mut out, idx, mix(mix(H0, v), r.is_some() as u64));
}

#[inline(never)]
fn first_big(xs: &[u64], min: u64) -> Option<&u64> {
    let mut k = 0;
    while k < xs.len() {
        if xs[k] > min {
            return Some(&xs[k]);
        }
        k += 1;
    }
    None
}

/// Option<&T> returned from a device function.
#[kernel]
pub fn enums_option_ref_call(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let start = i * 8;
    let min = u64::MAX - (u64::MAX >> (i % 8));
    let r = first_big(&input[start..start + 8], min);
    put(&mut out, idx, r.map_or(1, |x| *x));
}

/// Option<NonZero<u32>>, Option<NonZero<u64>>: the zero niche.
#[kernel]
pub fn enums_option_nonzero(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i) >> (i % 4 * 16);
    let a = NonZero::<u32>::new(w as u32 & 0xFF);
    let b = NonZero::<u64>::new(w & 0xFF00);
    let mut h = mix(H0, a.map_or(1000, |x| x.get() as u64));
    h = mix(h, b.map_or(2000, |x| x.get()));
    h = mix(h, core::mem::size_of::<Option<NonZero<u32>>>() as u64);
    h = mix(h, a.is_none() as u64);
    put(&mut out, idx, h);
}

/// Option<bool> (niche 2), Option<char> (niche 0x110000), Option<Option<bool>>.
#[kernel]
pub fn enums_option_bool_char(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let ob: Option<bool> = if w % 3 == 0 { None } else { Some(w & 4 != 0) };
    let oc: Option<char> = char::from_u32((w >> 8) as u32 % 0x11_8000);
    let oob: Option<Option<bool>> = match w % 5 {
        0 => None,
        1 => Some(None),
        _ => Some(Some(w & 8 != 0)),
    };
    let mut h = mix(H0, match ob {
        None => 2,
        Some(true) => 1,
        Some(false) => 0,
    });
    h = mix(h, oc.map_or(0xFFFF_FFFF, |c| c as u64));
    h = mix(h, match oob {
        None => 10,
        Some(None) => 11,
        Some(Some(b)) => b as u64,
    });
    h = mix(h, core::mem::size_of::<Option<Option<bool>>>() as u64);
    put(&mut out, idx, h);
}

#[derive(Clone, Copy)]
enum Niche {
    Flag(bool),
    Two,
    Three,
}

#[inline(never)]
fn niche_code(n: Niche) -> u64 {
    match n {
        Niche::Flag(b) => b as u64,
        Niche::Two => 2,
        Niche::Three => 3,
    }
}

/// User enum niche-encoded in a bool field (Two, Three use values 2, 3).
#[kernel]
pub fn enums_user_niche(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let n = match w % 4 {
        0 => Niche::Flag(false),
        1 => Niche::Flag(true),
        2 => Niche::Two,
        _ => Niche::Three,
    };
    put(&mut out, idx, mix(niche_code(n), core::mem::size_of::<Niche>() as u64));
}

#[inline(never)]
fn parse_digit(b: u8) -> Result<u32, u8> {
    if b.is_ascii_digit() {
        Ok((b - b'0') as u32)
    } else {
        Err(b)
    }
}

/// Result<u32, u8> built, returned from a device function and matched; `?`.
#[kernel]
pub fn enums_result(input: &[u64], mut out: DisjointSlice<u64>) {
    fn two(a: u8, b: u8) -> Result<u32, u8> {
        Ok(parse_digit(a)? * 10 + parse_digit(b)?)
    }
    let (idx, i) = tid();
    let w = at(input, i);
    let a = b'0' + (w % 12) as u8;
    let b = b'0' + ((w >> 8) % 11) as u8;
    let v = match two(a, b) {
        Ok(n) => n as u64,
        Err(c) => 1000 + c as u64,
    };
    put(&mut out, idx, v);
}

#[derive(Clone, Copy)]
enum Outer {
    In(Inner),
    Pair(u8, Inner),
    Nothing,
}

#[derive(Clone, Copy)]
enum Inner {
    X(u32),
    Y,
}

/// Nested enums (an enum inside enum variants), matched with nested patterns.
#[kernel]
pub fn enums_nested(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let inner = if w & 1 == 0 { Inner::X((w >> 1) as u32) } else { Inner::Y };
    let o = match (w >> 8) % 3 {
        0 => Outer::In(inner),
        1 => Outer::Pair((w >> 16) as u8, inner),
        _ => Outer::Nothing,
    };
    let v = match o {
        Outer::In(Inner::X(x)) => x as u64,
        Outer::In(Inner::Y) => 1,
        Outer::Pair(p, Inner::X(x)) => p as u64 * x as u64,
        Outer::Pair(p, Inner::Y) => p as u64 + 2,
        Outer::Nothing => 3,
    };
    put(&mut out, idx, mix(v, core::mem::size_of::<Outer>() as u64));
}

/// Option<u64> / Option<u8> / Option<(u8, u32)>: direct tag, scalar pairs.
#[kernel]
pub fn enums_option_scalars(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let a: Option<u64> = if w & 1 == 0 { Some(w) } else { None };
    let b: Option<u8> = if w & 2 == 0 { Some((w >> 8) as u8) } else { None };
    let c: Option<(u8, u32)> = if w & 4 == 0 { Some((w as u8, (w >> 32) as u32)) } else { None };
    let mut h = mix(H0, a.unwrap_or(9));
    h = mix(h, b.map(|x| x as u64 * 3).unwrap_or(10));
    h = mix(h, c.map_or(11, |(x, y)| x as u64 + y as u64));
    h = mix(h, a.xor(b.map(|x| x as u64)).unwrap_or(12));
    h = mix(h, a.zip(b).map_or(13, |(x, y)| x ^ y as u64));
    put(&mut out, idx, h);
}

/// core::mem::discriminant comparisons and `matches!`.
#[kernel]
pub fn enums_discriminant_eq(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let s = shape_of(at(input, i));
    let t = shape_of(at(input, i + 1));
    let same = core::mem::discriminant(&s) == core::mem::discriminant(&t);
    let m = matches!(s, Shape::Rect { w, .. } if w > 1000) as u64;
    let e = matches!(t, Shape::Empty | Shape::Tri(0, _, _)) as u64;
    put(&mut out, idx, same as u64 | m << 1 | e << 2);
}

/// Option<Ordering> from partial_cmp (niche-encoded Ordering).
#[kernel]
pub fn enums_option_ordering(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = f64_of(at(input, i));
    let b = if i % 3 == 0 { a } else { f64_of(at(input, i + 1)) };
    let o = a.partial_cmp(&b);
    let v = match o {
        Some(core::cmp::Ordering::Less) => 1,
        Some(core::cmp::Ordering::Equal) => 2,
        Some(core::cmp::Ordering::Greater) => 3,
        None => 4,
    };
    put(&mut out, idx, v);
}

enum Big {
    Wide(u128),
    Arr([u32; 5]),
    Small(u8),
}

/// Large enum (memory ABI) with u128 and array payloads, written in place.
#[kernel]
pub fn enums_large_payload(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let mut b = Big::Small(w as u8);
    if w % 3 == 0 {
        b = Big::Wide((w as u128) << 64 | at(input, i + 1) as u128);
    } else if w % 3 == 1 {
        b = Big::Arr([w as u32, (w >> 8) as u32, 3, 4, (w >> 32) as u32]);
    }
    let v = match &b {
        Big::Wide(x) => (*x >> 32) as u64,
        Big::Arr(a) => a[0] as u64 + a[4] as u64 + a[i % 5] as u64,
        Big::Small(s) => *s as u64,
    };
    put(&mut out, idx, v);
}
