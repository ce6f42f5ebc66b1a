//! host.c's check in Rust: mul_add_index(k, x, out) on the embedded
//! emulation module (--emulate) or on MODULE, every out[i] == x[i] * k + i
//! (mod 2^32). usage: project-host [--emulate | MODULE]
use oxide_host::{DeviceBuffer, LaunchConfig, Module};

mod kernels {
    oxide_host::include_kernels!("kernels");
}

fn main() -> oxide_host::Result<()> {
    let n = 10007; // not a multiple of the block
    let k = 2654435761u32;
    let x: Vec<u32> = (0..n as u32).map(|i| i.wrapping_mul(7919).wrapping_add(13)).collect();
    let module = match std::env::args().nth(1).as_deref() {
        None => kernels::load()?,
        Some("--emulate") => kernels::load_emulated()?,
        Some(path) => Module::load(path)?,
    };
    let ks = kernels::Kernels::new(&module)?;
    let dx = DeviceBuffer::from_slice(&x)?;
    let mut dout = DeviceBuffer::from_slice(&vec![0xdeadbeefu32; n])?;
    ks.mul_add_index(LaunchConfig::for_elements(n, 128), None, k, &dx, &mut dout)?;
    let out = dout.to_vec()?;
    let bad = (0..n).filter(|&i| out[i] != x[i].wrapping_mul(k).wrapping_add(i as u32)).count();
    println!("{} mul_add_index (Rust host): {} of {n} elements right", if bad == 0 { "PASS" } else { "FAIL" }, n - bad);
    std::process::exit(if bad == 0 { 0 } else { 1 });
}
