//! Conformance group `library`: core functions that rustc's MIR inliner
//! leaves as calls (sorting, selection, Unicode tables, long adapter
//! chains), which mir-export exports from core's own MIR, built from the
//! library sources of the rustc in use (docs/DESIGN.md, "Library bodies").
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

/// `sort_unstable` of a 24-element array of u32.
#[kernel]
pub fn library_sort_unstable(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut a = [0u32; 24];
    for (k, x) in a.iter_mut().enumerate() {
        *x = (at(input, i + k) >> 7) as u32 % 1000;
    }
    a.sort_unstable();
    let mut h = H0;
    for x in a {
        h = mix(h, x as u64);
    }
    put(&mut out, idx, h);
}

/// `select_nth_unstable` (the median of 15) and `sort_unstable_by_key`.
#[kernel]
pub fn library_select_nth(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut a = [0i64; 15];
    for (k, x) in a.iter_mut().enumerate() {
        *x = at(input, 3 * i + k) as i64 >> 20;
    }
    let (_, m, _) = a.select_nth_unstable(7);
    let mut h = mix(H0, *m as u64);
    let mut b = [0u16; 9];
    for (k, x) in b.iter_mut().enumerate() {
        *x = at(input, i + 40 + k) as u16;
    }
    b.sort_unstable_by_key(|x| x.rotate_left(3));
    for x in b {
        h = mix(h, x as u64);
    }
    put(&mut out, idx, h);
}

/// `sort_unstable` of 80 u32 and of 48 u64: longer than the small sort's
/// limit, so ipnsort's quicksort runs, recursing into one side (its
/// heapsort fallback is compiled too), the second with many duplicates
/// (values mod 16) for its equal-pivot partitions.
#[kernel]
pub fn library_sort_large(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut a = [0u32; 80];
    for (k, x) in a.iter_mut().enumerate() {
        *x = (at(input, i + k) >> 11) as u32;
    }
    a.sort_unstable();
    let mut h = H0;
    for w in a.windows(2) {
        h = mix(h, (w[0] <= w[1]) as u64);
    }
    for x in a {
        h = mix(h, x as u64);
    }
    let mut b = [0u64; 48];
    for (k, x) in b.iter_mut().enumerate() {
        *x = at(input, 2 * i + k) % 16;
    }
    b.sort_unstable();
    for x in b {
        h = mix(h, x);
    }
    put(&mut out, idx, h);
}

/// `iter().min_by_key`, `max_by` with `total_cmp`, `f32::total_cmp`.
#[kernel]
pub fn library_min_max_by(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let s = &input[i..i + 20];
    let m = s.iter().min_by_key(|x| **x % 1009).copied().unwrap_or(0);
    let mut f = [0f32; 12];
    for (k, x) in f.iter_mut().enumerate() {
        *x = f32::from_bits(at(input, i + 100 + k) as u32);
    }
    let mx = f.iter().copied().max_by(|a, b| a.total_cmp(b)).unwrap_or(0.0);
    let ord = f[0].total_cmp(&f[1]) as i8;
    put(&mut out, idx, mix(mix(m, mx.to_bits() as u64), ord as u64));
}

/// char's Unicode methods (tables in core) and ASCII case mapping.
#[kernel]
pub fn library_char_unicode(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut h = H0;
    for k in 0..8 {
        let w = at(input, i + k);
        let c = char::from_u32((w as u32) % 0x3_0000).unwrap_or('?');
        let bits = (c.is_alphanumeric() as u64)
            | (c.is_alphabetic() as u64) << 1
            | (c.is_numeric() as u64) << 2
            | (c.is_lowercase() as u64) << 3
            | (c.is_uppercase() as u64) << 4
            | (c.is_whitespace() as u64) << 5
            | (c.is_control() as u64) << 6;
        let a = ((w >> 32) as u8 as char).to_ascii_uppercase();
        h = mix(mix(h, bits), a as u64);
    }
    put(&mut out, idx, h);
}

/// Parsing digits by radix, like `u32::from_str_radix`, with `char::to_digit`.
#[kernel]
pub fn library_parse_radix(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let digits = b"0123456789abcdefXYZ";
    let mut buf = [0u8; 10];
    for (k, b) in buf.iter_mut().enumerate() {
        *b = digits[((w >> (5 * k)) % 19) as usize];
    }
    let mut v: u32 = 0;
    let mut ok = 1u64;
    for b in buf {
        match (b as char).to_digit(16) {
            Some(d) => v = v.wrapping_mul(16).wrapping_add(d),
            None => ok = ok.wrapping_mul(3),
        }
    }
    put(&mut out, idx, mix(v as u64, ok));
}

