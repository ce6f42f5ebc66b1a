#![no_std]
use oxide_device::prelude::*;

// Two `L`s in two blocks of one function: rustc prints both
// `local_types_same_fn::L`, so the MIR cannot tell them apart.
#[kernel]
pub fn local_types_same_fn(out: &mut [u32]) {
    let i = thread::index_1d().get();
    let x = {
        struct L(u32, u8);
        let ls = [L(i as u32, 1), L(7, 3)];
        let l = &ls[i & 1];
        l.0 + l.1 as u32
    };
    let y = {
        struct L(u8, u64);
        let ls = [L(i as u8, 2), L(5, 9)];
        let l = &ls[i & 1];
        l.0 as u32 + l.1 as u32
    };
    out[i] = x + y;
}
