//! Conformance group `consts_statics`: const items, statics and lookup
//! tables, promoted constants, const fn results, associated consts, const
//! generics, string and byte constants, statics holding references.
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

const MASK: u64 = 0x00FF_00FF_00FF_00FF;
const SHIFT: u32 = 13;
const NEG: i32 = -77;
const PAIR: (u16, i8) = (40_000, -3);

/// Integer const items (incl. a tuple const) used in arithmetic.
#[kernel]
pub fn consts_statics_const_items(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let mut h = mix(H0, w & MASK);
    h = mix(h, w.rotate_left(SHIFT));
    h = mix(h, (w as i32).wrapping_mul(NEG) as u64);
    h = mix(h, PAIR.0 as u64 + PAIR.1 as u64);
    put(&mut out, idx, h);
}

static CRC_TABLE: [u32; 16] = [
    0x0000_0000, 0x1DB7_1064, 0x3B6E_20C8, 0x26D9_30AC, 0x76DC_4190, 0x6B6B_51F4, 0x4DB2_6158, 0x5005_713C,
    0xEDB8_8320, 0xF00F_9344, 0xD6D6_A3E8, 0xCB61_B38C, 0x9B64_C2B0, 0x86D3_D2D4, 0xA00A_E278, 0xBDBD_F21C,
];

/// A static lookup table indexed with data-dependent indices (nibble CRC32).
#[kernel]
pub fn consts_statics_static_lut(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let mut crc = !0u32;
    for k in 0..8 {
        let b = (w >> (8 * k)) as u8;
        crc = CRC_TABLE[((crc ^ b as u32) & 0xF) as usize] ^ (crc >> 4);
        crc = CRC_TABLE[((crc ^ (b as u32 >> 4)) & 0xF) as usize] ^ (crc >> 4);
    }
    put(&mut out, idx, !crc as u64);
}

static SCALES: [f64; 4] = [0.5, -1.25, 1e100, f64::MIN_POSITIVE];
static HALF: [f32; 3] = [0.5, f32::NAN, -0.0];

/// Static float tables (incl. NaN, -0.0, extreme values).
#[kernel]
pub fn consts_statics_float_tables(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let x = f64_of(at(input, i));
    let y = f32_of(at(input, i + 1));
    let h = mix(canon64(x * SCALES[i % 4]), canon32(y + HALF[i % 3]));
    put(&mut out, idx, h);
}

#[derive(Clone, Copy)]
struct Rule {
    lo: u16,
    hi: u16,
    tag: u8,
    neg: bool,
}

static RULES: [Rule; 4] = [
    Rule { lo: 0, hi: 100, tag: 1, neg: false },
    Rule { lo: 100, hi: 1000, tag: 2, neg: true },
    Rule { lo: 1000, hi: 30000, tag: 3, neg: false },
    Rule { lo: 30000, hi: 65535, tag: 4, neg: true },
];

/// A static array of structs (reordered layout) searched in a loop.
#[kernel]
pub fn consts_statics_static_structs(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let v = at(input, i) as u16;
    let mut tag = 0u64;
    for r in RULES.iter() {
        if v >= r.lo && v < r.hi {
            tag = if r.neg { (r.tag as u64).wrapping_neg() } else { r.tag as u64 };
        }
    }
    put(&mut out, idx, mix(tag, v as u64));
}

const fn triangle(n: u64) -> u64 {
    n * (n + 1) / 2
}

const fn fib_table<const N: usize>() -> [u64; N] {
    let mut t = [0u64; N];
    let mut k = 2;
    t[1] = 1;
    while k < N {
        t[k] = t[k - 1] + t[k - 2];
        k += 1;
    }
    t
}

const TRI: u64 = triangle(1000);
static FIB: [u64; 40] = fib_table::<40>();

/// const fn evaluated at compile time: a scalar and a 40-entry table.
#[kernel]
pub fn consts_statics_const_fn(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    put(&mut out, idx, mix(mix(TRI, FIB[(w % 40) as usize]), triangle(i as u64)));
}

/// Promoted constants: `&[..]` literals and `&CONST` borrowed at runtime.
#[kernel]
pub fn consts_statics_promoted(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let primes: &[u32] = &[2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31];
    let pair: &(u8, u64) = &(7, 0xDEAD_BEEF);
    let w = at(input, i);
    let p = primes[(w % primes.len() as u64) as usize];
    put(&mut out, idx, mix(mix(H0, p as u64), pair.1 ^ pair.0 as u64));
}

