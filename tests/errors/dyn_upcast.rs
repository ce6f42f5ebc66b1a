#![no_std]
use oxide_device::prelude::*;

// Upcasting to a supertrait that is not on the first chain of supertraits
// (`B` of `C: A + B`): rustc's vtable of `dyn C` holds a pointer to the
// vtable of `dyn B` (a TraitVPtr word), which oxidec does not make.
// (Upcasts along the first chain keep the vtable: conformance `reflect`.)
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
fn b_of(x: &dyn B) -> u32 {
    x.b()
}

#[kernel]
pub fn dyn_upcast(out: &mut [u32]) {
    let i = thread::index_1d().get();
    let s = S(i as u32);
    let c: &dyn C = &s;
    out[i] = b_of(c) + c.c();
}
