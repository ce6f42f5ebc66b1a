//! The golden launchers of tests/golden/*.launch.rs, used with the right
//! types; each feature adds one use with a wrong type, which must be a
//! compile error (tests/host-rs/run.sh says which).
#![allow(dead_code)]
use oxide_host::{DevicePtrMut, DeviceSlice, LaunchConfig, Result, Stream};

mod vecadd {
    include!("../../../golden/vecadd.launch.rs");
}
mod saxpy {
    include!("../../../golden/saxpy.launch.rs");
}
mod header_abi {
    include!("../../../golden/header_abi.launch.rs");
}
mod grid_sync {
    include!("../../../golden/grid_sync.launch.rs");
}

fn cfg() -> LaunchConfig {
    LaunchConfig::for_elements(1000, 256)
}

fn right_vecadd(k: &vecadd::Kernels, a: &DeviceSlice<f32>, b: &DeviceSlice<f32>, c: &mut DeviceSlice<f32>, s: &Stream) -> Result<()> {
    k.vecadd(cfg(), Some(s), a, b, c)?;
    k.vecadd(cfg(), None, &a[..10], b, &mut c[5..])
}

fn right_saxpy(k: &saxpy::Kernels, x: &DeviceSlice<f32>, y: &mut DeviceSlice<f32>) -> Result<()> {
    k.saxpy(cfg(), None, 2.0f32, x, y)
}

fn right_coop(k: &grid_sync::Kernels, a: &mut DeviceSlice<u32>) -> Result<()> {
    k.k(cfg(), a.as_device_ptr_mut())
}

fn right_structs(k: &header_abi::Kernels, out: DevicePtrMut<u32>, x: &DeviceSlice<u32>, y: &mut DeviceSlice<f32>) -> Result<()> {
    use header_abi::*;
    let p = Params { n: 1, inner: Inner { scale: 1.0, bias: [1, 2, 3] }, flag: true, mask: 7, out };
    k.by_value(cfg(), None, p, Pair { lo: 1.0, hi: 2 }, Two { a: 3.0, b: 4 }, x, y)
}

#[cfg(feature = "wrong-elem")]
fn wrong_elem(k: &vecadd::Kernels, a: &DeviceSlice<u32>, b: &DeviceSlice<f32>, c: &mut DeviceSlice<f32>) -> Result<()> {
    k.vecadd(cfg(), None, a, b, c) // a: &[f32] is a &DeviceSlice<f32>
}

#[cfg(feature = "wrong-mut")]
fn wrong_mut(k: &vecadd::Kernels, a: &DeviceSlice<f32>, b: &DeviceSlice<f32>, c: &DeviceSlice<f32>) -> Result<()> {
    k.vecadd(cfg(), None, a, b, c) // c: DisjointSlice<f32> is a &mut DeviceSlice<f32>
}

#[cfg(feature = "wrong-scalar")]
fn wrong_scalar(k: &saxpy::Kernels, x: &DeviceSlice<f32>, y: &mut DeviceSlice<f32>) -> Result<()> {
    k.saxpy(cfg(), None, 2.0f64, x, y) // a: f32
}

#[cfg(feature = "coop-stream")]
fn coop_stream(k: &grid_sync::Kernels, a: &mut DeviceSlice<u32>, s: &Stream) -> Result<()> {
    k.k(cfg(), Some(s), a.as_device_ptr_mut()) // grid::sync(): cooperative, no stream
}

#[cfg(feature = "wrong-struct")]
fn wrong_struct(k: &header_abi::Kernels, x: &DeviceSlice<u32>, y: &mut DeviceSlice<f32>) -> Result<()> {
    use header_abi::*;
    let t = Two { a: 3.0, b: 4 };
    k.by_value(cfg(), None, t, Pair { lo: 1.0, hi: 2 }, t, x, y) // p: Params
}

fn main() {}
