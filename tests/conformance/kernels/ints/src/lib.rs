//! Conformance group `ints`: integer arithmetic, comparisons, bool and char
//! of every width (u8…u64, i8…i64, usize, isize).
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

/// u8 wrapping add, sub, mul.
#[kernel]
pub fn ints_u8_arith(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i) as u8;
    let b = at(input, i * 7 + 3) as u8;
    let mut h = mix(H0, a.wrapping_add(b) as u64);
    h = mix(h, a.wrapping_sub(b) as u64);
    h = mix(h, a.wrapping_mul(b) as u64);
    put(&mut out, idx, h);
}

/// i8 wrapping add, sub, mul, neg; sign extension of the results to u64.
#[kernel]
pub fn ints_i8_arith(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i) as i8;
    let b = at(input, i * 5 + 1) as i8;
    let mut h = mix(H0, a.wrapping_add(b) as u64);
    h = mix(h, a.wrapping_sub(b) as u64);
    h = mix(h, a.wrapping_mul(b) as u64);
    h = mix(h, a.wrapping_neg() as u64);
    put(&mut out, idx, h);
}

/// u16 wrapping add, sub, mul, and division/remainder by a non-zero value.
#[kernel]
pub fn ints_u16_arith(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i) as u16;
    let b = at(input, i + 100) as u16;
    let d = b | 1;
    let mut h = mix(H0, a.wrapping_add(b) as u64);
    h = mix(h, a.wrapping_sub(b) as u64);
    h = mix(h, a.wrapping_mul(b) as u64);
    h = mix(h, (a / d) as u64);
    h = mix(h, (a % d) as u64);
    put(&mut out, idx, h);
}

/// i16 wrapping add, sub, mul; signed division and remainder (no overflow).
#[kernel]
pub fn ints_i16_arith(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i) as i16;
    let b = at(input, i * 3 + 11) as i16;
    let d = if b == 0 || (a == i16::MIN && b == -1) { 7 } else { b };
    let mut h = mix(H0, a.wrapping_add(b) as u64);
    h = mix(h, a.wrapping_sub(b) as u64);
    h = mix(h, a.wrapping_mul(b) as u64);
    h = mix(h, (a / d) as u64);
    h = mix(h, (a % d) as u64);
    put(&mut out, idx, h);
}

/// u32 wrapping add, sub, mul, division and remainder.
#[kernel]
pub fn ints_u32_arith(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i) as u32;
    let b = (at(input, i + 1) >> 7) as u32;
    let d = if b == 0 { 1 } else { b };
    let mut h = mix(H0, a.wrapping_add(b) as u64);
    h = mix(h, a.wrapping_sub(b) as u64);
    h = mix(h, a.wrapping_mul(b) as u64);
    h = mix(h, (a / d) as u64);
    h = mix(h, (a % d) as u64);
    put(&mut out, idx, h);
}

/// i32 wrapping add, sub, mul; signed division and remainder incl. negative
/// operands and divisor -1 (but never MIN / -1).
#[kernel]
pub fn ints_i32_arith(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i) as i32;
    let raw = at(input, i * 13 + 5);
    let b = if raw & 3 == 0 { -1 } else { (raw >> 40) as i32 };
    let d = if b == 0 || (a == i32::MIN && b == -1) { -3 } else { b };
    let mut h = mix(H0, a.wrapping_add(b) as u64);
    h = mix(h, a.wrapping_sub(b) as u64);
    h = mix(h, a.wrapping_mul(b) as u64);
    h = mix(h, (a / d) as u64);
    h = mix(h, (a % d) as u64);
    put(&mut out, idx, h);
}

/// u64 wrapping add, sub, mul, division and remainder.
#[kernel]
pub fn ints_u64_arith(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i);
    let b = at(input, i + 64) >> (i % 64);
    let d = b | 1;
    let mut h = mix(H0, a.wrapping_add(b));
    h = mix(h, a.wrapping_sub(b));
    h = mix(h, a.wrapping_mul(b));
    h = mix(h, a / d);
    h = mix(h, a % d);
    put(&mut out, idx, h);
}

/// i64 wrapping add, sub, mul; signed division and remainder.
#[kernel]
pub fn ints_i64_arith(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i) as i64;
    let b = (at(input, i + 9) as i64) >> (i % 63);
    let d = if b == 0 || (a == i64::MIN && b == -1) { 1_000_003 } else { b };
    let mut h = mix(H0, a.wrapping_add(b) as u64);
    h = mix(h, a.wrapping_sub(b) as u64);
    h = mix(h, a.wrapping_mul(b) as u64);
    h = mix(h, (a / d) as u64);
    h = mix(h, (a % d) as u64);
    put(&mut out, idx, h);
}

