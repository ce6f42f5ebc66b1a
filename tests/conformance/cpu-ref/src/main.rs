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
