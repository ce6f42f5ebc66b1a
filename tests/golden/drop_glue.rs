#![no_std]
// Drop glue: the `Drop` of `g` at the end of the kernel adds 1 to the 7
// written before it (oxidec folds both into one store of 8).
use oxide_device::prelude::*;

pub struct Guard<'a> {
    slot: &'a mut u32,
}

impl Drop for Guard<'_> {
    fn drop(&mut self) {
        *self.slot += 1;
    }
}

#[inline(never)]
fn make(slot: &mut u32) -> Guard<'_> {
    Guard { slot }
}

#[kernel]
pub fn drop_glue(out: &mut [u32]) {
    let i = thread::index_1d().get();
    let g = make(&mut out[i]);
    *g.slot = 7;
}
