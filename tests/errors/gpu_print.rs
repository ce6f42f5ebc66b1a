// gpu_println! through a rustc without library sources (rustc 1.95 from
// rustup): core::fmt's bodies are not there, so the error names the macro
// and its line, not a wrong output.
#![no_std]
use oxide_device::prelude::*;

#[kernel]
pub fn gpu_print(x: &[u32]) {
    let i = thread::index_1d().get();
    gpu_println!("x[{}] = {}", i, x[i]);
}
