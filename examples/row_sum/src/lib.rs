//! out[i] = sum of row i of a row-major matrix with `ncols` columns,
//! one row per thread, summed left to right.
#![no_std]

use oxide_device::prelude::*;

#[kernel]
pub fn row_sum(m: &[f32], ncols: u32, mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let ncols = ncols as usize;
    if let Some(o) = out.get_mut(idx) {
        let mut acc = 0.0f32;
        for j in 0..ncols {
            acc += m[i * ncols + j];
        }
        *o = acc;
    }
}
