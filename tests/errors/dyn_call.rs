#![no_std]
use oxide_device::prelude::*;

trait Shape {
    fn area(&self) -> u32;
}
struct Sq(u32);
struct Rect(u32, u32);
impl Shape for Sq {
    fn area(&self) -> u32 { self.0 * self.0 }
}
impl Shape for Rect {
    fn area(&self) -> u32 { self.0 * self.1 }
}

#[inline(never)]
fn area_of(s: &dyn Shape) -> u32 {
    s.area()
}

#[kernel]
pub fn dyn_call(out: &mut [u32]) {
    let i = thread::index_1d().get();
    let (a, b) = (Sq(i as u32), Rect(2, i as u32));
    let s: &dyn Shape = if i % 2 == 0 { &a } else { &b };
    out[i] = area_of(s);
}
