#![no_std]
use oxide_device::prelude::*;

trait Shape {
    fn area(&self) -> u32;
}
struct Sq(u32);
impl Shape for Sq {
    fn area(&self) -> u32 { self.0 * self.0 }
}

#[kernel]
pub fn dyn_method_pointer(out: &mut [u32]) {
    let i = thread::index_1d().get();
    let f: fn(&(dyn Shape + 'static)) -> u32 = <dyn Shape as Shape>::area;
    static SQ: Sq = Sq(3);
    out[i] = f(&SQ) + i as u32;
}
