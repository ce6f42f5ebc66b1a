//! Conformance group `intrinsics`: core::intrinsics that have no stable
//! wrapper reaching kernels (float math without std, fast-math float
//! arithmetic, funnel shifts, carrying_mul_add, carryless_mul, pointer
//! masks, prefetch, non-temporal and volatile memory operations,
//! ptr_guaranteed_cmp, catch_unwind, vtable queries, the const heap at run
//! time, breakpoint). Reached through `core::intrinsics::NAME`
//! (`core_intrinsics`, which mir-export and the CPU reference allow with
//! RUSTC_BOOTSTRAP). Float results whose precision Rust leaves
//! unspecified (the transcendentals; fast-math division) are taken only
//! where every faithful implementation is exact: libdevice on the GPU,
//! the host's libm in the emulator and the CPU reference must agree bit
//! for bit.
#![no_std]
#![feature(core_intrinsics, funnel_shifts, uint_carryless_mul, ptr_metadata)]
#![allow(internal_features)]

#[path = "../../common.rs"]
mod common;
use common::*;
use core::intrinsics as ci;
use oxide_device::prelude::*;

/// Special values of f32 (C99 Annex F cases the CUDA math API documents too).
const F32_SPECIAL: [f32; 8] = [0.0, -0.0, 1.0, f32::INFINITY, f32::NEG_INFINITY, f32::NAN, -1.0, 2.0];
const F64_SPECIAL: [f64; 8] = [0.0, -0.0, 1.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, -1.0, 2.0];

/// sinf32 .. log10f32 at their exact points: sin(±0) = ±0, sin(±inf) =
/// NaN, cos(±0) = 1, exp(±0) = exp2(±0) = 1, exp(-inf) = +0, exp(+inf) =
/// +inf, log*(1) = +0, log*(±0) = -inf, log*(-1) = NaN, log*(+inf) = +inf.
#[kernel]
pub fn intrinsics_math_f32(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let x = F32_SPECIAL[(at(input, i) as usize + i) % 8];
    let mut h = mix(H0, canon32(ci::sinf32(if x.is_finite() { x * 0.0 } else { x })));
    h = mix(h, canon32(ci::cosf32(if x.is_infinite() { x } else { x * 0.0 })));
    h = mix(h, canon32(ci::expf32(x * 0.0)));
    h = mix(h, canon32(ci::exp2f32(x * 0.0)));
    if x.is_infinite() {
        h = mix(h, canon32(ci::expf32(x)));
        h = mix(h, canon32(ci::exp2f32(x)));
    }
    if x != 2.0 {
        h = mix(h, canon32(ci::logf32(x)));
        h = mix(h, canon32(ci::log2f32(x)));
        h = mix(h, canon32(ci::log10f32(x)));
    }
    put(&mut out, idx, h);
}

/// sinf64 .. log10f64 at the exact points of intrinsics_math_f32.
#[kernel]
pub fn intrinsics_math_f64(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let x = F64_SPECIAL[(at(input, i) as usize + i) % 8];
    let mut h = mix(H0, canon64(ci::sinf64(if x.is_finite() { x * 0.0 } else { x })));
    h = mix(h, canon64(ci::cosf64(if x.is_infinite() { x } else { x * 0.0 })));
    h = mix(h, canon64(ci::expf64(x * 0.0)));
    h = mix(h, canon64(ci::exp2f64(x * 0.0)));
    if x.is_infinite() {
        h = mix(h, canon64(ci::expf64(x)));
        h = mix(h, canon64(ci::exp2f64(x)));
    }
    if x != 2.0 {
        h = mix(h, canon64(ci::logf64(x)));
        h = mix(h, canon64(ci::log2f64(x)));
        h = mix(h, canon64(ci::log10f64(x)));
    }
    put(&mut out, idx, h);
}

