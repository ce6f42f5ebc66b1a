//! The smallest kernel: one thread stores a constant.
#![no_std]

use oxide_device::prelude::*;

#[kernel]
pub fn hello_constant(out: &mut u32) {
    *out = 42;
}
