//! Conformance group `bits`: bit counting, rotates, byte swaps, bit
//! reversal, endianness conversions, powers of two, integer logarithms.
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

/// count_ones / count_zeros on every width.
#[kernel]
pub fn bits_popcount(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let mut h = mix(H0, (w as u8).count_ones() as u64);
    h = mix(h, (w as i16).count_ones() as u64);
    h = mix(h, (w as u32).count_zeros() as u64);
    h = mix(h, w.count_ones() as u64);
    h = mix(h, (w as i64).count_zeros() as u64);
    put(&mut out, idx, h);
}

/// leading_zeros / trailing_zeros (zero input included) on every width.
#[kernel]
pub fn bits_lz_tz(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i) >> (i % 65).min(63) & if i % 13 == 0 { 0 } else { u64::MAX };
    let mut h = mix(H0, (w as u8).leading_zeros() as u64);
    h = mix(h, (w as u16).trailing_zeros() as u64);
    h = mix(h, (w as u32).leading_zeros() as u64);
    h = mix(h, (w as i32).trailing_zeros() as u64);
    h = mix(h, w.leading_zeros() as u64);
    h = mix(h, w.trailing_zeros() as u64);
    put(&mut out, idx, h);
}

/// leading_ones / trailing_ones.
#[kernel]
pub fn bits_ones(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i) | (u64::MAX << (i % 64));
    let mut h = mix(H0, (w as u8).leading_ones() as u64);
    h = mix(h, (w as u32).trailing_ones() as u64);
    h = mix(h, w.leading_ones() as u64);
    h = mix(h, (!w).trailing_ones() as u64);
    put(&mut out, idx, h);
}

/// rotate_left / rotate_right with amounts beyond the width.
#[kernel]
pub fn bits_rotate(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let s = at(input, i + 1) as u32;
    let mut h = mix(H0, (w as u8).rotate_left(s) as u64);
    h = mix(h, (w as u16).rotate_right(s) as u64);
    h = mix(h, (w as u32).rotate_left(s) as u64);
    h = mix(h, (w as i32).rotate_right(s) as u64);
    h = mix(h, w.rotate_left(s));
    h = mix(h, w.rotate_right(s % 64));
    put(&mut out, idx, h);
}

/// swap_bytes on u16, u32, u64, i64.
#[kernel]
pub fn bits_swap_bytes(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let mut h = mix(H0, (w as u16).swap_bytes() as u64);
    h = mix(h, (w as u32).swap_bytes() as u64);
    h = mix(h, w.swap_bytes());
    h = mix(h, (w as i64).swap_bytes() as u64);
    put(&mut out, idx, h);
}

/// reverse_bits on u8, u16, u32, u64.
#[kernel]
pub fn bits_reverse_bits(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let mut h = mix(H0, (w as u8).reverse_bits() as u64);
    h = mix(h, (w as u16).reverse_bits() as u64);
    h = mix(h, (w as u32).reverse_bits() as u64);
    h = mix(h, w.reverse_bits());
    put(&mut out, idx, h);
}

/// to_be / to_le / from_be, to_be_bytes / from_le_bytes / from_ne_bytes.
#[kernel]
pub fn bits_endian_bytes(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let be = w.to_be_bytes();
    let le = (w as u32).to_le_bytes();
    let mut h = mix(H0, w.to_be());
    h = mix(h, (w as u32).to_le() as u64);
    h = mix(h, u64::from_be(w));
    h = mix(h, be[i % 8] as u64);
    h = mix(h, u32::from_le_bytes([le[3], le[1], le[2], le[0]]) as u64);
    h = mix(h, u16::from_be_bytes([be[0], be[7]]) as u64);
    h = mix(h, u64::from_ne_bytes(be));
    put(&mut out, idx, h);
}

/// is_power_of_two, next_power_of_two, ilog2 / ilog10 / checked_ilog2.
#[kernel]
pub fn bits_pow2_log(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i) >> (i % 64);
    let nz = w | 1;
    let mut h = mix(H0, w.is_power_of_two() as u64);
    h = mix(h, (w as u32 >> 1).next_power_of_two() as u64);
    h = mix(h, nz.ilog2() as u64);
    h = mix(h, nz.ilog10() as u64);
    h = mix(h, (w as u16).checked_ilog2().map_or(99, |v| v as u64));
    h = mix(h, (w as u32).checked_ilog10().map_or(98, |v| v as u64));
    h = mix(h, nz.ilog(3) as u64);
    put(&mut out, idx, h);
}

/// Bit manipulation idioms: isolate / clear lowest set bit, masks, parity.
#[kernel]
pub fn bits_idioms(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let lowest = w & w.wrapping_neg();
    let cleared = w & w.wrapping_sub(1);
    let mask = if i % 64 == 0 { 0 } else { u64::MAX >> (64 - i % 64) };
    let parity = (w.count_ones() & 1) as u64;
    let mut h = mix(H0, lowest);
    h = mix(h, cleared);
    h = mix(h, w & mask);
    h = mix(h, parity);
    h = mix(h, (w as u32 ^ (w >> 32) as u32) as u64);
    put(&mut out, idx, h);
}

/// ilog2 of zero panics: thread 3 traps.
#[kernel]
pub fn bits_trap_ilog2_zero(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = if i == 3 { 0 } else { at(input, i) | 1 };
    put(&mut out, idx, w.ilog2() as u64);
}
