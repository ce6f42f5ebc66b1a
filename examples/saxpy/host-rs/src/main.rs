//! examples/saxpy/host-rs: host.c's checks, in Rust through oxide-host.
//! Runs saxpy(a: f32, x: &[f32], y: DisjointSlice<f32>) and checks every
//! y[i] bit-exactly against the CPU value a*x[i] + y[i] rounded twice, as
//! Rust defines it (Rust never contracts it into an FMA, here either).
//! When results differ, says whether they match a fused multiply-add
//! instead. The launch is typed: `Kernels::saxpy(cfg, stream, a: f32,
//! x: &DeviceSlice<f32>, y: &mut DeviceSlice<f32>)` (oxidec --emit=rust).
//! usage: saxpy-host [--emulate | MODULE.ptx|MODULE.cubin|MODULE.so]
//! (no argument: the embedded PTX; --emulate: the embedded emulation .so)
use oxide_host::{or_exit as ok, DeviceBuffer, LaunchConfig, Module};
use std::process::exit;

mod saxpy {
    oxide_host::include_kernels!("saxpy");
}

const BLOCK: u32 = 256;

struct Rng(u32);

impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }

    /// A finite float of random sign and mantissa, exponent 2^-20..2^20;
    /// at i % 1000 == 7 a subnormal, so flush-to-zero arithmetic would show.
    fn float(&mut self, i: usize) -> f32 {
        let mut bits = self.next() & 0x807fffff;
        if i % 1000 != 7 {
            bits |= (107 + self.next() % 41) << 23;
        }
        f32::from_bits(bits)
    }
}

fn load(arg: Option<&str>) -> oxide_host::Result<Module> {
    match arg {
        None => saxpy::load(),
        Some("--emulate") => saxpy::load_emulated(),
        Some(path) => Module::load(path),
    }
}

/// Rust's a*x + y: the product is rounded to f32 before the add.
fn saxpy_ref(a: f32, x: f32, y: f32) -> f32 {
    a * x + y
}

fn main() {
    let n = (1usize << 20) + 3; // not a multiple of BLOCK
    let a = 0.7853982f32;
    let args: Vec<String> = std::env::args().collect();
    if args.len() > 2 {
        eprintln!("usage: {} [--emulate | MODULE.ptx|MODULE.cubin|MODULE.so]", args[0]);
        exit(2);
    }
    let mut rng = Rng(0x2545f491);
    let (mut x, mut y) = (vec![0f32; n], vec![0f32; n]);
    for i in 0..n {
        x[i] = rng.float(i);
        y[i] = rng.float(i);
    }
    let module = ok(load(args.get(1).map(|s| s.as_str())), "loading the module");
    let k = ok(saxpy::Kernels::new(&module), "saxpy's kernels");
    let dx = ok(DeviceBuffer::from_slice(&x), "x to the device");
    let mut dy = ok(DeviceBuffer::from_slice(&y), "y to the device");
    ok(k.saxpy(LaunchConfig::for_elements(n, BLOCK), None, a, &dx, &mut dy), "saxpy");
    ok(oxide_host::synchronize(), "synchronize");
    let got = ok(dy.to_vec(), "y from the device");
    let (mut bad, mut fused) = (0usize, 0usize);
    for i in 0..n {
        let want = saxpy_ref(a, x[i], y[i]);
        if got[i].to_bits() == want.to_bits() {
            continue;
        }
        if got[i].to_bits() == a.mul_add(x[i], y[i]).to_bits() {
            fused += 1;
        }
        if bad < 5 {
            println!("  y[{i}] = {:e} ({:#010x}), want {:e} ({:#010x}) = {:e} * {:e} + {:e}",
                     got[i], got[i].to_bits(), want, want.to_bits(), a, x[i], y[i]);
        }
        bad += 1;
    }
    // how many elements an FMA would change: shows the test can see one
    let sensitive = (0..n).filter(|&i| a.mul_add(x[i], y[i]).to_bits() != saxpy_ref(a, x[i], y[i]).to_bits()).count();
    if bad == 0 {
        println!("PASS saxpy (Rust host): {n}/{n} elements bit-exact (an FMA would have changed {sensitive})");
    } else {
        println!("FAIL saxpy (Rust host): {bad} of {n} elements differ");
        if fused > 0 {
            println!("  {fused} of them equal a.mul_add(x, y): a*x + y was contracted into an FMA, which Rust forbids");
        }
    }
    exit(if bad == 0 { 0 } else { 1 });
}
