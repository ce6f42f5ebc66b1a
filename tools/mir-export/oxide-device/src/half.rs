//! Half-precision floats, `bf16` and `f16`, as their bits (stable Rust has
//! no `f16` type): `#[repr(transparent)]` over `u16`, so slices of them are
//! what CUDA's `__nv_bfloat16` / `__half` arrays are.
//!
//! Conversions from `f32` round to nearest, ties to even, like Rust's `as`
//! on floats (PTX `cvt.rn.bf16.f32` / `cvt.rn.f16.f32`, sm_80+ for bf16):
//! values beyond the format's range become infinities, tiny ones
//! subnormals or zeros, and every NaN becomes the canonical NaN `0x7fff`.
//! Conversions to `f32` are exact (`bf16` is the top half of an `f32`);
//! an f16 NaN becomes the f32 NaN `0x7fffffff` (PTX `cvt.f32.f16`), a
//! bf16 NaN keeps its payload.
//! Under host emulation the same rounding is done in C
//! (`src/runtime/oxemu_half.c`), so results agree bit for bit.
//!
//! Arithmetic is PTX's half instructions, each rounded once to nearest
//! even, subnormals kept, every NaN result the canonical NaN `0x7fff`:
//! `mul_add` (`fma.rn`), `+` (`add.rn`), `*` (`mul.rn`), `-` (an add of
//! the negation), unary `-` (the sign bit flipped: `neg`, exact).  f16
//! runs on sm_70+; bf16 `mul_add` needs sm_80, bf16 `+ - *` sm_90.
//! [`bf16x2`] and [`f16x2`] are pairs packed in a `u32` (element 0 in the
//! low half, CUDA's `__nv_bfloat162` / `__half2`), one instruction for
//! both.  [`fp8`]: e4m3 / e5m2 pairs (sm_89+).

use crate::prims::device as ffi;
use core::ops::{Add, Mul, Neg, Sub};

/// bfloat16: 1 sign, 8 exponent, 7 mantissa bits (the top half of an f32).
#[allow(non_camel_case_types)]
#[repr(transparent)]
#[derive(Clone, Copy, Default, Debug)]
pub struct bf16(u16);

/// IEEE binary16: 1 sign, 5 exponent, 10 mantissa bits.
#[allow(non_camel_case_types)]
#[repr(transparent)]
#[derive(Clone, Copy, Default, Debug)]
pub struct f16(u16);

impl bf16 {
    /// The value with these bits.
    #[inline(always)]
    pub const fn from_bits(bits: u16) -> Self {
        bf16(bits)
    }
    /// Its bits.
    #[inline(always)]
    pub const fn to_bits(self) -> u16 {
        self.0
    }
    /// `x` rounded to nearest even (NaN: `0x7fff`).
    #[inline(always)]
    pub fn from_f32(x: f32) -> Self {
        bf16(unsafe { ffi::__oxide_cvt_rn_bf16_f32(x) })
    }
    /// Exactly this value as an f32.
    #[inline(always)]
    pub fn to_f32(self) -> f32 {
        f32::from_bits((self.0 as u32) << 16)
    }
}

impl f16 {
    /// The value with these bits.
    #[inline(always)]
    pub const fn from_bits(bits: u16) -> Self {
        f16(bits)
    }
    /// Its bits.
    #[inline(always)]
    pub const fn to_bits(self) -> u16 {
        self.0
    }
    /// `x` rounded to nearest even (NaN: `0x7fff`).
    #[inline(always)]
    pub fn from_f32(x: f32) -> Self {
        f16(unsafe { ffi::__oxide_cvt_rn_f16_f32(x) })
    }
    /// Exactly this value as an f32 (NaN: `0x7fffffff`).
    #[inline(always)]
    pub fn to_f32(self) -> f32 {
        unsafe { ffi::__oxide_cvt_f32_f16(self.0) }
    }
}

/// The operators and `mul_add` of a half type, through the registry rows
/// `fma` / `add` / `mul` (`$fma`, `$add`, `$mul`); Neg flips `$sign`.
macro_rules! half_arith {
    ($t:ident, $sign:expr, $fma:ident, $add:ident, $mul:ident) => {
        impl $t {
            /// `self * a + b`, rounded once (`fma.rn`).
            #[inline(always)]
            pub fn mul_add(self, a: Self, b: Self) -> Self {
                $t(unsafe { ffi::$fma(self.0, a.0, b.0) })
            }
        }
        impl Add for $t {
            type Output = Self;
            #[inline(always)]
            fn add(self, o: Self) -> Self {
                $t(unsafe { ffi::$add(self.0, o.0) })
            }
        }
        impl Mul for $t {
            type Output = Self;
            #[inline(always)]
            fn mul(self, o: Self) -> Self {
                $t(unsafe { ffi::$mul(self.0, o.0) })
            }
        }
        impl Neg for $t {
            type Output = Self;
            #[inline(always)]
            fn neg(self) -> Self {
                $t(self.0 ^ $sign)
            }
        }
        impl Sub for $t {
            type Output = Self;
            #[inline(always)]
            fn sub(self, o: Self) -> Self {
                self + -o
            }
        }
    };
}

