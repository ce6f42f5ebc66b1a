"""tests/python/test_marshal.py: examples/python/oxide_cupy.py without a GPU.

The wrapper loads the committed golden signatures (tests/golden/*.sig.json,
what oxidec --emit=signature writes) with a stand-in for cupy.RawModule that
records each launch instead of running it, and fake device arrays (objects
with __cuda_array_interface__, as CuPy arrays and torch CUDA tensors have).
Each case checks the packed PTX parameters byte for byte against the ABI
(a slice is its address then its u64 length; scalars their exact dtype;
structs rustc's layout, written out here with struct.pack), or that a wrong
argument is refused with an error naming the parameter. Prints PASS/FAIL
per case and "marshal: N passed, M failed"; exit status 1 on a failure.
Needs numpy (python3-numpy, make deps)."""
import os
import struct
import sys
import traceback
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GOLDEN = os.path.join(ROOT, "tests", "golden")
sys.path.insert(0, os.path.join(ROOT, "examples", "python"))
import oxide_cupy  # noqa: E402


class FakeArray:
    """A device array as __cuda_array_interface__ describes one."""

    def __init__(self, ptr, shape, typestr, strides=None, readonly=False):
        self.__cuda_array_interface__ = {
            "version": 3, "shape": tuple(shape) if isinstance(shape, tuple) else (shape,),
            "typestr": typestr, "data": (ptr, readonly), "strides": strides,
        }


class FakeStream:
    """A cupy.cuda.Stream: what has .ptr passes through."""
    ptr = 0x77


class FakeFunction:
    """A RawKernel that records its launches."""

    def __init__(self, name, log, limit):
        self.name, self.log, self.limit = name, log, limit
        self.max_dynamic_shared_size_bytes = 0
        self.enable_cooperative_groups = limit is not None     # a RawKernel's, from its RawModule

    def __call__(self, grid, block, args, shared_mem=0, stream=None):
        if self.limit is not None and grid[0] > self.limit:
            # what CuPy does with a cooperative 1-D grid that cannot be resident
            warnings.warn(f"The grid size will be reduced from {grid[0]} to {self.limit}, "
                          "as the specified grid size exceeds the limit.")
        self.log.append(dict(name=self.name, grid=grid, block=block, args=args, shared_mem=shared_mem,
                             stream=stream, dyn_attr=self.max_dynamic_shared_size_bytes))


class FakeRawModule:
    made = []

    def __init__(self, path, enable_cooperative_groups):
        self.path, self.coop, self.log = path, enable_cooperative_groups, []
        FakeRawModule.made.append(self)

    def get_function(self, name):
        return FakeFunction(name, self.log, 8 if self.coop else None)


def load(name):
    FakeRawModule.made = []
    return oxide_cupy.load(f"/nowhere/{name}.cubin", os.path.join(GOLDEN, f"{name}.sig.json"),
                           raw_module=FakeRawModule)


def words(args):
    """The packed parameters as (dtype, bytes) pairs."""
    for a in args:
        assert isinstance(a, np.ndarray) and a.size == 1, f"not a one-element array: {a!r}"
    return [(a.dtype.str, a.tobytes()) for a in args]


def u64(v):
    return ("<u8", struct.pack("<Q", v))


def raises(exc, words_in_message, f, *a, **k):
    try:
        f(*a, **k)
    except exc as e:
        for w in words_in_message:
            assert w in str(e), f"message {str(e)!r} lacks {w!r}"
        return
    raise AssertionError(f"no {exc.__name__}")


# ------------------------------------------------------------------ cases

def case_vecadd_pack():
    k = load("vecadd").vecadd
    a, b, c = FakeArray(0x10000, 1000, "<f4"), FakeArray(0x20000, 1000, "<f4"), FakeArray(0x30000, (10, 100), "<f4")
    got = words(k.pack(a, b, c))
    assert got == [u64(0x10000), u64(1000), u64(0x20000), u64(1000), u64(0x30000), u64(1000)], got


