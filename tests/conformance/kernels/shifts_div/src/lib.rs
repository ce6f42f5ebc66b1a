//! Conformance group `shifts_div`: shifts with masked / checked / unbounded
//! amounts, signed and unsigned division incl. MIN / -1 and / 0 (traps).
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

/// `<<` and `>>` on u8, u16, u32, u64 with in-range amounts.
#[kernel]
pub fn shifts_div_shl_shr_unsigned(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let s = at(input, i + 1) as u32;
    let mut h = mix(H0, ((w as u8) << (s % 8)) as u64);
    h = mix(h, ((w as u8) >> (s % 8)) as u64);
    h = mix(h, ((w as u16) << (s % 16)) as u64);
    h = mix(h, ((w as u16) >> (s % 16)) as u64);
    h = mix(h, ((w as u32) << (s % 32)) as u64);
    h = mix(h, ((w as u32) >> (s % 32)) as u64);
    h = mix(h, w << (s % 64));
    h = mix(h, w >> (s % 64));
    put(&mut out, idx, h);
}

/// Arithmetic `>>` and `<<` on i8, i16, i32, i64 (sign fill).
#[kernel]
pub fn shifts_div_shr_signed(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let s = at(input, i + 1) as u32;
    let mut h = mix(H0, ((w as i8) >> (s % 8)) as u64);
    h = mix(h, ((w as i16) >> (s % 16)) as u64);
    h = mix(h, ((w as i32) >> (s % 32)) as u64);
    h = mix(h, ((w as i64) >> (s % 64)) as u64);
    h = mix(h, ((w as i32) << (s % 32)) as u64);
    h = mix(h, ((w as i8) << (s % 8)) as u64);
    put(&mut out, idx, h);
}

/// wrapping_shl / wrapping_shr: the amount is masked to the width.
#[kernel]
pub fn shifts_div_wrapping_shift(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let s = at(input, i + 1) as u32; // any amount, masked
    let mut h = mix(H0, (w as u8).wrapping_shl(s) as u64);
    h = mix(h, (w as i16).wrapping_shr(s) as u64);
    h = mix(h, (w as u32).wrapping_shl(s) as u64);
    h = mix(h, (w as i32).wrapping_shr(s) as u64);
    h = mix(h, w.wrapping_shl(s));
    h = mix(h, (w as i64).wrapping_shr(s) as u64);
    put(&mut out, idx, h);
}

/// `x << n` with a u64 shift amount and shift by a signed amount type
/// (release build: the amount is masked).
#[kernel]
pub fn shifts_div_shift_amount_types(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let n64 = at(input, i + 1) % 64;
    let n8 = (at(input, i + 2) % 32) as i8;
    let n16 = (at(input, i + 3) % 8) as u16;
    let mut h = mix(H0, w << n64);
    h = mix(h, ((w as u32) >> n8) as u64);
    h = mix(h, ((w as i8) << n16) as u64);
    h = mix(h, ((w as u128) << (n64 + 60)) as u64);
    put(&mut out, idx, h);
}

/// checked_shl / checked_shr (None at amount >= width), unbounded_shl / shr.
#[kernel]
pub fn shifts_div_checked_unbounded(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let s = (at(input, i + 1) % 80) as u32;
    let mut h = mix(H0, (w as u32).checked_shl(s).map_or(1, |v| v as u64 + 2));
    h = mix(h, w.checked_shr(s).unwrap_or(3));
    h = mix(h, (w as i16).checked_shr(s).map_or(5, |v| v as u64));
    h = mix(h, w.unbounded_shl(s));
    h = mix(h, (w as u32).unbounded_shr(s) as u64);
    h = mix(h, (w as i64).unbounded_shr(s) as u64);
    put(&mut out, idx, h);
}

/// unchecked_shl / unchecked_shr with amounts below the width.
#[kernel]
pub fn shifts_div_unchecked_shift(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let s = (at(input, i + 1) % 32) as u32;
    // SAFETY: s < 32 <= every width used.
    let (a, b, c) = unsafe { ((w as u32).unchecked_shl(s), (w as i32).unchecked_shr(s), w.unchecked_shl(s + 32)) };
    put(&mut out, idx, mix(mix(mix(H0, a as u64), b as u64), c));
}

/// overflowing_shl / overflowing_shr report amount >= width.
#[kernel]
pub fn shifts_div_overflowing_shift(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let s = (at(input, i + 1) % 100) as u32;
    let (a, oa) = (w as u16).overflowing_shl(s);
    let (b, ob) = (w as i64).overflowing_shr(s);
    put(&mut out, idx, mix(mix(mix(H0, a as u64), b as u64), (oa as u64) << 1 | ob as u64));
}

