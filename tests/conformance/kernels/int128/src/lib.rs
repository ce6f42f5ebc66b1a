//! Conformance group `int128`: u128 and i128 arithmetic, comparisons,
//! shifts, conversions and 128-bit values crossing device calls.
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

#[inline(always)]
fn w128(input: &[u64], k: usize) -> u128 {
    ((at(input, k) as u128) << 64) | at(input, k + 1) as u128
}

#[inline(always)]
fn mix128(h: u64, v: u128) -> u64 {
    mix(mix(h, v as u64), (v >> 64) as u64)
}

/// u128 wrapping add, sub, mul.
#[kernel]
pub fn int128_u128_add_mul(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = w128(input, i);
    let b = w128(input, i * 3 + 7);
    let mut h = mix128(H0, a.wrapping_add(b));
    h = mix128(h, a.wrapping_sub(b));
    h = mix128(h, a.wrapping_mul(b));
    put(&mut out, idx, h);
}

/// i128 wrapping add, sub, mul, neg.
#[kernel]
pub fn int128_i128_add_mul(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = w128(input, i) as i128;
    let b = (w128(input, i + 50) as i128) >> (i % 100);
    let mut h = mix128(H0, a.wrapping_add(b) as u128);
    h = mix128(h, a.wrapping_sub(b) as u128);
    h = mix128(h, a.wrapping_mul(b) as u128);
    h = mix128(h, a.wrapping_neg() as u128);
    put(&mut out, idx, h);
}

/// u128 division and remainder by full-width and small divisors.
#[kernel]
pub fn int128_u128_divrem(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = w128(input, i);
    let b = w128(input, i + 5) >> (i % 128);
    let d = b | 1;
    let mut h = mix128(H0, a / d);
    h = mix128(h, a % d);
    h = mix128(h, a / 10);
    h = mix128(h, a % 1_000_000_007);
    put(&mut out, idx, h);
}

/// i128 division and remainder with negative operands.
#[kernel]
pub fn int128_i128_divrem(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = w128(input, i) as i128;
    let b = (w128(input, i + 5) as i128) >> (i % 127);
    let d = if b == 0 || (a == i128::MIN && b == -1) { -7 } else { b };
    let mut h = mix128(H0, (a / d) as u128);
    h = mix128(h, (a % d) as u128);
    h = mix128(h, (a / -3) as u128);
    put(&mut out, idx, h);
}

/// u128 / i128 shifts (logical, arithmetic, masked amounts).
#[kernel]
pub fn int128_shifts(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = w128(input, i);
    let s = (at(input, i + 2) % 200) as u32;
    let mut h = mix128(H0, a.wrapping_shl(s));
    h = mix128(h, a.wrapping_shr(s));
    h = mix128(h, (a as i128).wrapping_shr(s) as u128);
    h = mix128(h, a << (s % 128));
    h = mix128(h, ((a as i128) >> (i % 128)) as u128);
    put(&mut out, idx, h);
}

/// u128 / i128 comparisons and Ord::cmp.
#[kernel]
pub fn int128_compare(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = w128(input, i);
    let b = if i % 5 == 0 { a } else if i % 5 == 1 { a ^ 1 << 100 } else { w128(input, i + 77) };
    let (sa, sb) = (a as i128, b as i128);
    let m = (a < b) as u64
        | ((a <= b) as u64) << 1
        | ((a == b) as u64) << 2
        | ((sa < sb) as u64) << 3
        | ((sa >= sb) as u64) << 4
        | ((sa != sb) as u64) << 5
        | ((a.cmp(&b) as i8 as u8) as u64) << 8
        | ((sa.cmp(&sb) as i8 as u8) as u64) << 16;
    put(&mut out, idx, m);
}

/// Widening multiply u64 × u64 → u128 (high and low halves), i64 × i64 → i128.
#[kernel]
pub fn int128_widening_mul(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i);
    let b = at(input, i + 1);
    let p = a as u128 * b as u128;
    let q = a as i64 as i128 * b as i64 as i128;
    let h = mix128(mix128(H0, p), q as u128);
    put(&mut out, idx, h);
}

/// Conversions: u128/i128 to and from u64, i64, u8, i32 (truncation and
/// sign/zero extension).
#[kernel]
pub fn int128_int_casts(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let a = w128(input, i + 3);
    let mut h = mix128(H0, w as i64 as i128 as u128);
    h = mix128(h, w as u128);
    h = mix128(h, w as i8 as i128 as u128);
    h = mix128(h, w as u32 as u128);
    h = mix(h, a as u64);
    h = mix(h, a as i32 as u64);
    h = mix(h, (a as i128 >> 64) as i16 as u64);
    put(&mut out, idx, h);
}

