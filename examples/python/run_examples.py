#!/usr/bin/env python3
"""examples/python/run_examples.py: oxidec kernels launched from Python, on
CuPy arrays and on PyTorch CUDA tensors, each result checked against NumPy.

    python3 examples/python/run_examples.py [--dir build/examples] [--ptx] [--no-torch] [--scale N]

Loads build/examples/NAME.cubin (or .ptx with --ptx) with its signature
NAME.sig.json (make examples writes both; make gpu-pack packs them) through
oxide_cupy, and runs on each framework:
  vecadd        c = a + b                     (&[f32], &[f32], DisjointSlice<f32>)
  saxpy         y = a x + y                   (a scalar f32)
  generic_axpy  axpy_f32, axpy_f64, axpy_u32 (wrapping), axpy_i64 (wrapping):
                one generic kernel's PTX instances
  reduce_shared reduce_sum (a static shared array) and reduce_sum_dyn
                (dynamic shared memory, shared_mem=1024): block sums by a tree,
                the same additions in NumPy float32
  grid_sync     two_phase, a cooperative launch (grid::sync()) of 8 blocks
  scale2d       a DisjointSlice2D<f32> from a 2-D array (a by-value struct)
  histogram     atomics through &[AtomicU32] and a static shared array
and, once, the wrapper's refusals on real arrays (a wrong dtype, a block
over the launch bounds, no shared_mem for dynamic shared memory). Results
of float kernels must equal NumPy's bit for bit (the kernels are
Rust-exact: no contraction). Prints PASS/FAIL per check and
"python-gpu: N passed, M failed"; exit status 1 on any failure (torch
missing is a failure unless --no-torch). --scale N divides the sizes by N:
tests/python runs this script on the CPU emulator that way (a stand-in for
CuPy's calls, tests/python/emu_cupy.py).
"""
import argparse
import os
import sys
import traceback

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oxide_cupy  # noqa: E402

RNG = np.random.default_rng(13)
SCALE = 1          # --scale: sizes divided by it (the CPU emulator of tests/python)


def size(n):
    """n elements, or fewer under --scale (never a multiple of a block)."""
    return n if SCALE == 1 else n // SCALE + 3


class Framework:
    """Device arrays of one library: to_device, empty, to_numpy, sync."""

    def __init__(self, name):
        self.name = name
        if name == "cupy":
            import cupy
            self.cp = cupy
        else:
            import torch
            self.torch = torch
            if not torch.cuda.is_available():
                raise RuntimeError("torch.cuda.is_available() is False")

    # NumPy dtypes whose torch twins (torch.uint32 & co., torch >= 2.3) may
    # lack a NumPy conversion: moved as the signed type of their size, then
    # viewed back, so the kernel still gets a torch.uint32 tensor
    _SIGNED = {np.dtype(np.uint16): np.int16, np.dtype(np.uint32): np.int32, np.dtype(np.uint64): np.int64}

    def to_device(self, a):
        if self.name == "cupy":
            return self.cp.asarray(a)
        a = np.ascontiguousarray(a)
        try:
            return self.torch.from_numpy(a).to("cuda")
        except TypeError:
            if a.dtype not in self._SIGNED:
                raise
            t = self.torch.from_numpy(a.view(self._SIGNED[a.dtype])).to("cuda")
            return t.view(getattr(self.torch, a.dtype.name))

    def zeros(self, shape, dtype):
        return self.to_device(np.zeros(shape, dtype))

    def to_numpy(self, d):
        self.sync()
        if self.name == "cupy":
            return self.cp.asnumpy(d)
        try:
            return d.cpu().numpy()
        except TypeError:
            want = np.dtype(str(d.dtype).replace("torch.", ""))
            if want not in self._SIGNED:
                raise
            return d.view(getattr(self.torch, np.dtype(self._SIGNED[want]).name)).cpu().numpy().view(want)

    def sync(self):
        # both libraries launch on the legacy default stream here; wait for
        # all of it anyway, so nothing depends on that
        if self.name == "cupy":
            self.cp.cuda.Device().synchronize()
        else:
            self.torch.cuda.synchronize()


def blocks(n, b):
    return (n + b - 1) // b


def check_equal(got, want, what):
    if got.dtype != want.dtype or got.shape != want.shape:
        raise AssertionError(f"{what}: got {got.dtype}{got.shape}, want {want.dtype}{want.shape}")
    g = np.ascontiguousarray(got).view(np.uint8).reshape(got.size, got.itemsize)
    w = np.ascontiguousarray(want).view(np.uint8).reshape(want.size, want.itemsize)
    bad = np.flatnonzero((g != w).any(axis=1))       # bit for bit
    if bad.size:
        i = bad[0]
        raise AssertionError(f"{what}: {bad.size} of {got.size} elements differ, first at {i}: "
                             f"{got.reshape(-1)[i]!r} != {want.reshape(-1)[i]!r}")


