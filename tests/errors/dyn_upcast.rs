#![no_std]
use oxide_device::prelude::*;

trait Base {
    fn base(&self) -> u32;
}
trait Top: Base {
    fn top(&self) -> u32;
}
struct S(u32);
impl Base for S {
    fn base(&self) -> u32 { self.0 }
}
impl Top for S {
    fn top(&self) -> u32 { self.0 + 1 }
}

#[inline(never)]
fn base_of(b: &dyn Base) -> u32 {
    b.base()
}

#[kernel]
pub fn dyn_upcast(out: &mut [u32]) {
    let i = thread::index_1d().get();
    let s = S(i as u32);
    let t: &dyn Top = &s;
    out[i] = base_of(t) + t.top();
}