/// powf32 / powf64 at exact points: pow(x, ±0) = 1 for every x (NaN
/// too), pow(1, y) = 1 for every y, pow(-1, ±inf) = 1, pow(x, y) = NaN for
/// a finite x < 0 and a finite non-integer y; powif32 / powif64 of powers
/// of two (exact), and of any x to the 0th power.
#[kernel]
pub fn intrinsics_pow(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let x = F32_SPECIAL[w as usize % 8];
    let y = F64_SPECIAL[(w >> 8) as usize % 8];
    let mut h = mix(H0, canon32(ci::powf32(x, 0.0)));
    h = mix(h, canon32(ci::powf32(1.0, x)));
    h = mix(h, canon64(ci::powf64(y, -0.0)));
    h = mix(h, canon64(ci::powf64(1.0, y)));
    h = mix(h, canon64(ci::powf64(-1.0, f64::INFINITY)));
    h = mix(h, canon32(ci::powf32(-((w % 7) as f32) - 1.0, 0.5)));
    h = mix(h, canon64(ci::powf64(-((w % 5) as f64) - 2.0, 1.5)));
    let k = (w >> 16) as i32 % 40 - 20;
    let b = [2.0f32, 0.5, 4.0, 0.25][(w >> 24) as usize % 4];
    h = mix(h, canon32(ci::powif32(b, k)));
    h = mix(h, canon64(ci::powif64(b as f64, 2 * k)));
    h = mix(h, canon32(ci::powif32(x, 0)));
    h = mix(h, canon64(ci::powif64(y, 0)));
    put(&mut out, idx, h);
}

/// A float of moderate size from an input word: a multiple of 1/8 in
/// -512..512 (sums, differences and products are exact in f32).
#[inline(always)]
fn small32(w: u64) -> f32 {
    ((w % 8192) as i32 - 4096) as f32 * 0.125
}

/// `r`'s bits, a zero made +0.0 (nsz: its sign is unspecified).
#[inline(always)]
fn nsz32(r: f32) -> u64 {
    if r == 0.0 { 0 } else { r.to_bits() as u64 }
}

#[inline(always)]
fn nsz64(r: f64) -> u64 {
    if r == 0.0 { 0 } else { r.to_bits() }
}

/// fadd_fast .. frem_fast on finite operands with finite results (else
/// UB), each result digested on its own (a chain could be contracted into
/// an fma); division by powers of two only (arcp: a * (1 / b)), the
/// remainder is exact on every target.
#[kernel]
pub fn intrinsics_fast(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let (a, b) = (small32(at(input, i)), small32(at(input, i + 1)));
    let b = if b == 0.0 { 1.5 } else { b };
    let p2 = [2.0f32, 0.5, 8.0, 0.125, -4.0][i % 5];
    let mut h = 0u64;
    unsafe {
        h = mix(h, nsz32(ci::fadd_fast(a, b)));
        h = mix(h, nsz32(ci::fsub_fast(a, b)));
        h = mix(h, nsz32(ci::fmul_fast(a, b)));
        h = mix(h, nsz32(ci::fdiv_fast(a, p2)));
        h = mix(h, nsz32(ci::frem_fast(a, b)));
        let (c, d) = (a as f64 * 1.0e10, b as f64 * 3.0);
        h = mix(h, nsz64(ci::fadd_fast(c, d)));
        h = mix(h, nsz64(ci::fsub_fast(c, d)));
        h = mix(h, nsz64(ci::fmul_fast(c, d)));
        h = mix(h, nsz64(ci::fdiv_fast(c, p2 as f64)));
        h = mix(h, nsz64(ci::frem_fast(c, d)));
    }
    put(&mut out, idx, h);
}

/// fadd_algebraic .. frem_algebraic: as intrinsics_fast, and on NaN and
/// infinite operands too (algebraic never makes poison; NaN results
/// through canon).
#[kernel]
pub fn intrinsics_algebraic(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let (a, b) = (small32(at(input, i)), small32(at(input, i + 1)));
    let b = if i % 9 == 0 { f32::INFINITY } else if i % 11 == 0 { f32::NAN } else if b == 0.0 { 1.5 } else { b };
    let p2 = [2.0f32, 0.5, 8.0, 0.125, -4.0][i % 5];
    let z = |r: f32| if r.is_nan() { 0x7FC0_0000 } else { nsz32(r) };
    let z64 = |r: f64| if r.is_nan() { 0x7FF8_0000_0000_0000 } else { nsz64(r) };
    let mut h = mix(H0, z(ci::fadd_algebraic(a, b)));
    h = mix(h, z(ci::fsub_algebraic(a, b)));
    h = mix(h, z(ci::fmul_algebraic(a, b)));
    h = mix(h, z(ci::fdiv_algebraic(a, p2)));
    h = mix(h, z(ci::frem_algebraic(a, b)));
    let (c, d) = (a as f64 * 1.0e10, b as f64 * 3.0);
    h = mix(h, z64(ci::fadd_algebraic(c, d)));
    h = mix(h, z64(ci::fsub_algebraic(c, d)));
    h = mix(h, z64(ci::fmul_algebraic(c, d)));
    h = mix(h, z64(ci::fdiv_algebraic(c, p2 as f64)));
    h = mix(h, z64(ci::frem_algebraic(c, d)));
    put(&mut out, idx, h);
}

