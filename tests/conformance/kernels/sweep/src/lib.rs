//! Conformance group `sweep`: exhaustive and boundary sweeps of integer and
//! float operations, where a GPU is most likely to differ from rustc
//! (ptxas's 8/16-bit patterns, NaN sign bits, saturating float casts).
//!
//! Every kernel has a table of 32 operations. Thread `t` applies operation
//! `t / 4` to its quarter `t % 4` of the kernel's values and digests the
//! results, so a word that differs, out[t], names the operation: the
//! numbered lists below (`bin_op!`, `un_signed!`/`un_unsigned!`,
//! `float_op!`), the same for every kernel of a kind. All four quarters of
//! an operation together see every value. (A warp then runs 8 operations,
//! not 32: less divergence, a shorter run on the GPU at -O0.)
//!
//! Values: every i8/u8 pair and every i8/u8/i16/u16 value; for the wider
//! types (and i16/u16 pairs) the 24 boundary values of `bounds!` (MIN,
//! MIN+1, MAX, MAX-1, -1, 0, 1, shift widths, ...) and input words; for
//! floats 2^24 bit patterns spread over the whole range (every sign and
//! exponent and the top payload bits: NaNs, sNaNs, infinities,
//! subnormals). Results of Rust's bit-exact float operations (neg, abs,
//! copysign, clamp, min/max with a non-NaN operand, moves, to/from_bits)
//! are digested as raw bits, NaN payloads included; results of arithmetic
//! (and of f32<->f64 casts and signum, whose NaN is unspecified) through
//! canon32/canon64 (docs/conformance.md, "NaN payloads").
#![no_std]
#![allow(clippy::all)]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

/// Operations per kernel, and quarters of the values per operation.
const OPS: usize = 32;
const PARTS: usize = 4;

/// What a failed checked operation digests as (no value of any width
/// sign- or zero-extends to it).
const NONE: u128 = 0x5A5A_5A5A_5A5A_5A5A_0123_4567_89AB_CDEF;

/// An Option's value, or NONE.
macro_rules! opt {
    ($e:expr) => {
        match $e {
            Some(v) => v as u128,
            None => NONE,
        }
    };
}

/// An overflowing_* pair: the value with the flag mixed in.
macro_rules! ovf {
    ($e:expr) => {{
        let (v, f) = $e;
        (v as u128) ^ ((f as u128) * 0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835)
    }};
}

/// Both halves of a 128-bit result into the digest.
#[inline(always)]
fn dig(h: u64, v: u128) -> u64 {
    mix(mix(h, v as u64), (v >> 64) as u64)
}

/// (this thread's output token, its operation, its quarter).
#[inline(always)]
fn lane() -> (ThreadIndex, usize, usize) {
    let (idx, i) = tid();
    (idx, i / PARTS % OPS, i % PARTS)
}

/// 24 boundary values of integer type $t.
macro_rules! bounds {
    ($t:ty) => {{
        let z = 0 as $t;
        let bits = <$t>::BITS;
        [
            <$t>::MIN,
            <$t>::MIN.wrapping_add(1),
            <$t>::MIN.wrapping_add(2),
            <$t>::MAX,
            <$t>::MAX.wrapping_sub(1),
            <$t>::MAX.wrapping_sub(2),
            z,
            1,
            2,
            3,
            7,
            10,
            z.wrapping_sub(1),
            z.wrapping_sub(2),
            z.wrapping_sub(7),
            <$t>::MAX / 2,
            <$t>::MAX / 2 + 1,
            <$t>::MIN / 2,
            <$t>::MAX / 3,
            !(<$t>::MAX / 3),
            (1 as $t) << (bits / 2),
            ((1 as $t) << (bits / 2)).wrapping_sub(1),
            bits as $t - 1,
            bits as $t + 1,
        ]
    }};
}

