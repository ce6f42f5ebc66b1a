#![no_std]
use core::fmt::Write;
use oxide_device::prelude::*;

struct Buf {
    bytes: [u8; 32],
    len: usize,
}

impl Write for Buf {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        for &b in s.as_bytes() {
            if self.len < 32 {
                self.bytes[self.len] = b;
                self.len += 1;
            }
        }
        Ok(())
    }
}

#[kernel]
pub fn fmt_write(x: &[f32], out: &mut [u8]) {
    let i = thread::index_1d().get();
    let mut b = Buf { bytes: [0; 32], len: 0 };
    let _ = write!(b, "{}", x[i]);
    out[i] = b.bytes[0];
}