/// u128 / i128 to f32 / f64 (rounding) and back (saturating, NaN → 0).
#[kernel]
pub fn int128_float_casts(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = w128(input, i) >> (i % 128);
    let f = f64_of(at(input, i + 4));
    let g = f32_of(at(input, i + 6));
    let mut h = mix(H0, canon64(a as f64));
    h = mix(h, canon32(a as f32));
    h = mix(h, canon64(a as i128 as f64));
    h = mix(h, canon32(a as i128 as f32));
    h = mix128(h, f as u128);
    h = mix128(h, f as i128 as u128);
    h = mix128(h, g as u128);
    h = mix128(h, g as i128 as u128);
    h = mix128(h, (f * 1e30) as i128 as u128);
    put(&mut out, idx, h);
}

/// 128-bit float conversions at their edges: the limits and one ulp
/// either side, powers of two around 2^64, halfway cases of the
/// rounding (ties to even), NaN and infinities.
#[kernel]
pub fn int128_float_edges(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    const P64: f64 = 18446744073709551616.0;
    const P127: f64 = 170141183460469231731687303715884105728.0;
    let fs: [f64; 16] = [
        f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 2.0 * P127, P127, -P127,
        -P127 * (1.0 + f64::EPSILON), 2.0 * P127 * (1.0 - f64::EPSILON / 2.0),
        P64, P64 + 4096.0, P64 - 1024.0, 0.99, -0.99, -1.5, 1e30, -3.0e38,
    ];
    let f = fs[i % 16] * if i >= 16 { f64::from_bits(0x3ff0_0000_0000_0000 + (at(input, i) >> 40)) } else { 1.0 };
    let g = f as f32;
    let mut h = mix128(H0, f as u128);
    h = mix128(h, f as i128 as u128);
    h = mix128(h, g as u128);
    h = mix128(h, g as i128 as u128);
    let k = (i % 128) as u32;
    let base = 1u128 << k;
    // halfway between two f32 / f64 values above 2^24 / 2^53
    let ints: [u128; 8] = [
        u128::MAX, u128::MAX - (1 << 103), (1 << 127) + (1 << 103), base | (base >> 24),
        base | (base >> 25), base | (base >> 53) | (base >> 54), base - 1, (base >> 1) | 1 | (base >> 54),
    ];
    let a = ints[(i / 128) % 8] ^ (w128(input, i) >> 120);
    h = mix(h, canon64(a as f64));
    h = mix(h, canon32(a as f32));
    h = mix(h, canon64(a as i128 as f64));
    h = mix(h, canon32(a as i128 as f32));
    put(&mut out, idx, h);
}

/// u128 bit counting, rotates, byte swap, bit reversal.
#[kernel]
pub fn int128_bits(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = w128(input, i) >> (i % 3 * 50);
    let mut h = mix(H0, a.count_ones() as u64);
    h = mix(h, a.leading_zeros() as u64);
    h = mix(h, a.trailing_zeros() as u64);
    h = mix128(h, a.rotate_left(i as u32 * 3));
    h = mix128(h, a.swap_bytes());
    h = mix128(h, a.reverse_bits());
    put(&mut out, idx, h);
}

#[inline(never)]
fn mac128(acc: u128, x: u128, y: i128) -> u128 {
    acc.wrapping_add(x.wrapping_mul(y as u128))
}

/// 128-bit arguments and results of a device function (`.func` call).
#[kernel]
pub fn int128_call(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut acc = w128(input, i);
    for k in 0..4 {
        acc = mac128(acc, w128(input, i + k * 10), -(k as i128) - 1);
    }
    put(&mut out, idx, mix128(H0, acc));
}

/// u128 checked and overflowing add / mul, saturating sub.
#[kernel]
pub fn int128_checked(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = w128(input, i) >> (i % 64 * 2);
    let b = w128(input, i + 9) >> (i % 32 * 4);
    let mut h = mix128(H0, a.checked_add(b).unwrap_or(7));
    h = mix128(h, a.checked_mul(b).unwrap_or(9));
    let (v, o) = (a as i128).overflowing_mul(b as i128);
    h = mix128(h, v as u128);
    h = mix(h, o as u64);
    h = mix128(h, a.saturating_sub(b));
    h = mix128(h, (a as i128).saturating_add(b as i128) as u128);
    put(&mut out, idx, h);
}
