//! Conformance group `slices_arrays`: arrays (local, repeat, 2D, by value),
//! slices (ranges, split, patterns, get, first/last), &str and byte strings,
//! copy_from_slice, swap, reverse, equality.
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

/// Local array with dynamic (bounds-checked) indexing and updates.
#[kernel]
pub fn slices_arrays_local_array(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut a = [0u32; 16];
    for k in 0..16 {
        a[k] = at(input, i + k) as u32;
    }
    for k in 0..16 {
        let j = (a[k] % 16) as usize;
        a[j] = a[j].wrapping_add(a[k]);
    }
    let mut h = H0;
    for k in 0..16 {
        h = mix(h, a[k] as u64);
    }
    put(&mut out, idx, h);
}

/// Array repeat expressions `[x; N]` and array of arrays (2D indexing).
#[kernel]
pub fn slices_arrays_repeat_2d(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let mut grid = [[w as u16; 5]; 4];
    for r in 0..4 {
        for c in 0..5 {
            grid[r][c] = grid[r][c].wrapping_mul((r * 5 + c) as u16 + 1);
        }
    }
    let row = grid[i % 4];
    let mut h = mix(H0, row[(i / 4) % 5] as u64);
    h = mix(h, grid[3][4] as u64);
    h = mix(h, core::mem::size_of_val(&grid) as u64);
    put(&mut out, idx, h);
}

/// Sub-slices by range (`&s[a..b]`, `[a..]`, `[..b]`), len, is_empty.
#[kernel]
pub fn slices_arrays_ranges(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = i * 5;
    let b = a + (i % 9);
    let s = &input[a..b];
    let t = &input[1000..];
    let u = &input[..3];
    let mut h = mix(H0, s.len() as u64);
    h = mix(h, s.is_empty() as u64);
    for k in 0..s.len() {
        h = mix(h, s[k]);
    }
    h = mix(h, t[t.len() - 1] ^ u[i % 3]);
    put(&mut out, idx, h);
}

/// split_at, first, last, get (Option), get with a range.
#[kernel]
pub fn slices_arrays_split_get(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let s = &input[i..i + 10];
    let (l, r) = s.split_at(i % 11);
    let mut h = mix(H0, l.len() as u64);
    h = mix(h, l.first().copied().unwrap_or(1));
    h = mix(h, r.last().copied().unwrap_or(2));
    h = mix(h, s.get(i % 16).copied().unwrap_or(3));
    h = mix(h, s.get(2..(i % 13)).map_or(4, |x| x.len() as u64));
    put(&mut out, idx, h);
}

/// Slice patterns: `[first, .., last]`, `[a, b, rest @ ..]`, `[.., x]`.
#[kernel]
pub fn slices_arrays_patterns(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let s = &input[i..i + (i % 6)];
    let v = match s {
        [] => 1,
        [x] => *x,
        [a, b] => a ^ b,
        [a, b, rest @ ..] => a.wrapping_add(*b).wrapping_add(rest.len() as u64) ^ rest[rest.len() - 1],
    };
    let arr = [at(input, i), 2, 3, at(input, i + 1)];
    let [p, _, _, q] = arr;
    let w = if let [.., last] = s { *last } else { 0 };
    put(&mut out, idx, mix(mix(mix(H0, v), p ^ q), w));
}

#[inline(never)]
fn sum_slice(xs: &[u64]) -> u64 {
    let mut h = H0;
    for k in 0..xs.len() {
        h = mix(h, xs[k]);
    }
    h
}

#[inline(never)]
fn scale_in_place(xs: &mut [u32], k: u32) {
    for x in xs.iter_mut() {
        *x = x.wrapping_mul(k);
    }
}

/// Slices (&[T], &mut [T]) passed to device functions.
#[kernel]
pub fn slices_arrays_slice_args(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut buf = [0u32; 8];
    for k in 0..8 {
        buf[k] = at(input, i + k) as u32;
    }
    scale_in_place(&mut buf[2..6], i as u32 + 3);
    let h = mix(sum_slice(&input[i..i + 4]), buf[2] as u64 ^ buf[5] as u64 ^ buf[7] as u64);
    put(&mut out, idx, h);
}

/// copy_from_slice, swap, reverse, fill on local arrays.
#[kernel]
pub fn slices_arrays_copy_swap_reverse(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut a = [0u64; 8];
    a.copy_from_slice(&input[i..i + 8]);
    a.swap(0, i % 8);
    a[2..7].reverse();
    a[..2].fill(i as u64);
    let mut h = H0;
    for k in 0..8 {
        h = mix(h, a[k]);
    }
    put(&mut out, idx, h);
}

