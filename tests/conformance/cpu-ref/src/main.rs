//! CPU reference of the conformance suite (docs/conformance.md).
//!
//! Runs every kernel of the group crates on the host, compiled by rustc with
//! the semantics mir-export uses (no overflow checks, no debug assertions)
//! but panic = "unwind": the grid (2 blocks × 64 threads) is walked
//! sequentially, thread by thread, and a panic in any thread makes the
//! kernel's line `NAME trap`.
//!
//! ```text
//! conformance-cpu-ref --list                  GROUP NAME, one kernel a line
//! conformance-cpu-ref [GROUP...]              the contract's lines (all groups by default)
//! conformance-cpu-ref --out DIR [GROUP...]    DIR/GROUP.expected per group
//! ```
//!
//! CONF_VERBOSE=1 prints each panic's message and thread on stderr.
//!
//! A failed allocation (alloc's `handle_alloc_error`) panics here, as it
//! traps on the device (`__rdl_alloc_error_handler`: "memory allocation of
//! N bytes failed"), rather than aborting the process as std's hook does.
#![feature(alloc_error_hook)]

use std::cell::Cell;
use std::io::Write;
use std::panic;
use std::path::PathBuf;

use oxide_device::DisjointSlice;

type Kernel = for<'a, 'b> fn(&'a [u64], DisjointSlice<'b, u64>);

pub struct Group {
    name: &'static str,
    kernels: &'static [(&'static str, Kernel)],
}

include!(concat!(env!("OUT_DIR"), "/kernels.rs"));

const BLOCKS: u32 = 2;
const THREADS: u32 = 64;
const N_IN: usize = 1024;
const N_OUT: usize = (BLOCKS * THREADS) as usize;
/// What `out` holds before the launch (the C harness fills it the same way).
const POISON: u64 = 0xA5A5_A5A5_A5A5_A5A5;

// ------------------------------------------------- the device primitives

thread_local! {
    static TID: Cell<u32> = const { Cell::new(0) };
    static CTAID: Cell<u32> = const { Cell::new(0) };
}

// the device heap (group `alloc`'s global allocator, oxide_device::alloc::
// DeviceHeap, is this program's too): the C library's malloc and free,
// 16-byte aligned on the hosts the suite runs on
extern "C" {
    fn malloc(size: usize) -> *mut u8;
    fn free(block: *mut u8);
}
#[no_mangle]
pub extern "C" fn __oxide_malloc(size: u64) -> *mut u8 {
    unsafe { malloc(size as usize) }
}
#[no_mangle]
pub extern "C" fn __oxide_free(block: *mut u8) {
    unsafe { free(block) }
}

#[no_mangle]
pub extern "C" fn __oxide_tid_x() -> u32 {
    TID.with(Cell::get)
}
#[no_mangle]
pub extern "C" fn __oxide_tid_y() -> u32 {
    0
}
#[no_mangle]
pub extern "C" fn __oxide_tid_z() -> u32 {
    0
}
#[no_mangle]
pub extern "C" fn __oxide_ntid_x() -> u32 {
    THREADS
}
#[no_mangle]
pub extern "C" fn __oxide_ntid_y() -> u32 {
    1
}
#[no_mangle]
pub extern "C" fn __oxide_ntid_z() -> u32 {
    1
}
#[no_mangle]
pub extern "C" fn __oxide_ctaid_x() -> u32 {
    CTAID.with(Cell::get)
}
#[no_mangle]
pub extern "C" fn __oxide_ctaid_y() -> u32 {
    0
}
#[no_mangle]
pub extern "C" fn __oxide_ctaid_z() -> u32 {
    0
}
#[no_mangle]
pub extern "C" fn __oxide_nctaid_x() -> u32 {
    BLOCKS
}
#[no_mangle]
pub extern "C" fn __oxide_nctaid_y() -> u32 {
    1
}
#[no_mangle]
pub extern "C" fn __oxide_nctaid_z() -> u32 {
    1
}
/// Threads run one after another, so there is nothing to wait for. (No
/// conformance kernel uses barriers: that needs a threaded grid.)
#[no_mangle]
pub extern "C" fn __oxide_barrier_sync() {}
/// A trap is a panic here; "C-unwind" so that it may unwind to the grid loop.
#[no_mangle]
pub extern "C-unwind" fn __oxide_trap() -> ! {
    panic!("__oxide_trap")
}

