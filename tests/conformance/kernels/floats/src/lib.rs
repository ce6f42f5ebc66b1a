//! Conformance group `floats`: f32 and f64 arithmetic, comparisons,
//! classification and bit-level operations, with NaNs canonicalised.
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

/// f32 add, sub, mul, div (specials from the input included).
#[kernel]
pub fn floats_f32_arith(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = f32_of(at(input, i));
    let b = f32_of(at(input, i * 3 + 1));
    let mut h = mix(H0, canon32(a + b));
    h = mix(h, canon32(a - b));
    h = mix(h, canon32(a * b));
    h = mix(h, canon32(a / b));
    put(&mut out, idx, h);
}

/// f64 add, sub, mul, div (specials from the input included).
#[kernel]
pub fn floats_f64_arith(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = f64_of(at(input, i));
    let b = f64_of(at(input, i * 3 + 1));
    let mut h = mix(H0, canon64(a + b));
    h = mix(h, canon64(a - b));
    h = mix(h, canon64(a * b));
    h = mix(h, canon64(a / b));
    put(&mut out, idx, h);
}

/// f32 arithmetic on moderate values (exponent -20..20) where rounding,
/// subnormal results and cancellation are visible.
#[kernel]
pub fn floats_f32_rounding(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let m = |x: u64| f32::from_bits(((x as u32) & 0x807F_FFFF) | ((107 + (x >> 40) % 41) as u32) << 23);
    let a = m(w);
    let b = m(at(input, i + 8));
    let tiny = f32::from_bits((w >> 32) as u32 & 0x807F_FFFF);
    let mut h = mix(H0, canon32(a + b));
    h = mix(h, canon32(a * b * 1e-30));
    h = mix(h, canon32(a / b / 1e30));
    h = mix(h, canon32((a + b) - a));
    h = mix(h, canon32(tiny + tiny));
    h = mix(h, canon32(tiny * 0.5));
    put(&mut out, idx, h);
}

/// `a * b + c` rounds twice: no FMA contraction, in f32 and f64.
#[kernel]
pub fn floats_no_fma(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    // 1 + 2^-k for small k makes a*b's rounding error visible in the sum.
    let k = (at(input, i) % 20) as i32 + 1;
    let e = 1.0f32 / (1u32 << k) as f32;
    let a = 1.0f32 + e;
    let b = 1.0f32 - e;
    let c = -1.0f32;
    let r32 = a * b + c;
    let ed = 1.0f64 / (1u64 << (k + 26)) as f64;
    let ad = 1.0f64 + ed;
    let bd = 1.0f64 - ed;
    let r64 = ad * bd - 1.0;
    let x = f32_of(at(input, i + 1));
    let y = f32_of(at(input, i + 2));
    let z = f32_of(at(input, i + 3));
    let mut h = mix(H0, canon32(r32));
    h = mix(h, canon64(r64));
    h = mix(h, canon32(x * y + z));
    h = mix(h, canon32(z - x * y));
    h = mix(h, canon64(x as f64 * y as f64 + z as f64));
    put(&mut out, idx, h);
}

/// Negation, abs, copysign, signum, recip on f32 and f64.
#[kernel]
pub fn floats_sign_ops(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = f32_of(at(input, i));
    let b = f32_of(at(input, i + 1));
    let d = f64_of(at(input, i + 2));
    let mut h = mix(H0, canon32(-a));
    h = mix(h, canon32(a.abs()));
    h = mix(h, canon32(a.copysign(b)));
    h = mix(h, canon32(a.signum()));
    h = mix(h, canon32(a.recip()));
    h = mix(h, canon64(-d));
    h = mix(h, canon64(d.abs()));
    h = mix(h, canon64(d.copysign(a as f64)));
    h = mix(h, canon64(d.signum()));
    put(&mut out, idx, h);
}

/// f32 / f64 comparisons with NaN, infinities and signed zeros.
#[kernel]
pub fn floats_compare(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = f32_of(at(input, i));
    let b = if i % 4 == 0 { -a } else { f32_of(at(input, i + 1)) };
    let c = f64_of(at(input, i + 2));
    let d = if i % 4 == 1 { c } else { f64_of(at(input, i + 3)) };
    let m = (a < b) as u64
        | ((a <= b) as u64) << 1
        | ((a > b) as u64) << 2
        | ((a >= b) as u64) << 3
        | ((a == b) as u64) << 4
        | ((a != b) as u64) << 5
        | ((c < d) as u64) << 6
        | ((c <= d) as u64) << 7
        | ((c > d) as u64) << 8
        | ((c >= d) as u64) << 9
        | ((c == d) as u64) << 10
        | ((c != d) as u64) << 11
        | ((a.partial_cmp(&b).map_or(9, |o| o as i8 + 1)) as u64) << 12
        | ((c.partial_cmp(&d).map_or(9, |o| o as i8 + 1)) as u64) << 16;
    put(&mut out, idx, m);
}

