//! Warp matrix multiply-accumulate on the tensor cores (`mma.sync`,
//! sm_80+) and `ldmatrix`, with the PTX ISA's fragments. Every lane of the
//! warp must call them together (converged), like CUDA's `mma.sync`.
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
//! Under host emulation the products are exact and the 16 products plus
//! `C` are summed in double and rounded once; the hardware's order and
//! intermediate precision are not specified, so the last bits of an f32
//! result may differ from the GPU's.

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