/// Value `j` of a wide sweep: a boundary value, else input words.
macro_rules! wide_value {
    ($t:ty, $input:expr, $j:expr) => {{
        let j: usize = $j;
        let b = bounds!($t);
        if j < b.len() {
            b[j]
        } else {
            (((at($input, 2 * j) as u128) << 64) | at($input, 2 * j + 1) as u128) as $t
        }
    }};
}

/// Binary operation `op` of a and b (both of type $t):
///  0 wrapping_add   1 wrapping_sub   2 wrapping_mul   3 saturating_add
///  4 saturating_sub 5 saturating_mul 6 checked_add    7 checked_sub
///  8 checked_mul    9 overflowing_add 10 overflowing_sub 11 overflowing_mul
/// 12 checked_div   13 checked_rem   14 checked_div_euclid 15 checked_rem_euclid
/// 16 wrapping_div  17 wrapping_rem  18 saturating_div 19 overflowing_div/rem
/// 20 wrapping_shl  21 wrapping_shr  22 checked_shl    23 checked_shr
/// 24 overflowing_shl/shr 25 min/max 26 comparisons, cmp 27 abs_diff
/// 28 rotate_left/right 29 plain + - * (wrapping: no overflow checks)
/// 30 plain / % (b != 0, no MIN / -1) 31 & | ^ and plain << >> (masked)
macro_rules! bin_op {
    ($t:ty, $op:expr, $a:expr, $b:expr) => {{
        let (a, b): ($t, $t) = ($a, $b);
        let s = b as u32;
        let m = s & (<$t>::BITS - 1);
        match $op {
            0 => a.wrapping_add(b) as u128,
            1 => a.wrapping_sub(b) as u128,
            2 => a.wrapping_mul(b) as u128,
            3 => a.saturating_add(b) as u128,
            4 => a.saturating_sub(b) as u128,
            5 => a.saturating_mul(b) as u128,
            6 => opt!(a.checked_add(b)),
            7 => opt!(a.checked_sub(b)),
            8 => opt!(a.checked_mul(b)),
            9 => ovf!(a.overflowing_add(b)),
            10 => ovf!(a.overflowing_sub(b)),
            11 => ovf!(a.overflowing_mul(b)),
            12 => opt!(a.checked_div(b)),
            13 => opt!(a.checked_rem(b)),
            14 => opt!(a.checked_div_euclid(b)),
            15 => opt!(a.checked_rem_euclid(b)),
            16 => if b == 0 { NONE } else { a.wrapping_div(b) as u128 },
            17 => if b == 0 { NONE } else { a.wrapping_rem(b) as u128 },
            18 => if b == 0 { NONE } else { a.saturating_div(b) as u128 },
            19 => if b == 0 { NONE } else { ovf!(a.overflowing_div(b)) ^ ovf!(a.overflowing_rem(b)).rotate_left(17) },
            20 => a.wrapping_shl(s) as u128,
            21 => a.wrapping_shr(s) as u128,
            22 => opt!(a.checked_shl(s)),
            23 => opt!(a.checked_shr(s)),
            24 => ovf!(a.overflowing_shl(s)) ^ ovf!(a.overflowing_shr(s)).rotate_left(29),
            25 => a.min(b) as u128 ^ (a.max(b) as u128).rotate_left(7),
            26 => {
                ((a < b) as u128)
                    | ((a <= b) as u128) << 1
                    | ((a == b) as u128) << 2
                    | ((a != b) as u128) << 3
                    | ((a > b) as u128) << 4
                    | ((a >= b) as u128) << 5
                    | ((a.cmp(&b) as i8 as u8) as u128) << 8
            }
            27 => a.abs_diff(b) as u128,
            28 => a.rotate_left(s) as u128 ^ (a.rotate_right(s) as u128).rotate_left(3),
            29 => (a + b) as u128 ^ ((a - b) as u128).rotate_left(5) ^ ((a * b) as u128).rotate_left(11),
            30 => match a.checked_div(b) {
                Some(_) => (a / b) as u128 ^ ((a % b) as u128).rotate_left(9),
                None => NONE,
            },
            31 => {
                (a & b) as u128
                    ^ ((a | b) as u128).rotate_left(13)
                    ^ ((a ^ b) as u128).rotate_left(23)
                    ^ ((a << m) as u128).rotate_left(31)
                    ^ ((a >> m) as u128).rotate_left(37)
            }
            _ => 0,
        }
    }};
}

