#![no_std]
use oxide_device::prelude::*;

#[derive(Clone, Copy)]
pub struct Pair { pub x: u32, pub y: u16 }

#[inline(never)]
pub fn geta(p: &Pair) -> u32 { p.x + p.y as u32 }

#[kernel]
pub fn ka(a: &[u32], mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let p = Pair { x: a[i], y: a[i] as u16 };
    if let Some(o) = out.get_mut(idx) { *o = geta(&p); }
}
