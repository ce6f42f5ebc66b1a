//! y[i] = a * x[i] + y[i], one element per thread (two roundings, no FMA).
#![no_std]

use oxide_device::prelude::*;

#[kernel]
pub fn saxpy(a: f32, x: &[f32], mut y: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(yi) = y.get_mut(idx) {
        *yi = a * x[i] + *yi;
    }
}