/// Unary operations 12..31 of every integer type $t:
/// 12 count_ones, leading/trailing_zeros/ones 13 swap_bytes, reverse_bits
/// 14 as i8 u8 i16 u16  15 as i32 u32 i64 u64  16 as i128 u128 isize usize
/// 17 as f32 (bits)     18 as f64 (bits)       19 checked_pow(3), wrapping_pow(5)
/// 20 saturating_pow(3), overflowing_pow(2)    21 checked_ilog2/ilog10/ilog(3)
/// 22 as f32 / as f64 and back (saturating)    23 a + (a >> 1), a - 1 (wrapping)
/// 24 div_euclid(7), rem_euclid(7), / 3, % 10  25 * 7, >> 3, << 5, / 16, % 16
/// 26 == MIN, == MAX, < 1, > 0, odd, <= MAX/2  27 rotate_left(3)/right(5)
/// 28 min/max/clamp with constants             29 !, ^ constant
/// 30 abs_diff with constants                  31 wrapping/saturating/checked a*a
macro_rules! un_common {
    ($t:ty, $op:expr, $a:expr) => {{
        let a: $t = $a;
        match $op {
            12 => {
                (a.count_ones() | a.leading_zeros() << 8 | a.trailing_zeros() << 16 | a.leading_ones() << 24) as u128
                    | (a.trailing_ones() as u128) << 32
            }
            13 => a.swap_bytes() as u128 ^ (a.reverse_bits() as u128).rotate_left(7),
            14 => {
                (a as i8) as u128
                    ^ ((a as u8) as u128).rotate_left(8)
                    ^ ((a as i16) as u128).rotate_left(16)
                    ^ ((a as u16) as u128).rotate_left(32)
            }
            15 => {
                (a as i32) as u128
                    ^ ((a as u32) as u128).rotate_left(32)
                    ^ ((a as i64) as u128).rotate_left(5)
                    ^ ((a as u64) as u128).rotate_left(77)
            }
            16 => {
                (a as i128) as u128
                    ^ (a as u128).rotate_left(3)
                    ^ ((a as isize) as u128).rotate_left(50)
                    ^ ((a as usize) as u128).rotate_left(90)
            }
            17 => (a as f32).to_bits() as u128,
            18 => (a as f64).to_bits() as u128,
            19 => opt!(a.checked_pow(3)) ^ (a.wrapping_pow(5) as u128).rotate_left(11),
            20 => a.saturating_pow(3) as u128 ^ ovf!(a.overflowing_pow(2)).rotate_left(17),
            21 => opt!(a.checked_ilog2()) ^ opt!(a.checked_ilog10()).rotate_left(20) ^ opt!(a.checked_ilog(3)).rotate_left(40),
            22 => ((a as f32) as $t) as u128 ^ (((a as f64) as $t) as u128).rotate_left(64),
            // (byte arrays are sweep_bytes's: a fault there at -O0 must not
            // hide the other operations)
            23 => a.wrapping_add(a >> 1) as u128 ^ (a.wrapping_sub(1 as $t) as u128).rotate_left(21),
            24 => {
                a.div_euclid(7) as u128
                    ^ (a.rem_euclid(7) as u128).rotate_left(8)
                    ^ ((a / 3) as u128).rotate_left(16)
                    ^ ((a % 10) as u128).rotate_left(24)
            }
            25 => {
                (a * 7) as u128
                    ^ ((a >> 3) as u128).rotate_left(9)
                    ^ ((a << 5) as u128).rotate_left(19)
                    ^ ((a / 16) as u128).rotate_left(29)
                    ^ ((a % 16) as u128).rotate_left(39)
            }
            26 => {
                (a == <$t>::MIN) as u128
                    | ((a == <$t>::MAX) as u128) << 1
                    | ((a < 1 as $t) as u128) << 2
                    | ((a > 0 as $t) as u128) << 3
                    | ((a as u128 & 1 == 1) as u128) << 4
                    | ((a <= <$t>::MAX / 2) as u128) << 5
            }
            27 => a.rotate_left(3) as u128 ^ (a.rotate_right(5) as u128).rotate_left(11),
            28 => {
                a.min(<$t>::MAX / 3) as u128
                    ^ (a.max(<$t>::MIN / 2 + 1) as u128).rotate_left(13)
                    ^ (a.clamp(0 as $t, 100 as $t) as u128).rotate_left(29)
            }
            29 => (!a) as u128 ^ ((a ^ <$t>::MAX / 3) as u128).rotate_left(7),
            30 => a.abs_diff(<$t>::MAX / 3) as u128 ^ (a.abs_diff(<$t>::MIN) as u128).rotate_left(64),
            31 => a.wrapping_mul(a) as u128 ^ (a.saturating_mul(a) as u128).rotate_left(33) ^ opt!(a.checked_mul(a)).rotate_left(66),
            _ => 0,
        }
    }};
}

