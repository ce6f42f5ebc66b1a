//! Conformance group `hazards`: the constructs that the GPU got wrong
//! while host emulation was right (issue 8): 8/16-bit signed negation,
//! saturation and compares of wrapped values at the boundary values; the
//! bit-exact float sign operations and compare-selects on NaN payloads
//! (quiet and signalling; digested without canonicalisation, since Rust
//! promises these bits); byte-array transmutes and `to_le_bytes` at -O0.
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

/// i16 values around the boundaries (MIN, MIN+1, -1, 0, 1, MAX-1, MAX)
/// and from the input.
#[inline(always)]
fn i16_of(input: &[u64], i: usize) -> i16 {
    const B: [i16; 8] = [i16::MIN, i16::MIN + 1, -1, 0, 1, i16::MAX - 1, i16::MAX, -2];
    if i % 2 == 0 { B[(i / 2) % 8] } else { at(input, i) as i16 }
}

/// The same for i8.
#[inline(always)]
fn i8_of(input: &[u64], i: usize) -> i8 {
    const B: [i8; 8] = [i8::MIN, i8::MIN + 1, -1, 0, 1, i8::MAX - 1, i8::MAX, -2];
    if i % 2 == 0 { B[(i / 2) % 8] } else { at(input, i) as i8 }
}

/// i16 negation: saturating_neg, saturating_abs, wrapping_neg/abs,
/// checked_neg, overflowing_neg, unsigned_abs, signum at MIN and around it.
#[kernel]
pub fn hazards_i16_neg(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let x = i16_of(input, i);
    let mut h = mix(H0, x.saturating_neg() as u16 as u64);
    h = mix(h, x.saturating_abs() as u16 as u64);
    h = mix(h, x.wrapping_neg() as u16 as u64);
    h = mix(h, x.wrapping_abs() as u16 as u64);
    h = mix(h, x.checked_neg().map_or(0x1_0000, |v| v as u16 as u64));
    let (v, o) = x.overflowing_neg();
    h = mix(h, v as u16 as u64 | (o as u64) << 16);
    h = mix(h, x.unsigned_abs() as u64);
    h = mix(h, x.signum() as u16 as u64);
    put(&mut out, idx, h);
}

/// f32 NaN payloads (quiet and signalling, both signs) and specials.
#[inline(always)]
fn f32_nan_of(input: &[u64], i: usize) -> f32 {
    const B: [u32; 8] = [0x7fc0_0000, 0x7f80_0001, 0xffc1_2345, 0xff80_0f00, 0x7fff_ffff, 0x7fa0_0000, 0x8000_0000, 0x7f80_0000];
    if i % 2 == 0 { f32::from_bits(B[(i / 2) % 8]) } else { f32::from_bits(0x7f80_0000 | (at(input, i) as u32 & 0x807f_ffff) | 1) }
}

/// f32 unary minus, abs and copysign keep NaN payloads bit for bit.
#[kernel]
pub fn hazards_f32_sign_bits(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let x = f32_nan_of(input, i);
    let y = f32_of(at(input, i * 5 + 2));
    let mut h = mix(H0, (-x).to_bits() as u64);
    h = mix(h, x.abs().to_bits() as u64);
    h = mix(h, x.copysign(y).to_bits() as u64);
    h = mix(h, y.copysign(x).to_bits() as u64);
    h = mix(h, x.copysign(-1.0).to_bits() as u64);
    put(&mut out, idx, h);
}

/// f32 clamp and hand-written compare-selects return the NaN operand itself.
#[kernel]
pub fn hazards_f32_clamp_nan(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let x = f32_nan_of(input, i);
    let mut h = mix(H0, x.clamp(-1.0, 1.0).to_bits() as u64);
    h = mix(h, (if x < -1.0 { -1.0 } else { x }).to_bits() as u64);
    h = mix(h, (if x > 1.0 { 1.0 } else { x }).to_bits() as u64);
    h = mix(h, (if 0.5 < x { x } else { 0.5 }).to_bits() as u64);
    put(&mut out, idx, h);
}

/// i8 negation and saturation at MIN and around it.
#[kernel]
pub fn hazards_i8_neg(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let x = i8_of(input, i);
    let mut h = mix(H0, x.saturating_neg() as u8 as u64);
    h = mix(h, x.saturating_abs() as u8 as u64);
    h = mix(h, x.wrapping_neg() as u8 as u64);
    h = mix(h, x.wrapping_abs() as u8 as u64);
    h = mix(h, x.checked_neg().map_or(0x100, |v| v as u8 as u64));
    h = mix(h, x.checked_abs().map_or(0x100, |v| v as u8 as u64));
    let (v, o) = x.overflowing_neg();
    h = mix(h, v as u8 as u64 | (o as u64) << 8);
    h = mix(h, x.unsigned_abs() as u64);
    h = mix(h, x.signum() as u8 as u64);
    h = mix(h, (x.wrapping_neg() < 0) as u64);
    put(&mut out, idx, h);
}

