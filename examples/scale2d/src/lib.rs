//! A 2-D kernel: out[r][c] = m[r][c] * s + r - c, one thread per element,
//! through `thread::index_2d` and the row-major `DisjointSlice2D` view.
#![no_std]
use oxide_device::prelude::*;

#[kernel]
pub fn scale2d(m: &[f32], s: f32, mut out: DisjointSlice2D<f32>) {
    let idx = thread::index_2d();
    let cols = out.cols();
    let (r, c) = (idx.row(), idx.col());
    if let Some(o) = out.get_mut(idx) {
        *o = m[r * cols + c] * s + r as f32 - c as f32;
    }
}
