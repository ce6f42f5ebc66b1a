//! Conformance group `casts`: `as` between all integer widths, float→int
//! (saturating, NaN → 0), int→float (round to nearest even), bool/char.
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

/// Integer truncation: u64 to u32, u16, u8 and to i32, i16, i8.
#[kernel]
pub fn casts_int_truncate(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let mut h = mix(H0, w as u32 as u64);
    h = mix(h, w as u16 as u64);
    h = mix(h, w as u8 as u64);
    h = mix(h, w as i32 as u32 as u64);
    h = mix(h, w as i16 as u16 as u64);
    h = mix(h, w as i8 as u8 as u64);
    put(&mut out, idx, h);
}

/// Sign extension: i8, i16, i32 to i64 and u64; i8 to i16 to u32.
#[kernel]
pub fn casts_int_sext(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let mut h = mix(H0, w as i8 as i64 as u64);
    h = mix(h, w as i16 as u64);
    h = mix(h, w as i32 as i64 as u64);
    h = mix(h, w as i8 as i16 as u32 as u64);
    h = mix(h, (w >> 3) as i8 as isize as usize as u64);
    put(&mut out, idx, h);
}

/// Zero extension: u8, u16, u32 to u64; signed to unsigned reinterpretation.
#[kernel]
pub fn casts_int_zext(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let mut h = mix(H0, (w as u8) as u64);
    h = mix(h, (w as u16) as u32 as u64);
    h = mix(h, (w as u32) as usize as u64);
    h = mix(h, (w as i8) as u8 as u32 as u64);
    h = mix(h, (w as i32) as u32 as u64);
    put(&mut out, idx, h);
}

/// f32 → u8, i8, u16, i16, u32, i32 (saturating, NaN → 0).
#[kernel]
pub fn casts_f32_to_small_int(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let f = f32_of(at(input, i));
    let g = f32_of(at(input, i + 1)) * 1e-30;
    let xs = [f, g, -f, g * 1e10];
    let mut h = H0;
    for k in 0..xs.len() {
        let x = xs[k];
        h = mix(h, x as u8 as u64);
        h = mix(h, x as i8 as u64);
        h = mix(h, x as u16 as u64);
        h = mix(h, x as i16 as u64);
        h = mix(h, x as u32 as u64);
        h = mix(h, x as i32 as u64);
    }
    put(&mut out, idx, h);
}

/// f32 → u64, i64, usize, isize (saturating, NaN → 0).
#[kernel]
pub fn casts_f32_to_i64(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let f = f32_of(at(input, i));
    let g = f32_of(at(input, i + 1)) * 1e-20;
    let xs = [f, g, -g];
    let mut h = H0;
    for k in 0..xs.len() {
        let x = xs[k];
        h = mix(h, x as u64);
        h = mix(h, x as i64 as u64);
        h = mix(h, x as usize as u64);
        h = mix(h, x as isize as u64);
    }
    put(&mut out, idx, h);
}

/// f64 → u32, i32, u64, i64 (saturating, NaN → 0), near the limits too.
#[kernel]
pub fn casts_f64_to_int(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let f = f64_of(at(input, i));
    let near = (i as f64 - 64.0) * 0.25 + if i % 2 == 0 { 4294967295.0 } else { -2147483648.0 };
    let big = 9.223372036854775e18 + (i as f64 - 64.0) * 1024.0;
    let xs = [f, near, big, -big, f * 1e-300];
    let mut h = H0;
    for k in 0..xs.len() {
        let x = xs[k];
        h = mix(h, x as u32 as u64);
        h = mix(h, x as i32 as u64);
        h = mix(h, x as u64);
        h = mix(h, x as i64 as u64);
        h = mix(h, x as u8 as u64);
        h = mix(h, x as i16 as u64);
    }
    put(&mut out, idx, h);
}

/// u32, i32, u64, i64 → f32 (round to nearest, ties to even).
#[kernel]
pub fn casts_int_to_f32(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i) >> (i % 40);
    let mut h = mix(H0, canon32(w as u32 as f32));
    h = mix(h, canon32(w as i32 as f32));
    h = mix(h, canon32(w as f32));
    h = mix(h, canon32(w as i64 as f32));
    h = mix(h, canon32(w as u8 as f32));
    h = mix(h, canon32(w as i16 as f32));
    h = mix(h, canon32(((1u64 << 40) + 1 + (i as u64) * (1 << 15)) as f32));
    put(&mut out, idx, h);
}

/// u32, i32, u64, i64, usize → f64 (exact or rounded).
#[kernel]
pub fn casts_int_to_f64(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i) >> (i % 30);
    let mut h = mix(H0, canon64(w as u32 as f64));
    h = mix(h, canon64(w as i32 as f64));
    h = mix(h, canon64(w as f64));
    h = mix(h, canon64(w as i64 as f64));
    h = mix(h, canon64(w as usize as f64));
    h = mix(h, canon64(((1u64 << 60) + 1 + (i as u64) * 128) as f64));
    put(&mut out, idx, h);
}

/// bool and char casts: bool as u8 / i32, char as u32 / u8 / u16, u8 as char.
#[kernel]
pub fn casts_bool_char(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let b = w % 3 == 0;
    let c = char::from_u32((w % 0xD800) as u32).unwrap_or('?');
    let mut h = mix(H0, b as u8 as u64);
    h = mix(h, b as i32 as u64);
    h = mix(h, (!b) as u64);
    h = mix(h, c as u32 as u64);
    h = mix(h, c as u8 as u64);
    h = mix(h, c as u16 as u64);
    h = mix(h, (w as u8) as char as u64);
    put(&mut out, idx, h);
}

#[derive(Clone, Copy)]
enum Plain {
    A,
    B,
    C,
}

#[derive(Clone, Copy)]
#[repr(i16)]
enum Sparse {
    Neg = -300,
    Zero = 0,
    Big = 20000,
}

/// Enum to integer casts (`as`) of fieldless enums with implicit and
/// explicit (negative, sparse) discriminants.
#[kernel]
pub fn casts_enum_to_int(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let p = match w % 3 {
        0 => Plain::A,
        1 => Plain::B,
        _ => Plain::C,
    };
    let s = match (w >> 8) % 3 {
        0 => Sparse::Neg,
        1 => Sparse::Zero,
        _ => Sparse::Big,
    };
    let mut h = mix(H0, p as u8 as u64);
    h = mix(h, p as i64 as u64);
    h = mix(h, s as i16 as u64);
    h = mix(h, s as i32 as u64);
    h = mix(h, s as u8 as u64);
    put(&mut out, idx, h);
}

/// Chains of casts: u64 → f32 → i8, i64 → f64 → u16 → f32, f32 → i32 → f64.
#[kernel]
pub fn casts_chains(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let f = f32_of(at(input, i + 1));
    let mut h = mix(H0, (w >> (i % 64)) as f32 as i8 as u64);
    h = mix(h, canon32((w as i64) as f64 as u16 as f32));
    h = mix(h, canon64(f as i32 as f64));
    h = mix(h, canon32(f as u8 as f32 / 3.0));
    put(&mut out, idx, h);
}

/// Float → int via the non-saturating `to_int_unchecked` on in-range values.
#[kernel]
pub fn casts_to_int_unchecked(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let f = (w % 2_000_000) as f32 - 1_000_000.5;
    let d = (w >> 11) as f64 - 4.5e15;
    // SAFETY: both values are finite and in range of the target types.
    let (a, b) = unsafe { (f.to_int_unchecked::<i32>(), d.to_int_unchecked::<i64>()) };
    put(&mut out, idx, mix(mix(H0, a as u64), b as u64));
}
