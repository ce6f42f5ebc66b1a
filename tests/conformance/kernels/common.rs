//! Helpers shared by every conformance kernel crate (docs/conformance.md).
//!
//! Included by each group's `src/lib.rs` as
//! `#[path = "../../common.rs"] mod common;` so that mir-export (which
//! compiles the group crate) and the CPU reference (which links it) see the
//! same code. Everything is `#[inline(always)]`: the helpers must not add
//! device calls of their own to the kernels that use them.
#![allow(dead_code)]

use oxide_device::prelude::*;

/// Number of input words (docs/conformance.md).
pub const N_IN: usize = 1024;

/// This thread's index, as the token for `out` and as a number.
#[inline(always)]
pub fn tid() -> (ThreadIndex, usize) {
    let idx = thread::index_1d();
    (idx, idx.get())
}

/// Input word `k` modulo the input length (bounds-checked).
#[inline(always)]
pub fn at(input: &[u64], k: usize) -> u64 {
    input[k % N_IN]
}

/// Writes this thread's digest.
#[inline(always)]
pub fn put(out: &mut DisjointSlice<u64>, idx: ThreadIndex, v: u64) {
    if let Some(o) = out.get_mut(idx) {
        *o = v;
    }
}

/// One FNV-style step: a bijection in `h` for fixed `v` and in `v` for fixed
/// `h`, so a single wrong value always changes the final digest.
#[inline(always)]
pub fn mix(h: u64, v: u64) -> u64 {
    (h ^ v).wrapping_mul(0x0000_0100_0000_01b3)
}

/// Start value of a digest.
pub const H0: u64 = 0xcbf2_9ce4_8422_2325;

/// f32 bits with every NaN made the canonical quiet NaN.
#[inline(always)]
pub fn canon32(x: f32) -> u64 {
    if x.is_nan() {
        0x7FC0_0000
    } else {
        x.to_bits() as u64
    }
}

/// x, or the canonical quiet NaN when x is a NaN.
#[inline(always)]
pub fn canon_nan32(x: f32) -> f32 {
    if x.is_nan() {
        f32::from_bits(0x7FC0_0000)
    } else {
        x
    }
}

/// f64 bits with every NaN made the canonical quiet NaN.
#[inline(always)]
pub fn canon64(x: f64) -> u64 {
    if x.is_nan() {
        0x7FF8_0000_0000_0000
    } else {
        x.to_bits()
    }
}

/// An f32 from the low 32 bits of an input word (specials included).
#[inline(always)]
pub fn f32_of(w: u64) -> f32 {
    f32::from_bits(w as u32)
}

/// An f64 from an input word.
#[inline(always)]
pub fn f64_of(w: u64) -> f64 {
    f64::from_bits(w)
}
