//! examples/scale2d for rustc's own nvptx64 back end (see vecadd.rs): out
//! is rows x cols, row-major, one element per thread of a 2-D grid.
#![no_std]
#![feature(abi_ptx, stdarch_nvptx)]

use core::arch::nvptx::*;

/// # Safety
/// Each pointer and length pair is a live device slice; out is not aliased.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn scale2d(
    m: *const f32, m_len: usize, s: f32, out: *mut f32, out_len: usize, rows: usize, cols: usize,
) {
    let m = unsafe { core::slice::from_raw_parts(m, m_len) };
    let out = unsafe { core::slice::from_raw_parts_mut(out, out_len) };
    let (r, c) = unsafe {
        (
            _block_idx_y() as usize * _block_dim_y() as usize + _thread_idx_y() as usize,
            _block_idx_x() as usize * _block_dim_x() as usize + _thread_idx_x() as usize,
        )
    };
    if r < rows && c < cols {
        out[r * cols + c] = m[r * cols + c] * s + r as f32 - c as f32;
    }
}
