//! A generic kernel with named instances: one body, one PTX entry per
//! element type (`axpy_f32`, `axpy_f64`, `axpy_u32`, `axpy_i64`), each
//! with the launch bounds of the attribute.
#![no_std]

use core::ops::{Add, Mul};
use oxide_device::prelude::*;

/// What `axpy` needs of its element type: copy, `*` and `+` (wrapping for
/// the integers: kernels are compiled without overflow checks).
pub trait Elem: Copy + Mul<Output = Self> + Add<Output = Self> {}
impl Elem for f32 {}
impl Elem for f64 {}
impl Elem for u32 {}
impl Elem for i64 {}

/// y[i] = a * x[i] + y[i], for blocks of at most 256 threads.
#[kernel(instances(f32, f64, u32, i64), launch_bounds(max_threads = 256))]
pub fn axpy<T: Elem>(a: T, x: &[T], mut y: DisjointSlice<T>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(yi) = y.get_mut(idx) {
        *yi = a * x[i] + *yi;
    }
}
