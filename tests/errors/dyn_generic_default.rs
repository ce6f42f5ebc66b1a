#![no_std]
use oxide_device::prelude::*;

trait Gen<T> {
    fn get(&self) -> T;
    fn twice(&self) -> (T, T) {
        (self.get(), self.get())
    }
}
struct S(u32);
impl Gen<u32> for S {
    fn get(&self) -> u32 { self.0 }
}

#[inline(never)]
fn both(g: &dyn Gen<u32>) -> u32 {
    let (a, b) = g.twice();
    a + b
}

#[kernel]
pub fn dyn_generic_default(out: &mut [u32]) {
    let i = thread::index_1d().get();
    out[i] = both(&S(i as u32));
}