/// i16 and i8 saturating / overflowing / wrapping add, sub, mul, and
/// compares of wrapped results, on boundary pairs.
#[kernel]
pub fn hazards_narrow_arith(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let (a, b) = (i16_of(input, i), i16_of(input, i / 8 + 1));
    let mut h = mix(H0, a.saturating_add(b) as u16 as u64);
    h = mix(h, a.saturating_sub(b) as u16 as u64);
    h = mix(h, a.saturating_mul(b) as u16 as u64);
    let (s, o) = a.overflowing_add(b);
    h = mix(h, s as u16 as u64 | (o as u64) << 16);
    let (s, o) = a.overflowing_sub(b);
    h = mix(h, s as u16 as u64 | (o as u64) << 16);
    let (s, o) = a.overflowing_mul(b);
    h = mix(h, s as u16 as u64 | (o as u64) << 16);
    h = mix(h, (a.wrapping_add(b) < a) as u64 | ((a.wrapping_sub(b) < 0) as u64) << 1);
    h = mix(h, a.wrapping_add(b) as i64 as u64);
    h = mix(h, a.min(b) as u16 as u64 | (a.max(b) as u16 as u64) << 16);
    h = mix(h, a.abs_diff(b) as u64);
    h = mix(h, a.checked_div(b).map_or(0x1_0000, |v| v as u16 as u64));
    h = mix(h, a.wrapping_rem(if b == 0 { 1 } else { b }) as u16 as u64);
    let (c, d) = (i8_of(input, i), i8_of(input, i / 8 + 3));
    h = mix(h, c.saturating_add(d) as u8 as u64 | (c.saturating_sub(d) as u8 as u64) << 8);
    h = mix(h, c.saturating_mul(d) as u8 as u64 | (c.wrapping_mul(d) as i64 as u64) << 8);
    h = mix(h, (c.wrapping_add(d) < c) as u64 | (c.min(d) as u8 as u64) << 8);
    put(&mut out, idx, h);
}

/// f64 unary minus, abs, copysign keep NaN payloads bit for bit.
#[kernel]
pub fn hazards_f64_sign_bits(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    const B: [u64; 4] = [0x7ff8_0000_0000_0000, 0x7ff0_0000_0000_0001, 0xfff4_0000_dead_beef, 0x7fff_ffff_ffff_ffff];
    let x = if i % 2 == 0 { f64::from_bits(B[(i / 2) % 4]) } else { f64::from_bits(0x7ff0_0000_0000_0001 | at(input, i)) };
    let y = f64_of(at(input, i * 5 + 2));
    let mut h = mix(H0, (-x).to_bits());
    h = mix(h, x.abs().to_bits());
    h = mix(h, x.copysign(y).to_bits());
    h = mix(h, y.copysign(x).to_bits());
    h = mix(h, (-x.abs()).to_bits());
    h = mix(h, x.signum().to_bits());
    put(&mut out, idx, h);
}

/// f32 / f64 min, max (one NaN operand: the other comes back exactly, but
/// for the sign of a zero), clamp, signum and compare-selects on NaN
/// payloads (and on -0.0 and +inf, which f32_nan_of also gives).
#[kernel]
pub fn hazards_float_minmax_nan(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let x = f32_nan_of(input, i);
    let y = f32_of(at(input, i * 3 + 1));
    // `+ 0.0`: min/max of -0.0 and +0.0 may be either (Rust leaves it open)
    let mut h = mix(H0, canon32(x.min(y) + 0.0));
    h = mix(h, canon32(x.max(y) + 0.0));
    h = mix(h, canon32(y.min(x) + 0.0));
    h = mix(h, x.signum().to_bits() as u64);
    h = mix(h, (if y.is_nan() { x } else { x.clamp(-y.abs() - 1.0, y.abs() + 1.0) }).to_bits() as u64);
    h = mix(h, (if x > y { x } else { y }).to_bits() as u64);
    let d = f64::from_bits(0x7ff0_0000_0000_0001 | at(input, i * 7));
    h = mix(h, d.clamp(-2.0, 2.0).to_bits());
    h = mix(h, (if d < 0.0 { 0.0 } else { d }).to_bits());
    h = mix(h, canon64(d.max(1.5)));
    put(&mut out, idx, h);
}

