//! tests/install/project: out[i] = x[i] * k + i (wrapping), one element
//! per thread (x[i] bounds-checked).
#![no_std]

use oxide_device::prelude::*;

#[kernel]
pub fn mul_add_index(k: u32, x: &[u32], mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = x[i].wrapping_mul(k).wrapping_add(i as u32);
    }
}