/// unchecked_funnel_shl / shr on every unsigned width, shifts 0..BITS-1.
#[kernel]
pub fn intrinsics_funnel(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let (w, v) = (at(input, i), at(input, i + 3));
    let s = at(input, i + 1) as u32;
    let mut h = H0;
    unsafe {
        h = mix(h, ci::unchecked_funnel_shl(w as u8, v as u8, s % 8) as u64);
        h = mix(h, ci::unchecked_funnel_shr(w as u8, v as u8, s % 8) as u64);
        h = mix(h, ci::unchecked_funnel_shl(w as u16, v as u16, s % 16) as u64);
        h = mix(h, ci::unchecked_funnel_shr(w as u16, v as u16, s % 16) as u64);
        h = mix(h, ci::unchecked_funnel_shl(w as u32, v as u32, s % 32) as u64);
        h = mix(h, ci::unchecked_funnel_shr(w as u32, v as u32, s % 32) as u64);
        h = mix(h, ci::unchecked_funnel_shl(w, v, s % 64));
        h = mix(h, ci::unchecked_funnel_shr(w, v, s % 64));
        h = mix(h, ci::unchecked_funnel_shl(w as usize, v as usize, i as u32 % 64) as u64);
        let (x, y) = ((w as u128) << 64 | v as u128, (v as u128) << 32 ^ w as u128);
        let r = ci::unchecked_funnel_shl(x, y, s % 128);
        h = mix(mix(h, r as u64), (r >> 64) as u64);
        let r = ci::unchecked_funnel_shr(x, y, s % 128);
        h = mix(mix(h, r as u64), (r >> 64) as u64);
    }
    put(&mut out, idx, h);
}

/// carrying_mul_add (a * b + c + d, (low, high)) on 8- to 128-bit
/// integers, the extremes included.
#[kernel]
pub fn intrinsics_carrying_mul_add(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let pick = |k: usize, w: u64| if i % 7 == k { u64::MAX } else if i % 7 == k + 1 { 1u64 << 63 } else { w };
    let (a, b) = (pick(0, at(input, i)), pick(1, at(input, i + 1)));
    let (c, d) = (pick(2, at(input, i + 2)), pick(3, at(input, i + 3)));
    let mut h = H0;
    let (lo, hi) = ci::carrying_mul_add(a as u8, b as u8, c as u8, d as u8);
    h = mix(mix(h, lo as u64), hi as u64);
    let (lo, hi) = ci::carrying_mul_add(a as u16, b as u16, c as u16, d as u16);
    h = mix(mix(h, lo as u64), hi as u64);
    let (lo, hi) = ci::carrying_mul_add(a as u32, b as u32, c as u32, d as u32);
    h = mix(mix(h, lo as u64), hi as u64);
    let (lo, hi) = ci::carrying_mul_add(a, b, c, d);
    h = mix(mix(h, lo), hi);
    let (lo, hi) = ci::carrying_mul_add(a as i8, b as i8, c as i8, d as i8);
    h = mix(mix(h, lo as u64), hi as u64);
    let (lo, hi) = ci::carrying_mul_add(a as i16, b as i16, c as i16, d as i16);
    h = mix(mix(h, lo as u64), hi as u64);
    let (lo, hi) = ci::carrying_mul_add(a as i32, b as i32, c as i32, d as i32);
    h = mix(mix(h, lo as u64), hi as u64);
    let (lo, hi) = ci::carrying_mul_add(a as i64, b as i64, c as i64, d as i64);
    h = mix(mix(h, lo), hi as u64);
    let wide = |x: u64, y: u64| (x as u128) << 64 | y as u128;
    let (a2, b2) = (wide(a, d), wide(b, c));
    let (c2, d2) = (wide(c, a), wide(d, b));
    let (lo, hi) = ci::carrying_mul_add(a2, b2, c2, d2);
    h = mix(mix(mix(mix(h, lo as u64), (lo >> 64) as u64), hi as u64), (hi >> 64) as u64);
    let (lo, hi) = ci::carrying_mul_add(a2 as i128, b2 as i128, c2 as i128, d2 as i128);
    h = mix(mix(mix(mix(h, lo as u64), (lo >> 64) as u64), hi as u64), (hi >> 64) as u64);
    let (lo, hi) = ci::carrying_mul_add(a as i128, b2 as i128, -(c as i128), d2 as i128);
    h = mix(mix(mix(mix(h, lo as u64), (lo >> 64) as u64), hi as u64), (hi >> 64) as u64);
    put(&mut out, idx, h);
}

