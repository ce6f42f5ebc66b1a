//! out[i] = TABLE[idx[i] % 64] * x[i], with TABLE in constant memory
//! (`Constant<[f32; 64]>`), set by the host by name before the launch;
//! `OFFSET` (also constant memory, left at its initializer 0.5 unless the
//! host sets it) is added.
#![no_std]

use oxide_device::prelude::*;

static TABLE: Constant<[f32; 64]> = Constant::new([0.0; 64]);
static OFFSET: Constant<f32> = Constant::new(0.5);

#[kernel]
pub fn const_lookup(idx: &[u32], x: &[f32], mut out: DisjointSlice<f32>) {
    let t = thread::index_1d();
    let i = t.get();
    if let Some(o) = out.get_mut(t) {
        *o = TABLE.get()[(idx[i] % 64) as usize] * x[i] + *OFFSET.get();
    }
}