// ------------------------------------------------------ half precision
// An implementation independent of the emulator's (src/runtime/oxmath.c,
// bit arithmetic): scaling in f64, where every step is exact, and
// round_ties_even.

/// |x| (finite, not zero) as a binary float of `mbits` mantissa bits and
/// exponent bias `bias`, rounded to nearest even: the magnitude bits, or
/// None when it rounds to infinity.
fn round_float(a: f64, mbits: i32, bias: i32) -> Option<u32> {
    let emin = 1 - bias;
    let e = (a.log2().floor() as i32).max(emin);
    // a / 2^e in [1, 2) for normals, below 1 for subnormals (e = emin)
    let mut e = e;
    if a / 2f64.powi(e) >= 2.0 {
        e += 1;
    } else if a / 2f64.powi(e) < 1.0 && e > emin {
        e -= 1;
    }
    let one = 1u32 << mbits;
    let mut m = (a / 2f64.powi(e - mbits)).round_ties_even() as u32;
    let mut biased = if m < one { 0 } else { e + bias };
    if m == 2 * one {
        m = one;
        biased += 1;
    }
    if biased >= 2 * bias + 1 {
        return None;
    }
    Some(((biased as u32) << mbits) | (m & (one - 1)))
}

fn to_half(x: f32, mbits: i32, bias: i32) -> u16 {
    let sign = ((x.to_bits() >> 16) & 0x8000) as u16;
    let inf = (((2 * bias + 1) as u32) << mbits) as u16;
    if x.is_nan() {
        return 0x7fff;
    }
    let a = (x as f64).abs();
    if a == 0.0 {
        return sign;
    }
    if a.is_infinite() {
        return sign | inf;
    }
    sign | round_float(a, mbits, bias).map_or(inf, |m| m as u16)
}

#[no_mangle]
pub extern "C" fn __oxide_cvt_rn_bf16_f32(x: f32) -> u16 {
    to_half(x, 7, 127)
}
#[no_mangle]
pub extern "C" fn __oxide_cvt_rn_f16_f32(x: f32) -> u16 {
    to_half(x, 10, 15)
}
#[no_mangle]
pub extern "C" fn __oxide_cvt_f32_f16(h: u16) -> f32 {
    let (e, m) = (((h >> 10) & 0x1f) as i32, (h & 0x3ff) as f64);
    let a = match e {
        0 => m * 2f64.powi(-24),
        31 if m == 0.0 => f64::INFINITY,
        31 => return f32::from_bits(0x7fff_ffff), // PTX cvt.f32.f16: the canonical NaN
        _ => (1.0 + m / 1024.0) * 2f64.powi(e - 15),
    };
    (if h & 0x8000 != 0 { -a } else { a }) as f32
}

// ------------------------------------------- half precision arithmetic
// Independent of the emulator's (src/runtime/oxemu_half.c: round-to-odd sums
// in f64, then nearbyint): exact integer arithmetic on (mantissa,
// exponent) pairs, then round to nearest even from the integer remainder.

/// A finite value m * 2^e, or a NaN / an infinity.
#[derive(Clone, Copy)]
enum Val {
    Nan,
    Inf(bool),
    Fin(bool, u128, i32),
}

/// Binary formats: mantissa bits and exponent bias (16-bit f16 / bf16).
const F16: (u32, i32) = (10, 15);
const BF16: (u32, i32) = (7, 127);

