#![no_std]
// rustc prints the template unescaped in its MIR (`asm!("add {0}, 1 // "quoted" ..`): mir-export
// must not fail on it as a string literal, but refuse the asm! at its line.
use oxide_device::prelude::*;

#[inline(always)]
fn nop_add(x: u64) -> u64 {
    let mut y = x;
    unsafe { core::arch::asm!("add {0}, 1 // \"quoted\" {{ }}", inout(reg) y) };
    y
}

#[kernel]
pub fn inline_asm(input: &[u64], mut out: DisjointSlice<u64>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = nop_add(input[i]);
    }
}