/// carryless_mul (the low half of the xor product) on every unsigned width.
#[kernel]
pub fn intrinsics_carryless_mul(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let (a, b) = (at(input, i), at(input, i + 5) >> (i % 64));
    let mut h = mix(H0, ci::carryless_mul(a as u8, b as u8) as u64);
    h = mix(h, ci::carryless_mul(a as u16, b as u16) as u64);
    h = mix(h, ci::carryless_mul(a as u32, b as u32) as u64);
    h = mix(h, ci::carryless_mul(a, b));
    h = mix(h, ci::carryless_mul(a as usize, i) as u64);
    let r = ci::carryless_mul((a as u128) << 64 | b as u128, (b as u128) << 17 ^ a as u128);
    h = mix(mix(h, r as u64), (r >> 64) as u64);
    put(&mut out, idx, h);
}

#[repr(align(64))]
struct Aligned([u8; 64]);

/// ptr_mask: the masked pointer's offset from a 64-aligned base (the
/// address itself differs between targets) and a read through it.
#[kernel]
pub fn intrinsics_ptr_mask(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut buf = Aligned([0; 64]);
    for (k, b) in buf.0.iter_mut().enumerate() {
        *b = (at(input, i + k) as u8) ^ k as u8;
    }
    let base = buf.0.as_ptr();
    let j = at(input, i) as usize % 64;
    let p = unsafe { base.add(j) };
    let mut h = H0;
    for m in [!0usize, !1, !7, !15, !63] {
        let q = ci::ptr_mask(p, m);
        h = mix(h, unsafe { q.offset_from(base) } as u64);
        h = mix(h, unsafe { *q } as u64);
    }
    put(&mut out, idx, h);
}

/// prefetch_* (every locality): hints, the values read are unchanged.
#[kernel]
pub fn intrinsics_prefetch(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let p = &input[i % N_IN] as *const u64;
    ci::prefetch_read_data::<u64, 0>(p);
    ci::prefetch_read_data::<u64, 3>(p);
    ci::prefetch_write_data::<u64, 1>(p);
    ci::prefetch_write_data::<u64, 2>(p);
    ci::prefetch_read_instruction::<u64, 3>(p);
    ci::prefetch_write_instruction::<u64, 0>(p);
    put(&mut out, idx, mix(H0, at(input, i)));
}

/// nontemporal_store into a local array, read back.
#[kernel]
pub fn intrinsics_nontemporal(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut a = [0u64; 4];
    let mut b = [0u32; 4];
    for k in 0..4 {
        unsafe {
            ci::nontemporal_store(a.as_mut_ptr().add(k), at(input, i + k));
            ci::nontemporal_store(b.as_mut_ptr().add(k), at(input, i + k + 4) as u32);
        }
    }
    let mut h = H0;
    for k in 0..4 {
        h = mix(mix(h, a[k]), b[k] as u64);
    }
    put(&mut out, idx, h);
}

/// volatile_set_memory, volatile_copy_memory (overlapping, both ways) and
/// volatile_copy_nonoverlapping_memory; counts in elements.
#[kernel]
pub fn intrinsics_volatile_mem(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut a = [0u32; 16];
    for (k, x) in a.iter_mut().enumerate() {
        *x = at(input, i + k) as u32;
    }
    let n = at(input, i) as usize % 5;
    let p = a.as_mut_ptr();
    unsafe {
        ci::volatile_set_memory(p.add(12), (i as u8) | 1, n);
        ci::volatile_copy_memory(p.add(1), p, n + 3);
        ci::volatile_copy_memory(p.add(4), p.add(6), n + 2);
        ci::volatile_copy_nonoverlapping_memory(p.add(10), p, 2);
        let mut w = [0u64; 3];
        ci::volatile_set_memory(w.as_mut_ptr(), 0xa5, 2);
        a[15] ^= w[0] as u32 ^ w[1] as u32 ^ w[2] as u32;
    }
    let mut h = H0;
    for x in a {
        h = mix(h, x as u64);
    }
    put(&mut out, idx, h);
}