fn unpack16(h: u16, (mbits, bias): (u32, i32)) -> Val {
    let neg = h & 0x8000 != 0;
    let e = ((h & 0x7fff) >> mbits) as i32;
    let m = (h as u128) & ((1 << mbits) - 1);
    let emax = (1 << (15 - mbits)) - 1;
    if e == emax {
        return if m != 0 { Val::Nan } else { Val::Inf(neg) };
    }
    if e == 0 {
        Val::Fin(neg, m, 1 - bias - mbits as i32)
    } else {
        Val::Fin(neg, m | 1 << mbits, e - bias - mbits as i32)
    }
}

/// |m| * 2^e (m != 0) rounded to nearest even: the magnitude's code
/// (biased exponent << mbits | fraction), with no upper limit.
fn round_code(m: u128, e: i32, mbits: u32, bias: i32) -> u32 {
    let top = 127 - m.leading_zeros() as i32 + e;
    let q = (top - mbits as i32).max(1 - bias - mbits as i32);
    let mut n = if q <= e {
        m << (e - q)
    } else {
        let sh = (q - e) as u32;
        if sh >= 128 {
            0
        } else {
            let (n, rem, half) = (m >> sh, m & ((1u128 << sh) - 1), 1u128 << (sh - 1));
            if rem > half || (rem == half && n & 1 == 1) {
                n + 1
            } else {
                n
            }
        }
    };
    let mut q = q;
    if n == 2u128 << mbits {
        n >>= 1;
        q += 1;
    }
    if n < 1u128 << mbits {
        return n as u32; // subnormal or zero
    }
    (((q + mbits as i32 + bias) as u32) << mbits) | (n as u32 & ((1 << mbits) - 1))
}

fn pack16(v: Val, (mbits, bias): (u32, i32)) -> u16 {
    let inf = ((1u32 << (15 - mbits)) - 1) << mbits;
    match v {
        Val::Nan => 0x7fff,
        Val::Inf(neg) => (neg as u16) << 15 | inf as u16,
        Val::Fin(neg, 0, _) => (neg as u16) << 15,
        Val::Fin(neg, m, e) => (neg as u16) << 15 | round_code(m, e, mbits, bias).min(inf) as u16,
    }
}

fn mul_val(a: Val, b: Val) -> Val {
    match (a, b) {
        (Val::Nan, _) | (_, Val::Nan) => Val::Nan,
        (Val::Inf(_), Val::Fin(_, 0, _)) | (Val::Fin(_, 0, _), Val::Inf(_)) => Val::Nan,
        (Val::Inf(x), Val::Inf(y)) | (Val::Inf(x), Val::Fin(y, _, _)) | (Val::Fin(x, _, _), Val::Inf(y)) => {
            Val::Inf(x != y)
        }
        (Val::Fin(x, m, e), Val::Fin(y, n, f)) => Val::Fin(x != y, m * n, e + f),
    }
}

/// The exact sum; where the exponents lie more than 64 apart the one with
/// the smaller exponent (then below 2^-40 of the other) is replaced by a
/// tiny value of its sign, which rounds the same way.
fn add_val(a: Val, b: Val) -> Val {
    match (a, b) {
        (Val::Nan, _) | (_, Val::Nan) => Val::Nan,
        (Val::Inf(x), Val::Inf(y)) => {
            if x == y {
                Val::Inf(x)
            } else {
                Val::Nan
            }
        }
        (Val::Inf(x), _) | (_, Val::Inf(x)) => Val::Inf(x),
        (Val::Fin(x, 0, _), Val::Fin(y, 0, _)) => Val::Fin(x && y, 0, 0),
        (Val::Fin(_, 0, _), v) | (v, Val::Fin(_, 0, _)) => v,
        (Val::Fin(x, m, e), Val::Fin(y, n, f)) => {
            let ((x, m, e), (y, mut n, mut f)) = if e >= f { ((x, m, e), (y, n, f)) } else { ((y, n, f), (x, m, e)) };
            if e - f > 64 {
                n = 1;
                f = e - 64;
            }
            let s = |neg: bool, v: u128| if neg { -(v as i128) } else { v as i128 };
            let sum = s(x, m << (e - f)) + s(y, n);
            Val::Fin(sum < 0, sum.unsigned_abs(), f)
        }
    }
}

