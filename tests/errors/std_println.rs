use oxide_device::prelude::*;

#[kernel]
pub fn std_println(out: &mut [u32]) {
    let i = thread::index_1d().get();
    std::println!("thread {i}");
    out[i] = 1;
}
