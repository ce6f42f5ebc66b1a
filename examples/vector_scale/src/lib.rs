//! Vector access through safe views: `as_vectors` checks once that a
//! slice starts at the vector type's alignment and splits it into whole
//! vectors and a tail, so every thread moves 16 bytes in one load and one
//! store (`ld.global.v4.b32`, `st.global.v4.b32`) without raw pointers.
#![no_std]

use oxide_device::prelude::*;
use oxide_device::vector::*;

/// y = s * x, four lanes per thread (thread i: x[4 i .. 4 i + 4]), the
/// elements after the last whole vector one per thread; when x or y is not
/// 16-byte aligned, nothing is written.
#[kernel]
pub fn scale_f32x4(x: &[f32], y: DisjointSlice<f32>, s: f32) {
    let i = thread::index_1d();
    let (Some((xv, xt)), Some((mut yv, mut yt))) = (as_vectors::<f32x4>(x), y.as_vectors::<f32x4>()) else {
        return;
    };
    if let (Some(d), Some(v)) = (yv.get_mut(i), xv.get(i.get())) {
        *d = *v * f32x4::splat(s);
    }
    if let (Some(d), Some(v)) = (yt.get_mut(i), xt.get(i.get())) {
        *d = *v * s;
    }
}

/// y = x for bf16 rows, eight lanes (16 bytes) per thread, the tail one
/// per thread.
#[kernel]
pub fn copy_bf16x8(x: &[u16], y: DisjointSlice<u16>) {
    let i = thread::index_1d();
    let (Some((xv, xt)), Some((mut yv, mut yt))) = (as_vectors::<u16x8>(x), y.as_vectors::<u16x8>()) else {
        return;
    };
    if let (Some(d), Some(v)) = (yv.get_mut(i), xv.get(i.get())) {
        *d = *v;
    }
    if let (Some(d), Some(v)) = (yt.get_mut(i), xt.get(i.get())) {
        *d = *v;
    }
}

/// z = x + y in f64 pairs (16 bytes per operand per thread).
#[kernel]
pub fn add_f64x2(x: &[f64], y: &[f64], z: DisjointSlice<f64>) {
    let i = thread::index_1d();
    let (Some((xv, xt)), Some((yv, yt)), Some((mut zv, mut zt))) =
        (as_vectors::<f64x2>(x), as_vectors::<f64x2>(y), z.as_vectors::<f64x2>())
    else {
        return;
    };
    if let (Some(d), Some(a), Some(b)) = (zv.get_mut(i), xv.get(i.get()), yv.get(i.get())) {
        *d = *a + *b;
    }
    if let (Some(d), Some(a), Some(b)) = (zt.get_mut(i), xt.get(i.get()), yt.get(i.get())) {
        *d = *a + *b;
    }
}