/// `core::array::from_fn` and `binary_search_by` on a sorted array.
#[kernel]
pub fn library_from_fn_search(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let base = at(input, i) % 1000;
    let a: [u64; 32] = core::array::from_fn(|k| base + 3 * k as u64);
    let key = at(input, i + 1) % 1200;
    let r = match a.binary_search_by(|x| x.cmp(&key)) {
        Ok(p) => p as u64,
        Err(p) => 1000 + p as u64,
    };
    put(&mut out, idx, mix(mix(H0, a[31]), r));
}

/// `rev().skip_while()` and a long chain of adapters.
#[kernel]
pub fn library_adapter_chains(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let s = &input[i..i + 24];
    let mut h = H0;
    for x in s.iter().rev().skip_while(|x| **x & 3 != 0) {
        h = mix(h, *x);
    }
    let c: u64 = s
        .iter()
        .enumerate()
        .filter(|(k, _)| k % 3 != 1)
        .map(|(k, x)| x.rotate_left(k as u32))
        .zip(s.iter().skip(2).step_by(2))
        .map(|(a, b)| a ^ b)
        .take_while(|v| v & 0xff != 0x17)
        .fold(0u64, |acc, v| acc.wrapping_add(v >> 3));
    put(&mut out, idx, mix(h, c));
}

/// `chunks_exact` with its remainder, `windows`, `rchunks`.
#[kernel]
pub fn library_chunks_windows(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let n = 13 + i % 11;
    let s = &input[i..i + n];
    let mut h = H0;
    let mut it = s.chunks_exact(4);
    for c in it.by_ref() {
        h = mix(h, c[0] ^ c[3].rotate_left(7));
    }
    for x in it.remainder() {
        h = mix(h, *x);
    }
    for w in s.windows(3) {
        h = mix(h, w[0].wrapping_add(w[1]).wrapping_sub(w[2]));
    }
    for c in s.rchunks(5) {
        h = mix(h, c.len() as u64 ^ c[0]);
    }
    put(&mut out, idx, h);
}

/// `zip` with a reversed iterator, `step_by`, `rev().step_by()`.
#[kernel]
pub fn library_zip_rev_step(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = &input[i..i + 17];
    let b = &input[i + 200..i + 230];
    let mut h = H0;
    for (x, y) in a.iter().zip(b.iter().rev()).step_by(3) {
        h = mix(h, x ^ y.rotate_right(11));
    }
    for x in a.iter().rev().step_by(4) {
        h = mix(h, *x >> 5);
    }
    for (k, x) in (0..a.len()).step_by(5).zip(b.iter().skip(1)) {
        h = mix(h, *x ^ k as u64);
    }
    put(&mut out, idx, h);
}

#[inline(never)]
fn checked_sum(s: &[u64], shift: u32) -> Option<u64> {
    let mut acc = 0u64;
    for x in s {
        acc = acc.checked_add(x >> shift)?;
    }
    Some(acc)
}

/// Sum with overflow detection: `try_fold` with `checked_add`, and `?` on
/// `Option` inside a helper.
#[kernel]
pub fn library_try_fold_option(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let s = &input[i..i + 12];
    let shift = (i % 5) as u32;
    let a = s.iter().try_fold(0u64, |acc, x| acc.checked_add(x >> shift));
    let b = checked_sum(s, shift);
    let c = s.iter().fold(0u64, |acc, x| acc.wrapping_mul(31).wrapping_add(*x));
    let code = |o: Option<u64>| o.map_or(0x5555, |v| v ^ 1);
    put(&mut out, idx, mix(mix(mix(H0, code(a)), code(b)), c));
}

/// `iter().rposition`, `position`, `rfind`, `any` / `all`.
#[kernel]
pub fn library_rposition(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let s = &input[i..i + 30];
    let m = 3 + (i as u64 % 7);
    let rp = s.iter().rposition(|x| x % m == 0).map_or(99, |p| p as u64);
    let p = s.iter().position(|x| x % m == 1).map_or(99, |p| p as u64);
    let rf = s.iter().rfind(|x| **x & 0xf == 3).copied().unwrap_or(7);
    let any = s.iter().any(|x| *x == 0) as u64;
    let all = s.iter().all(|x| *x > 1000) as u64;
    put(&mut out, idx, mix(mix(mix(mix(H0, rp), p), rf), any << 1 | all));
}

