//! Crates group `math`: Debian's libm (the pure-Rust C math library), half
//! (f16 and bf16) and num-traits (generic code over `FloatCore` and
//! `PrimInt`), over the suite's input words: every result digested bit for
//! bit, so the emulator must give exactly the bits rustc's CPU build of the
//! same library code gives.
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

use half::{bf16, f16};
use num_traits::float::FloatCore;
use num_traits::{PrimInt, WrappingAdd, WrappingMul};

/// A moderate f64 in about -40..40 from an input word.
#[inline(always)]
fn moderate64(w: u64) -> f64 {
    ((w >> 11) as f64 / (1u64 << 53) as f64) * 80.0 - 40.0
}

/// libm f64 sin, cos, tan, exp, log, sqrt on input words and moderate values.
#[kernel]
pub fn math_libm_f64_basic(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut h = H0;
    for k in 0..4 {
        let x = if k % 2 == 0 { moderate64(at(input, i * 4 + k)) } else { f64_of(at(input, i * 4 + k)) };
        h = mix(h, canon64(libm::sin(x)));
        h = mix(h, canon64(libm::cos(x)));
        h = mix(h, canon64(libm::tan(x)));
        h = mix(h, canon64(libm::exp(x)));
        h = mix(h, canon64(libm::log(x)));
        h = mix(h, canon64(libm::sqrt(x)));
    }
    put(&mut out, idx, h);
}

/// libm f64 pow, atan2, hypot, fmod of input pairs.
#[kernel]
pub fn math_libm_f64_binary(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut h = H0;
    for k in 0..2 {
        let x = moderate64(at(input, i * 5 + k));
        let y = moderate64(at(input, i * 5 + k + 2)) / 8.0;
        h = mix(h, canon64(libm::pow(libm::fabs(x), y)));
        h = mix(h, canon64(libm::atan2(x, y)));
        h = mix(h, canon64(libm::hypot(x, y)));
        h = mix(h, canon64(libm::fmod(x, y)));
    }
    put(&mut out, idx, h);
}

/// libm f64 tanh, cbrt, expm1, log1p, asin, erf.
#[kernel]
pub fn math_libm_f64_more(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let x = moderate64(at(input, i));
    let u = x / 40.0;
    let mut h = H0;
    h = mix(h, canon64(libm::tanh(x)));
    h = mix(h, canon64(libm::cbrt(x)));
    h = mix(h, canon64(libm::expm1(u)));
    h = mix(h, canon64(libm::log1p(u)));
    h = mix(h, canon64(libm::asin(u)));
    h = mix(h, canon64(libm::erf(u)));
    put(&mut out, idx, h);
}

/// libm f64 and f32 exp, log, exp2, log2, floor, ceil, trunc, fma (no sqrt, no trigonometry).
#[kernel]
pub fn math_libm_exp_log(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut h = H0;
    for k in 0..3 {
        let w = at(input, i * 3 + k);
        let x = if k == 2 { f64_of(w) } else { moderate64(w) };
        let y = x as f32;
        h = mix(h, canon64(libm::exp(x)));
        h = mix(h, canon64(libm::log(x)));
        h = mix(h, canon64(libm::exp2(x)));
        h = mix(h, canon64(libm::log2(x)));
        h = mix(h, canon64(libm::floor(x * 3.5)) ^ canon64(libm::ceil(x * 0.3)) ^ canon64(libm::trunc(-x)));
        h = mix(h, canon64(libm::fma(x, 1.0 / 3.0, -x)));
        h = mix(h, canon32(libm::expf(y)));
        h = mix(h, canon32(libm::logf(y)));
        h = mix(h, canon32(libm::exp2f(y)));
    }
    put(&mut out, idx, h);
}

/// libm f32 sinf, expf, logf, powf, floorf, roundf.
#[kernel]
pub fn math_libm_f32(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let x = moderate64(at(input, i)) as f32;
    let y = f32_of(at(input, i + 7));
    let mut h = H0;
    h = mix(h, canon32(libm::sinf(x)));
    h = mix(h, canon32(libm::expf(x)));
    h = mix(h, canon32(libm::logf(y)));
    h = mix(h, canon32(libm::powf(libm::fabsf(x), 0.37)));
    h = mix(h, canon32(libm::floorf(y)));
    h = mix(h, canon32(libm::roundf(x * 3.3)));
    put(&mut out, idx, h);
}