/// Unary operation `op` of a signed $t:
///  0 wrapping_neg  1 saturating_neg  2 checked_neg  3 overflowing_neg
///  4 wrapping_abs  5 saturating_abs  6 checked_abs  7 overflowing_abs
///  8 unsigned_abs  9 signum, is_positive/negative  10 plain -a, abs()
/// 11 checked_isqrt, cast_unsigned; 12..31 as `un_common!`
macro_rules! un_signed {
    ($t:ty, $op:expr, $a:expr) => {{
        let a: $t = $a;
        match $op {
            0 => a.wrapping_neg() as u128,
            1 => a.saturating_neg() as u128,
            2 => opt!(a.checked_neg()),
            3 => ovf!(a.overflowing_neg()),
            4 => a.wrapping_abs() as u128,
            5 => a.saturating_abs() as u128,
            6 => opt!(a.checked_abs()),
            7 => ovf!(a.overflowing_abs()),
            8 => a.unsigned_abs() as u128,
            9 => a.signum() as u128 ^ (a.is_positive() as u128) << 8 ^ (a.is_negative() as u128) << 9,
            10 => (-a) as u128 ^ (a.abs() as u128).rotate_left(64),
            11 => opt!(a.checked_isqrt()) ^ (a.cast_unsigned() as u128).rotate_left(64),
            op => un_common!($t, op, a),
        }
    }};
}

/// Unary operation `op` of an unsigned $t:
///  0 wrapping_neg  1 checked_neg  2 overflowing_neg
///  3 is_power_of_two, checked_next_power_of_two  4 isqrt  5 cast_signed
///  6 div_ceil(7), checked_next_multiple_of(7)  7 saturating_sub/add(100)
///  8 cast_signed().wrapping_abs()  9 cast_signed().saturating_neg(), signum()
/// 10 checked_sub(MAX / 2)  11 checked_rem(7), checked_div(5);
/// 12..31 as `un_common!`
macro_rules! un_unsigned {
    ($t:ty, $op:expr, $a:expr) => {{
        let a: $t = $a;
        match $op {
            0 => a.wrapping_neg() as u128,
            1 => opt!(a.checked_neg()),
            2 => ovf!(a.overflowing_neg()),
            3 => a.is_power_of_two() as u128 ^ opt!(a.checked_next_power_of_two()).rotate_left(8),
            4 => a.isqrt() as u128,
            5 => a.cast_signed() as u128,
            6 => a.div_ceil(7) as u128 ^ opt!(a.checked_next_multiple_of(7)).rotate_left(9),
            7 => a.saturating_sub(100) as u128 ^ (a.saturating_add(100) as u128).rotate_left(64),
            8 => a.cast_signed().wrapping_abs() as u128,
            9 => a.cast_signed().saturating_neg() as u128 ^ (a.cast_signed().signum() as u128).rotate_left(64),
            10 => opt!(a.checked_sub(<$t>::MAX / 2)),
            11 => opt!(a.checked_rem(7)) ^ opt!(a.checked_div(5)).rotate_left(7),
            op => un_common!($t, op, a),
        }
    }};
}

