//! Conformance group `panics_fmt`: panics whose message formats runtime
//! values (core::fmt::Arguments with argument references), assert_eq!,
//! expect on Result with a Debug payload. Kept apart from `panics`:
//! formatting machinery is the most likely to stop the exporter.
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

/// panic!("{}", value) in thread 5.
#[kernel]
pub fn panics_fmt_panic_display(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let v = at(input, i);
    if i == 5 {
        panic!("bad value {} at {}", v, i);
    }
    put(&mut out, idx, v);
}

/// assert_eq! failing in thread 70.
#[kernel]
pub fn panics_fmt_assert_eq(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    assert_eq!(at(input, i) & 0, (i == 70) as u64);
    put(&mut out, idx, at(input, i));
}

/// assert! with a formatted message failing in thread 127.
#[kernel]
pub fn panics_fmt_assert_msg(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    assert!(i < 127, "thread {} out of range ({:x})", i, at(input, i));
    put(&mut out, idx, at(input, i));
}

/// Result::expect on Err(u32) (Debug-formatted payload) in thread 33.
#[kernel]
pub fn panics_fmt_result_expect(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let r: Result<u64, u32> = if i == 33 { Err(i as u32) } else { Ok(at(input, i)) };
    put(&mut out, idx, r.expect("need a value"));
}

/// assert_ne! that never fails (formatting code present, not executed).
#[kernel]
pub fn panics_fmt_assert_ne_passes(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let v = at(input, i) | 1;
    assert_ne!(v, 0);
    put(&mut out, idx, v);
}