/// `split_at`, `rotate_left` / `rotate_right`, `swap`, `reverse` on arrays.
#[kernel]
pub fn library_split_rotate(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut a = [0u32; 16];
    for (k, x) in a.iter_mut().enumerate() {
        *x = at(input, i + k) as u32;
    }
    a.rotate_left(i % 16);
    a.swap(1, 14);
    a[3..11].reverse();
    a.rotate_right(3);
    let (l, r) = a.split_at(i % 17);
    let mut h = mix(H0, l.len() as u64);
    for x in l {
        h = mix(h, *x as u64);
    }
    for x in r.iter().rev() {
        h = mix(h, (*x as u64) << 1);
    }
    put(&mut out, idx, h);
}

/// `core::str::from_utf8` on bytes, then `u32::from_str_radix`.
#[kernel]
pub fn library_from_str_radix(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let alphabet = b"0123456789abcdefgZ+-";
    let n = 1 + (w % 9) as usize;
    let mut buf = [b'0'; 9];
    for (k, b) in buf.iter_mut().enumerate() {
        *b = alphabet[((w >> (6 + 5 * k)) % 20) as usize];
    }
    let mut h = H0;
    for radix in [10u32, 16, 36] {
        let v = match core::str::from_utf8(&buf[..n]) {
            Ok(s) => match u32::from_str_radix(s, radix) {
                Ok(v) => v as u64,
                Err(e) => 0x1_0000_0000 + *e.kind() as u64,
            },
            Err(_) => 0xdead,
        };
        h = mix(h, v);
    }
    put(&mut out, idx, h);
}

/// `char::to_digit(36)`, `char::from_digit`, ASCII classes, `len_utf8`
/// and `encode_utf8`.
#[kernel]
pub fn library_char_digits(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut h = H0;
    for k in 0..6 {
        let w = at(input, i + k);
        let c = char::from_u32((w as u32) % 0x800).unwrap_or('x');
        let d = c.to_digit(36).map_or(64, |d| d as u64);
        let back = char::from_digit((w >> 40) as u32 % 40, 36).map_or(0, |c| c as u64);
        let classes = (c.is_ascii_hexdigit() as u64)
            | (c.is_ascii_punctuation() as u64) << 1
            | (c.is_ascii_graphic() as u64) << 2
            | (c.eq_ignore_ascii_case(&'q') as u64) << 3;
        let mut buf = [0u8; 4];
        let e = c.encode_utf8(&mut buf);
        let enc = e.as_bytes().iter().fold(0u64, |a, b| a << 8 | *b as u64);
        h = mix(mix(mix(h, d), back), classes | (c.len_utf8() as u64) << 8 | enc << 16);
    }
    put(&mut out, idx, h);
}

/// `i32::checked_pow`, `isqrt`, `ilog2`, `checked_ilog10`, `abs_diff`.
#[kernel]
pub fn library_int_math(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let b = (w as i32) >> 26;
    let e = (w >> 40) as u32 % 12;
    let p = b.checked_pow(e).map_or(0x7777, |v| v as u32 as u64);
    let s = (w >> 1).isqrt();
    let l = (w | 1).ilog2() as u64;
    let t = (w as u32).checked_ilog10().map_or(99, |v| v as u64);
    let d = (w as i64 >> 3).abs_diff(-(w as i64 >> 5));
    put(&mut out, idx, mix(mix(mix(mix(mix(H0, p), s), l), t), d));
}

/// `f32::total_cmp` with `min_by`, `f64::clamp`, `max` by fold.
#[kernel]
pub fn library_float_order(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut f = [0f64; 10];
    for (k, x) in f.iter_mut().enumerate() {
        *x = f64::from_bits(at(input, i + 50 + k));
    }
    let mn = f.iter().copied().min_by(|a, b| a.total_cmp(b)).unwrap_or(0.0);
    let g: [f32; 10] = core::array::from_fn(|k| f[k] as f32);
    let mx = g.iter().fold(f32::NEG_INFINITY, |a, &b| a.max(b));
    let c = f[0].clamp(-1.5, 1e10);
    let lt = g.iter().filter(|x| x.total_cmp(&0.0).is_lt()).count() as u64;
    put(&mut out, idx, mix(mix(mix(mix(H0, mn.to_bits()), canon32(mx)), c.to_bits()), lt));
}

