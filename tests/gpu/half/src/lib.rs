//! tests/gpu/half: every f32 through oxide_device::half's conversions,
//! random operand triples (with specials) through its arithmetic and
//! every fp8 pair back to f16, on the GPU, compared by host.c with the
//! emulator's (src/runtime/oxemu_half.c).
#![no_std]

use oxide_device::half::fp8::{E4M3x2, E5M2x2};
use oxide_device::half::{bf16, bf16x2, f16, f16x2};
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

/// Triple i (bits a | b << 16 | c << 32) through every half operation:
/// out[i] = fma|add bf16, mul bf16|fma f16, add|mul f16 (low|high
/// half), then fma, add, mul of bf16x2 and of f16x2 over the pairs
/// (a|b, b|c, c|a).
#[kernel]
pub fn half_ops(input: &[u64], mut out: DisjointSlice<[u32; 9]>) {
    let i = thread::index_1d();
    let Some(&q) = input.get(i.get()) else { return };
    let (a, b, c) = (q as u16, (q >> 16) as u16, (q >> 32) as u16);
    let (x, y, z) = (bf16::from_bits(a), bf16::from_bits(b), bf16::from_bits(c));
    let (u, v, w) = (f16::from_bits(a), f16::from_bits(b), f16::from_bits(c));
    let p = |l: u16, h: u16| l as u32 | (h as u32) << 16;
    let (pa, pb, pc) = (p(a, b), p(b, c), p(c, a));
    let (bx, by, bz) = (bf16x2::from_bits(pa), bf16x2::from_bits(pb), bf16x2::from_bits(pc));
    let (fx, fy, fz) = (f16x2::from_bits(pa), f16x2::from_bits(pb), f16x2::from_bits(pc));
    let r = [
        p(x.mul_add(y, z).to_bits(), (x + y).to_bits()),
        p((x * y).to_bits(), u.mul_add(v, w).to_bits()),
        p((u + v).to_bits(), (u * v).to_bits()),
        bx.mul_add(by, bz).to_bits(),
        (bx + by).to_bits(),
        (bx * by).to_bits(),
        fx.mul_add(fy, fz).to_bits(),
        (fx + fy).to_bits(),
        (fx * fy).to_bits(),
    ];
    if let Some(o) = out.get_mut(i) {
        *o = r;
    }
}

/// f32 bits hi = base + i, lo = hi * 0x9e3779b1 (a bijection: every f32
/// in both places over 2^32 threads) -> out[i] = e4m3x2 | e5m2x2 <<
/// 16, bf16x2, f16x2.
#[kernel]
pub fn pairs_from_f32(base: u32, mut out: DisjointSlice<[u32; 3]>) {
    let i = thread::index_1d();
    let hb = base.wrapping_add(i.get() as u32);
    let (hi, lo) = (f32::from_bits(hb), f32::from_bits(hb.wrapping_mul(0x9e37_79b1)));
    let r = [
        E4M3x2::from_f32s(lo, hi).to_bits() as u32 | (E5M2x2::from_f32s(lo, hi).to_bits() as u32) << 16,
        bf16x2::from_f32s(lo, hi).to_bits(),
        f16x2::from_f32s(lo, hi).to_bits(),
    ];
    if let Some(o) = out.get_mut(i) {
        *o = r;
    }
}

/// Every fp8 pair i < 65536 -> out[i] = [e4m3x2 -> f16x2, e5m2x2 -> f16x2].
#[kernel]
pub fn fp8_to_f16x2(mut out: DisjointSlice<[u32; 2]>) {
    let i = thread::index_1d();
    let x = i.get() as u16;
    if let Some(o) = out.get_mut(i) {
        *o = [E4M3x2::from_bits(x).to_f16x2().to_bits(), E5M2x2::from_bits(x).to_f16x2().to_bits()];
    }
}