/// usize and isize arithmetic and conversions between them.
#[kernel]
pub fn ints_usize_isize(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i) as usize;
    let b = at(input, i + 2) as isize;
    let u = a.wrapping_mul(i).wrapping_add(b as usize);
    let s = b.wrapping_sub(a as isize).wrapping_mul(-3);
    let q = (a / (i + 1)) as isize;
    let mut h = mix(H0, u as u64);
    h = mix(h, s as u64);
    h = mix(h, q as u64);
    h = mix(h, (s < b) as u64);
    put(&mut out, idx, h);
}

/// Unsigned comparisons of every width, packed into a bit mask.
#[kernel]
pub fn ints_compare_unsigned(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i);
    // Every fourth pair is equal in some widths.
    let b = if i % 4 == 0 { a ^ 0xFF00 } else { at(input, i + 31) };
    let mut m: u64 = 0;
    macro_rules! cmp6 {
        ($t:ty) => {{
            let (x, y) = (a as $t, b as $t);
            m = (m << 6)
                | ((x < y) as u64)
                | ((x <= y) as u64) << 1
                | ((x > y) as u64) << 2
                | ((x >= y) as u64) << 3
                | ((x == y) as u64) << 4
                | ((x != y) as u64) << 5;
        }};
    }
    cmp6!(u8);
    cmp6!(u16);
    cmp6!(u32);
    cmp6!(u64);
    cmp6!(usize);
    put(&mut out, idx, m);
}

/// Signed comparisons of every width, packed into a bit mask.
#[kernel]
pub fn ints_compare_signed(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i);
    let b = if i % 4 == 0 { a ^ 0xFF00_0000 } else { at(input, i + 17) };
    let mut m: u64 = 0;
    macro_rules! cmp6 {
        ($t:ty) => {{
            let (x, y) = (a as $t, b as $t);
            m = (m << 6)
                | ((x < y) as u64)
                | ((x <= y) as u64) << 1
                | ((x > y) as u64) << 2
                | ((x >= y) as u64) << 3
                | ((x == y) as u64) << 4
                | ((x != y) as u64) << 5;
        }};
    }
    cmp6!(i8);
    cmp6!(i16);
    cmp6!(i32);
    cmp6!(i64);
    cmp6!(isize);
    put(&mut out, idx, m);
}

/// `Ord::cmp` (MIR BinOp::Cmp) on signed and unsigned ints and on bool.
#[kernel]
pub fn ints_cmp_ordering(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i);
    let b = if i % 3 == 0 { a } else { at(input, i + 1) };
    let mut h = H0;
    h = mix(h, (a as u8).cmp(&(b as u8)) as i8 as u64);
    h = mix(h, (a as i16).cmp(&(b as i16)) as i8 as u64);
    h = mix(h, (a as u32).cmp(&(b as u32)) as i8 as u64);
    h = mix(h, (a as i64).cmp(&(b as i64)) as i8 as u64);
    h = mix(h, (a & 1 == 0).cmp(&(b & 1 == 0)) as i8 as u64);
    put(&mut out, idx, h);
}

/// min, max, clamp, abs_diff, wrapping_abs, unsigned_abs, signum.
#[kernel]
pub fn ints_minmax_abs(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i) as i32;
    let b = at(input, i + 5) as i32;
    let ua = a as u32;
    let ub = b as u32;
    let mut h = H0;
    h = mix(h, a.min(b) as u64);
    h = mix(h, a.max(b) as u64);
    h = mix(h, ua.min(ub) as u64);
    h = mix(h, ua.max(ub) as u64);
    h = mix(h, a.clamp(-1000, 1000) as u64);
    h = mix(h, a.abs_diff(b) as u64);
    h = mix(h, a.wrapping_abs() as u64);
    h = mix(h, a.unsigned_abs() as u64);
    h = mix(h, a.signum() as u64);
    h = mix(h, (a as i64).signum() as u64);
    put(&mut out, idx, h);
}

/// bool: &, |, ^, !, short-circuit && and ||, bool as integer.
#[kernel]
pub fn ints_bool_ops(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let p = w & 1 != 0;
    let q = w & 2 != 0;
    let r = (w >> 7) as u8 > 100;
    let mut m: u64 = 0;
    m |= (p & q) as u64;
    m |= ((p | q) as u64) << 1;
    m |= ((p ^ r) as u64) << 2;
    m |= ((!p) as u64) << 3;
    m |= ((p && (w / 3 > 7)) as u64) << 4;
    m |= ((q || r) as u64) << 5;
    m |= ((p == r) as u64) << 6;
    m |= ((p > q) as u64) << 7;
    m |= (p as u64 + q as u64 + r as u64) << 8;
    m |= ((r as i32 - 1) as u64 & 0xff) << 16;
    put(&mut out, idx, m);
}

