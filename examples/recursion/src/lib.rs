//! Recursion on the GPU and its stack (oxidec warns about both kernels).
//!
//! `tree_walk`: each thread walks `depth` levels of a tree whose nodes are
//! the words of `keys` (a node's children are found from its key). With
//! depth 5 it fits CUDA's default stack of 1,024 bytes per thread only
//! because oxidec's frames are small, at -O0 as at -O3.
//!
//! `chain`: mutual recursion `down_a -> down_b -> down_a`, 100 to 107
//! calls deep: more than the default stack at any optimization level, so
//! the host program raises the limit with `ox_set_stack_size` first.
//!
//! `gcd_pairs`: tail recursion, which LLVM turns into a loop at -O1 and
//! above: oxidec warns about it at -O0 only (it reads the final PTX).
#![no_std]

use oxide_device::prelude::*;

#[inline(always)]
fn mix(h: u64, v: u64) -> u64 {
    (h ^ v).wrapping_mul(0x0000_0100_0000_01b3)
}

#[derive(Clone, Copy)]
struct Node {
    key: u64,
    left: Option<u32>,
    right: Option<u32>,
}

#[inline(never)]
fn node(keys: &[u64], k: usize) -> Node {
    let w = keys[k % keys.len()];
    let n = keys.len() as u64;
    Node {
        key: w,
        left: if w & 1 == 0 { Some(((w >> 8) % n) as u32) } else { None },
        right: if w & 2 == 0 { Some(((w >> 24) % n) as u32) } else { None },
    }
}

/// A digest of the keys of the subtree below node `k` (`depth` levels,
/// preorder) and the number of its nodes; `acc[level % 4]` also collects
/// the keys of each level.
#[inline(never)]
fn walk(keys: &[u64], k: usize, depth: u32, acc: &mut [u64; 4]) -> (u64, u32) {
    if depth == 0 {
        return (0, 0);
    }
    let n = node(keys, k);
    acc[(depth % 4) as usize] ^= n.key;
    let mut h = mix(0xcbf2_9ce4_8422_2325, n.key);
    let mut count = 1;
    for child in [n.left, n.right].iter() {
        if let Some(c) = child {
            let (hc, cc) = walk(keys, *c as usize, depth - 1, acc);
            h = mix(h, hc);
            count += cc;
        }
    }
    (h, count)
}

#[kernel]
pub fn tree_walk(keys: &[u64], depth: u32, mut out: DisjointSlice<u64>) {
    let idx = thread::index_1d();
    let mut acc = [0u64; 4];
    let (h, count) = walk(keys, idx.get(), depth, &mut acc);
    if let Some(o) = out.get_mut(idx) {
        *o = mix(mix(h, count as u64), acc[0] ^ acc[1].rotate_left(16) ^ acc[2].rotate_left(32) ^ acc[3].rotate_left(48));
    }
}

#[inline(never)]
fn down_a(keys: &[u64], k: usize, n: u32) -> u64 {
    let w = keys[k % keys.len()];
    if n == 0 {
        return w;
    }
    mix(down_b(keys, (w >> 3) as usize, n - 1), w)
}

#[inline(never)]
fn down_b(keys: &[u64], k: usize, n: u32) -> u64 {
    let w = keys[k % keys.len()];
    if n == 0 {
        return !w;
    }
    mix(w, down_a(keys, (w >> 5) as usize ^ k, n - 1)).rotate_left(7)
}

#[kernel]
pub fn chain(keys: &[u64], depth: u32, mut out: DisjointSlice<u64>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let v = down_a(keys, i, depth + (i % 8) as u32);
    if let Some(o) = out.get_mut(idx) {
        *o = v;
    }
}

#[inline(never)]
fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[kernel]
pub fn gcd_pairs(keys: &[u64], depth: u32, mut out: DisjointSlice<u64>) {
    let idx = thread::index_1d();
    let w = keys[idx.get() % keys.len()];
    let g = gcd(w as u32 % 100_000 + depth, (w >> 32) as u32 % 100_000);
    if let Some(o) = out.get_mut(idx) {
        *o = g as u64;
    }
}