fn fma16(a: u16, b: u16, c: u16, f: (u32, i32)) -> u16 {
    pack16(add_val(mul_val(unpack16(a, f), unpack16(b, f)), unpack16(c, f)), f)
}
fn add16(a: u16, b: u16, f: (u32, i32)) -> u16 {
    pack16(add_val(unpack16(a, f), unpack16(b, f)), f)
}
fn mul16(a: u16, b: u16, f: (u32, i32)) -> u16 {
    pack16(mul_val(unpack16(a, f), unpack16(b, f)), f)
}
/// op on each half of packed pairs
fn pair(a: u32, b: u32, c: u32, op: impl Fn(u16, u16, u16) -> u16) -> u32 {
    op(a as u16, b as u16, c as u16) as u32 | (op((a >> 16) as u16, (b >> 16) as u16, (c >> 16) as u16) as u32) << 16
}

#[no_mangle]
pub extern "C" fn __oxide_fma_rn_f16(a: u16, b: u16, c: u16) -> u16 {
    fma16(a, b, c, F16)
}
#[no_mangle]
pub extern "C" fn __oxide_add_rn_f16(a: u16, b: u16) -> u16 {
    add16(a, b, F16)
}
#[no_mangle]
pub extern "C" fn __oxide_mul_rn_f16(a: u16, b: u16) -> u16 {
    mul16(a, b, F16)
}
#[no_mangle]
pub extern "C" fn __oxide_fma_rn_bf16(a: u16, b: u16, c: u16) -> u16 {
    fma16(a, b, c, BF16)
}
#[no_mangle]
pub extern "C" fn __oxide_add_rn_bf16(a: u16, b: u16) -> u16 {
    add16(a, b, BF16)
}
#[no_mangle]
pub extern "C" fn __oxide_mul_rn_bf16(a: u16, b: u16) -> u16 {
    mul16(a, b, BF16)
}
#[no_mangle]
pub extern "C" fn __oxide_fma_rn_f16x2(a: u32, b: u32, c: u32) -> u32 {
    pair(a, b, c, |a, b, c| fma16(a, b, c, F16))
}
#[no_mangle]
pub extern "C" fn __oxide_add_rn_f16x2(a: u32, b: u32) -> u32 {
    pair(a, b, 0, |a, b, _| add16(a, b, F16))
}
#[no_mangle]
pub extern "C" fn __oxide_mul_rn_f16x2(a: u32, b: u32) -> u32 {
    pair(a, b, 0, |a, b, _| mul16(a, b, F16))
}
#[no_mangle]
pub extern "C" fn __oxide_fma_rn_bf16x2(a: u32, b: u32, c: u32) -> u32 {
    pair(a, b, c, |a, b, c| fma16(a, b, c, BF16))
}
#[no_mangle]
pub extern "C" fn __oxide_add_rn_bf16x2(a: u32, b: u32) -> u32 {
    pair(a, b, 0, |a, b, _| add16(a, b, BF16))
}
#[no_mangle]
pub extern "C" fn __oxide_mul_rn_bf16x2(a: u32, b: u32) -> u32 {
    pair(a, b, 0, |a, b, _| mul16(a, b, BF16))
}
#[no_mangle]
pub extern "C" fn __oxide_cvt_rn_bf16x2_f32(hi: f32, lo: f32) -> u32 {
    (__oxide_cvt_rn_bf16_f32(hi) as u32) << 16 | __oxide_cvt_rn_bf16_f32(lo) as u32
}
#[no_mangle]
pub extern "C" fn __oxide_cvt_rn_f16x2_f32(hi: f32, lo: f32) -> u32 {
    (__oxide_cvt_rn_f16_f32(hi) as u32) << 16 | __oxide_cvt_rn_f16_f32(lo) as u32
}

