#![no_std]
use oxide_device::prelude::*;
pub struct Guard<'a> { slot: &'a mut u32 }
impl Drop for Guard<'_> { fn drop(&mut self) { *self.slot += 1; } }
#[kernel]
pub fn drop_iter(out: &mut [u32]) {
    let i = thread::index_1d().get();
    let (a, b) = out.split_at_mut(i);
    for g in [Guard { slot: &mut a[0] }, Guard { slot: &mut b[0] }] { *g.slot += 2; }
}
