//! c[i] = a[i] + b[i], one element per thread.
#![no_std]

use oxide_device::prelude::*;

#[kernel]
pub fn vecadd(a: &[f32], b: &[f32], mut c: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(ci) = c.get_mut(idx) {
        *ci = a[i] + b[i];
    }
}
