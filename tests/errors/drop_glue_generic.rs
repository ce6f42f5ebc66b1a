#![no_std]
use oxide_device::prelude::*;

pub struct Guard<'a, T: Copy> {
    slot: &'a mut T,
    value: T,
}

impl<T: Copy> Drop for Guard<'_, T> {
    fn drop(&mut self) {
        *self.slot = self.value;
    }
}

#[kernel]
pub fn drop_glue_generic(out: &mut [u32]) {
    let i = thread::index_1d().get();
    let g = Guard { slot: &mut out[i], value: 7u32 };
    *g.slot = 3;
}
