#![no_std]
use oxide_device::prelude::*;
use core::any::{type_name, Any, TypeId};

// TypeId::of and type_name of a closure's type: rustc is asked for them in
// a probe that names the type in the source, and a closure's type has no
// name (a type declared in the kernel's body is fine: conformance
// `reflect_local_types`).
#[inline(never)]
fn name_len<T: ?Sized>(_: &T) -> usize {
    type_name::<T>().len()
}

#[kernel]
pub fn reflect_closure(out: &mut [u64]) {
    let i = thread::index_1d().get();
    let f = |x: u64| x + 1;
    out[i] = name_len(&f) as u64 + (f.type_id() == TypeId::of::<u8>()) as u64;
}