def case_vecadd_launch():
    m = load("vecadd")
    a, b, c = FakeArray(0x10000, 1000, "<f4"), FakeArray(0x20000, 1000, "<f4"), FakeArray(0x30000, 1000, "<f4")
    stream = FakeStream()
    m.vecadd(4, 256, a, b, c, stream=stream)
    (raw,) = FakeRawModule.made
    assert raw.path == "/nowhere/vecadd.cubin" and raw.coop is False
    (rec,) = raw.log
    assert rec["name"] == "vecadd" and rec["grid"] == (4, 1, 1) and rec["block"] == (256, 1, 1), rec
    assert rec["shared_mem"] == 0 and rec["stream"] is stream, rec
    raises(TypeError, ["stream"], m.vecadd, 4, 256, a, b, c, stream="s")
    assert words(rec["args"]) == words(m["vecadd"].pack(a, b, c))
    assert m.raw_module() is raw and len(FakeRawModule.made) == 1     # loaded once


def case_saxpy_scalars():
    k = load("saxpy").saxpy
    x, y = FakeArray(0x1000, 10, "<f4"), FakeArray(0x2000, 10, "<f4")
    assert words(k.pack(2.5, x, y))[0] == ("<f4", struct.pack("<f", 2.5))
    assert words(k.pack(np.float32(0.1), x, y))[0] == ("<f4", np.float32(0.1).tobytes())
    assert words(k.pack(3, x, y))[0] == ("<f4", struct.pack("<f", 3.0))
    raises(TypeError, ["'a'", "float32", "float64"], k.pack, np.float64(0.1), x, y)
    raises(TypeError, ["'a'"], k.pack, "2", x, y)
    raises(TypeError, ["'a'"], k.pack, True, x, y)


def case_saxpy_arrays():
    k = load("saxpy").saxpy
    x, y = FakeArray(0x1000, 10, "<f4"), FakeArray(0x2000, 10, "<f4")
    raises(TypeError, ["'x'", "float32", "float64"], k.pack, 1.0, FakeArray(0x1000, 10, "<f8"), y)
    raises(TypeError, ["'y'", "device array", "list"], k.pack, 1.0, x, [1.0, 2.0])
    raises(TypeError, ["'y'", "device array", "ndarray", "DLPack"], k.pack, 1.0, x, np.zeros(10, np.float32))
    raises(ValueError, ["'x'", "contiguous"], k.pack, 1.0, FakeArray(0x1000, 10, "<f4", strides=(8,)), y)
    raises(ValueError, ["'x'", "aligned"], k.pack, 1.0, FakeArray(0x1002, 10, "<f4"), y)
    raises(ValueError, ["'y'", "read-only"], k.pack, 1.0, x, FakeArray(0x2000, 10, "<f4", readonly=True))
    k.pack(1.0, FakeArray(0x1000, 10, "<f4", readonly=True), y)          # an input may be read-only
    k.pack(1.0, FakeArray(0x1000, (5, 2), "<f4", strides=(8, 4)), y)     # C strides given explicitly
    raises(TypeError, ["takes 3 arguments", "2 given"], k.pack, 1.0, x)


def case_saxpy_aliasing():
    k = load("saxpy").saxpy
    x = FakeArray(0x1000, 10, "<f4")
    raises(ValueError, ["'y'", "overlaps", "'x'"], k.pack, 1.0, x, FakeArray(0x1000 + 36, 10, "<f4"))
    k.pack(1.0, x, FakeArray(0x1000 + 40, 10, "<f4"))                   # adjacent: fine


