//! Reproducer (found by kernel-gen's float-bits, seeds 2000001, 2000100,
//! 2000120, 2000188 of the first generator with it): a NaN constant loses
//! its payload and sign on the way through mir-export, on every target
//! (host emulation included): a silent miscompile of Rust's bit-exact
//! float operations.
//!
//! rustc folds `f32::from_bits(0x7FFF_FFFE)` into a float constant and
//! prints it in its MIR text as `const NaN_f32` (no payload, no sign);
//! mir-export writes the canonical NaN (`"bits": "0x7fc00000"`), and
//! `.abs().to_bits()` becomes 0x7fc00000 instead of 0x7ffffffe.
//!
//!   build/bin/mir-export tests/fuzz/reproducers/nan_const_payload.rs -o /tmp/n.json
//!   build/bin/oxidec --target=host /tmp/n.json -o /tmp/n.o && cc -shared /tmp/n.o -o /tmp/n.so -lm
//!   build/conformance-work/tools/harness /tmp/n.so k     # (run-host.sh builds the harness)
//!
//! prints `k ok 000000007fc00000 7ff8000000000000 00000000ffa00000
//! 000000007fc00000 ...`; rustc's values (the CPU) are 7ffffffe,
//! 7fffffffffffffff, ffa00000, 7ffffffd (thread i: case i % 4). The third
//! (a negated constant) survives because rustc folds it to an integer.
//! Fixed: when the MIR text has a `NaN_fN`, mir-export runs rustc once
//! more with -Zverbose-internals, which prints every float constant as
//! `Scalar(0x...)`, and gives each NaN the bits of its counterpart on the
//! same line (tools/mir-export/mir-export/src/nanbits.rs); a NaN that
//! cannot be matched is an error naming its source line, never a guess.
//! The commands above now print rustc's values. Regression test:
//! conformance kernel floats/floats_nan_const_bits (run-host.sh floats);
//! kernel-gen's `nan-consts` is on by default again.
#![no_std]
use oxide_device::prelude::*;
#[kernel]
pub fn k(input: &[u64], mut out: DisjointSlice<u64>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let v = match i % 4 {
        0 => f32::from_bits(4286578688u32 | (4294967294u32 & 8388607u32)).abs().to_bits() as u64,
        1 => f64::from_bits(9218868437227405312u64 | (u64::MAX & 9227875636482146303u64)).copysign(f64::from_bits(9223372036854775807u64)).to_bits(),
        2 => (-f32::from_bits(0x7FA0_0000)).to_bits() as u64,
        _ => f32::from_bits(2139095040u32 | (4294967293u32 & 8388607u32)).abs().to_bits() as u64,
    };
    if let Some(o) = out.get_mut(idx) {
        *o = v ^ (input.len() as u64 - 1024);
    }
}
