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

// `B` is off `C`'s first chain of supertraits: rustc's vtable of `dyn C`
// holds the address of S's vtable as `dyn B` (a TraitVPtr word, word 5),
// which the upcast loads.
#[inline(never)]
fn b_of(x: &dyn B) -> u32 {
    x.b()
}

#[inline(never)]
fn up(c: &dyn C) -> &dyn B {
    c
}

#[kernel]
pub fn dyn_upcast(out: &mut [u32]) {
    let i = thread::index_1d().get();
    let s = S(i as u32);
    let c: &dyn C = &s;
    out[i] = b_of(up(c)) + c.c();
}
