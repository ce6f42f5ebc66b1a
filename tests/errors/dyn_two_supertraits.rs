#![no_std]
use oxide_device::prelude::*;

trait A {
    fn a(&self) -> u32;
}
trait B {
    fn b(&self) -> u32;
}
trait C: A + B {
    fn c(&self) -> u32;
}
struct S(u32);
impl A for S {
    fn a(&self) -> u32 { self.0 }
}
impl B for S {
    fn b(&self) -> u32 { self.0 * 2 }
}
impl C for S {
    fn c(&self) -> u32 { self.0 * 3 }
}

#[inline(never)]
fn all(x: &dyn C) -> u32 {
    x.a() + x.b() + x.c()
}

#[kernel]
pub fn dyn_two_supertraits(out: &mut [u32]) {
    let i = thread::index_1d().get();
    let s = S(i as u32);
    out[i] = all(&s);
}
