// tests/golden/lane_1d.rs: the source of lane_1d.mir.json
// (mir-export of a crate with this lib.rs and oxide-device).
//! `warp::lane_id()` in a kernel of `.reqntid X, 1, 1` is `tid.x & 31`
//! (a thread's lane is its linear index mod 32, and in a 1-D block that
//! index is tid.x): no `%laneid` read in `one_d`; `two_d` (32 x 2) keeps it.
//! Both kernels shuffle, so their bounds test's trap is placed at the test
//! (`@!%p bra $L__oxok`, then `trap; exit;`), not after the `ret`.
#![no_std]
use oxide_device::prelude::*;
use oxide_device::warp::{self, Shuffle, FULL_MASK};

#[kernel(reqntid(128))]
pub fn one_d(x: &[f32], out: &mut [f32]) {
    let i = thread::index_1d().get();
    let v = x[i];
    let t = v.shfl_up(FULL_MASK, 1);
    out[i] = if warp::lane_id() >= 1 { v + t } else { v };
}

#[kernel(reqntid(32, 2))]
pub fn two_d(x: &[f32], out: &mut [f32]) {
    let i = thread::index_1d().get();
    let v = x[i];
    let t = v.shfl_up(FULL_MASK, 1);
    out[i] = if warp::lane_id() >= 1 { v + t } else { v };
}