/// Body: every pair of an 8-bit type, 16,384 pairs per quarter.
macro_rules! pairs8 {
    ($t:ty, $out:ident) => {{
        let (idx, op, part) = lane();
        let mut h = H0;
        let mut q = part * 16384;
        while q < (part + 1) * 16384 {
            let (a, b) = ((q >> 8) as u8 as $t, q as u8 as $t);
            h = dig(h, bin_op!($t, op, a, b));
            q += 1;
        }
        put(&mut $out, idx, h);
    }};
}

/// Body: pairs of 64 values (24 boundary values, 40 from input words),
/// 1,024 pairs per quarter.
macro_rules! pairs_wide {
    ($t:ty, $input:ident, $out:ident) => {{
        let (idx, op, part) = lane();
        let mut h = H0;
        let mut q = part * 1024;
        while q < (part + 1) * 1024 {
            let a = wide_value!($t, $input, q / 64);
            let b = wide_value!($t, $input, q % 64);
            h = dig(h, bin_op!($t, op, a, b));
            q += 1;
        }
        put(&mut $out, idx, h);
    }};
}

/// Body: every value of an 8- or 16-bit type $t (bits $u).
macro_rules! unary_all {
    ($t:ty, $u:ty, $ops:ident, $out:ident) => {{
        let (idx, op, part) = lane();
        let n = 1usize << <$t>::BITS;
        let mut h = H0;
        let mut v = part * n / PARTS;
        while v < (part + 1) * n / PARTS {
            h = dig(h, $ops!($t, op, v as $u as $t));
            v += 1;
        }
        put(&mut $out, idx, h);
    }};
}

/// Body: 1,024 values (24 boundary values, then input words), 256 per
/// quarter.
macro_rules! unary_wide {
    ($t:ty, $ops:ident, $input:ident, $out:ident) => {{
        let (idx, op, part) = lane();
        let mut h = H0;
        let mut j = part * 256;
        while j < (part + 1) * 256 {
            h = dig(h, $ops!($t, op, wide_value!($t, $input, j)));
            j += 1;
        }
        put(&mut $out, idx, h);
    }};
}

// ---------------------------------------------------------------- kernels
// (written out, not made by a macro: the CPU reference and the runners find
// kernels by their `#[kernel] pub fn NAME` lines)

/// bin_op! on every pair of i8.
#[kernel]
pub fn sweep_i8_pairs(_input: &[u64], mut out: DisjointSlice<u64>) {
    pairs8!(i8, out)
}

/// bin_op! on every pair of u8.
#[kernel]
pub fn sweep_u8_pairs(_input: &[u64], mut out: DisjointSlice<u64>) {
    pairs8!(u8, out)
}

/// bin_op! on pairs of i16 boundary values and input words.
#[kernel]
pub fn sweep_i16_pairs(input: &[u64], mut out: DisjointSlice<u64>) {
    pairs_wide!(i16, input, out)
}

/// bin_op! on pairs of u16 boundary values and input words.
#[kernel]
pub fn sweep_u16_pairs(input: &[u64], mut out: DisjointSlice<u64>) {
    pairs_wide!(u16, input, out)
}

/// bin_op! on pairs of i32 boundary values and input words.
#[kernel]
pub fn sweep_i32_pairs(input: &[u64], mut out: DisjointSlice<u64>) {
    pairs_wide!(i32, input, out)
}

/// bin_op! on pairs of u32 boundary values and input words.
#[kernel]
pub fn sweep_u32_pairs(input: &[u64], mut out: DisjointSlice<u64>) {
    pairs_wide!(u32, input, out)
}

