//! Warp matrix multiply-accumulate on the tensor cores (`mma.sync`,
//! sm_80+), `ldmatrix` and `stmatrix`, with the PTX ISA's fragments.
//! Every lane of the warp must call them together (converged), like
//! CUDA's `mma.sync`.
//!
//! For `D (16 x 8) = A (16 x 16) * B (16 x 8) + C`, with `g = lane / 4`
//! and `t = lane % 4` (two 16-bit elements per `u32`, the lower-indexed one
//! in the low half):
//!
//! | fragment | register | elements |
//! |---|---|---|
//! | `A` (row) | `a[0]`, `a[1]` | `A[g][2t..2t+2]`, `A[g+8][2t..2t+2]` |
//! | | `a[2]`, `a[3]` | the same at columns `+ 8` |
//! | `B` (col) | `b[0]`, `b[1]` | `B[2t..2t+2][g]`, `B[2t+8..2t+10][g]` |
//! | `C`, `D` | `c[0]`, `c[1]` / `c[2]`, `c[3]` | `C[g][2t]`, `C[g][2t+1]` / row `g + 8` |
//!
//! `ldmatrix_x4` loads exactly an `A` fragment when lane `l` passes the
//! address of row `(l / 8 % 2) * 8 + l % 8`, column `(l / 16) * 8` of the
//! 16 x 16 tile (row-major, in shared memory), and two `B` fragments
//! (`[b0, b1]` of two 8-column tiles) from a tile stored `n`-major
//! (`B^T`, row-major) when lane `l` passes row `(l / 16) * 8 + l % 8`,
//! column `(l / 8 % 2) * 8`.
//!
//! `mma_m16n8k8_tf32` (`D (16 x 8) = A (16 x 8) * B (8 x 8) + C`) holds one
//! tf32 per `u32` (an f32's bits, of which the top 19 count: round them
//! with [`tf32::from_f32`]):
//!
//! | fragment | register | elements |
//! |---|---|---|
//! | `A` (row) | `a[0]`, `a[1]` | `A[g][t]`, `A[g+8][t]` |
//! | | `a[2]`, `a[3]` | `A[g][t+4]`, `A[g+8][t+4]` |
//! | `B` (col) | `b[0]`, `b[1]` | `B[t][g]`, `B[t+4][g]` |
//! | `C`, `D` | as above | |
//!
//! The 8-bit integer forms (`D (16 x 8, i32) = A (16 x 32) * B (32 x 8) +
//! C`) hold four elements per `u32`, the lowest-indexed in the low byte:
//!
//! | fragment | register | elements |
//! |---|---|---|
//! | `A` (row) | `a[0]`, `a[1]` | `A[g][4t..4t+4]`, `A[g+8][4t..4t+4]` |
//! | | `a[2]`, `a[3]` | the same at columns `+ 16` |
//! | `B` (col) | `b[0]`, `b[1]` | `B[4t..4t+4][g]`, `B[4t+16..4t+20][g]` |
//! | `C`, `D` | as above, `i32` | |
//!
//! Their sums are exact and wrap modulo 2^32 (the `_satfinite` forms
//! clamp the exact sum to `i32::MIN..=i32::MAX`), on the GPU and under
//! emulation alike.
//!
//! `stmatrix_*` (sm_90) is `ldmatrix`'s inverse: lane `l` gives the
//! address of row `l % 8` of matrix `l / 8` and its registers laid out as
//! `ldmatrix` returns them; the matrices are written there (`_trans`:
//! transposed).
//!
//! Under host emulation the products are exact and the products plus `C`
//! are summed in double and rounded once; the hardware's order and
//! intermediate precision are not specified, so the last bits of an f32
//! result may differ from the GPU's. The emulator ignores the low 13 bits
//! of a tf32 operand (truncation); the hardware's use of them is
//! implementation-defined, so round operands with [`tf32::from_f32`].

use crate::prims::device as ffi;

