#![no_std]
use oxide_device::prelude::*;

trait Shape {
    fn area(&self) -> u32;
}
struct Sq(u32);
struct Unit;
impl Shape for Sq {
    fn area(&self) -> u32 { self.0 * self.0 }
}
impl Shape for Unit {
    fn area(&self) -> u32 { 7 }
}

static SHAPES: [&(dyn Shape + Sync); 2] = [&Sq(3), &Unit];

#[kernel]
pub fn dyn_static(out: &mut [u32]) {
    let i = thread::index_1d().get();
    out[i] = SHAPES[i % 2].area();
}