/// bin_op! on pairs of i64 boundary values and input words.
#[kernel]
pub fn sweep_i64_pairs(input: &[u64], mut out: DisjointSlice<u64>) {
    pairs_wide!(i64, input, out)
}

/// bin_op! on pairs of u64 boundary values and input words.
#[kernel]
pub fn sweep_u64_pairs(input: &[u64], mut out: DisjointSlice<u64>) {
    pairs_wide!(u64, input, out)
}

/// bin_op! on pairs of i128 boundary values and input words.
#[kernel]
pub fn sweep_i128_pairs(input: &[u64], mut out: DisjointSlice<u64>) {
    pairs_wide!(i128, input, out)
}

/// bin_op! on pairs of u128 boundary values and input words.
#[kernel]
pub fn sweep_u128_pairs(input: &[u64], mut out: DisjointSlice<u64>) {
    pairs_wide!(u128, input, out)
}

/// un_signed! on every i8 value.
#[kernel]
pub fn sweep_i8_unary(_input: &[u64], mut out: DisjointSlice<u64>) {
    unary_all!(i8, u8, un_signed, out)
}

/// un_unsigned! on every u8 value.
#[kernel]
pub fn sweep_u8_unary(_input: &[u64], mut out: DisjointSlice<u64>) {
    unary_all!(u8, u8, un_unsigned, out)
}

/// un_signed! on every i16 value.
#[kernel]
pub fn sweep_i16_unary(_input: &[u64], mut out: DisjointSlice<u64>) {
    unary_all!(i16, u16, un_signed, out)
}

/// un_unsigned! on every u16 value.
#[kernel]
pub fn sweep_u16_unary(_input: &[u64], mut out: DisjointSlice<u64>) {
    unary_all!(u16, u16, un_unsigned, out)
}

/// un_signed! on i32 boundary values and input words.
#[kernel]
pub fn sweep_i32_unary(input: &[u64], mut out: DisjointSlice<u64>) {
    unary_wide!(i32, un_signed, input, out)
}

/// un_unsigned! on u32 boundary values and input words.
#[kernel]
pub fn sweep_u32_unary(input: &[u64], mut out: DisjointSlice<u64>) {
    unary_wide!(u32, un_unsigned, input, out)
}

/// un_signed! on i64 boundary values and input words.
#[kernel]
pub fn sweep_i64_unary(input: &[u64], mut out: DisjointSlice<u64>) {
    unary_wide!(i64, un_signed, input, out)
}

/// un_unsigned! on u64 boundary values and input words.
#[kernel]
pub fn sweep_u64_unary(input: &[u64], mut out: DisjointSlice<u64>) {
    unary_wide!(u64, un_unsigned, input, out)
}

/// un_signed! on i128 boundary values and input words.
#[kernel]
pub fn sweep_i128_unary(input: &[u64], mut out: DisjointSlice<u64>) {
    unary_wide!(i128, un_signed, input, out)
}

/// un_unsigned! on u128 boundary values and input words.
#[kernel]
pub fn sweep_u128_unary(input: &[u64], mut out: DisjointSlice<u64>) {
    unary_wide!(u128, un_unsigned, input, out)
}

/// The bits of a float result, NaN payloads and sign included.
macro_rules! raw {
    ($x:expr) => {
        $x.to_bits() as u128
    };
}

