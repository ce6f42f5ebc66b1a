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
//! (`src/runtime/oxmath.c`), so results agree bit for bit.

use crate::prims::device as ffi;

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
