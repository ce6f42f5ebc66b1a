#![no_std]
use oxide_device::prelude::*;

trait Shape {
    fn area(&self) -> u32;
    fn scaled(&self, k: u32) -> u32 {
        self.area() * k
    }
}
struct Sq(u32);
struct Rect(u32, u32);
impl Shape for Sq {
    fn area(&self) -> u32 { self.0 * self.0 }
}
impl Shape for Rect {
    fn area(&self) -> u32 { self.0 * self.1 }
    fn scaled(&self, k: u32) -> u32 { self.0 * k + self.1 }
}

#[inline(never)]
fn measure(s: &dyn Shape, k: u32) -> u32 {
    s.scaled(k) + s.area() + core::mem::size_of_val(s) as u32
}

#[inline(never)]
fn run(g: &mut dyn FnMut(u32) -> u32) -> u32 {
    g(1) + g(2)
}

#[kernel]
pub fn dyn_call(out: &mut [u32]) {
    let i = thread::index_1d().get();
    let (a, b) = (Sq(i as u32), Rect(2, i as u32));
    let s: &dyn Shape = if i % 2 == 0 { &a } else { &b };
    let mut acc = 0u32;
    let r = run(&mut |x| { acc += x; acc });
    out[i] = measure(s, 3) + r + acc;
}