/// total_cmp on f32 and f64 (orders NaNs and signed zeros by their bits).
#[kernel]
pub fn floats_total_cmp(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = f32_of(at(input, i));
    let b = f32_of(at(input, i + 1));
    let c = f64_of(at(input, i + 2));
    let d = f64_of(at(input, i + 3));
    let m = (a.total_cmp(&b) as i8 as u8 as u64) | (c.total_cmp(&d) as i8 as u8 as u64) << 8;
    put(&mut out, idx, m);
}

/// min, max, clamp on f32 / f64 (zeros made +0: their sign is unspecified).
#[kernel]
pub fn floats_minmax(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = f32_of(at(input, i));
    let b = f32_of(at(input, i + 1));
    let c = f64_of(at(input, i + 2));
    let d = f64_of(at(input, i + 3));
    let mut h = mix(H0, canon32(a.min(b) + 0.0));
    h = mix(h, canon32(a.max(b) + 0.0));
    h = mix(h, canon64(c.min(d) + 0.0));
    h = mix(h, canon64(c.max(d) + 0.0));
    if !a.is_nan() {
        h = mix(h, canon32(a.clamp(-2.5, 1e10) + 0.0));
    }
    put(&mut out, idx, h);
}

/// Classification: is_nan, is_infinite, is_finite, is_normal,
/// is_subnormal, is_sign_negative, classify.
#[kernel]
pub fn floats_classify(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let a = if i % 3 == 0 { f32::from_bits(w as u32 & 0x807F_FFFF) } else { f32_of(w) };
    let c = if i % 3 == 1 { f64::from_bits(w & 0x800F_FFFF_FFFF_FFFF) } else { f64_of(at(input, i + 1)) };
    let m = a.is_nan() as u64
        | (a.is_infinite() as u64) << 1
        | (a.is_finite() as u64) << 2
        | (a.is_normal() as u64) << 3
        | (a.is_subnormal() as u64) << 4
        | (a.is_sign_negative() as u64) << 5
        | (a.classify() as u64) << 6
        | (c.is_nan() as u64) << 10
        | (c.is_infinite() as u64) << 11
        | (c.is_finite() as u64) << 12
        | (c.is_normal() as u64) << 13
        | (c.is_subnormal() as u64) << 14
        | (c.is_sign_positive() as u64) << 15
        | (c.classify() as u64) << 16;
    put(&mut out, idx, m);
}

/// Float remainder `%` (fmod semantics) on f32 and f64.
#[kernel]
pub fn floats_rem(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = f32_of(at(input, i));
    let b = f32_of(at(input, i + 1));
    let c = f64_of(at(input, i + 2));
    let d = f64_of(at(input, i + 3));
    let mut h = mix(H0, canon32(a % b));
    h = mix(h, canon64(c % d));
    h = mix(h, canon32((i as f32 * 1.37) % 0.5));
    h = mix(h, canon64(c % 3.0));
    put(&mut out, idx, h);
}

/// to_bits / from_bits, f32 <-> f64 conversion (rounding, overflow to inf).
#[kernel]
pub fn floats_f32_f64(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = f32_of(at(input, i));
    let c = f64_of(at(input, i + 1));
    let small = f64::from_bits((at(input, i + 2) & 0x800F_FFFF_FFFF_FFFF) | ((0x380 + i as u64 % 0x100) << 52));
    let mut h = mix(H0, canon64(a as f64));
    h = mix(h, canon32(c as f32));
    h = mix(h, canon32(small as f32));
    h = mix(h, canon32(f32::from_bits(a.to_bits() ^ 0x8000_0000)));
    h = mix(h, canon64(f64::from_bits(c.to_bits().rotate_left(1))));
    put(&mut out, idx, h);
}