/// `core::iter::successors` (a Collatz sequence), `take_while`, `count`.
#[kernel]
pub fn library_successors(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let start = at(input, i) % 10_000 + 1;
    let seq = core::iter::successors(Some(start), |&v| match v {
        1 => None,
        v if v % 2 == 0 => Some(v / 2),
        v => Some(3 * v + 1),
    });
    let mut h = H0;
    let mut n = 0u64;
    for v in seq.take(60) {
        h = mix(h, v);
        n += 1;
    }
    let pow2 = core::iter::successors(Some(1u32), |v| v.checked_mul(3)).count() as u64;
    put(&mut out, idx, mix(mix(h, n), pow2));
}

/// `fill_with`, `fill`, `copy_from_slice`, `copy_within`.
#[kernel]
pub fn library_fill_copy(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut a = [0u64; 20];
    let mut k = at(input, i);
    a.fill_with(|| {
        k = k.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        k >> 17
    });
    a[15..].fill(i as u64);
    a[2..8].copy_from_slice(&input[i + 3..i + 9]);
    a.copy_within(0..6, 11);
    let mut h = H0;
    for x in a {
        h = mix(h, x);
    }
    put(&mut out, idx, h);
}

/// `[T; N]::map`, `array::from_fn` with the index, `sum` and `product`.
#[kernel]
pub fn library_array_map(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a: [u32; 8] = core::array::from_fn(|k| at(input, i + k) as u32);
    let b = a.map(|x| (x % 251) as u64 + 1);
    let sum: u64 = b.iter().sum();
    let prod = b.iter().fold(1u64, |p, x| p.wrapping_mul(*x));
    let c = b.map(|x| x as u8 as char);
    let cs = c.iter().filter(|c| c.is_ascii_alphabetic()).count() as u64;
    put(&mut out, idx, mix(mix(mix(H0, sum), prod), cs));
}

/// `scan`, `chain`, `cycle().take()`.
#[kernel]
pub fn library_scan_chain(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let s = &input[i..i + 8];
    let mut h = H0;
    for v in s.iter().scan(0u64, |st, x| {
        *st = st.wrapping_add(*x >> 3);
        Some(*st)
    }) {
        h = mix(h, v);
    }
    for v in s[..2].iter().chain(s[6..].iter()).cycle().take(11) {
        h = mix(h, *v);
    }
    put(&mut out, idx, h);
}

/// `flat_map` to arrays (an `array::IntoIter` per element).
#[kernel]
pub fn library_flat_map_arrays(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let s = &input[i..i + 5];
    let mut h = H0;
    for v in s.iter().flat_map(|x| [*x as u8, (*x >> 8) as u8]) {
        h = mix(h, v as u64);
    }
    put(&mut out, idx, h);
}

/// Lexicographic comparison of iterators (`cmp`, `lt`), `is_sorted`,
/// `max` / `min`.
#[kernel]
pub fn library_iter_compare(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a: [u8; 6] = core::array::from_fn(|k| (at(input, i + k) % 4) as u8);
    let b: [u8; 6] = core::array::from_fn(|k| (at(input, i + 9 + k) % 4) as u8);
    let ord = a.iter().cmp(b.iter()) as i8 as u64;
    let lt = a.iter().lt(b.iter()) as u64;
    let sorted = a.is_sorted() as u64 | (b.is_sorted() as u64) << 1;
    let mx = a.iter().max().copied().unwrap_or(9) as u64;
    let mn = b.iter().min().copied().unwrap_or(9) as u64;
    put(&mut out, idx, mix(mix(mix(H0, ord), lt), sorted << 8 | mx << 4 | mn));
}

/// `is_sorted_by_key` on an iterator.
#[kernel]
pub fn library_is_sorted_by_key(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let b: [u8; 6] = core::array::from_fn(|k| (at(input, i + k) % 4) as u8);
    let sorted = b.iter().is_sorted_by_key(|x| 3 - *x) as u64;
    put(&mut out, idx, mix(H0, sorted));
}

/// `Iterator::eq` against a reversed iterator.
#[kernel]
pub fn library_iter_eq(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a: [u8; 6] = core::array::from_fn(|k| (at(input, i + k) % 2) as u8);
    let b: [u8; 6] = core::array::from_fn(|k| (at(input, i + 9 + k) % 2) as u8);
    let eq = a.iter().eq(b.iter().rev()) as u64;
    put(&mut out, idx, mix(H0, eq));
}
