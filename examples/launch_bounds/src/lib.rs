//! Launch attributes: `.maxntid` / `.minnctapersm` and `.reqntid`.
#![no_std]

use oxide_device::prelude::*;

/// y[i] = a * x[i] + y[i], for blocks of at most 256 threads, at least 2
/// blocks per SM.
#[kernel(launch_bounds(max_threads = 256, min_blocks = 2))]
pub fn bounded_saxpy(a: f32, x: &[f32], mut y: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(yi) = y.get_mut(idx) {
        *yi = a * x[i] + *yi;
    }
}

/// out[i] = i * 3 + 1 for blocks of exactly 128 threads.
#[kernel(reqntid(128))]
pub fn exact_block(mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let v = idx.get() as u32 * 3 + 1;
    if let Some(o) = out.get_mut(idx) {
        *o = v;
    }
}