/// Signed division and remainder of every width, divisors of both signs,
/// -1 included (MIN / -1 avoided).
#[kernel]
pub fn shifts_div_signed_divrem(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let v = at(input, i + 1);
    let mut h = H0;
    macro_rules! dr {
        ($t:ty) => {{
            let a = w as $t;
            let b = if v % 5 == 0 { -1 } else { v as $t };
            let b = if b == 0 || (a == <$t>::MIN && b == -1) { 3 } else { b };
            h = mix(h, (a / b) as u64);
            h = mix(h, (a % b) as u64);
        }};
    }
    dr!(i8);
    dr!(i16);
    dr!(i32);
    dr!(i64);
    dr!(isize);
    put(&mut out, idx, h);
}

/// Division and remainder by constants (rustc/LLVM strength-reduce them).
#[kernel]
pub fn shifts_div_by_constants(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let mut h = mix(H0, w / 10);
    h = mix(h, w % 7);
    h = mix(h, (w as u32 / 1000) as u64);
    h = mix(h, (w as i32 / -7) as u64);
    h = mix(h, (w as i64 % 16) as u64);
    h = mix(h, (w as i64 / 16) as u64);
    h = mix(h, (w as i8 / 3) as u64);
    h = mix(h, (w as u16 % 641) as u64);
    put(&mut out, idx, h);
}

/// wrapping_div / wrapping_rem / overflowing_div / checked_div at MIN / -1.
#[kernel]
pub fn shifts_div_min_neg1_wrapping(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let a = if i % 3 == 0 { i32::MIN } else { w as i32 };
    let b = if i % 2 == 0 { -1 } else { (w >> 40) as i32 | 1 };
    let (q, o) = a.overflowing_div(b);
    let mut h = mix(H0, a.wrapping_div(b) as u64);
    h = mix(h, a.wrapping_rem(b) as u64);
    h = mix(h, q as u64);
    h = mix(h, o as u64);
    h = mix(h, a.checked_div(b).map_or(77, |v| v as u64));
    h = mix(h, a.checked_rem(b).map_or(78, |v| v as u64));
    h = mix(h, (a as i64).wrapping_div(b as i64) as u64);
    h = mix(h, (i64::MIN).wrapping_rem(b as i64) as u64);
    put(&mut out, idx, h);
}

/// checked_div / checked_rem by zero → None.
#[kernel]
pub fn shifts_div_checked_div_zero(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let d = if i % 2 == 0 { 0 } else { at(input, i + 1) };
    let mut h = mix(H0, w.checked_div(d).unwrap_or(1));
    h = mix(h, w.checked_rem(d).unwrap_or(2));
    h = mix(h, (w as i16).checked_div(d as i16).map_or(3, |v| v as u64));
    h = mix(h, (w as u8).checked_rem_euclid(d as u8).map_or(4, |v| v as u64));
    put(&mut out, idx, h);
}

/// i32 MIN / -1 with `/` panics (overflow): thread 77 traps.
#[kernel]
pub fn shifts_div_trap_min_neg1(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = if i == 77 { i32::MIN } else { at(input, i) as i32 };
    let b = if i % 2 == 1 { -1 } else { 5 };
    put(&mut out, idx, (a / b) as u64);
}

/// i64 MIN % -1 with `%` panics (overflow): thread 100 traps.
#[kernel]
pub fn shifts_div_trap_rem_min_neg1(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = if i == 100 { i64::MIN } else { at(input, i) as i64 };
    let b = if i % 4 == 0 { -1 } else { 9 };
    put(&mut out, idx, (a % b) as u64);
}

/// u32 division by zero traps (thread 5).
#[kernel]
pub fn shifts_div_trap_div_zero(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i) as u32;
    let b = if i == 5 { 0 } else { (i as u32) + 1 };
    put(&mut out, idx, (a / b) as u64);
}

/// u64 remainder by zero traps (thread 64).
#[kernel]
pub fn shifts_div_trap_rem_zero(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i);
    let b = if i == 64 { 0 } else { at(input, i + 1) | 1 };
    put(&mut out, idx, a % b);
}

/// i8 division by zero traps (thread 127).
#[kernel]
pub fn shifts_div_trap_i8_div_zero(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i) as i8;
    let b = if i == 127 { 0 } else { 3 };
    put(&mut out, idx, (a / b) as u64);
}
