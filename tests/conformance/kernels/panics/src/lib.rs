//! Conformance group `panics`: every way a kernel panics (unwrap, expect,
//! panic!, assert!, unreachable!, index and slice range out of bounds,
//! failed conversions) traps the launch; kernels that check without
//! panicking run normally. Only some threads panic in each trap kernel.
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

/// Option::unwrap on None in thread 77 (others Some).
#[kernel]
pub fn panics_unwrap_none(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let o = if i == 77 { None } else { Some(at(input, i)) };
    put(&mut out, idx, o.unwrap());
}

/// Option::expect with a message on None in thread 3.
#[kernel]
pub fn panics_expect_none(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let o = input.get(if i == 3 { 5000 } else { i });
    put(&mut out, idx, *o.expect("input word"));
}

/// Result::unwrap on Err in thread 100.
#[kernel]
pub fn panics_result_unwrap_err(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let r: Result<u64, u8> = if i == 100 { Err(1) } else { Ok(at(input, i)) };
    put(&mut out, idx, r.unwrap());
}

/// panic!() with a literal message in thread 64 (first thread of block 1).
#[kernel]
pub fn panics_explicit_panic(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    if i == 64 {
        panic!("thread 64 gives up");
    }
    put(&mut out, idx, at(input, i));
}

/// assert!(cond) failing in thread 0 only.
#[kernel]
pub fn panics_assert(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    assert!(i != 0);
    put(&mut out, idx, at(input, i));
}

/// unreachable!() reached in thread 127.
#[kernel]
pub fn panics_unreachable(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let v = match i % 128 {
        0..=126 => at(input, i),
        _ => unreachable!(),
    };
    put(&mut out, idx, v);
}

/// Slice index out of bounds (index == len) in thread 77.
#[kernel]
pub fn panics_index_oob(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let k = if i == 77 { input.len() } else { i };
    put(&mut out, idx, input[k]);
}

/// Local array index out of bounds in thread 31.
#[kernel]
pub fn panics_array_oob(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = [at(input, i), 1, 2, 3];
    let k = if i == 31 { 4 } else { i % 4 };
    put(&mut out, idx, a[k]);
}

/// Slice range end past the length (`&s[a..b]`, b > len) in thread 9.
#[kernel]
pub fn panics_range_end_oob(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let end = if i == 9 { input.len() + 1 } else { i + 4 };
    let s = &input[i..end];
    put(&mut out, idx, s[0] ^ s.len() as u64);
}

/// Slice range start > end in thread 50.
#[kernel]
pub fn panics_range_inverted(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let (a, b) = if i == 50 { (10, 5) } else { (i, i + 2) };
    let s = &input[a..b];
    put(&mut out, idx, s.len() as u64);
}

/// u8::try_from(u32).unwrap() failing in thread 12.
#[kernel]
pub fn panics_try_from(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let v: u32 = if i == 12 { 300 } else { (at(input, i) % 256) as u32 };
    put(&mut out, idx, u8::try_from(v).unwrap() as u64);
}

/// char::from_u32(surrogate).unwrap() in thread 44.
#[kernel]
pub fn panics_char_from_u32(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let cp = if i == 44 { 0xD800 } else { (at(input, i) % 0xD000) as u32 };
    put(&mut out, idx, char::from_u32(cp).unwrap() as u64);
}

#[inline(never)]
fn deep_index(xs: &[u64], k: usize) -> u64 {
    xs[k]
}

/// A panic inside a device function (`.func`) traps the whole launch.
#[kernel]
pub fn panics_in_device_fn(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let k = if i == 90 { 2000 } else { i };
    put(&mut out, idx, deep_index(input, k));
}

/// checked_add(..).unwrap() overflowing in thread 1.
#[kernel]
pub fn panics_checked_unwrap(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = if i == 1 { u64::MAX } else { at(input, i) >> 1 };
    put(&mut out, idx, a.checked_add(at(input, i + 1) >> 1 | 1).unwrap());
}

/// No thread panics: unwrap / expect / index on valid values (runs normally).
#[kernel]
pub fn panics_none_taken(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = input.get(i).copied().unwrap();
    let b = char::from_u32((a % 0xD000) as u32).expect("valid");
    let c = u16::try_from(a % 60000).unwrap();
    assert!(a == input[i]);
    put(&mut out, idx, mix(mix(a, b as u64), c as u64));
}

/// All threads panic (assert!(false) behind an input-dependent condition).
#[kernel]
pub fn panics_all_threads(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    assert!(input.len() != N_IN);
    put(&mut out, idx, i as u64);
}