/// to_le_bytes / to_be_bytes into byte arrays and transmutes between
/// arrays of a smaller alignment and u64 / u128 (misaligned at -O0 once).
#[kernel]
pub fn hazards_bytes_transmute(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let b = (w as u32).to_le_bytes();
    let mut h = mix(H0, b[0] as u64 | (b[3] as u64) << 8);
    let b8 = w.to_be_bytes();
    h = mix(h, b8[1] as u64 | (b8[6] as u64) << 8);
    let pair: [u32; 2] = unsafe { core::mem::transmute(w) };
    h = mix(h, pair[1] as u64);
    let back: u64 = unsafe { core::mem::transmute(pair) };
    h = mix(h, back);
    let m: [[u8; 4]; 4] = unsafe { core::mem::transmute((w as u128) << 17 | 3) };
    h = mix(h, m[1][2] as u64 | (m[3][0] as u64) << 8);
    let q: u128 = unsafe { core::mem::transmute(m) };
    h = mix(h, (q >> 64) as u64 ^ q as u64);
    let halves: [u16; 4] = unsafe { core::mem::transmute(w) };
    h = mix(h, halves[3] as u64);
    let words: [u32; 4] = unsafe { core::mem::transmute(m) };
    h = mix(h, words[2] as u64);
    let bytes: [u8; 16] = unsafe { core::mem::transmute(words) };
    h = mix(h, bytes[9] as u64);
    h = mix(h, u32::from_le_bytes(b) as u64 ^ u64::from_be_bytes(b8));
    put(&mut out, idx, h);
}

/// Integer abs at every width, with uses that read the result's sign:
/// ptxas takes `abs.sN` to be non-negative, but abs(MIN) = MIN (the
/// 2,000-kernel fuzz run: `i64::wrapping_abs(MIN).signum()` read 1, and
/// `saturating_abs` of `unsigned_abs(MIN) as i32` read MIN, at -O3).
macro_rules! abs_uses {
    ($h:ident, $t:ty, $u:ty, $x:expr) => {{
        let x: $t = $x;
        let a = x.wrapping_abs();
        $h = mix($h, a.signum() as $u as u64);
        $h = mix($h, (a < 0) as u64);
        $h = mix($h, (a >> (<$t>::BITS - 1)) as $u as u64);
        $h = mix($h, (x.unsigned_abs() as $t).saturating_abs() as $u as u64);
        $h = mix($h, a.saturating_abs() as $u as u64);
        $h = mix($h, x.checked_abs().map_or(7, |v| v as $u as u64 ^ 0x55));
        let (v, o) = x.overflowing_abs();
        $h = mix($h, v as $u as u64 ^ (o as u64) << 63);
        $h = mix($h, if a >= 0 { 1 } else { 2 });
    }};
}

/// i8..i64 and isize abs at MIN, MIN+1, -1, 0, 1, MAX (plus an input
/// offset on odd threads): signum, sign tests, shifts and saturation of it.
#[kernel]
pub fn hazards_int_abs(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let r = at(input, i * 3 + 1);
    let pick = |b: u64| if i % 2 == 0 { b } else { r };
    // MIN, MIN+1, -1, 0, 1, MAX at each width; odd threads the input
    let k = (i / 2) % 6;
    let mut h = H0;
    abs_uses!(h, i8, u8, [i8::MIN, i8::MIN + 1, -1, 0, 1, i8::MAX][k].wrapping_add(pick(0) as i8));
    abs_uses!(h, i16, u16, [i16::MIN, i16::MIN + 1, -1, 0, 1, i16::MAX][k].wrapping_add(pick(0) as i16));
    abs_uses!(h, i32, u32, [i32::MIN, i32::MIN + 1, -1, 0, 1, i32::MAX][k].wrapping_add(pick(0) as i32));
    abs_uses!(h, i64, u64, [i64::MIN, i64::MIN + 1, -1, 0, 1, i64::MAX][k].wrapping_add(pick(0) as i64));
    abs_uses!(h, isize, usize, [isize::MIN, isize::MIN + 1, -1, 0, 1, isize::MAX][k].wrapping_add(pick(0) as isize));
    put(&mut out, idx, h);
}

#[inline]
fn bump_by_pi(p: &mut f32) -> u8 {
    *p = 3.1415927f32 + *p;
    13
}

/// An f32 add of two constants at a rounding tie (-7.3333335 + 3.1415927,
/// IEEE: 0xC08622BE): the CUDA driver's JIT folded it to 0xC08622BD when
/// -O0 PTX still had the add (tests/fuzz/reproducers/jit_const_fadd.rs);
/// the input-dependent sum is digested with NaNs canonical (arithmetic).
#[kernel]
pub fn hazards_const_fadd_tie(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut v: f32 = (7.333333333333333f64 as f32).copysign(-0.0f32);
    let r = bump_by_pi(&mut v);
    let mut w: f32 = f32::from_bits(at(input, i) as u32 | 0x4000_0000);
    let s = bump_by_pi(&mut w);
    put(&mut out, idx, mix(mix(H0, v.to_bits() as u64 | (r as u64) << 32), canon32(w) ^ s as u64));
}
