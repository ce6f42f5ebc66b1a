//! gpu_printf! from a kernel: every thread whose index is a multiple of
//! `every` prints one line with a 32-bit int, a u32 in hex, an f32
//! (promoted to double), an i64, a u64 and a char.
#![no_std]

use oxide_device::prelude::*;

#[kernel]
pub fn print_values(every: u32, scale: f32) {
    let t = thread::block_idx_x() * thread::block_dim_x() + thread::thread_idx_x();
    if t % every == 0 {
        let neg = -(t as i32);
        let big = (t as i64) * -1_000_000_007;
        let ubig = (t as u64) << 40;
        gpu_printf!(
            "t=%d neg=%d hex=%08x f=%.3f big=%lld ubig=%llu c=%c\n",
            t,
            neg,
            t * 0x1001,
            scale * t as f32,
            big,
            ubig,
            b'a' + (t % 26) as u8
        );
    }
}