/// Float operation `op` of x (and y, another pattern) of type $f (bits
/// $b; `canon` canon32 or canon64); raw bits unless said otherwise:
///  0 -x  1 abs  2 copysign(-1.0), copysign(1.0)  3 copysign(y)
///  4 signum (canon)  5 clamp(-2.5, 3.0)  6 clamp(-0.0, 0.0)
///  7 min(1.5), max(-1.5)  8 min(INFINITY), max(NEG_INFINITY)
///  9 -(-x), (-x).abs()  10 from_bits(bits ^ sign), from_bits(bits & !sign)
/// 11 moves: through an array and a select  12 is_nan .. is_sign_positive,
/// classify  13 comparisons with constants, partial_cmp
/// 14 total_cmp  15..24 as i8 u8 i16 u16 i32 u32 i64 u64 i128 u128
/// 25 as the other float type (canon)  26 x * 2, x + 1 (canon)
/// 27 x / 3, x - x (canon)  28 recip (canon)  29 copysign(-0.0),
/// 1.0.copysign(x)  30 abs().copysign(x), (-x).copysign(abs)
/// 31 as i32 / as u64 and back to $f (exact int->float rounding)
macro_rules! float_op {
    ($f:ty, $b:ty, $g:ty, $canon:ident, $op:expr, $x:expr, $y:expr, $k:expr) => {{
        let (x, y, k): ($f, $f, usize) = ($x, $y, $k);
        let sign: $b = 1 << (<$b>::BITS - 1);
        match $op {
            0 => raw!(-x),
            1 => raw!(x.abs()),
            2 => raw!(x.copysign(-1.0)) ^ raw!(x.copysign(1.0)) << 64,
            3 => raw!(x.copysign(y)),
            4 => $canon(x.signum()) as u128,
            5 => raw!(x.clamp(-2.5, 3.0)),
            6 => raw!(x.clamp(-0.0, 0.0)),
            7 => raw!(x.min(1.5)) ^ raw!(x.max(-1.5)) << 64,
            8 => raw!(x.min(<$f>::INFINITY)) ^ raw!(x.max(<$f>::NEG_INFINITY)) << 64,
            9 => raw!(-(-x)) ^ raw!((-x).abs()) << 64,
            10 => raw!(<$f>::from_bits(x.to_bits() ^ sign)) ^ raw!(<$f>::from_bits(x.to_bits() & !sign)) << 64,
            11 => {
                let arr = [x, -x, x.abs()];
                let sel = if k & 1 == 0 { x } else { y };
                raw!(arr[k % 3]) ^ raw!(sel) << 64
            }
            12 => {
                (x.is_nan() as u128)
                    | (x.is_finite() as u128) << 1
                    | (x.is_infinite() as u128) << 2
                    | (x.is_normal() as u128) << 3
                    | (x.is_subnormal() as u128) << 4
                    | (x.is_sign_negative() as u128) << 5
                    | (x.is_sign_positive() as u128) << 6
                    | (x.classify() as u128) << 8
            }
            13 => {
                ((x < 1.0) as u128)
                    | ((x <= -0.0) as u128) << 1
                    | ((x == 0.0) as u128) << 2
                    | ((x != x) as u128) << 3
                    | ((x > -1e30) as u128) << 4
                    | ((x >= <$f>::MIN_POSITIVE) as u128) << 5
                    | ((x == y) as u128) << 6
                    | ((x < y) as u128) << 7
                    | (x.partial_cmp(&0.5).map_or(7, |o| o as i8 as u8) as u128) << 8
            }
            14 => {
                (x.total_cmp(&1.0) as i8 as u8 as u128)
                    | (x.total_cmp(&-0.0) as i8 as u8 as u128) << 8
                    | (x.total_cmp(&y) as i8 as u8 as u128) << 16
            }
            15 => (x as i8) as u128,
            16 => (x as u8) as u128,
            17 => (x as i16) as u128,
            18 => (x as u16) as u128,
            19 => (x as i32) as u128,
            20 => (x as u32) as u128,
            21 => (x as i64) as u128,
            22 => (x as u64) as u128,
            23 => (x as i128) as u128,
            24 => x as u128,
            25 => {
                let g = x as $g;
                if g.is_nan() { 1 } else { g.to_bits() as u128 }
            }
            26 => $canon(x * 2.0) as u128 ^ ($canon(x + 1.0) as u128) << 64,
            27 => $canon(x / 3.0) as u128 ^ ($canon(x - x) as u128) << 64,
            28 => $canon(x.recip()) as u128,
            29 => raw!(x.copysign(-0.0)) ^ raw!((1.0 as $f).copysign(x)) << 64,
            30 => raw!(x.abs().copysign(x)) ^ raw!((-x).copysign(x.abs())) << 64,
            31 => raw!((x as i32) as $f) ^ raw!((x as u64) as $f) << 64,
            _ => 0,
        }
    }};
}