# ------------------------------------------------------------------ checks

def run_vecadd(fw, mods):
    n = size((1 << 20) + 3)
    a, b = RNG.standard_normal(n, np.float32), RNG.standard_normal(n, np.float32)
    da, db, dc = fw.to_device(a), fw.to_device(b), fw.zeros(n, np.float32)
    mods("vecadd").vecadd(blocks(n, 256), 256, da, db, dc)
    check_equal(fw.to_numpy(dc), a + b, "c")
    return f"{n} elements"


def run_saxpy(fw, mods):
    n = size(500_001)
    x, y = RNG.standard_normal(n, np.float32), RNG.standard_normal(n, np.float32)
    dx, dy = fw.to_device(x), fw.to_device(y)
    mods("saxpy").saxpy(blocks(n, 128), 128, 2.5, dx, dy)
    check_equal(fw.to_numpy(dy), np.float32(2.5) * x + y, "y")
    return f"{n} elements, a = 2.5"


def run_axpy(fw, mods, ty):
    m = mods("generic_axpy")
    n = size(100_003)
    dt = np.dtype(ty)
    if dt.kind == "f":
        x, y, a = RNG.standard_normal(n).astype(dt), RNG.standard_normal(n).astype(dt), dt.type(-1.75)
    else:
        info = np.iinfo(dt)
        x = RNG.integers(info.min, info.max, n, dtype=dt, endpoint=True)
        y = RNG.integers(info.min, info.max, n, dtype=dt, endpoint=True)
        a = dt.type(0x9E3779B9 if dt == np.uint32 else -0x61C8864680B583EB)
    dx, dy = fw.to_device(x), fw.to_device(y)
    getattr(m, "axpy_" + {"float32": "f32", "float64": "f64", "uint32": "u32", "int64": "i64"}[dt.name])(
        blocks(n, 256), 256, a, dx, dy)
    with np.errstate(over="ignore"):
        want = a * x + y                  # NumPy's integer arrays wrap, as the kernel
    check_equal(fw.to_numpy(dy), want.astype(dt), "y")
    return f"{n} elements, a = {a!r}"


def tree_sums(x, block):
    """reduce_shared's block sums: zero padding, then halving strides."""
    nb = blocks(x.size, block)
    t = np.zeros(nb * block, np.float32)
    t[:x.size] = x
    t = t.reshape(nb, block)
    s = block // 2
    while s:
        t[:, :s] = t[:, :s] + t[:, s:2 * s]
        s //= 2
    return t[:, 0].copy()


def run_reduce(fw, mods, dyn):
    n = size(1_000_000)
    x = RNG.standard_normal(n, np.float32)
    dx, dout = fw.to_device(x), fw.zeros(blocks(n, 256), np.float32)
    m = mods("reduce_shared")
    if dyn:
        m.reduce_sum_dyn(blocks(n, 256), 256, dx, dout, shared_mem=256 * 4)
    else:
        m.reduce_sum(blocks(n, 256), 256, dx, dout)
    check_equal(fw.to_numpy(dout), tree_sums(x, 256), "out")
    return f"{blocks(n, 256)} block sums"


