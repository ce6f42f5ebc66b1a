//! tests/gpu/half: every f32 through oxide_device::half's conversions on
//! the GPU, compared by host.c with the emulator's (src/runtime/oxemu.c).
#![no_std]

use oxide_device::half::{bf16, f16};
use oxide_device::prelude::*;

/// f32 bits base + i -> bf16 and f16 bits.
#[kernel]
pub fn half_from_f32(base: u32, mut bf: DisjointSlice<u16>, mut h: DisjointSlice<u16>) {
    let i = thread::index_1d();
    let x = f32::from_bits(base.wrapping_add(i.get() as u32));
    if let Some(o) = bf.get_mut(i) {
        *o = bf16::from_f32(x).to_bits();
    }
    if let Some(o) = h.get_mut(i) {
        *o = f16::from_f32(x).to_bits();
    }
}

/// f16 bits i -> f32 bits, for every i < 65536.
#[kernel]
pub fn half_to_f32(mut out: DisjointSlice<u32>) {
    let i = thread::index_1d();
    if let Some(o) = out.get_mut(i) {
        *o = f16::from_bits(i.get() as u16).to_f32().to_bits();
    }
}