/// ptr_guaranteed_cmp at run time: 1 when the pointers are equal, else 0.
#[kernel]
pub fn intrinsics_ptr_cmp(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let p = input.as_ptr();
    let q = unsafe { p.add(i % 3) };
    let r = unsafe { p.add(at(input, i) as usize % 2) };
    let mut h = mix(H0, ci::ptr_guaranteed_cmp(q, unsafe { p.add(1) }) as u64);
    h = mix(h, ci::ptr_guaranteed_cmp(q, r) as u64);
    h = mix(h, ci::ptr_guaranteed_cmp(p, p) as u64);
    put(&mut out, idx, h);
}

fn try_body(data: *mut u8) {
    let v = data as *mut u64;
    unsafe { *v = (*v).wrapping_mul(3) ^ 0x55 };
}

fn catch_body(_data: *mut u8, _payload: *mut u8) {}

/// catch_unwind of a function that returns: it ran (its effect on the
/// data), and the result is 0.
#[kernel]
pub fn intrinsics_catch_unwind(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut v = at(input, i);
    let r = unsafe { ci::catch_unwind(try_body, &mut v as *mut u64 as *mut u8, catch_body) };
    put(&mut out, idx, mix(mix(H0, v), r as u64));
}

/// breakpoint in a branch no thread takes (it stops the program where one
/// does: llvm.debugtrap, PTX brkpt, x86 int3): it compiles on every target.
#[kernel]
pub fn intrinsics_breakpoint(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    if w == 0x0123_4567_89ab_cdef && at(input, i + 1) == w {
        ci::breakpoint();
    }
    put(&mut out, idx, mix(H0, w));
}

trait Shape {
    fn area(&self) -> u64;
}

struct Square(u32);

struct Rect(u64, u16, u8);

#[repr(align(32))]
struct Wide([u8; 40]);

impl Shape for Square {
    fn area(&self) -> u64 {
        self.0 as u64 * self.0 as u64
    }
}

impl Shape for Rect {
    fn area(&self) -> u64 {
        self.0 * self.1 as u64 + self.2 as u64
    }
}

impl Shape for Wide {
    fn area(&self) -> u64 {
        self.0[3] as u64
    }
}

/// vtable_size / vtable_align: DynMetadata::size_of / align_of, and the
/// intrinsics on the vtable pointer itself, for three implementors.
#[kernel]
pub fn intrinsics_vtable(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let (sq, re, wi) = (Square(w as u32), Rect(w, (w >> 8) as u16, w as u8), Wide([w as u8; 40]));
    let d: &dyn Shape = match i % 3 {
        0 => &sq,
        1 => &re,
        _ => &wi,
    };
    let m = core::ptr::metadata(d);
    let mut h = mix(H0, m.size_of() as u64);
    h = mix(h, m.align_of() as u64);
    h = mix(h, d.area());
    let vt = unsafe { core::mem::transmute::<core::ptr::DynMetadata<dyn Shape>, *const ()>(m) };
    h = mix(h, unsafe { ci::vtable_size(vt) } as u64);
    h = mix(h, unsafe { ci::vtable_align(vt) } as u64);
    put(&mut out, idx, h);
}

/// const_allocate / const_deallocate / const_make_global at run time (core's
/// fallback bodies): a null pointer, nothing, the pointer itself.
#[kernel]
pub fn intrinsics_const_heap(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut v = at(input, i);
    let p = &mut v as *mut u64 as *mut u8;
    let mut h = H0;
    unsafe {
        let q = ci::const_allocate(8 + i % 8, 8);
        h = mix(h, q.is_null() as u64);
        ci::const_deallocate(q, 8 + i % 8, 8);
        let g = ci::const_make_global(p);
        h = mix(h, (g == p as *const u8) as u64);
        h = mix(h, *(g as *const u64));
    }
    put(&mut out, idx, h);
}
