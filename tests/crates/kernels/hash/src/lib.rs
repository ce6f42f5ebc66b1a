//! Crates group `hash`: digests and checksums from Debian's sha2 (software
//! compression, feature `force-soft`), crc32fast, fnv, siphasher, adler,
//! seahash and xxhash-rust over bytes made from each thread's input words,
//! and keccak's Keccak-f[1600] permutation over a state made from them.
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

use core::hash::Hasher;
use sha2::{Digest, Sha256, Sha512};

/// `N` bytes from input words starting at word `k` (little endian).
#[inline(always)]
fn bytes<const N: usize>(input: &[u64], k: usize) -> [u8; N] {
    let mut b = [0u8; N];
    let mut j = 0;
    while j < N {
        b[j] = (at(input, k + j / 8) >> (8 * (j % 8))) as u8;
        j += 1;
    }
    b
}

/// Digests the first `n` bytes of a digest as words.
#[inline(always)]
fn words(h: u64, d: &[u8]) -> u64 {
    let mut h = h;
    for c in d.chunks(8) {
        let mut w = [0u8; 8];
        w[..c.len()].copy_from_slice(c);
        h = mix(h, u64::from_le_bytes(w));
    }
    h
}

/// sha2 SHA-256 of 0..=70 bytes per thread (one and two blocks, padding edges).
#[kernel]
pub fn hash_sha256(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let b: [u8; 72] = bytes(input, i * 9);
    let n = i % 71;
    let d = Sha256::digest(&b[..n]);
    put(&mut out, idx, words(H0, &d));
}

/// sha2 SHA-512 through update in two parts, and SHA-224 of the same bytes.
#[kernel]
pub fn hash_sha512(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let b: [u8; 136] = bytes(input, i * 17);
    let n = (i * 7) % 137;
    let mut s = Sha512::new();
    s.update(&b[..n / 2]);
    s.update(&b[n / 2..n]);
    let mut h = words(H0, &s.finalize());
    h = words(h, &sha2::Sha224::digest(&b[..n]));
    put(&mut out, idx, h);
}

/// crc32fast: one-shot, incremental and combined CRC-32 (IEEE).
#[kernel]
pub fn hash_crc32(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let b: [u8; 100] = bytes(input, i * 13);
    let n = i % 101;
    let one = crc32fast::hash(&b[..n]);
    let mut a = crc32fast::Hasher::new();
    a.update(&b[..n / 3]);
    let mut c = crc32fast::Hasher::new_with_initial(0x1234_5678);
    c.update(&b[n / 3..n]);
    let cc = c.clone().finalize();
    a.combine(&c);
    put(&mut out, idx, mix(mix(H0, one as u64), ((a.finalize() as u64) << 32) | cc as u64));
}

/// crc32fast: one-shot and incremental CRC-32 (IEEE) without combine.
#[kernel]
pub fn hash_crc32_update(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let b: [u8; 100] = bytes(input, i * 13);
    let n = i % 101;
    let one = crc32fast::hash(&b[..n]);
    let mut a = crc32fast::Hasher::new();
    a.update(&b[..n / 3]);
    a.update(&b[n / 3..n]);
    let mut c = crc32fast::Hasher::new_with_initial(at(input, i) as u32);
    c.update(&b[..n]);
    put(&mut out, idx, mix(mix(H0, one as u64), ((a.finalize() as u64) << 32) | c.finalize() as u64));
}

/// fnv FNV-1a and siphasher SipHash-1-3 / 2-4 / 128 through core::hash::Hasher.
#[kernel]
pub fn hash_fnv_sip(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let b: [u8; 40] = bytes(input, i * 5);
    let n = i % 41;
    let mut f = fnv::FnvHasher::default();
    f.write(&b[..n]);
    f.write_u32(i as u32);
    let mut h = mix(H0, f.finish());
    let mut s = siphasher::sip::SipHasher13::new_with_keys(at(input, i + 1), at(input, i + 2));
    s.write(&b[..n]);
    h = mix(h, s.finish());
    let mut s = siphasher::sip::SipHasher24::new_with_keys(at(input, i + 3), 5);
    s.write_u64(at(input, i));
    s.write(&b[..n]);
    h = mix(h, s.finish());
    let mut s = siphasher::sip128::SipHasher::new_with_keys(1, at(input, i));
    s.write(&b[..n]);
    let w = siphasher::sip128::Hasher128::finish128(&s);
    h = mix(mix(h, w.h1), w.h2);
    put(&mut out, idx, h);
}

/// adler Adler-32 (one-shot and write_slice in parts) and seahash.
#[kernel]
pub fn hash_adler_seahash(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let b: [u8; 64] = bytes(input, i * 8);
    let n = i % 65;
    let mut a = adler::Adler32::new();
    a.write_slice(&b[..n / 2]);
    a.write_slice(&b[n / 2..n]);
    let mut h = mix(H0, ((adler::adler32_slice(&b[..n]) as u64) << 32) | a.checksum() as u64);
    h = mix(h, seahash::hash(&b[..n]));
    h = mix(h, seahash::hash_seeded(&b[..n], 1, 2, at(input, i), 4));
    put(&mut out, idx, h);
}

/// xxhash-rust XXH32 and XXH64: one-shot and streaming in two parts, seeded.
#[kernel]
pub fn hash_xxhash(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let b: [u8; 80] = bytes(input, i * 10);
    let n = i % 81;
    let mut h = mix(H0, xxhash_rust::xxh32::xxh32(&b[..n], at(input, i) as u32) as u64);
    let mut s = xxhash_rust::xxh32::Xxh32::new(7);
    s.update(&b[..n / 3]);
    s.update(&b[n / 3..n]);
    h = mix(h, s.digest() as u64);
    h = mix(h, xxhash_rust::xxh64::xxh64(&b[..n], at(input, i + 1)));
    let mut s = xxhash_rust::xxh64::Xxh64::new(at(input, i + 2));
    s.update(&b[..n / 2]);
    s.update(&b[n / 2..n]);
    h = mix(h, s.digest());
    put(&mut out, idx, h);
}

/// xxhash-rust XXH3: 64-bit (unseeded and seeded) and 128-bit one-shot
/// digests of 0..=240 bytes (its short, medium and long paths).
#[kernel]
pub fn hash_xxh3(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let b: [u8; 240] = bytes(input, i * 30);
    let n = (i * 7) % 241;
    let mut h = mix(H0, xxhash_rust::xxh3::xxh3_64(&b[..n]));
    h = mix(h, xxhash_rust::xxh3::xxh3_64_with_seed(&b[..n], at(input, i)));
    let w = xxhash_rust::xxh3::xxh3_128(&b[..n]);
    h = mix(mix(h, w as u64), (w >> 64) as u64);
    put(&mut out, idx, h);
}

/// keccak Keccak-f[1600] (the SHA-3 permutation) applied twice to a state
/// of 25 input words.
#[kernel]
pub fn hash_keccak(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut a = [0u64; 25];
    for (k, w) in a.iter_mut().enumerate() {
        *w = at(input, i * 3 + k);
    }
    keccak::f1600(&mut a);
    let mut h = H0;
    for w in a {
        h = mix(h, w);
    }
    keccak::f1600(&mut a);
    put(&mut out, idx, mix(mix(h, a[0]), a[24]));
}