/// `D = A * B + C` for bf16 `A` (16 x 16) and `B` (16 x 8), f32 `C`, `D`
/// (16 x 8): `c` is replaced by `D`.
#[inline(always)]
pub fn mma_m16n8k16_bf16(a: &[u32; 4], b: &[u32; 2], c: &mut [f32; 4]) {
    let mut d = [0.0f32; 4];
    unsafe {
        ffi::__oxide_mma_m16n8k16_f32_bf16(d.as_mut_ptr(), a[0], a[1], a[2], a[3], b[0], b[1], c[0], c[1], c[2], c[3])
    };
    *c = d;
}

/// `D = A * B + C` for f16 `A`, `B`, f32 `C`, `D` (see `mma_m16n8k16_bf16`).
#[inline(always)]
pub fn mma_m16n8k16_f16(a: &[u32; 4], b: &[u32; 2], c: &mut [f32; 4]) {
    let mut d = [0.0f32; 4];
    unsafe {
        ffi::__oxide_mma_m16n8k16_f32_f16(d.as_mut_ptr(), a[0], a[1], a[2], a[3], b[0], b[1], c[0], c[1], c[2], c[3])
    };
    *c = d;
}

/// `D = A * B + C` for tf32 `A` (16 x 8) and `B` (8 x 8), f32 `C`, `D`
/// (16 x 8): `c` is replaced by `D`. The operands are f32 bit patterns
/// rounded by [`tf32::from_f32`].
#[inline(always)]
pub fn mma_m16n8k8_tf32(a: &[u32; 4], b: &[u32; 2], c: &mut [f32; 4]) {
    let mut d = [0.0f32; 4];
    unsafe {
        ffi::__oxide_mma_m16n8k8_f32_tf32(d.as_mut_ptr(), a[0], a[1], a[2], a[3], b[0], b[1], c[0], c[1], c[2], c[3])
    };
    *c = d;
}

/// TensorFloat-32: the operands of [`mma_m16n8k8_tf32`].
pub mod tf32 {
    use crate::prims::device as ffi;

    /// `x` rounded to tf32 (`cvt.rna.tf32.f32`): to nearest, ties away from
    /// zero, into the top 19 bits (sign, exponent, 10 mantissa bits); the
    /// low 13 bits are zero. Infinities and NaNs keep their top 19 bits.
    #[inline(always)]
    pub fn from_f32(x: f32) -> u32 {
        unsafe { ffi::__oxide_cvt_rna_tf32_f32(x) }
    }
}

macro_rules! mma_i8 {
    ($(#[$doc:meta])* $name:ident, $prim:ident) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name(a: &[u32; 4], b: &[u32; 2], c: &mut [i32; 4]) {
            let mut d = [0i32; 4];
            unsafe { ffi::$prim(d.as_mut_ptr(), a[0], a[1], a[2], a[3], b[0], b[1], c[0], c[1], c[2], c[3]) };
            *c = d;
        }
    };
}

mma_i8!(
    /// `D = A * B + C` for `i8` `A` (16 x 32) and `B` (32 x 8), `i32` `C`,
    /// `D` (16 x 8): `c` is replaced by `D`; the sum wraps.
    mma_m16n8k32_s8, __oxide_mma_m16n8k32_s32_s8
);
mma_i8!(
    /// [`mma_m16n8k32_s8`] for `u8` `A` and `B`.
    mma_m16n8k32_u8, __oxide_mma_m16n8k32_s32_u8
);
mma_i8!(
    /// [`mma_m16n8k32_s8`], the exact sum clamped to `i32` (`.satfinite`).
    mma_m16n8k32_s8_satfinite, __oxide_mma_m16n8k32_s32_s8_satfinite
);
mma_i8!(
    /// [`mma_m16n8k32_u8`], the exact sum clamped to `i32` (`.satfinite`).
    mma_m16n8k32_u8_satfinite, __oxide_mma_m16n8k32_s32_u8_satfinite
);