/// f32 pattern k (k < 2^24): every top 24 bits, the low 8 bits hashed.
#[inline(always)]
fn f32_pattern(k: u32) -> f32 {
    f32::from_bits(k << 8 | k.wrapping_mul(0x9E37_79B9) >> 24)
}

/// f64 pattern k (k < 2^24): every top 24 bits, the low 40 bits hashed.
#[inline(always)]
fn f64_pattern(k: u64) -> f64 {
    f64::from_bits(k << 40 | k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 24)
}

/// float_op! on 2^24 f32 bit patterns (2^22 per quarter); y is the
/// pattern of k ^ 0x5A5A5A.
#[kernel]
pub fn sweep_f32_ops(_input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, op, part) = lane();
    let mut h = H0;
    let mut k = part << 22;
    while k < (part + 1) << 22 {
        let (x, y) = (f32_pattern(k as u32), f32_pattern(k as u32 ^ 0x5A_5A5A));
        h = dig(h, float_op!(f32, u32, f64, canon32, op, x, y, k));
        k += 1;
    }
    put(&mut out, idx, h);
}

/// float_op! on 2^24 f64 bit patterns (2^22 per quarter); y is the
/// pattern of k ^ 0x5A5A5A.
#[kernel]
pub fn sweep_f64_ops(_input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, op, part) = lane();
    let mut h = H0;
    let mut k = part << 22;
    while k < (part + 1) << 22 {
        let (x, y) = (f64_pattern(k as u64), f64_pattern(k as u64 ^ 0x5A_5A5A));
        h = dig(h, float_op!(f64, u64, f32, canon64, op, x, y, k));
        k += 1;
    }
    put(&mut out, idx, h);
}

/// Byte conversions of type $t: to_le/be/ne_bytes, from_le/be/ne_bytes.
macro_rules! bytes_op {
    ($t:ty, $a:expr) => {{
        let a: $t = $a;
        let le = a.to_le_bytes();
        let be = a.to_be_bytes();
        (le[0] as u128 | (be[0] as u128) << 8 | (le[le.len() - 1] as u128) << 16)
            ^ (<$t>::from_le_bytes(be) as u128).rotate_left(24)
            ^ (<$t>::from_be_bytes(le) as u128).rotate_left(50)
            ^ (<$t>::from_ne_bytes(a.to_ne_bytes()) as u128).rotate_left(90)
    }};
}

/// to/from_le/be/ne_bytes of every width (thread t: width t / 4 % 10 of
/// i8 u8 i16 u16 i32 u32 i64 u64 i128 u128, then again) on the 1,024
/// values of unary_wide!, 256 per quarter.
#[kernel]
pub fn sweep_bytes(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, op, part) = lane();
    let mut h = H0;
    let mut j = part * 256;
    while j < (part + 1) * 256 {
        let v = match op % 10 {
            0 => bytes_op!(i8, wide_value!(i8, input, j)),
            1 => bytes_op!(u8, wide_value!(u8, input, j)),
            2 => bytes_op!(i16, wide_value!(i16, input, j)),
            3 => bytes_op!(u16, wide_value!(u16, input, j)),
            4 => bytes_op!(i32, wide_value!(i32, input, j)),
            5 => bytes_op!(u32, wide_value!(u32, input, j)),
            6 => bytes_op!(i64, wide_value!(i64, input, j)),
            7 => bytes_op!(u64, wide_value!(u64, input, j)),
            8 => bytes_op!(i128, wide_value!(i128, input, j)),
            _ => bytes_op!(u128, wide_value!(u128, input, j)),
        };
        h = dig(h, v);
        j += 1;
    }
    put(&mut out, idx, h);
}
