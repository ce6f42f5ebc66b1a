//! Reproducer (kernel-gen seed 4001933 of the 2,000-kernel GPU run,
//! reduced on the H200; docs/conformance.md): at -O0 the PTX adds two f32
//! constants, one of them moved into a register in another block,
//!
//!     mov.b32      %r3, 0fC0EAAAAB;          // -7.3333335
//!     ...
//!     add.rn.f32   %r6, %r3, 0f40490FDB;     // + 3.1415927
//!
//! and the CUDA driver's JIT (580.159.04) computes another value than
//! IEEE round-to-nearest at this tie, -4.191741 (0xC08622BE), which ptxas
//! 13.0 at -O0 and -O3 gives: the JIT's words were 0000000dc08622bd.
//! LLVM folds the add from -O1; since 2026-12-01 oxidec's -O0 runs
//! InstSimplify after SROA and folds it too (src/emit/target.c), so
//!
//!   build/bin/mir-export tests/fuzz/reproducers/jit_const_fadd.rs -o /tmp/j.json
//!   build/bin/oxidec -O0 /tmp/j.json -o /tmp/j.ptx
//!   (GPU) harness /tmp/j.ptx k
//!
//! prints 0000000dc08622be in every word (the store is of a constant).
//! Conformance hazards_const_fadd_tie keeps the case in the GPU runs.
#![no_std]
use oxide_device::prelude::*;

#[inline]
fn bump(p: &mut f32) -> u8 {
    *p = 3.1415927f32 + *p;
    13
}

#[kernel]
pub fn k(input: &[u64], mut out: DisjointSlice<u64>) {
    let idx = thread::index_1d();
    let mut v: f32 = (7.333333333333333f64 as f32).copysign(-0.0f32);
    let r = bump(&mut v);
    if let Some(o) = out.get_mut(idx) {
        *o = v.to_bits() as u64 | (r as u64) << 32 | (input.len() as u64 & 0) << 40;
    }
}