/// Float constants: MAX, MIN_POSITIVE, EPSILON, INFINITY, NAN and literals.
#[kernel]
pub fn floats_constants(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = f32_of(at(input, i));
    let mut h = mix(H0, canon32(a * f32::EPSILON));
    h = mix(h, canon32(a + f32::MAX));
    h = mix(h, canon32(a * f32::MIN_POSITIVE));
    h = mix(h, canon64(f64::INFINITY - a as f64));
    h = mix(h, canon64(f64::NAN + 1.0));
    h = mix(h, canon64(0.1 + i as f64));
    h = mix(h, canon32(core::f32::consts::PI * i as f32));
    put(&mut out, idx, h);
}

/// Accumulating f32 and f64 sums in a loop (order of rounding preserved).
#[kernel]
pub fn floats_sum_loop(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut s = 0.0f32;
    let mut t = 0.0f64;
    for k in 0..16 {
        let w = at(input, i + k * 64);
        s += (w >> 40) as f32 * 1e-3;
        t = t * 0.5 + (w as f64) * 1e-19;
    }
    put(&mut out, idx, mix(canon32(s), canon64(t)));
}

/// Arithmetic on f32 / f64 NaNs and infinities (results canonicalised).
#[kernel]
pub fn floats_specials(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = f32_of(at(input, i));
    let inf = f32::INFINITY;
    let mut h = mix(H0, canon32(inf - inf));
    h = mix(h, canon32(0.0 * inf));
    h = mix(h, canon32(a / 0.0));
    h = mix(h, canon32(-a / -0.0));
    h = mix(h, canon32(0.0 / 0.0 + a));
    h = mix(h, canon64(f64::NEG_INFINITY * a as f64));
    h = mix(h, canon64(-0.0 + -(a as f64) * 0.0));
    put(&mut out, idx, h);
}

/// NaN constants keep every bit (tests/fuzz/reproducers/nan_const_payload.rs):
/// rustc folds them and prints `NaN_f32` without payload or sign, mir-export
/// takes the bits from its -Zverbose-internals text; only bit-exact
/// operations (abs, neg, copysign, moves, to_bits), so nothing is canonicalised.
#[kernel]
pub fn floats_nan_const_bits(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let v = match i % 8 {
        0 => f32::from_bits(4286578688u32 | (4294967294u32 & 8388607u32)).abs().to_bits() as u64,
        1 => f64::from_bits(9218868437227405312u64 | (u64::MAX & 9227875636482146303u64))
            .copysign(f64::from_bits(9223372036854775807u64))
            .to_bits(),
        2 => (-f32::from_bits(0x7FA0_0000)).to_bits() as u64,
        3 => f32::from_bits(2139095040u32 | (4294967293u32 & 8388607u32)).abs().to_bits() as u64,
        4 => f32::from_bits(0xFFC0_0001).to_bits() as u64,
        5 => f64::from_bits(0xFFF0_0000_0000_0001).abs().to_bits(),
        6 => f32::NAN.copysign(-1.0).to_bits() as u64,
        _ => (-f64::from_bits(0x7FF4_0000_0000_0000)).copysign(-2.5).to_bits(),
    };
    put(&mut out, idx, mix(H0, v ^ (at(input, i) & 0) ^ i as u64));
}

/// bf16 and f16 (oxide_device::half): f32 -> half rounded to nearest even
/// (specials, the overflow edge, subnormals, ties from the input), and
/// back exactly.
#[kernel]
pub fn floats_half_convert(input: &[u64], mut out: DisjointSlice<u64>) {
    use oxide_device::half::{bf16, f16};
    let (idx, i) = tid();
    let w = at(input, i);
    let xs = [f32_of(w), f32_of(w >> 32), f32_of(w) * 1.0e-6, f32_of(w >> 17) * 65519.0];
    let mut h = H0;
    for x in xs {
        let b = bf16::from_f32(x);
        let f = f16::from_f32(x);
        h = mix(h, b.to_bits() as u64 | (f.to_bits() as u64) << 16);
        h = mix(h, canon32(b.to_f32()));
        h = mix(h, canon32(f.to_f32()));
        h = mix(h, canon32(f16::from_bits(w as u16).to_f32()));
    }
    put(&mut out, idx, h);
}