macro_rules! ldmatrix {
    ($(#[$doc:meta])* $name:ident, $prim:ident, $n:literal) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// `p` points into shared memory, 16-byte aligned, at 16 readable
        /// bytes; every lane of the warp calls it together.
        #[inline(always)]
        pub unsafe fn $name(p: *const u16) -> [u32; $n] {
            let mut d = [0u32; $n];
            ffi::$prim(d.as_mut_ptr(), p as *mut u8);
            d
        }
    };
}

ldmatrix!(
    /// One 8 x 8 matrix of 16-bit elements: lane `l < 8` gives row `l`.
    ldmatrix_x1, __oxide_ldmatrix_x1, 1
);
ldmatrix!(
    /// Two 8 x 8 matrices: lane `l < 16` gives row `l % 8` of matrix `l / 8`.
    ldmatrix_x2, __oxide_ldmatrix_x2, 2
);
ldmatrix!(
    /// Four 8 x 8 matrices: lane `l` gives row `l % 8` of matrix `l / 8`.
    ldmatrix_x4, __oxide_ldmatrix_x4, 4
);
ldmatrix!(
    /// `ldmatrix_x1` of the transposed matrix.
    ldmatrix_x1_trans, __oxide_ldmatrix_x1_trans, 1
);
ldmatrix!(
    /// `ldmatrix_x2` of the transposed matrices.
    ldmatrix_x2_trans, __oxide_ldmatrix_x2_trans, 2
);
ldmatrix!(
    /// `ldmatrix_x4` of the transposed matrices.
    ldmatrix_x4_trans, __oxide_ldmatrix_x4_trans, 4
);

/// Stores one 8 x 8 matrix of 16-bit elements (`stmatrix`, sm_90): lane
/// `l < 8` gives the address of row `l`; `r` as [`ldmatrix_x1`] returns it.
///
/// # Safety
/// `p` points into shared memory, 16-byte aligned, at 16 writable bytes;
/// every lane of the warp calls it together.
#[inline(always)]
pub unsafe fn stmatrix_x1(p: *mut u16, r: [u32; 1]) {
    ffi::__oxide_stmatrix_x1(p as *mut u8, r[0])
}

/// Two 8 x 8 matrices: lane `l < 16` gives row `l % 8` of matrix `l / 8`.
///
/// # Safety
/// As [`stmatrix_x1`].
#[inline(always)]
pub unsafe fn stmatrix_x2(p: *mut u16, r: [u32; 2]) {
    ffi::__oxide_stmatrix_x2(p as *mut u8, r[0], r[1])
}

/// Four 8 x 8 matrices: lane `l` gives row `l % 8` of matrix `l / 8`.
///
/// # Safety
/// As [`stmatrix_x1`].
#[inline(always)]
pub unsafe fn stmatrix_x4(p: *mut u16, r: [u32; 4]) {
    ffi::__oxide_stmatrix_x4(p as *mut u8, r[0], r[1], r[2], r[3])
}

/// [`stmatrix_x1`] of the transposed matrix.
///
/// # Safety
/// As [`stmatrix_x1`].
#[inline(always)]
pub unsafe fn stmatrix_x1_trans(p: *mut u16, r: [u32; 1]) {
    ffi::__oxide_stmatrix_x1_trans(p as *mut u8, r[0])
}

/// [`stmatrix_x2`] of the transposed matrices.
///
/// # Safety
/// As [`stmatrix_x1`].
#[inline(always)]
pub unsafe fn stmatrix_x2_trans(p: *mut u16, r: [u32; 2]) {
    ffi::__oxide_stmatrix_x2_trans(p as *mut u8, r[0], r[1])
}

/// [`stmatrix_x4`] of the transposed matrices.
///
/// # Safety
/// As [`stmatrix_x1`].
#[inline(always)]
pub unsafe fn stmatrix_x4_trans(p: *mut u16, r: [u32; 4]) {
    ffi::__oxide_stmatrix_x4_trans(p as *mut u8, r[0], r[1], r[2], r[3])
}