/// Array and slice equality (`==` on [u8; N] and &[u64]), contains.
#[kernel]
pub fn slices_arrays_equality(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let a = [w as u8, (w >> 8) as u8, 3, 4];
    let b = [w as u8, (w >> 8) as u8 & if i % 2 == 0 { 0xFF } else { 0 }, 3, 4];
    let s = &input[i..i + 3];
    let t = &input[i + (i % 2)..i + (i % 2) + 3];
    let m = (a == b) as u64 | ((s == t) as u64) << 1 | (s.contains(&w) as u64) << 2 | ((a != [0; 4]) as u64) << 3;
    put(&mut out, idx, m);
}

/// &str: len, as_bytes, byte indexing, str equality, is_char_boundary.
#[kernel]
pub fn slices_arrays_str(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let words = ["zero", "one", "two", "three", "four", "fünf", "", "seven"];
    let s: &str = words[i % 8];
    let t: &str = words[(at(input, i) % 8) as usize];
    let bytes = s.as_bytes();
    let mut h = mix(H0, s.len() as u64);
    h = mix(h, bytes.first().copied().unwrap_or(0) as u64);
    h = mix(h, (s == t) as u64);
    h = mix(h, s.is_char_boundary(2) as u64);
    h = mix(h, s.starts_with("t") as u64);
    put(&mut out, idx, h);
}

/// Byte string literals b"..." and byte character lookups.
#[kernel]
pub fn slices_arrays_byte_strings(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let w = at(input, i);
    let mut h = H0;
    for k in 0..16 {
        let nib = ((w >> (4 * k)) & 15) as usize;
        h = mix(h, HEX[nib] as u64);
    }
    let greet = b"hello, world";
    h = mix(h, greet[i % greet.len()] as u64);
    put(&mut out, idx, h);
}

#[inline(never)]
fn rev_array(a: [u16; 6]) -> [u16; 6] {
    [a[5], a[4], a[3], a[2], a[1], a[0]]
}

/// Arrays by value into and out of a device function.
#[kernel]
pub fn slices_arrays_by_value(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let a = [w as u16, (w >> 16) as u16, (w >> 32) as u16, (w >> 48) as u16, i as u16, 7];
    let b = rev_array(a);
    let mut h = H0;
    for k in 0..6 {
        h = mix(h, b[k] as u64);
    }
    put(&mut out, idx, h);
}

/// Slices of non-u64 element types: &[u8] and &[f32] views of local arrays.
#[kernel]
pub fn slices_arrays_typed_views(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let bytes: [u8; 8] = w.to_le_bytes();
    let fl = [f32_of(w), f32_of(w >> 32), 1.5];
    let bs: &[u8] = &bytes[1..7];
    let fs: &[f32] = &fl;
    let mut h = H0;
    for k in 0..bs.len() {
        h = mix(h, bs[k] as u64);
    }
    for k in 0..fs.len() {
        h = mix(h, canon32(fs[k] * 2.0));
    }
    put(&mut out, idx, h);
}

/// chunks_exact / split_first on slices.
#[kernel]
pub fn slices_arrays_chunks(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut a = [0u8; 12];
    for k in 0..12 {
        a[k] = at(input, i + k) as u8;
    }
    let mut h = H0;
    if let Some((first, rest)) = a.split_first() {
        h = mix(h, *first as u64 + rest.len() as u64);
    }
    for c in a.chunks_exact(4) {
        h = mix(h, u32::from_le_bytes([c[0], c[1], c[2], c[3]]) as u64);
    }
    put(&mut out, idx, h);
}

/// rotate_left on a slice (core swaps blocks of bytes).
#[kernel]
pub fn slices_arrays_rotate(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut a = [0u8; 12];
    for k in 0..12 {
        a[k] = at(input, i + k) as u8;
    }
    a.rotate_left(i % 12);
    let mut h = H0;
    for k in 0..12 {
        h = mix(h, a[k] as u64);
    }
    put(&mut out, idx, h);
}

#[inline(never)]
fn digest_u64s(s: &[u64]) -> u64 {
    let mut h = mix(H0, s.len() as u64);
    for x in s {
        h = mix(h, *x);
    }
    h
}

