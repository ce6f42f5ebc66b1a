//! Every oxide_device::math function on many inputs: out[i] = f(x[i], y[i])
//! for the function numbered `op` (host.c has the same list and checks
//! the results against long-double libm within libdevice's documented
//! error bounds).
#![no_std]

use oxide_device::math::{self, Float};
use oxide_device::prelude::*;

/// Functions 0..37, in host.c's order; then (f32 only) 37.. the fast ones.
#[kernel]
pub fn math_f32(op: u32, x: &[f32], y: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        let (a, b) = (x[i], y[i]);
        *o = match op {
            0 => Float::sqrt(a),
            1 => Float::rsqrt(a),
            2 => Float::cbrt(a),
            3 => Float::exp(a),
            4 => Float::exp2(a),
            5 => Float::exp10(a),
            6 => Float::exp_m1(a),
            7 => Float::ln(a),
            8 => Float::log2(a),
            9 => Float::log10(a),
            10 => Float::ln_1p(a),
            11 => Float::sin(a),
            12 => Float::cos(a),
            13 => Float::tan(a),
            14 => Float::sin_cos(a).0,
            15 => Float::sin_cos(a).1,
            16 => Float::asin(a),
            17 => Float::acos(a),
            18 => Float::atan(a),
            19 => Float::atan2(a, b),
            20 => Float::sinh(a),
            21 => Float::cosh(a),
            22 => Float::tanh(a),
            23 => Float::powf(a, b),
            24 => Float::powi(a, b as i32),
            25 => Float::hypot(a, b),
            26 => Float::mul_add(a, b, -a),
            27 => Float::floor(a),
            28 => Float::ceil(a),
            29 => Float::round(a),
            30 => Float::trunc(a),
            31 => Float::abs(a),
            32 => Float::min(a, b),
            33 => Float::max(a, b),
            34 => Float::copysign(a, b),
            35 => Float::erf(a),
            36 => Float::erfc(a),
            37 => math::fast_sin(a),
            38 => math::fast_cos(a),
            39 => math::fast_exp(a),
            40 => math::fast_log2(a),
            _ => f32::NAN,
        };
    }
}

/// Functions 0..37, in host.c's order.
#[kernel]
pub fn math_f64(op: u32, x: &[f64], y: &[f64], mut out: DisjointSlice<f64>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        let (a, b) = (x[i], y[i]);
        *o = match op {
            0 => Float::sqrt(a),
            1 => Float::rsqrt(a),
            2 => Float::cbrt(a),
            3 => Float::exp(a),
            4 => Float::exp2(a),
            5 => Float::exp10(a),
            6 => Float::exp_m1(a),
            7 => Float::ln(a),
            8 => Float::log2(a),
            9 => Float::log10(a),
            10 => Float::ln_1p(a),
            11 => Float::sin(a),
            12 => Float::cos(a),
            13 => Float::tan(a),
            14 => Float::sin_cos(a).0,
            15 => Float::sin_cos(a).1,
            16 => Float::asin(a),
            17 => Float::acos(a),
            18 => Float::atan(a),
            19 => Float::atan2(a, b),
            20 => Float::sinh(a),
            21 => Float::cosh(a),
            22 => Float::tanh(a),
            23 => Float::powf(a, b),
            24 => Float::powi(a, b as i32),
            25 => Float::hypot(a, b),
            26 => Float::mul_add(a, b, -a),
            27 => Float::floor(a),
            28 => Float::ceil(a),
            29 => Float::round(a),
            30 => Float::trunc(a),
            31 => Float::abs(a),
            32 => Float::min(a, b),
            33 => Float::max(a, b),
            34 => Float::copysign(a, b),
            35 => Float::erf(a),
            36 => Float::erfc(a),
            _ => f64::NAN,
        };
    }
}
