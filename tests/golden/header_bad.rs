// tests/golden/header_bad.rs: the source of header_bad.mir.json
// (mir-export of a crate with this lib.rs and oxide-device).
//! By-value kernel parameters that C cannot describe: `oxidec
//! --emit=header` names each one (the PTX is fine).
#![no_std]
use oxide_device::prelude::*;

pub struct NotC {
    pub a: u32,
    pub b: f32,
}

#[derive(Clone, Copy)]
pub enum Mode {
    Add,
    Mul(f32),
}

#[kernel]
pub fn bad_params(s: NotC, mode: Mode, t: (u32, f32), mut y: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    if let Some(yi) = y.get_mut(idx) {
        let v = s.a as f32 + s.b + t.0 as f32 + t.1;
        *yi = match mode {
            Mode::Add => v + 1.0,
            Mode::Mul(k) => v * k,
        };
    }
}
