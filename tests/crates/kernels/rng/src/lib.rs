//! Crates group `rng`: seeded random streams from Debian's rand_xoshiro and
//! rand_pcg through rand_core's traits (`SeedableRng::seed_from_u64`, which
//! expands the seed with PCG32 inside rand_core, and `RngCore`), and from
//! oorandom's own API: each thread seeds its own generator from an input
//! word and digests the stream.
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

use rand_core::{RngCore, SeedableRng};
use rand_pcg::{Pcg32, Pcg64, Pcg64Mcg};
use rand_xoshiro::{SplitMix64, Xoroshiro128StarStar, Xoshiro128PlusPlus, Xoshiro256PlusPlus, Xoshiro256StarStar};

/// Digests `n` words of a generator's stream, 64 and 32 bits.
#[inline(always)]
fn stream<R: RngCore>(mut r: R, n: usize) -> u64 {
    let mut h = H0;
    for _ in 0..n {
        h = mix(h, r.next_u64());
        h = mix(h, r.next_u32() as u64);
    }
    h
}

/// rand_xoshiro Xoshiro256++ and Xoshiro256** seeded with seed_from_u64.
#[kernel]
pub fn rng_xoshiro256(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let s = at(input, i);
    let mut h = stream(Xoshiro256PlusPlus::seed_from_u64(s), 8);
    h = mix(h, stream(Xoshiro256StarStar::seed_from_u64(s ^ 1), 8));
    put(&mut out, idx, h);
}

/// rand_xoshiro Xoshiro128++, Xoroshiro128** and SplitMix64, a jump, fill_bytes.
#[kernel]
pub fn rng_xoshiro_small(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let s = at(input, i);
    let mut h = stream(Xoshiro128PlusPlus::seed_from_u64(s), 8);
    let mut x = Xoroshiro128StarStar::seed_from_u64(s.rotate_left(7));
    x.jump();
    h = mix(h, stream(x, 4));
    let mut b = [0u8; 13];
    SplitMix64::seed_from_u64(s).fill_bytes(&mut b);
    for v in b {
        h = mix(h, v as u64);
    }
    put(&mut out, idx, h);
}

/// rand_xoshiro seeded from explicit bytes (from_seed) rather than a u64.
#[kernel]
pub fn rng_xoshiro_from_seed(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut seed = [0u8; 32];
    for k in 0..4 {
        seed[k * 8..k * 8 + 8].copy_from_slice(&at(input, i * 4 + k).to_le_bytes());
    }
    let h = stream(Xoshiro256PlusPlus::from_seed(seed), 6);
    put(&mut out, idx, h);
}

/// rand_pcg Pcg32 (64-bit state), Pcg64 and Pcg64Mcg (128-bit state).
#[kernel]
pub fn rng_pcg(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let s = at(input, i);
    let mut h = stream(Pcg32::seed_from_u64(s), 8);
    h = mix(h, stream(Pcg32::new(s, at(input, i + 1)), 4));
    h = mix(h, stream(Pcg64::seed_from_u64(s), 4));
    h = mix(h, stream(Pcg64Mcg::new(((s as u128) << 64) | at(input, i + 2) as u128), 4));
    put(&mut out, idx, h);
}

/// oorandom Rand32 (PCG32) and Rand64 (PCG64): raw, signed, bounded
/// (`rand_range`, rejection sampling) and float draws, and the state.
#[kernel]
pub fn rng_oorandom(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let s = at(input, i);
    let mut r = oorandom::Rand32::new_inc(s, at(input, i + 1));
    let mut h = H0;
    for _ in 0..6 {
        h = mix(h, r.rand_u32() as u64);
        h = mix(h, r.rand_i32() as u64);
        h = mix(h, r.rand_range(3..1000 + i as u32) as u64);
        h = mix(h, canon32(r.rand_float()));
    }
    let mut r = oorandom::Rand64::new(((s as u128) << 64) | at(input, i + 2) as u128);
    for _ in 0..4 {
        h = mix(h, r.rand_u64());
        h = mix(h, r.rand_i64() as u64);
        h = mix(h, r.rand_range(10..(s | 11)));
        h = mix(h, canon64(r.rand_float()));
    }
    let (st, inc) = r.state();
    put(&mut out, idx, mix(mix(h, st as u64), (inc >> 64) as u64));
}
