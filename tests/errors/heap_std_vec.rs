use oxide_device::prelude::*;

// A kernel crate without #![no_std]: std is linked, and `std::vec!`
// allocates on a heap the GPU does not have.

#[kernel]
pub fn heap_std_vec(out: &mut [u32]) {
    let i = thread::index_1d().get();
    let v = std::vec![i as u32, 2, 3];
    out[i] = v[1];
}