def case_generic_axpy():
    m = load("generic_axpy")
    assert sorted(m.kernels) == ["axpy_f32", "axpy_f64", "axpy_i64", "axpy_u32"]
    x8, y8 = FakeArray(0x1000, 4, "<f8"), FakeArray(0x2000, 4, "<f8")
    assert words(m.axpy_f64.pack(0.1, x8, y8)) == [("<f8", struct.pack("<d", 0.1)), u64(0x1000), u64(4),
                                                   u64(0x2000), u64(4)]
    xi, yi = FakeArray(0x1000, 4, "<i8"), FakeArray(0x2000, 4, "<i8")
    assert words(m.axpy_i64.pack(-5, xi, yi))[0] == ("<i8", struct.pack("<q", -5))
    xu, yu = FakeArray(0x1000, 4, "<u4"), FakeArray(0x2000, 4, "<u4")
    assert words(m.axpy_u32.pack(2**32 - 1, xu, yu))[0] == ("<u4", struct.pack("<I", 2**32 - 1))
    raises(ValueError, ["'a'", "range"], m.axpy_u32.pack, -1, xu, yu)
    raises(ValueError, ["'a'", "range"], m.axpy_u32.pack, 2**32, xu, yu)
    raises(TypeError, ["'a'", "int"], m.axpy_u32.pack, 1.5, xu, yu)
    raises(TypeError, ["'x'", "uint32", "int64"], m.axpy_u32.pack, 1, xi, yu)
    raises(ValueError, ["axpy_f32", "at most 256"], m.axpy_f32, 1, 512, 1.0, FakeArray(0, 4, "<f4"),
           FakeArray(64, 4, "<f4"))
    m.axpy_f32((1,), (16, 16), 1.0, FakeArray(0, 4, "<f4"), FakeArray(64, 4, "<f4"))
    raises(AttributeError, ["axpy", "axpy_f32"], getattr, m, "axpy")


def case_struct_by_value():
    k = load("header_abi").by_value
    out = FakeArray(0x9000, 16, "<u4")
    p = {"n": 7, "inner": {"scale": 0.5, "bias": [1, -2, 3]}, "flag": True, "mask": 0xA5, "out": out}
    x, y = FakeArray(0x1000, 3, "<u4"), FakeArray(0x2000, 5, "<f4")
    got = words(k.pack(p, {"lo": 1.25, "hi": 9}, {"a": -1.0, "b": 4}, x, y))
    want_p = struct.pack("<QfhhhxxBBxxQ", 7, 0.5, 1, -2, 3, 1, 0xA5, 0x9000)
    want_q = struct.pack("<fI8x", 1.25, 9)
    assert got == [("|V32", want_p), ("|V16", want_q), ("<f4", struct.pack("<f", -1.0)),
                   ("<u4", struct.pack("<I", 4)), u64(0x1000), u64(3), u64(0x2000), u64(5)], got
    # the same struct as bytes and as a NumPy structured scalar
    assert words(k.pack(want_p, want_q, struct.pack("<fI", -1.0, 4), x, y)) == got
    rec = np.frombuffer(want_q, np.dtype({"names": ["lo", "hi"], "formats": ["<f4", "<u4"],
                                          "offsets": [0, 4], "itemsize": 16}))[0]
    assert words(k.pack(want_p, rec, {"a": -1.0, "b": 4}, x, y)) == got
    raises(TypeError, ["'p'", "missing", "mask"], k.pack, {n: v for n, v in p.items() if n != "mask"},
           want_q, want_q[:8], x, y)
    raises(ValueError, ["'q'", "16 bytes"], k.pack, p, want_q[:8], want_q[:8], x, y)
    raises(ValueError, ["p.inner.bias", "shape"], k.pack, dict(p, inner={"scale": 0.5, "bias": [1, 2]}),
           want_q, want_q[:8], x, y)
    raises(ValueError, ["p.mask", "range"], k.pack, dict(p, mask=256), want_q, want_q[:8], x, y)


