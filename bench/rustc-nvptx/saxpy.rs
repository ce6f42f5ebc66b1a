//! examples/saxpy for rustc's own nvptx64 back end (see vecadd.rs).
#![no_std]
#![feature(abi_ptx, stdarch_nvptx)]

use core::arch::nvptx::{_block_dim_x, _block_idx_x, _thread_idx_x};

/// # Safety
/// Each pointer and length pair is a live device slice; y is not aliased.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn saxpy(a: f32, x: *const f32, x_len: usize, y: *mut f32, y_len: usize) {
    let x = unsafe { core::slice::from_raw_parts(x, x_len) };
    let y = unsafe { core::slice::from_raw_parts_mut(y, y_len) };
    let i = unsafe { _block_idx_x() as usize * _block_dim_x() as usize + _thread_idx_x() as usize };
    if let Some(yi) = y.get_mut(i) {
        *yi = a * x[i] + *yi;
    }
}