/// f32 -> fp8 (mbits, bias) with .satfinite: NaN 0x7f, beyond `max` (the
/// largest finite code) -> max, keeping the sign.
fn to_fp8(x: f32, mbits: u32, bias: i32, max: u32) -> u16 {
    let u = x.to_bits();
    let sign = ((u >> 24) & 0x80) as u16;
    if x.is_nan() {
        return 0x7f;
    }
    if x.is_infinite() {
        return sign | max as u16;
    }
    let (e, m) = ((u >> 23) & 0xff, u & 0x7f_ffff);
    let (m, e) = if e == 0 { (m, -149) } else { (m | 0x80_0000, e as i32 - 150) };
    if m == 0 {
        return sign;
    }
    sign | round_code(m as u128, e, mbits, bias).min(max) as u16
}

#[no_mangle]
pub extern "C" fn __oxide_cvt_rn_satfinite_e4m3x2_f32(hi: f32, lo: f32) -> u16 {
    to_fp8(hi, 3, 7, 0x7e) << 8 | to_fp8(lo, 3, 7, 0x7e)
}
#[no_mangle]
pub extern "C" fn __oxide_cvt_rn_satfinite_e5m2x2_f32(hi: f32, lo: f32) -> u16 {
    to_fp8(hi, 2, 15, 0x7b) << 8 | to_fp8(lo, 2, 15, 0x7b)
}

/// e4m3 -> f16: the exponent rebiased (7 -> 15), subnormals normalised;
/// NaN (S.1111.111) -> 0x7fff.
fn e4m3_to_f16(b: u16) -> u16 {
    let sign = (b & 0x80) << 8;
    let (e, m) = ((b >> 3) & 15, (b & 7) as u128);
    if e == 15 && m == 7 {
        return 0x7fff;
    }
    let (m, e) = if e == 0 { (m, -9) } else { (m | 8, e as i32 - 10) };
    if m == 0 {
        return sign;
    }
    sign | round_code(m, e, 10, 15) as u16
}

#[no_mangle]
pub extern "C" fn __oxide_cvt_rn_f16x2_e4m3x2(x: u16) -> u32 {
    (e4m3_to_f16(x >> 8) as u32) << 16 | e4m3_to_f16(x & 0xff) as u32
}
/// e5m2 is the top byte of an f16; a NaN becomes the canonical f16 NaN
/// (measured on the H200: cvt.rn.f16x2.e5m2x2 does not keep the payload)
fn e5m2_to_f16(b: u16) -> u16 {
    if b & 0x7f > 0x7c {
        0x7fff
    } else {
        b << 8
    }
}
#[no_mangle]
pub extern "C" fn __oxide_cvt_rn_f16x2_e5m2x2(x: u16) -> u32 {
    (e5m2_to_f16(x >> 8) as u32) << 16 | e5m2_to_f16(x & 0xff) as u32
}

// ------------------------------------------------------------ the input

const SPECIAL: [u64; 24] = [
    0,
    1,
    2,
    0xFFFF_FFFF_FFFF_FFFF,
    0x7FFF_FFFF_FFFF_FFFF,
    0x8000_0000_0000_0000,
    0x0000_0000_FFFF_FFFF,
    0x0000_0000_7FFF_FFFF,
    0x0000_0000_8000_0000,
    0x7FC0_0000,
    0x7F80_0000,
    0xFF80_0000,
    0x8000_0000,
    0x0000_0001,
    0x4F00_0000,
    0x5F00_0000,
    0x7FF8_0000_0000_0000,
    0x7FF0_0000_0000_0000,
    0xC3E0_0000_0000_0000,
    0x43E0_0000_0000_0000,
    0x41DF_FFFF_FFC0_0000,
    0x3FF0_0000_0000_0000,
    0xBFF0_0000_0000_0000,
    0x0000_0000_0000_00FF,
];

