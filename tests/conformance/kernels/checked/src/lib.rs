//! Conformance group `checked`: checked_*, overflowing_*, saturating_*,
//! wrapping_*, strict-free unchecked_* arithmetic of every width.
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

macro_rules! checked_ops {
    ($h:ident, $t:ty, $a:expr, $b:expr) => {{
        let (a, b) = ($a as $t, $b as $t);
        $h = mix($h, a.checked_add(b).map_or(0xA, |v| v as u64));
        $h = mix($h, a.checked_sub(b).map_or(0xB, |v| v as u64));
        $h = mix($h, a.checked_mul(b).map_or(0xC, |v| v as u64));
    }};
}

/// checked_add / sub / mul on u8, u16, u32, u64, usize.
#[kernel]
pub fn checked_unsigned(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i) >> (i % 8 * 8);
    let b = at(input, i + 1) >> (i % 16 * 4);
    let mut h = H0;
    checked_ops!(h, u8, a, b);
    checked_ops!(h, u16, a, b);
    checked_ops!(h, u32, a, b);
    checked_ops!(h, u64, a, b);
    checked_ops!(h, usize, a, b);
    put(&mut out, idx, h);
}

/// checked_add / sub / mul on i8, i16, i32, i64, isize.
#[kernel]
pub fn checked_signed(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i) >> (i % 8 * 8);
    let b = at(input, i + 1) >> (i % 16 * 4);
    let mut h = H0;
    checked_ops!(h, i8, a, b);
    checked_ops!(h, i16, a, b);
    checked_ops!(h, i32, a, b);
    checked_ops!(h, i64, a, b);
    checked_ops!(h, isize, a, b);
    put(&mut out, idx, h);
}

/// checked_neg, checked_abs, checked_pow, checked_next_power_of_two.
#[kernel]
pub fn checked_unary(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let e = (at(input, i + 1) % 40) as u32;
    let mut h = mix(H0, (w as i32).checked_neg().map_or(1, |v| v as u64));
    h = mix(h, (w as u32).checked_neg().map_or(2, |v| v as u64));
    h = mix(h, (w as i8).checked_abs().map_or(3, |v| v as u64));
    h = mix(h, ((w % 20) as u32).checked_pow(e).map_or(4, |v| v as u64));
    h = mix(h, ((w % 5) as i64 - 2).checked_pow(e * 2).map_or(5, |v| v as u64));
    h = mix(h, (w >> (i % 64)).checked_next_power_of_two().unwrap_or(6));
    put(&mut out, idx, h);
}

/// overflowing_add / sub / mul / neg (value and flag) on u32, i32, u64, i8.
#[kernel]
pub fn checked_overflowing(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i) >> (i % 4 * 16);
    let b = at(input, i + 1) >> (i % 8 * 8);
    let mut h = H0;
    macro_rules! ov {
        ($t:ty) => {{
            let (x, y) = (a as $t, b as $t);
            let (v, o) = x.overflowing_add(y);
            h = mix(mix(h, v as u64), o as u64);
            let (v, o) = x.overflowing_sub(y);
            h = mix(mix(h, v as u64), o as u64);
            let (v, o) = x.overflowing_mul(y);
            h = mix(mix(h, v as u64), o as u64);
            let (v, o) = x.overflowing_neg();
            h = mix(mix(h, v as u64), o as u64);
        }};
    }
    ov!(u32);
    ov!(i32);
    ov!(u64);
    ov!(i8);
    ov!(i64);
    put(&mut out, idx, h);
}

/// saturating_add / sub / mul on unsigned widths.
#[kernel]
pub fn checked_saturating_unsigned(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i) >> (i % 8 * 8);
    let b = at(input, i + 1) >> (i % 4 * 16);
    let mut h = H0;
    macro_rules! sat {
        ($t:ty) => {{
            let (x, y) = (a as $t, b as $t);
            h = mix(h, x.saturating_add(y) as u64);
            h = mix(h, x.saturating_sub(y) as u64);
            h = mix(h, x.saturating_mul(y) as u64);
        }};
    }
    sat!(u8);
    sat!(u16);
    sat!(u32);
    sat!(u64);
    put(&mut out, idx, h);
}

