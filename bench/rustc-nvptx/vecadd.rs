//! examples/vecadd for rustc's own nvptx64 back end (tools/bench-compile.sh
//! times its compile): the same work in plain `core` Rust, the slices
//! rebuilt from the pointer and length pairs that oxidec's ABI passes, the
//! same bounds checks (a failed one aborts: -C panic=immediate-abort).
#![no_std]
#![feature(abi_ptx, stdarch_nvptx)]

use core::arch::nvptx::{_block_dim_x, _block_idx_x, _thread_idx_x};

/// # Safety
/// Each pointer and length pair is a live device slice; c is not aliased.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn vecadd(
    a: *const f32, a_len: usize, b: *const f32, b_len: usize, c: *mut f32, c_len: usize,
) {
    let (a, b) = unsafe { (core::slice::from_raw_parts(a, a_len), core::slice::from_raw_parts(b, b_len)) };
    let c = unsafe { core::slice::from_raw_parts_mut(c, c_len) };
    let i = unsafe { _block_idx_x() as usize * _block_dim_x() as usize + _thread_idx_x() as usize };
    if let Some(ci) = c.get_mut(i) {
        *ci = a[i] + b[i];
    }
}