half_arith!(bf16, 0x8000, __oxide_fma_rn_bf16, __oxide_add_rn_bf16, __oxide_mul_rn_bf16);
half_arith!(f16, 0x8000, __oxide_fma_rn_f16, __oxide_add_rn_f16, __oxide_mul_rn_f16);

/// Two bf16 packed in a u32: element 0 in the low half (`__nv_bfloat162`).
#[allow(non_camel_case_types)]
#[repr(transparent)]
#[derive(Clone, Copy, Default, Debug)]
pub struct bf16x2(u32);

/// Two f16 packed in a u32: element 0 in the low half (`__half2`).
#[allow(non_camel_case_types)]
#[repr(transparent)]
#[derive(Clone, Copy, Default, Debug)]
pub struct f16x2(u32);

half_arith!(bf16x2, 0x8000_8000, __oxide_fma_rn_bf16x2, __oxide_add_rn_bf16x2, __oxide_mul_rn_bf16x2);
half_arith!(f16x2, 0x8000_8000, __oxide_fma_rn_f16x2, __oxide_add_rn_f16x2, __oxide_mul_rn_f16x2);

/// The constructors and accessors of a packed pair `$t` of `$e`, and its
/// conversion from two f32 (`$cvt`).
macro_rules! half_pair {
    ($t:ident, $e:ident, $cvt:ident) => {
        impl $t {
            /// The pair with these bits.
            #[inline(always)]
            pub const fn from_bits(bits: u32) -> Self {
                $t(bits)
            }
            /// Its bits.
            #[inline(always)]
            pub const fn to_bits(self) -> u32 {
                self.0
            }
            /// The pair (`lo` element 0, in the low half; `hi` element 1).
            #[inline(always)]
            pub const fn new(lo: $e, hi: $e) -> Self {
                $t(lo.to_bits() as u32 | (hi.to_bits() as u32) << 16)
            }
            /// Element 0 (the low half).
            #[inline(always)]
            pub const fn lo(self) -> $e {
                $e::from_bits(self.0 as u16)
            }
            /// Element 1 (the high half).
            #[inline(always)]
            pub const fn hi(self) -> $e {
                $e::from_bits((self.0 >> 16) as u16)
            }
            /// `(lo, hi)` each rounded to nearest even, one instruction.
            #[inline(always)]
            pub fn from_f32s(lo: f32, hi: f32) -> Self {
                $t(unsafe { ffi::$cvt(hi, lo) })
            }
        }
    };
}

half_pair!(bf16x2, bf16, __oxide_cvt_rn_bf16x2_f32);
half_pair!(f16x2, f16, __oxide_cvt_rn_f16x2_f32);

/// 8-bit floats in pairs (sm_89+): `E4M3x2` (1 sign, 4 exponent, 3
/// mantissa bits, bias 7, no infinities, NaN `0x7f`/`0xff`, largest 448)
/// and `E5M2x2` (bias 15, the top byte of an f16, largest 57344), packed
/// in a u16, element 0 in the low byte (`__nv_fp8x2_e4m3` / `_e5m2`).
/// From f32: rounded to nearest even, saturated to the largest finite
/// value (infinities too: PTX `.satfinite`), NaN -> `0x7f`.  To f16x2:
/// exact; every NaN becomes `0x7fff` (measured on the H200).
pub mod fp8 {
    use super::f16x2;
    use crate::prims::device as ffi;

    macro_rules! fp8_pair {
        ($t:ident, $to:ident, $from:ident, $what:expr) => {
            #[doc = $what]
            #[repr(transparent)]
            #[derive(Clone, Copy, Default, Debug)]
            pub struct $t(u16);

            impl $t {
                /// The pair with these bits (element 0 the low byte).
                #[inline(always)]
                pub const fn from_bits(bits: u16) -> Self {
                    $t(bits)
                }
                /// Its bits.
                #[inline(always)]
                pub const fn to_bits(self) -> u16 {
                    self.0
                }
                /// `(lo, hi)` rounded to nearest even, saturated (`cvt.rn.satfinite`).
                #[inline(always)]
                pub fn from_f32s(lo: f32, hi: f32) -> Self {
                    $t(unsafe { ffi::$from(hi, lo) })
                }
                /// Both, exactly, as an f16 pair (`cvt.rn.f16x2`).
                #[inline(always)]
                pub fn to_f16x2(self) -> f16x2 {
                    f16x2::from_bits(unsafe { ffi::$to(self.0) })
                }
            }
        };
    }

    fp8_pair!(E4M3x2, __oxide_cvt_rn_f16x2_e4m3x2, __oxide_cvt_rn_satfinite_e4m3x2_f32, "Two e4m3 in a u16.");
    fp8_pair!(E5M2x2, __oxide_cvt_rn_f16x2_e5m2x2, __oxide_cvt_rn_satfinite_e5m2x2_f32, "Two e5m2 in a u16.");
}