def case_pointers_and_scalars():
    k = load("header_abi").pointers
    c, d = FakeArray(0x3000, 1, "<u4"), FakeArray(0x4000, 1, "<i8")
    counts, m = FakeArray(0x5000, 8, "<u4"), FakeArray(0x6000, (3, 5), "<f4")
    got = words(k.pack(0x1234, None, c, d, counts, 2**64 - 1, -3, True, 1.5, "x", m))
    assert got == [u64(0x1234), u64(0), u64(0x3000), u64(0x4000), u64(0x5000), u64(8),
                   u64(2**64 - 1), ("|i1", struct.pack("<b", -3)), ("|b1", b"\x01"),
                   ("<f8", struct.pack("<d", 1.5)), ("<u4", struct.pack("<I", ord("x"))),
                   ("|V24", struct.pack("<QQQ", 0x6000, 3, 5))], got
    raises(ValueError, ["'ch'", "Unicode"], k.pack, 0, None, c, d, counts, 0, 0, False, 0.0, 0xD800, m)
    raises(TypeError, ["'c'", "device array"], k.pack, 0, None, 0x3000, d, counts, 0, 0, False, 0.0, 0, m)
    raises(ValueError, ["'counts'", "read-only"], k.pack, 0, None, c, d, FakeArray(0x5000, 8, "<u4", readonly=True),
           0, 0, False, 0.0, 0, m)
    raises(ValueError, ["'m'", "2-D"], k.pack, 0, None, c, d, counts, 0, 0, False, 0.0, 0, FakeArray(0x6000, 15, "<f4"))
    raises(TypeError, ["'g'", "bool"], k.pack, 0, None, c, d, counts, 0, 0, 1, 0.0, 0, m)


def case_shared_memory():
    m = load("reduce_shared")
    inp, out = FakeArray(0x1000, 1024, "<f4"), FakeArray(0x8000, 4, "<f4")
    raises(ValueError, ["reduce_sum_dyn", "shared_mem"], m.reduce_sum_dyn, 4, 256, inp, out)
    m.reduce_sum_dyn(4, 256, inp, out, shared_mem=1024)
    m.reduce_sum(4, 256, inp, out)
    m.reduce_sum_dyn(4, 256, inp, out, shared_mem=64 * 1024)
    log = FakeRawModule.made[0].log
    assert [(r["name"], r["shared_mem"], r["dyn_attr"]) for r in log] == \
        [("reduce_sum_dyn", 1024, 0), ("reduce_sum", 0, 0), ("reduce_sum_dyn", 65536, 65536)], log
    assert words(log[1]["args"]) == [u64(0x1000), u64(1024), u64(0x8000)]


def case_cooperative():
    m = load("grid_sync")
    a = FakeArray(0x1000, 64, "<u4")
    m.k(8, 128, a)
    (raw,) = FakeRawModule.made
    assert raw.coop is True and raw.log[0]["grid"] == (8, 1, 1)
    raises(ValueError, ["grid::sync()", "resident"], m.k, 9, 128, a)
    assert len(raw.log) == 1, "the refused launch ran"


def case_cluster():
    m = load("cluster_reduce")
    inp, out = FakeArray(0x1000, 1024, "<u4"), FakeArray(0x8000, 8, "<u4")
    raises(ValueError, ["cluster_sum", "clusters of (4, 1, 1)", "(6, 1, 1)"], m.cluster_sum, 6, 128, inp, out)
    m.cluster_sum(8, 128, inp, out)
    assert FakeRawModule.made[0].log[0]["grid"] == (8, 1, 1)


def case_bad_signature():
    sig = {"format": "oxidec-signature", "version": 2, "target": "nvptx", "structs": [], "kernels": []}
    raises(ValueError, ["version 1"], oxide_cupy.Module, "k.cubin", sig, FakeRawModule)
    raises(ValueError, ["--target=host"], oxide_cupy.Module, "k.cubin", dict(sig, version=1, target="host"),
           FakeRawModule)
    raises(ValueError, ["block"], load("vecadd").vecadd, 1, (0,), FakeArray(0, 1, "<f4"), FakeArray(0, 1, "<f4"),
           FakeArray(64, 1, "<f4"))


def main():
    cases = [(n, f) for n, f in sorted(globals().items()) if n.startswith("case_")]
    passed = failed = 0
    for name, f in cases:
        try:
            f()
        except Exception:
            failed += 1
            print(f"FAIL {name[5:]}")
            print("    " + traceback.format_exc().replace("\n", "\n    "))
        else:
            passed += 1
            print(f"PASS {name[5:]}")
    print(f"marshal: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
