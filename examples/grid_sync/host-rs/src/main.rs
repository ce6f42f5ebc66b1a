//! examples/grid_sync/host-rs: host.c's checks of grid-wide
//! synchronization, in Rust through oxide-host. The kernels call
//! grid::sync(), so their generated launch methods take no stream and
//! launch cooperatively (a plain launch of them, which host.c's misuse
//! check makes by hand, cannot be written with them).
//!   two_phase(input: &[u32], partial: *mut u32, out: *mut u32): 8 blocks
//!     of 128 threads over 100,000 words; every out[b] must be the
//!     wrapping sum of all of them, and partial[b] its block's share.
//!   stencil(a, b: *mut u32, n: u32, steps: u32): 6 blocks of 128
//!     threads, n = 5,000, 7 rounds; b checked word for word against the
//!     same rounds on the host.
//!   A grid larger than can be co-resident is refused
//!   (CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE); emulated only (it hangs a
//!   GPU) and not with OX_SKIP_TRAP_TEST: early_exit (block 0 returns
//!   before grid::sync()) must fail the launch, reported as a hang.
//! usage: grid_sync-host [--emulate | MODULE.ptx|MODULE.cubin|MODULE.so]
use oxide_host::{or_exit as ok, DeviceBuffer, LaunchConfig, Module};
use std::process::exit;

mod grid_sync {
    oxide_host::include_kernels!("grid_sync");
}

const BLOCK: u32 = 128;
const TOO_LARGE: i32 = 720;

struct Rng(u32);

impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }
}

fn check_two_phase(k: &grid_sync::Kernels, rng: &mut Rng) -> bool {
    let (n, blocks) = (100_000usize, 8usize);
    let input: Vec<u32> = (0..n).map(|_| rng.next()).collect();
    let total = input.iter().fold(0u32, |s, &x| s.wrapping_add(x));
    let mut want = vec![0u32; blocks];
    for (i, &x) in input.iter().enumerate() {
        want[i / BLOCK as usize % blocks] = want[i / BLOCK as usize % blocks].wrapping_add(x);
    }
    let din = ok(DeviceBuffer::from_slice(&input), "input");
    let mut dpart = ok(DeviceBuffer::<u32>::zeroed(blocks), "partial");
    let mut dout = ok(DeviceBuffer::from_slice(&vec![0xdeadbeefu32; blocks]), "out");
    ok(
        k.two_phase(LaunchConfig::new(blocks as u32, BLOCK), &din, dpart.as_device_ptr_mut(), dout.as_device_ptr_mut()),
        "two_phase (cooperative)",
    );
    let (out, partial) = (ok(dout.to_vec(), "out back"), ok(dpart.to_vec(), "partial back"));
    let mut bad = 0;
    for b in 0..blocks {
        if out[b] != total || partial[b] != want[b] {
            if bad < 5 {
                println!("  block {b}: total {:#x} (want {total:#x}), partial {:#x} (want {:#x})", out[b], partial[b], want[b]);
            }
            bad += 1;
        }
    }
    let verdict = if bad == 0 { "PASS" } else { "FAIL" };
    println!("{verdict} two_phase (Rust host): {blocks} blocks each read all {blocks} partials after grid::sync()");
    bad == 0
}

fn check_stencil(k: &grid_sync::Kernels, rng: &mut Rng) -> bool {
    let (n, steps) = (5000u32, 7u32);
    let a: Vec<u32> = (0..n).map(|_| rng.next()).collect();
    let mut da = ok(DeviceBuffer::from_slice(&a), "a");
    let mut db = ok(DeviceBuffer::<u32>::zeroed(n as usize), "b");
    ok(k.stencil(LaunchConfig::new(6, BLOCK), da.as_device_ptr_mut(), db.as_device_ptr_mut(), n, steps), "stencil");
    let got = ok(db.to_vec(), "b back"); // odd rounds: the result is in b
    let (mut src, mut dst) = (a, vec![0u32; n as usize]);
    for _ in 0..steps {
        for i in 0..n as usize {
            let l = if i > 0 { src[i - 1] } else { 0 };
            let r = if i + 1 < n as usize { src[i + 1] } else { 0 };
            dst[i] = l.wrapping_add(src[i]).wrapping_add(r);
        }
        std::mem::swap(&mut src, &mut dst);
    }
    let bad = (0..n as usize).filter(|&i| got[i] != src[i]).count();
    let verdict = if bad == 0 { "PASS" } else { "FAIL" };
    println!("{verdict} stencil (Rust host): {steps} rounds over {n} words, a grid::sync() after each");
    bad == 0
}

/// A grid far larger than any GPU holds at once must be refused.
fn check_too_large(k: &grid_sync::Kernels) -> bool {
    let mut d = ok(DeviceBuffer::<u32>::zeroed(1), "out");
    match k.early_exit(LaunchConfig::new(1 << 20, 1024), d.as_device_ptr_mut()) {
        Err(e) if e.code() == TOO_LARGE => {
            println!("PASS refused (Rust host): a cooperative grid of 2^20 blocks of 1024 threads ({e})");
            true
        }
        r => {
            println!("FAIL refused (Rust host): a cooperative grid of 2^20 blocks: {}", r.map_or_else(|e| e.to_string(), |_| "it launched".into()));
            false
        }
    }
}

/// Emulated: early_exit's grid::sync() cannot complete, the launch fails as a hang.
fn check_hang(k: &grid_sync::Kernels) -> bool {
    let mut d = ok(DeviceBuffer::<u32>::zeroed(4), "out");
    let r = k.early_exit(LaunchConfig::new(4, BLOCK), d.as_device_ptr_mut()).and_then(|_| oxide_host::synchronize());
    match r {
        Err(e) if e.is_trap() && e.message().contains("3 of the grid's 4 blocks arrived") => {
            println!("PASS hang reported (Rust host): early_exit: block 0 returns before grid::sync()\n  ({e})");
            true
        }
        r => {
            println!("FAIL hang reported (Rust host): early_exit: {}", r.map_or_else(|e| e.to_string(), |_| "it succeeded".into()));
            false
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() > 2 {
        eprintln!("usage: {} [--emulate | MODULE.ptx|MODULE.cubin|MODULE.so]", args[0]);
        exit(2);
    }
    let arg = args.get(1).map(|s| s.as_str());
    let emulated = arg == Some("--emulate") || arg.is_some_and(|a| a.ends_with(".so"));
    let module = ok(
        match arg {
            None => grid_sync::load(),
            Some("--emulate") => grid_sync::load_emulated(),
            Some(path) => Module::load(path),
        },
        "loading the module",
    );
    let k = ok(grid_sync::Kernels::new(&module), "grid_sync's kernels");
    let mut rng = Rng(0x9e3779b9);
    let mut passed = check_two_phase(&k, &mut rng);
    passed &= check_stencil(&k, &mut rng);
    passed &= check_too_large(&k);
    if emulated && std::env::var_os("OX_SKIP_TRAP_TEST").is_none() {
        passed &= check_hang(&k);
    }
    exit(if passed { 0 } else { 1 });
}
