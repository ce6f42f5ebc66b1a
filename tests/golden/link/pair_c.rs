#![no_std]
use oxide_device::prelude::*;

#[derive(Clone, Copy)]
pub struct Pair { pub x: u16, pub y: u32 }

#[inline(never)]
pub fn getc(p: &Pair) -> u32 { p.y + p.x as u32 }

#[kernel]
pub fn kc(a: &[u32], mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let p = Pair { x: a[i] as u16, y: a[i] };
    if let Some(o) = out.get_mut(idx) { *o = getc(&p); }
}
