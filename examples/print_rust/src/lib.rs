//! gpu_println! from a kernel: Rust format syntax, formatted by core::fmt
//! into a per-thread line buffer and printed with one `vprintf` per line,
//! so a thread's line is never interleaved with another thread's. Every
//! thread whose index is a multiple of `every` prints one line: integers
//! with a width and a sign, user `Display` impls, an inline capture;
//! thread 0 also prints a line longer than the buffer, which is cut and
//! ends in `[...]`.
#![no_std]

use core::fmt;
use oxide_device::prelude::*;

/// A number spelled digit by digit: 37 is `three-seven`.
struct Spelled(u32);

impl fmt::Display for Spelled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
        let mut scale = 1;
        while self.0 / scale >= 10 {
            scale *= 10;
        }
        loop {
            f.write_str(words[(self.0 / scale % 10) as usize])?;
            if scale == 1 {
                return Ok(());
            }
            f.write_str("-")?;
            scale /= 10;
        }
    }
}

/// `even` or `odd`.
struct Parity(u32);

impl fmt::Display for Parity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0 % 2 == 0 { "even" } else { "odd" })
    }
}

/// `n` stars.
struct Stars(u32);

impl fmt::Display for Stars {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for _ in 0..self.0 {
            f.write_str("*")?;
        }
        Ok(())
    }
}

#[kernel]
pub fn print_lines(every: u32) {
    let t = thread::block_idx_x() * thread::block_dim_x() + thread::thread_idx_x();
    if t % every == 0 {
        let parity = Parity(t);
        let neg = -(t as i64) * 1_000_000_007;
        gpu_println!("thread {t:>3} ({}) is {parity}, {neg:+} {{braces}}", Spelled(t));
    }
    if t == 0 {
        gpu_println!("{}", Stars(300));
    }
}
