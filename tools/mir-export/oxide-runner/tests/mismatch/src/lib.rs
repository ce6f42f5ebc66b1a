//! One kernel for tests/runner.rs: its result holds the constant
//! 0x5eed_f00d, which the test's stand-in oxidec changes.
#![no_std]
use oxide_device::prelude::*;

/// Random kernel 1 (a stand-in): every word xor a constant.
#[kernel]
pub fn mismatch_k(input: &[u64], mut out: DisjointSlice<u64>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let v = input[i % input.len()] ^ 0x5eed_f00d;
    if let Some(o) = out.get_mut(idx) {
        *o = v;
    }
}
