#![no_std]
use oxide_device::prelude::*;

trait Shape {
    fn area(&self) -> u32;
}
struct W<T>(T);
impl<T: Copy + Into<u32>> Shape for W<T> {
    fn area(&self) -> u32 { self.0.into() * 3 }
}

#[inline(never)]
fn area_of(s: &dyn Shape) -> u32 {
    s.area()
}

#[kernel]
pub fn dyn_generic_impl(out: &mut [u32]) {
    let i = thread::index_1d().get();
    let (a, b) = (W(i as u8), W(i as u16));
    let s: &dyn Shape = if i % 2 == 0 { &a } else { &b };
    out[i] = area_of(s);
}