/// Half arithmetic (oxide_device::half): mul_add, + - * and unary - on
/// bf16 and f16, the same on the packed pairs, f32 pairs -> pairs, and
/// fp8 pairs from f32 (saturated) and back to f16x2, on bits from the
/// input and the formats' specials (zeros, subnormals, the largest
/// finite values, infinities, NaNs, ties).
#[kernel]
pub fn floats_half_arith(input: &[u64], mut out: DisjointSlice<u64>) {
    use oxide_device::half::fp8::{E4M3x2, E5M2x2};
    use oxide_device::half::{bf16, bf16x2, f16, f16x2};
    const SPECIAL: [u16; 16] = [
        0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0x7c00, //
        0xfc00, 0x7e00, 0x3c00, 0x0080, 0x7f7f, 0x7f80, 0xff81, 0x3f80,
    ];
    let (idx, i) = tid();
    let (w, v) = (at(input, i), at(input, i * 5 + 3));
    let s = SPECIAL[i % 16] as u64;
    let t = SPECIAL[(i / 16 + 5) % 16] as u64;
    // triples of bits: random, random with a special, specials with random
    let triples = [w, (w >> 16 & 0xffff) | s << 16 | (v & 0xffff) << 32, s | t << 16 | (v >> 32) << 32];
    let mut h = H0;
    for q in triples {
        let (a, b, c) = (q as u16, (q >> 16) as u16, (q >> 32) as u16);
        let (x, y, z) = (bf16::from_bits(a), bf16::from_bits(b), bf16::from_bits(c));
        h = mix(h, x.mul_add(y, z).to_bits() as u64 | ((x + y).to_bits() as u64) << 16);
        h = mix(h, (x * y).to_bits() as u64 | ((x - y).to_bits() as u64) << 16 | ((-z).to_bits() as u64) << 32);
        let (x, y, z) = (f16::from_bits(a), f16::from_bits(b), f16::from_bits(c));
        h = mix(h, x.mul_add(y, z).to_bits() as u64 | ((x + y).to_bits() as u64) << 16);
        h = mix(h, (x * y).to_bits() as u64 | ((x - y).to_bits() as u64) << 16 | ((-z).to_bits() as u64) << 32);
        let (p, r, u) = (q as u32, (q >> 16) as u32, (q >> 32) as u32 | (q as u32) << 16);
        let (x, y, z) = (bf16x2::from_bits(p), bf16x2::from_bits(r), bf16x2::from_bits(u));
        h = mix(h, x.mul_add(y, z).to_bits() as u64 | ((x + y).to_bits() as u64) << 32);
        h = mix(h, (x * y).to_bits() as u64 | ((x - y).to_bits() as u64) << 32);
        let (x, y, z) = (f16x2::from_bits(p), f16x2::from_bits(r), f16x2::from_bits(u));
        h = mix(h, x.mul_add(y, z).to_bits() as u64 | ((x + y).to_bits() as u64) << 32);
        h = mix(h, (x * y).to_bits() as u64 | ((-x).to_bits() as u64) << 32);
        h = mix(h, (x.lo().to_bits() ^ y.hi().to_bits()) as u64);
        // fp8 pairs back to f16 pairs, every byte pattern over the inputs
        h = mix(h, E4M3x2::from_bits(a).to_f16x2().to_bits() as u64);
        h = mix(h, E5M2x2::from_bits(b).to_f16x2().to_bits() as u64);
    }
    // f32 pairs: raw bits (specials from the input), and values scaled
    // into the fp8 range (ties, subnormals, the saturation edges)
    let k = ((w >> 56) as i32 & 31) - 16;
    let scale = f32::from_bits(((127 + k) as u32) << 23);
    let xs = [
        (f32_of(w), f32_of(w >> 32)),
        (f32_of(v) * 1.0e-30, f32_of(v >> 32)),
        ((w as u16 as f32 - 32768.0) * scale, (v as u16 as f32) * 0.0625),
        ((w >> 40) as u8 as f32 * 2.0, (v >> 40) as u8 as f32 * 512.0),
    ];
    for (a, b) in xs {
        h = mix(h, bf16x2::from_f32s(a, b).to_bits() as u64 | (f16x2::from_f32s(b, a).to_bits() as u64) << 32);
        let e4 = E4M3x2::from_f32s(a, b);
        let e5 = E5M2x2::from_f32s(b, a);
        h = mix(h, e4.to_bits() as u64 | (e5.to_bits() as u64) << 16);
        h = mix(h, e4.to_f16x2().to_bits() as u64 | (e5.to_f16x2().to_bits() as u64) << 32);
    }
    put(&mut out, idx, h);
}
