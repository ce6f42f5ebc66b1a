//! Conformance group `ints`: integer arithmetic of every width.
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
    let h = mix(mix(mix(H0, a.wrapping_add(b) as u64), a.wrapping_sub(b) as u64), a.wrapping_mul(b) as u64);
    put(&mut out, idx, h);
}