/// char: from_u32 (invalid values and surrogates), to_digit, from_digit,
/// ASCII case, len_utf8, char as u32 / u8, u8 as char.
#[kernel]
pub fn ints_char_ops(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let cp = match i % 4 {
        0 => (w % 128) as u32,
        1 => (w % 0x11_0000) as u32,
        2 => 0xD800 + (w % 0x800) as u32,
        _ => w as u32,
    };
    let mut h = H0;
    match char::from_u32(cp) {
        Some(c) => {
            h = mix(h, c as u64);
            h = mix(h, c.len_utf8() as u64);
            h = mix(h, c.to_digit(16).map_or(99, |d| d as u64));
            h = mix(h, c.to_ascii_uppercase() as u64);
            h = mix(h, c.is_ascii_alphanumeric() as u64);
            h = mix(h, c as u8 as u64);
        }
        None => h = mix(h, 0xDEAD),
    }
    let b = w as u8;
    h = mix(h, b as char as u64);
    h = mix(h, char::from_digit((w % 36) as u32, 36).map_or(0, |c| c as u64));
    put(&mut out, idx, h);
}

/// wrapping_pow, pow, midpoint, div_euclid and rem_euclid.
#[kernel]
pub fn ints_pow_euclid(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i);
    let e = (at(input, i + 3) % 70) as u32;
    let s = a as i32;
    let d = match (at(input, i + 4) as i32) % 1000 {
        0 => 17,
        v => v,
    };
    let mut h = H0;
    h = mix(h, a.wrapping_pow(e));
    h = mix(h, (a as u32).wrapping_pow(e) as u64);
    h = mix(h, (i as u64 % 7).pow(e % 20));
    h = mix(h, (a as u32).midpoint(e) as u64);
    h = mix(h, s.div_euclid(d) as u64);
    h = mix(h, s.rem_euclid(d) as u64);
    h = mix(h, (a as u16).div_euclid(d as u16 | 1) as u64);
    put(&mut out, idx, h);
}

/// Bitwise not, and, or, xor of every width, and wrapping_neg on unsigned.
#[kernel]
pub fn ints_bitwise(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i);
    let b = at(input, i + 99);
    let mut h = H0;
    h = mix(h, !(a as u8) as u64);
    h = mix(h, (!(a as i16)) as u64);
    h = mix(h, ((a as u32) & (b as u32)) as u64);
    h = mix(h, ((a as i32) | (b as i32)) as u64);
    h = mix(h, a ^ b);
    h = mix(h, !a & b | (a ^ !b));
    h = mix(h, (a as u16).wrapping_neg() as u64);
    h = mix(h, a.wrapping_neg());
    put(&mut out, idx, h);
}

/// isqrt of u64, u32 and u8 (core implements it with lookup stages).
#[kernel]
pub fn ints_isqrt(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i);
    let mut h = mix(H0, a.isqrt());
    h = mix(h, (a as u32).isqrt() as u64);
    h = mix(h, (a as u8).isqrt() as u64);
    put(&mut out, idx, h);
}

/// isqrt of every width at and around perfect squares (k*k - 1, k*k,
/// k*k + 2k, the largest below (k+1)^2) and the type's maximum; i64 and
/// i32 through checked_isqrt.
#[kernel]
pub fn ints_isqrt_widths(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i);
    let k = a >> (32 + i % 33);
    let sq = [k * k, (k * k).wrapping_sub(1), k * k + 2 * k, u64::MAX, a][i % 5];
    let mut h = mix(H0, sq.isqrt());
    h = mix(h, (sq as u32).isqrt() as u64);
    h = mix(h, (sq as u16).isqrt() as u64);
    h = mix(h, (sq as u8).isqrt() as u64);
    let k2 = ((a as u128) << 64 | at(input, i + 1) as u128) >> (i % 128);
    let k2 = k2 >> 64 >> (i % 3);
    let w = [k2 * k2, (k2 * k2).wrapping_sub(1), k2 * k2 + 2 * k2, u128::MAX, (a as u128) << (i % 64)][(i / 5) % 5];
    let r = w.isqrt();
    h = mix(mix(h, r as u64), (r >> 64) as u64);
    h = mix(h, (sq as i64).checked_isqrt().map_or(u64::MAX, |v| v as u64));
    h = mix(h, (sq as i32).checked_isqrt().map_or(u64::MAX, |v| v as u64));
    put(&mut out, idx, h);
}
