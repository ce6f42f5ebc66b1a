//! Golden: core::intrinsics whose lowering shows in the PTX (core_intrinsics.ptx) and in the host llir (core_intrinsics.host.llir: fast-math flags, llvm.prefetch, nontemporal).
#![no_std]
#![feature(core_intrinsics, funnel_shifts, uint_carryless_mul)]
#![allow(internal_features)]
use core::intrinsics as ci;
use oxide_device::prelude::*;

/// fmul_fast / fadd_fast and the algebraic pair contract into fma;
/// fdiv_fast is the approximate division; sin and powi are libdevice's.
#[kernel]
pub fn fast_math(x: &[f32], y: &[f64], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let (a, b, c) = (x[i % 8], x[(i + 1) % 8], x[(i + 2) % 8]);
    let r = unsafe { ci::fadd_fast(ci::fmul_fast(a, b), c) } + ci::fadd_algebraic(ci::fmul_algebraic(b, c), a);
    let d = unsafe { ci::fdiv_fast(a, b) } + ci::sinf32(c) + ci::powif32(a, i as i32) + ci::cosf64(y[i % 8]) as f32;
    if let Some(o) = out.get_mut(idx) {
        *o = r + d;
    }
}

/// funnel shifts, breakpoint, prefetch, a volatile set, a nontemporal store
#[kernel]
pub fn bits_and_memory(x: &[u32], mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let (a, b) = (x[i % 8], x[(i + 3) % 8]);
    ci::prefetch_read_data::<u32, 3>(x.as_ptr());
    let mut v = unsafe { ci::unchecked_funnel_shl(a, b, b % 32) ^ ci::unchecked_funnel_shr(b, a, a % 32) };
    v ^= ci::carryless_mul(a, b);
    if v == 0x1234_5678 {
        ci::breakpoint();
    }
    if let Some(o) = out.get_mut(idx) {
        unsafe { ci::nontemporal_store(o as *mut u32, v) };
    }
}
