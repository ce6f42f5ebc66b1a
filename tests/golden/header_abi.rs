// tests/golden/header_abi.rs: the source of header_abi.mir.json
// (mir-export of a crate with this lib.rs and oxide-device).
//! Kernel parameters of every kind `oxidec --emit=header` describes in C:
//! #[repr(C)] structs by value (in memory: one .param array; two scalars:
//! two PTX parameters), nested with an array member, pointers to them,
//! slices, DisjointSlice and DisjointSlice2D, atomics, references and
//! scalars of each C type.
#![no_std]
use core::sync::atomic::{AtomicU32, Ordering};
use oxide_device::prelude::*;

#[repr(C)]
#[derive(Clone, Copy)]
pub struct Inner {
    pub scale: f32,
    pub bias: [i16; 3],
}

#[repr(C)]
pub struct Params {
    pub n: u64,
    pub inner: Inner,
    pub flag: bool,
    pub mask: u8,
    pub out: *mut u32,
}

#[repr(C, align(16))]
pub struct Pair {
    pub lo: f32,
    pub hi: u32,
}

#[repr(C)]
pub struct Two {
    pub a: f32,
    pub b: u32,
}

#[kernel]
pub fn by_value(p: Params, q: Pair, t: Two, x: &[u32], mut y: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(yi) = y.get_mut(idx) {
        let b = p.inner.bias[0] as f32 + p.inner.bias[1] as f32 - p.inner.bias[2] as f32;
        let v = x[i] as f32 * p.inner.scale + b + q.lo + q.hi as f32 + t.a + t.b as f32;
        *yi = if p.flag { v } else { v + p.n as f32 };
    }
    if i == 0 {
        unsafe { *p.out = p.mask as u32 };
    }
}

#[kernel]
pub fn pointers(a: *const Two, b: *mut u64, c: &u32, d: &mut i64, counts: &[AtomicU32], e: usize, f: i8, g: bool,
                h: f64, ch: char, mut m: DisjointSlice2D<f32>) {
    let idx = thread::index_2d();
    let two = unsafe { &*a };
    counts[0].fetch_add(two.b + *c, Ordering::Relaxed);
    if let Some(o) = m.get_mut(idx) {
        *o = two.a + e as f32 + f as f32 + if g { h as f32 } else { ch as u32 as f32 };
    }
    if idx.row() == 0 && idx.col() == 0 {
        unsafe { *b = 7 };
        *d += 1;
    }
}