const GREETING: &str = "grüß dich, GPU";
const MAGIC: &[u8] = b"\x7fELF\x00\xff";

/// String and byte-string constants: len, bytes, byte iteration.
#[kernel]
pub fn consts_statics_strings(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let g = GREETING.as_bytes();
    let mut h = mix(H0, GREETING.len() as u64);
    h = mix(h, g[i % g.len()] as u64);
    h = mix(h, MAGIC[i % MAGIC.len()] as u64);
    h = mix(h, (at(input, i) as u8 == MAGIC[0]) as u64);
    put(&mut out, idx, h);
}

static NAMES: [&str; 4] = ["alpha", "beta", "gamma", ""];
static ROWS: [&[u16]; 3] = [&[1, 2, 3], &[], &[40_000, 5]];

/// Statics holding references to other allocations (relocations).
#[kernel]
pub fn consts_statics_static_refs(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let n = NAMES[i % 4];
    let r = ROWS[i % 3];
    let mut h = mix(H0, n.len() as u64);
    h = mix(h, n.as_bytes().first().copied().unwrap_or(0) as u64);
    h = mix(h, r.len() as u64);
    h = mix(h, r.last().copied().unwrap_or(9) as u64);
    h = mix(h, at(input, i) & 1);
    put(&mut out, idx, h);
}

trait Shape {
    const SIDES: u32;
    const NAME: &'static str;
}
struct Tri;
struct Hex;
impl Shape for Tri {
    const SIDES: u32 = 3;
    const NAME: &'static str = "tri";
}
impl Shape for Hex {
    const SIDES: u32 = 6;
    const NAME: &'static str = "hexagon";
}

#[inline(always)]
fn sides<S: Shape>(k: u64) -> u64 {
    k * S::SIDES as u64 + S::NAME.len() as u64
}

/// Associated consts of trait impls, through a generic helper.
#[kernel]
pub fn consts_statics_assoc_consts(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i) % 1000;
    put(&mut out, idx, mix(sides::<Tri>(w), sides::<Hex>(w) + u32::BITS as u64 + i8::MIN as u64));
}

#[inline(always)]
fn window_sum<const N: usize>(xs: &[u64], start: usize) -> u64 {
    let mut a = [0u64; N];
    for k in 0..N {
        a[k] = xs[(start + k) % xs.len()];
    }
    let mut h = N as u64;
    for k in 0..N {
        h = mix(h, a[k]);
    }
    h
}

/// Const generics: array lengths as generic parameters.
#[kernel]
pub fn consts_statics_const_generics(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    put(&mut out, idx, mix(window_sum::<3>(input, i), window_sum::<7>(input, i * 2)));
}

const BIG: u128 = 0x0123_4567_89AB_CDEF_FEDC_BA98_7654_3210;
const LIMITS: [i64; 3] = [i64::MIN, -1, i64::MAX];
const CH: char = 'λ';

/// 128-bit, MIN/MAX and char constants.
#[kernel]
pub fn consts_statics_wide_consts(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let x = BIG ^ (w as u128);
    let mut h = mix(H0, x as u64);
    h = mix(h, (x >> 64) as u64);
    h = mix(h, LIMITS[i % 3].wrapping_add(w as i64) as u64);
    h = mix(h, CH as u64 + u64::MAX / 3);
    put(&mut out, idx, h);
}

trait Table {
    const LUT: [u32; 4];
    const K: u64;
}
struct TabA;
struct TabB;
const fn sq1(i: u32) -> u32 {
    i * i + 1
}
impl Table for TabA {
    const LUT: [u32; 4] = [sq1(1), sq1(2), sq1(3), sq1(40000)];
    const K: u64 = 1 << 33;
}
impl Table for TabB {
    const LUT: [u32; 4] = [7, 8, 9, 10];
    const K: u64 = 5;
}
#[inline(always)]
fn table_get<T: Table>(i: usize) -> u64 {
    T::LUT[i % 4] as u64 + T::K
}

/// Associated constants of trait impls through a generic function: an
/// array computed by a const fn (a body oxidec evaluates) and a value.
#[kernel]
pub fn consts_statics_assoc_tables(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i) as usize;
    let h = mix(mix(H0, table_get::<TabA>(w)), table_get::<TabB>(w >> 3));
    put(&mut out, idx, h);
}