/// half f16 and bf16 from f32 and f64 (rounding, subnormals, overflow) and back.
#[kernel]
pub fn math_half_convert(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut h = H0;
    for k in 0..4 {
        let w = at(input, i * 4 + k);
        let x = if k < 2 { f32_of(w) } else { moderate64(w) as f32 * 2000.0 };
        let a = f16::from_f32(x);
        let b = bf16::from_f32(x);
        h = mix(h, a.to_bits() as u64);
        h = mix(h, b.to_bits() as u64);
        h = mix(h, a.to_f32().to_bits() as u64);
        h = mix(h, b.to_f32().to_bits() as u64);
        h = mix(h, f16::from_f64(f64_of(w)).to_bits() as u64);
        h = mix(h, f16::from_bits(w as u16).to_f64().to_bits());
    }
    put(&mut out, idx, h);
}

/// half arithmetic (half 1.6 has no operators: through f32 and back, rounded), comparisons, signum, classification.
#[kernel]
pub fn math_half_arith(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = f16::from_f32(moderate64(at(input, i)) as f32);
    let b = f16::from_bits(at(input, i + 1) as u16);
    let c = bf16::from_f32(moderate64(at(input, i + 2)) as f32);
    let mut h = H0;
    // the sum and product of a NaN b are NaNs whose payload Rust leaves
    // unspecified (the GPU's canonical NaN, x86's b quieted: the H200 run
    // differed in exactly the 9 words with a NaN b): canonical before the
    // conversion, as docs/conformance.md's "NaN payloads" says
    h = mix(h, f16::from_f32(canon_nan32(a.to_f32() + b.to_f32())).to_bits() as u64);
    h = mix(h, f16::from_f32(canon_nan32(a.to_f32() * b.to_f32())).to_bits() as u64);
    h = mix(h, bf16::from_f32(c.to_f32() - bf16::ONE.to_f32()).to_bits() as u64);
    h = mix(h, (a < b) as u64 | ((a == b) as u64) << 1 | (b.is_nan() as u64) << 2 | (b.is_infinite() as u64) << 3);
    h = mix(h, f16::from_f32(-a.to_f32()).to_bits() as u64);
    h = mix(h, b.signum().to_bits() as u64 | (c.is_sign_negative() as u64) << 20);
    put(&mut out, idx, h);
}

/// A polynomial and a Newton root written once over num-traits' FloatCore.
#[inline(always)]
fn newton<T: FloatCore>(x: T) -> T {
    let two = T::one() + T::one();
    let a = x.abs() + T::one();
    let mut r = a;
    for _ in 0..6 {
        r = (r + a / r) / two;
    }
    r.max(T::epsilon()).powi(3) - x.floor() + x.fract().recip()
}

/// num-traits FloatCore-generic code at f32 and f64, and the same function's classification.
#[kernel]
pub fn math_num_traits_float(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let x = moderate64(at(input, i));
    let y = f32_of(at(input, i + 3));
    let mut h = H0;
    h = mix(h, canon64(newton(x)));
    h = mix(h, canon32(newton(x as f32)));
    h = mix(h, canon32(newton(y)));
    h = mix(h, y.is_normal() as u64 | (FloatCore::is_finite(x) as u64) << 1);
    h = mix(h, canon64(FloatCore::round(x * 1.5)) ^ canon32(FloatCore::trunc(y)));
    put(&mut out, idx, h);
}

/// Integer code written once over num-traits' PrimInt, WrappingAdd and WrappingMul.
#[inline(always)]
fn int_mix<T: PrimInt + WrappingAdd + WrappingMul>(a: T, b: T) -> u64 {
    let s = a.wrapping_add(&b).wrapping_mul(&a);
    let c = a.count_ones() as u64 | (b.leading_zeros() as u64) << 8 | (a.trailing_zeros() as u64) << 16;
    let r = s.rotate_left(5).swap_bytes();
    c ^ r.to_u64().unwrap_or(0x5a5a) ^ (a.checked_div(&b).map_or(7, |q| q.count_zeros() as u64) << 24)
}

/// num-traits PrimInt-generic code at u8, i32, u64 and i64.
#[kernel]
pub fn math_num_traits_int(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i);
    let b = at(input, i + 9);
    let mut h = H0;
    h = mix(h, int_mix(a as u8, b as u8));
    h = mix(h, int_mix(a as i32, (b >> 40) as i32));
    h = mix(h, int_mix(a, b));
    h = mix(h, int_mix(a as i64, b as i64 >> 50));
    put(&mut out, idx, h);
}