fn fnv1a64(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// The kernel's input words (docs/conformance.md, "Inputs").
fn make_input(name: &str) -> Vec<u64> {
    let mut rng = SplitMix64(0x0_D1DE_5EED ^ fnv1a64(name));
    (0..N_IN)
        .map(|_| {
            let r = rng.next();
            if r & 7 == 0 {
                SPECIAL[((r >> 3) % 24) as usize]
            } else {
                rng.next()
            }
        })
        .collect()
}

// ----------------------------------------------------------- the launch

/// A `DisjointSlice<u64>` over `len` words at `ptr`. Its fields are private
/// and its layout is rustc's (a pointer and a length, in an order rustc
/// picks), so both orders are tried and `len()` tells which one is right.
fn disjoint(ptr: *mut u64, len: usize) -> DisjointSlice<'static, u64> {
    assert_eq!(std::mem::size_of::<DisjointSlice<u64>>(), 2 * std::mem::size_of::<usize>());
    // SAFETY: DisjointSlice is a pointer, a length and a PhantomData; the
    // check below picks the order in which they are laid out.
    let s: DisjointSlice<u64> = unsafe { std::mem::transmute([ptr as usize, len]) };
    if s.len() == len {
        return s;
    }
    let s: DisjointSlice<u64> = unsafe { std::mem::transmute([len, ptr as usize]) };
    assert_eq!(s.len(), len, "cannot build a DisjointSlice");
    s
}

/// `NAME ok HEX…` or `NAME trap`.
fn run_kernel(name: &str, kernel: Kernel, verbose: bool) -> String {
    let input = make_input(name);
    let mut out = vec![POISON; N_OUT];
    let ptr = out.as_mut_ptr();
    for block in 0..BLOCKS {
        for thread in 0..THREADS {
            CTAID.with(|c| c.set(block));
            TID.with(|c| c.set(thread));
            let r = panic::catch_unwind(|| kernel(&input, disjoint(ptr, N_OUT)));
            if let Err(e) = r {
                if verbose {
                    let msg = e
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| e.downcast_ref::<String>().cloned())
                        .unwrap_or_default();
                    eprintln!("{name}: thread {} panicked: {msg}", block * THREADS + thread);
                }
                return format!("{name} trap");
            }
        }
    }
    let mut line = format!("{name} ok");
    for w in &out {
        line.push_str(&format!(" {w:016x}"));
    }
    line
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let verbose = std::env::var_os("CONF_VERBOSE").is_some_and(|v| v != "0");
    panic::set_hook(Box::new(|_| {}));
    std::alloc::set_alloc_error_hook(|layout| panic!("memory allocation of {} bytes failed", layout.size()));

    if args.first().map(String::as_str) == Some("--list") {
        for g in GROUPS {
            for (k, _) in g.kernels {
                println!("{} {k}", g.name);
            }
        }
        return;
    }
    let mut out_dir: Option<PathBuf> = None;
    if args.first().map(String::as_str) == Some("--out") {
        if args.len() < 2 {
            eprintln!("usage: conformance-cpu-ref [--list | --out DIR] [GROUP...]");
            std::process::exit(2);
        }
        out_dir = Some(PathBuf::from(args.remove(1)));
        args.remove(0);
    }
    for a in &args {
        if !GROUPS.iter().any(|g| g.name == a) {
            eprintln!("conformance-cpu-ref: no group {a}");
            std::process::exit(2);
        }
    }
    for g in GROUPS.iter().filter(|g| args.is_empty() || args.iter().any(|a| a == g.name)) {
        let mut text = String::new();
        for (name, kernel) in g.kernels {
            text.push_str(&run_kernel(name, *kernel, verbose));
            text.push('\n');
        }
        match &out_dir {
            Some(dir) => {
                let path = dir.join(format!("{}.expected", g.name));
                if let Err(e) = std::fs::write(&path, text) {
                    eprintln!("conformance-cpu-ref: {}: {e}", path.display());
                    std::process::exit(1);
                }
            }
            None => {
                std::io::stdout().write_all(text.as_bytes()).unwrap();
            }
        }
    }
}
