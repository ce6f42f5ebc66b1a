#![no_std]
use oxide_device::prelude::*;

// `L` of `a` and `L` of `b` are each named in their own function's body
// only: no place in the crate names a pair of them for rustc's layout.
#[inline(always)]
fn a(x: u32) -> impl Copy {
    #[derive(Clone, Copy)]
    struct L(u32, u8);
    L(x, 1)
}

#[inline(always)]
fn b(x: u32) -> impl Copy {
    #[derive(Clone, Copy)]
    struct L(u8, u64);
    L(x as u8, 2)
}

#[inline(never)]
fn keep<T: Copy>(t: T) -> T {
    t
}

#[kernel]
pub fn local_types_two_fns(out: &mut [u32]) {
    let i = thread::index_1d().get();
    let p = keep((a(i as u32), b(i as u32)));
    out[i] = core::mem::size_of_val(&p) as u32;
}