/// Subslice patterns on arrays by value and by reference: `[first, mid @
/// .., last]`, `[a, b, rest @ ..]`, `[init @ .., z]` (MIR `Subslice` of
/// an array: a smaller array), nested, and written through `&mut`.
#[kernel]
pub fn slices_arrays_subslice_array(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut arr = [0u64; 7];
    for k in 0..7 {
        arr[k] = at(input, i + 3 * k);
    }
    let [first, mid @ .., last] = arr;
    let mut h = mix(H0, first ^ last.rotate_left(5));
    h = mix(h, mid[i % 5] + mid.len() as u64);
    h = mix(h, digest_u64s(&mid));
    let [a, b, rest @ ..] = &arr;
    h = mix(h, a.wrapping_sub(*b) ^ digest_u64s(rest));
    let [init @ .., z] = arr;
    h = mix(h, digest_u64s(&init) ^ z);
    let [_, [x, inner @ .., y], _] = [[0u64; 4], [arr[1], arr[2], arr[3], arr[4]], [9; 4]];
    h = mix(h, x * 3 + y * 5 + inner[0] + inner[1] * 7);
    let [_, middle @ .., _] = &mut arr;
    for (k, m) in middle.iter_mut().enumerate() {
        *m = m.wrapping_mul(k as u64 + 2);
    }
    h = mix(h, digest_u64s(&arr));
    put(&mut out, idx, h);
}

/// Subslice patterns on slices of data-dependent length (MIR `Subslice`
/// counted from the end): every arm of a `match` on the length.
#[kernel]
pub fn slices_arrays_subslice_slice(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let base = (i * 5) % 900;
    let n = (at(input, i) % 9) as usize;
    let s = &input[base..base + n];
    let mut h = mix(H0, n as u64);
    h = mix(h, match s {
        [] => 1,
        [a] => a ^ 2,
        [a, b] => a.wrapping_add(*b),
        [a, mid @ .., z] => a ^ z.rotate_left(7) ^ digest_u64s(mid),
    });
    h = mix(h, match s {
        [a, b, rest @ ..] => a.wrapping_mul(*b) ^ digest_u64s(rest),
        [rest @ .., z] => z ^ digest_u64s(rest),
        [] => 3,
    });
    if let [.., p, q] = s {
        h = mix(h, p ^ q);
    }
    if let [first, .., last] = s {
        h = mix(h, first.wrapping_sub(*last));
    }
    put(&mut out, idx, h);
}

/// `binary_search` (core selects with `intrinsics::select_unpredictable`)
/// and `hint::select_unpredictable` on integers, floats, bool and
/// references.
#[kernel]
pub fn slices_arrays_binary_search(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    // sorted, with repeats: running sums of small steps
    let mut a = [0u32; 24];
    let mut acc = 0u32;
    for k in 0..24 {
        acc += (at(input, i + k) % 90) as u32;
        a[k] = acc;
    }
    let mut h = H0;
    for k in 0..6 {
        let key = (at(input, i * 7 + k) % 1100) as u32;
        h = mix(h, match a.binary_search(&key) {
            Ok(p) => a[p] as u64 + 5000,
            Err(p) => p as u64,
        });
        h = mix(h, a.partition_point(|&x| x < key) as u64);
    }
    let w = at(input, i);
    let c = w & 1 == 1;
    h = mix(h, core::hint::select_unpredictable(c, w, !w));
    h = mix(h, core::hint::select_unpredictable(c, w as u8, 7) as u64);
    h = mix(h, core::hint::select_unpredictable(!c, (w as f32).to_bits(), 3) as u64);
    h = mix(h, core::hint::select_unpredictable(w & 2 == 2, c, !c) as u64);
    let r = core::hint::select_unpredictable(c, &a[0], &a[23]);
    h = mix(h, *r as u64);
    put(&mut out, idx, h);
}

/// `==` of integer arrays (core compares their bytes: the `raw_eq`
/// intrinsic), equal and unequal at each position, several widths.
#[kernel]
pub fn slices_arrays_array_eq(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let mut h = H0;
    for k in 0..6u32 {
        let v = at(input, i + k as usize);
        // equal unless bit k of w says to change element k % 4
        let flip = ((w >> k) & 1) as u8;
        let a = [v as u8, (v >> 8) as u8, (v >> 16) as u8, (v >> 24) as u8];
        let mut b = a;
        b[(k % 4) as usize] ^= flip;
        let c = [v as u32, (v >> 32) as u32, k];
        let mut d = c;
        d[(k % 3) as usize] = d[(k % 3) as usize].wrapping_add(flip as u32 * (1 << (k * 5)));
        let e = [v, !v];
        let f = [v, !v ^ ((w >> (k + 8)) & 1)];
        let g = [[v as u16; 3], [k as u16; 3]];
        let mut g2 = g;
        g2[1][(k % 3) as usize] ^= ((w >> (k + 16)) & 1) as u16;
        h = mix(h, (a == b) as u64 + 2 * (c == d) as u64 + 4 * (e == f) as u64 + 8 * (g == g2) as u64 + 16 * (a != b) as u64);
    }
    put(&mut out, idx, h);
}
