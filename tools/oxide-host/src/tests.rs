//! Unit tests without a module: memory calls go to the emulator when
//! there is no GPU (oxrt's first backend that opened), or to the GPU.
use super::*;

#[test]
fn round_trip() {
    let v: Vec<u32> = (0..1000).map(|i| i * 3 + 1).collect();
    let d = DeviceBuffer::from_slice(&v).unwrap();
    assert_eq!(d.len(), 1000);
    assert_eq!(d.to_vec().unwrap(), v);
    let mut back = vec![0u32; 1000];
    d.copy_to_host(&mut back).unwrap();
    assert_eq!(back, v);
}

#[test]
fn zeroed_and_sub_slices() {
    let mut d = DeviceBuffer::<f32>::zeroed(10).unwrap();
    assert!(d.to_vec().unwrap().iter().all(|&x| x == 0.0));
    d[2..5].copy_from_host(&[1.0, 2.0, 3.0]).unwrap();
    let (lo, hi) = d.split_at_mut(4);
    assert_eq!(lo.len(), 4);
    hi.fill_bytes(0).unwrap();
    assert_eq!(d.to_vec().unwrap(), [0.0, 0.0, 1.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    assert_eq!(d[3..].device_addr(), d.device_addr() + 12);
}

#[test]
fn wrong_length_is_refused() {
    let mut d = DeviceBuffer::<f32>::zeroed(8).unwrap();
    let e = d.copy_from_host(&[1.0; 7]).unwrap_err();
    assert!(e.message().contains("8 elements") && e.message().contains("host slice 7"), "{e}");
    let mut host = [0.0f32; 9];
    assert!(d.copy_to_host(&mut host).is_err());
    assert_eq!(d.to_vec().unwrap(), [0.0; 8], "nothing was copied");
}

#[test]
fn empty_buffers() {
    let d = DeviceBuffer::<u64>::from_slice(&[]).unwrap();
    assert!(d.is_empty());
    assert_eq!(d.to_vec().unwrap(), Vec::<u64>::new());
}

#[test]
fn stream_scope_and_events() {
    let s = Stream::new().unwrap();
    let mut host = HostBuffer::<i32>::zeroed(256).unwrap();
    for (i, x) in host.iter_mut().enumerate() {
        *x = i as i32 - 100;
    }
    let mut d = DeviceBuffer::<i32>::zeroed(256).unwrap();
    let mut back = vec![0i32; 256];
    let (e0, e1) = (Event::new().unwrap(), Event::new().unwrap());
    s.scope(|q| {
        e0.record(Some(q.stream()))?;
        q.copy_to_device(&mut d, &host)?;
        q.copy_to_host(&d, &mut back)?;
        e1.record(Some(q.stream()))
    })
    .unwrap();
    assert_eq!(&back[..], &host[..]);
    assert!(e0.elapsed_ms(&e1).unwrap() >= 0.0);
    let r = s.scope(|q| q.copy_to_host(&d, &mut back[..3]));
    assert!(r.is_err(), "a wrong length in a scope is refused");
}

#[test]
fn a_missing_module_says_so() {
    let e = Module::load("/nonexistent/k.so").err().expect("no such module");
    assert!(e.message().contains("/nonexistent/k.so"), "{e}");
}

/// ffi.rs's structs against oxrt.h's, by a C program compiled here (in
/// the oxidec tree; skipped outside it, where oxrt.h is the installed one
/// this crate was written against).
#[test]
fn ffi_layouts_match_oxrt_h() {
    let rt = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../src/runtime");
    if !rt.join("oxrt.h").is_file() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("oxide-host-layouts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let c = dir.join("l.c");
    std::fs::write(
        &c,
        "#include <stdio.h>\n#include <stddef.h>\n#include \"oxrt.h\"\n\
         int main(void) { printf(\"%zu %zu %zu %zu %zu %zu %zu %zu %zu %zu %zu %zu %zu\\n\", sizeof(OxModule), \
         sizeof(OxFunc), offsetof(OxFunc, backend), offsetof(OxFunc, module), sizeof(OxEvent), sizeof(OxStream), \
         sizeof(OxDim3), sizeof(OxTensorMapDesc), offsetof(OxTensorMapDesc, box), offsetof(OxTensorMapDesc, swizzle), \
         offsetof(OxModule, backend), offsetof(OxModule, device), offsetof(OxFunc, device)); return 0; }\n",
    )
    .unwrap();
    let exe = dir.join("l");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let st = std::process::Command::new(cc).arg("-I").arg(&rt).arg(&c).arg("-o").arg(&exe).status().unwrap();
    assert!(st.success(), "cc of the layout probe");
    let out = std::process::Command::new(&exe).output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let want = String::from_utf8(out.stdout).unwrap();
    let got = format!(
        "{} {} {} {} {} {} {} {} {} {} {} {} {}\n",
        size_of::<ffi::OxModule>(),
        size_of::<ffi::OxFunc>(),
        std::mem::offset_of!(ffi::OxFunc, backend),
        std::mem::offset_of!(ffi::OxFunc, module),
        size_of::<ffi::OxEvent>(),
        size_of::<ffi::OxStream>(),
        size_of::<ffi::OxDim3>(),
        size_of::<ffi::OxTensorMapDesc>(),
        std::mem::offset_of!(ffi::OxTensorMapDesc, boxdim),
        std::mem::offset_of!(ffi::OxTensorMapDesc, swizzle),
        std::mem::offset_of!(ffi::OxModule, backend),
        std::mem::offset_of!(ffi::OxModule, device),
        std::mem::offset_of!(ffi::OxFunc, device),
    );
    assert_eq!(got, want, "ffi.rs against oxrt.h: sizes and offsets");
    assert_eq!((size_of::<TensorMap>(), std::mem::align_of::<TensorMap>()), (128, 128));
}

#[test]
fn a_bad_image_says_so() {
    let e = Module::from_image("garbage.so", b"not an ELF file").err().expect("not a module");
    assert!(e.message().contains("garbage.so") && e.name() == "CUDA_ERROR_INVALID_IMAGE", "{e}");
    assert!(Module::from_image("bad\0name.so", b"").is_err(), "a NUL in the name is refused");
}