/// saturating_add / sub / mul / neg / abs on signed widths.
#[kernel]
pub fn checked_saturating_signed(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i) >> (i % 8 * 8);
    let b = at(input, i + 1) >> (i % 4 * 16);
    let mut h = H0;
    macro_rules! sat {
        ($t:ty) => {{
            let (x, y) = (a as $t, b as $t);
            h = mix(h, x.saturating_add(y) as u64);
            h = mix(h, x.saturating_sub(y) as u64);
            h = mix(h, x.saturating_mul(y) as u64);
            h = mix(h, x.saturating_neg() as u64);
            h = mix(h, x.saturating_abs() as u64);
        }};
    }
    sat!(i8);
    sat!(i16);
    sat!(i32);
    sat!(i64);
    put(&mut out, idx, h);
}

/// saturating_pow, saturating_div (i32 MIN / -1 saturates), wrapping_pow.
#[kernel]
pub fn checked_saturating_misc(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let e = (at(input, i + 1) % 70) as u32;
    let a = if i % 4 == 0 { i32::MIN } else { w as i32 };
    let d = if i % 2 == 0 { -1 } else { (w >> 33) as i32 | 1 };
    let mut h = mix(H0, ((w % 9) as u64).saturating_pow(e));
    h = mix(h, ((w % 9) as i16 - 4).saturating_pow(e) as u64);
    h = mix(h, a.saturating_div(d) as u64);
    h = mix(h, ((w % 7) as i64).wrapping_pow(e) as u64);
    put(&mut out, idx, h);
}

/// unchecked_add / sub / mul on values that cannot overflow.
#[kernel]
pub fn checked_unchecked_arith(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = (at(input, i) >> 34) as u32; // < 2^30
    let b = (at(input, i + 1) >> 34) as u32;
    let c = (at(input, i + 2) >> 48) as i32; // < 2^16
    let d = (at(input, i + 3) >> 49) as i32 - 16384;
    // SAFETY: the operands are small enough for every result to fit.
    let (s, t, m, n) = unsafe { (a.unchecked_add(b), a.max(b).unchecked_sub(a.min(b)), c.unchecked_mul(d), (c as i64).unchecked_sub(d as i64)) };
    let mut h = mix(H0, s as u64);
    h = mix(h, t as u64);
    h = mix(h, m as u64);
    h = mix(h, n as u64);
    put(&mut out, idx, h);
}

/// wrapping_add / sub / mul / neg / abs on i64 and u8 at their limits.
#[kernel]
pub fn checked_wrapping_limits(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let edge = match i % 4 {
        0 => i64::MAX,
        1 => i64::MIN,
        2 => -1,
        _ => w as i64,
    };
    let mut h = mix(H0, edge.wrapping_add(1) as u64);
    h = mix(h, edge.wrapping_sub(1) as u64);
    h = mix(h, edge.wrapping_mul(w as i64) as u64);
    h = mix(h, edge.wrapping_neg() as u64);
    h = mix(h, edge.wrapping_abs() as u64);
    h = mix(h, (edge as u8).wrapping_add(200) as u64);
    put(&mut out, idx, h);
}

/// `+ - *` with overflow checks off (release) wrap like wrapping_*.
#[kernel]
pub fn checked_plain_ops_wrap(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i);
    let b = at(input, i + 1);
    let mut h = mix(H0, a + b);
    h = mix(h, a - b);
    h = mix(h, a * b);
    h = mix(h, ((a as i32) + (b as i32)) as u64);
    h = mix(h, ((a as i8) * (b as i8)) as u64);
    h = mix(h, (-(a as i16)) as u64);
    put(&mut out, idx, h);
}

/// carrying/borrowing by hand: overflowing_add chains over a 256-bit sum.
#[kernel]
pub fn checked_carry_chain(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut acc = [0u64; 4];
    for k in 0..4 {
        let mut carry = false;
        for j in 0..4 {
            let (s1, c1) = acc[j].overflowing_add(at(input, i + k * 4 + j));
            let (s2, c2) = s1.overflowing_add(carry as u64);
            acc[j] = s2;
            carry = c1 | c2;
        }
    }
    let h = mix(mix(mix(mix(H0, acc[0]), acc[1]), acc[2]), acc[3]);
    put(&mut out, idx, h);
}