def run_two_phase(fw, mods):
    n, nb, bs = size(100_000), 8, 128
    x = RNG.integers(0, 2**32, n, dtype=np.uint32)
    dx, dpart, dout = fw.to_device(x), fw.zeros(nb, np.uint32), fw.zeros(nb, np.uint32)
    mods("grid_sync").two_phase(nb, bs, dx, dpart, dout)
    idx = np.arange(n)
    part = np.zeros(nb, np.uint64)
    np.add.at(part, idx // bs % nb, x.astype(np.uint64))
    part = (part % 2**32).astype(np.uint32)
    check_equal(fw.to_numpy(dpart), part, "partial")
    total = np.uint32(int(part.astype(np.uint64).sum()) % 2**32)
    check_equal(fw.to_numpy(dout), np.full(nb, total, np.uint32), "out")
    return f"{nb} blocks, cooperative"


def run_scale2d(fw, mods):
    side = int(SCALE ** 0.5)
    rows, cols = 300 // side + 1, 517 // side
    mat = RNG.standard_normal((rows, cols), np.float32)
    dm, dout = fw.to_device(mat), fw.zeros((rows, cols), np.float32)
    s = np.float32(0.75)
    mods("scale2d").scale2d((blocks(cols, 16), blocks(rows, 16)), (16, 16), dm, s, dout)
    r = np.arange(rows, dtype=np.float32)[:, None]
    c = np.arange(cols, dtype=np.float32)[None, :]
    check_equal(fw.to_numpy(dout), (mat * s + r) - c, "out")
    return f"{rows} x {cols}"


def run_histogram(fw, mods):
    """Atomics through &[AtomicU32] (written through a shared reference) and
    a static shared array: 64 blocks of 256 threads, grid-stride."""
    n, grid, block = size(200_003), 64, 256
    data = RNG.integers(0, 2**32, n, dtype=np.uint32)
    stats0 = np.array([0, 0xFFFFFFFF, 0, 0, 0, 0, 0, 0], np.uint32)
    dd, db, ds = fw.to_device(data), fw.zeros(256, np.uint32), fw.to_device(stats0)
    mods("histogram").histogram(grid, block, dd, db, ds)
    check_equal(fw.to_numpy(db), np.bincount(data & 255, minlength=256).astype(np.uint32), "bins")
    owner = np.arange(n) % (grid * block) // block           # the block that reads data[i]
    blocks7 = np.unique(owner[(data & 255) == 7]).size
    st = fw.to_numpy(ds)
    want = [data.max(), data.min(), n, np.bitwise_or.reduce(data), np.bitwise_xor.reduce(data), blocks7]
    check_equal(st[:6], np.array(want, np.uint32), "stats[0..6]")
    if not 1 <= st[6] <= grid or st[7] != 0:
        raise AssertionError(f"stats[6] = {st[6]} (a block number 1..{grid}), stats[7] = {st[7]} (untouched 0)")
    return f"{n} values, 256 bins"


def run_refusals(fw, mods):
    m = mods("generic_axpy")
    x64, y32 = fw.zeros(16, np.float64), fw.zeros(16, np.float32)
    for f, exc, words in [
        (lambda: m.axpy_f32(1, 16, 1.0, x64, y32), TypeError, ["'x'", "float32", "float64"]),
        (lambda: m.axpy_f32(1, 512, 1.0, y32, fw.zeros(16, np.float32)), ValueError, ["at most 256"]),
        (lambda: mods("reduce_shared").reduce_sum_dyn(1, 256, y32, fw.zeros(1, np.float32)), ValueError,
         ["shared_mem"]),
        (lambda: m.axpy_f32(1, 16, 1.0, y32, y32), ValueError, ["overlaps"]),
    ]:
        try:
            f()
        except exc as e:
            if not all(w in str(e) for w in words):
                raise AssertionError(f"message {str(e)!r} lacks one of {words}")
        else:
            raise AssertionError(f"no {exc.__name__} for a call that must be refused")
    return "wrong dtype, launch bounds, dynamic shared memory, aliasing"


CHECKS = [
    ("vecadd", run_vecadd),
    ("saxpy", run_saxpy),
    ("axpy_f32", lambda fw, m: run_axpy(fw, m, "float32")),
    ("axpy_f64", lambda fw, m: run_axpy(fw, m, "float64")),
    ("axpy_u32", lambda fw, m: run_axpy(fw, m, "uint32")),
    ("axpy_i64", lambda fw, m: run_axpy(fw, m, "int64")),
    ("reduce_sum", lambda fw, m: run_reduce(fw, m, False)),
    ("reduce_sum_dyn", lambda fw, m: run_reduce(fw, m, True)),
    ("two_phase", run_two_phase),
    ("histogram", run_histogram),
    ("scale2d", run_scale2d),
    ("refusals", run_refusals),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", default="build/examples", help="where NAME.cubin/.ptx and NAME.sig.json are")
    ap.add_argument("--ptx", action="store_true", help="load the .ptx files (the driver JITs them)")
    ap.add_argument("--no-torch", action="store_true", help="CuPy arrays only")
    ap.add_argument("--scale", type=int, default=1, help="divide the sizes by this (for an emulator)")
    args = ap.parse_args()
    global SCALE
    SCALE = max(1, args.scale)
    ext = ".ptx" if args.ptx else ".cubin"
    loaded = {}

    def mods(name):
        if name not in loaded:
            loaded[name] = oxide_cupy.load(os.path.join(args.dir, name + ext),
                                           os.path.join(args.dir, name + ".sig.json"))
        return loaded[name]

    passed = failed = 0
    for fw_name in ["cupy"] + ([] if args.no_torch else ["torch"]):
        try:
            fw = Framework(fw_name)
        except Exception as e:
            failed += 1
            print(f"FAIL {fw_name}: cannot use it: {e}")
            continue
        for name, run in CHECKS:
            label = f"{name} [{fw_name}, {ext[1:]}]"
            try:
                detail = run(fw, mods)
            except Exception:
                failed += 1
                print(f"FAIL {label}")
                print("    " + traceback.format_exc().rstrip().replace("\n", "\n    "))
            else:
                passed += 1
                print(f"PASS {label}: {detail}")
    print(f"python-gpu: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
