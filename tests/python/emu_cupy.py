"""tests/python/emu_cupy.py: the part of CuPy that examples/python uses,
on oxrt's CPU emulator instead of a GPU, so that run_examples.py runs the
real kernels here, through the wrapper, and checks them against NumPy.

    python3 emu_cupy.py LIBOXRT EMU_DIR -- run_examples.py ARGS...

LIBOXRT is src/runtime/*.c built as a shared library (tests/python/run.sh
builds it), loaded RTLD_GLOBAL so that emulated modules (build/emu/NAME.so,
`oxidec --target=host`, make emu) find the emulator in the process, as a
host program linked with -rdynamic gives them. Emulated device memory is
host memory, so a "device array" here is a NumPy array with a
__cuda_array_interface__ of its own address. RawModule(path=X.cubin or
X.ptx) loads EMU_DIR/X.so; its functions launch with ox_launch_on or, for
enable_cooperative_groups, ox_launch_cooperative, each PTX parameter
being the bytes of one of the one-element NumPy arrays the wrapper packs,
as CuPy passes them. The ABI is the same on both targets (--emit=header
and --emit=signature are target-independent), so the nvptx signatures
(build/examples/NAME.sig.json) describe the emulated modules too."""
import ctypes
import os
import runpy
import sys
import types

import numpy as np


class Dim3(ctypes.Structure):
    _fields_ = [("x", ctypes.c_uint), ("y", ctypes.c_uint), ("z", ctypes.c_uint)]


class OxModule(ctypes.Structure):       # oxrt.h
    _fields_ = [("handle", ctypes.c_void_p), ("path", ctypes.c_char * 512), ("backend", ctypes.c_void_p),
                ("device", ctypes.c_int)]


class OxFunc(ctypes.Structure):         # oxrt.h
    _fields_ = [("handle", ctypes.c_void_p), ("name", ctypes.c_char * 128), ("path", ctypes.c_char * 512),
                ("backend", ctypes.c_void_p), ("module", ctypes.c_void_p), ("device", ctypes.c_int)]


def check_layout(sizes):
    """sizes: "OxModule OxFunc" as sizeof in C (run.sh compiles the probe);
    a mirror that drifted from oxrt.h would let C write past the buffer."""
    want = [int(v) for v in sizes.split()]
    got = [ctypes.sizeof(OxModule), ctypes.sizeof(OxFunc)]
    if got != want:
        sys.exit(f"emu_cupy.py: OxModule/OxFunc are {got} bytes here but {want} in oxrt.h: update the mirror")


def make_cupy(liboxrt, emu_dir):
    ox = ctypes.CDLL(liboxrt, mode=ctypes.RTLD_GLOBAL)
    ox.ox_error.restype = ctypes.c_char_p
    for f, args in [("ox_launch_on", [ctypes.POINTER(OxFunc), Dim3, Dim3, ctypes.c_uint, ctypes.c_void_p,
                                      ctypes.POINTER(ctypes.c_void_p)]),
                    ("ox_launch_cooperative", [ctypes.POINTER(OxFunc), Dim3, Dim3, ctypes.c_uint,
                                               ctypes.POINTER(ctypes.c_void_p)]),
                    ("ox_func_set_max_dynamic_shared", [ctypes.POINTER(OxFunc), ctypes.c_uint])]:
        getattr(ox, f).argtypes = args

    def check(rc, what):
        if rc != 0:
            raise RuntimeError(f"{what}: {ox.ox_error().decode()}")

    check(ox.ox_init(), "ox_init")

    class ndarray:
        """Emulated device memory: host memory, described as CuPy's arrays are."""

        def __init__(self, a):
            self.a = np.array(a, copy=True, order="C")
            self.__cuda_array_interface__ = {"version": 3, "shape": self.a.shape, "typestr": self.a.dtype.str,
                                             "data": (self.a.ctypes.data, False), "strides": None}

    class Function:
        def __init__(self, mod, name, coop):
            self.f = OxFunc()
            self.coop = self.enable_cooperative_groups = coop
            check(ox.ox_function(ctypes.byref(self.f), ctypes.byref(mod), name.encode()), f"ox_function {name}")
            self._dyn = 0

        @property
        def max_dynamic_shared_size_bytes(self):
            return self._dyn

        @max_dynamic_shared_size_bytes.setter
        def max_dynamic_shared_size_bytes(self, n):
            check(ox.ox_func_set_max_dynamic_shared(ctypes.byref(self.f), n), "ox_func_set_max_dynamic_shared")
            self._dyn = n

        def __call__(self, grid, block, args, shared_mem=0, stream=None):
            assert stream is None, "the emulated stand-in has the default stream only"
            for a in args:
                assert isinstance(a, np.ndarray) and a.size == 1, f"CuPy passes by value only one-element arrays: {a!r}"
            ptrs = (ctypes.c_void_p * max(1, len(args)))(*[a.ctypes.data for a in args])
            g, b = Dim3(*grid), Dim3(*block)
            if self.coop:
                rc = ox.ox_launch_cooperative(ctypes.byref(self.f), g, b, shared_mem, ptrs)
            else:
                rc = ox.ox_launch_on(ctypes.byref(self.f), g, b, shared_mem, None, ptrs)
            check(rc, "launch")
            check(ox.ox_synchronize(), "ox_synchronize")

    class RawModule:
        def __init__(self, *, path, enable_cooperative_groups=False):
            name = os.path.splitext(os.path.basename(path))[0]
            self.m = OxModule()
            check(ox.ox_module_load(ctypes.byref(self.m), os.path.join(emu_dir, name + ".so").encode()),
                  f"ox_module_load {name}")
            self.coop = enable_cooperative_groups

        def get_function(self, name):
            return Function(self.m, name, self.coop)

    class Device:
        def synchronize(self):
            check(ox.ox_synchronize(), "ox_synchronize")

    cp = types.ModuleType("cupy")
    cp.ndarray = ndarray
    cp.asarray = ndarray
    cp.asnumpy = lambda d: d.a.copy()
    cp.RawModule = RawModule
    cp.cuda = types.SimpleNamespace(Device=Device)
    return cp


def main():
    liboxrt, emu_dir, sep, script, *args = sys.argv[1:]
    check_layout(os.environ.get("OXRT_SIZES", ""))
    assert sep == "--"
    sys.modules["cupy"] = make_cupy(liboxrt, emu_dir)
    sys.argv = [script] + args
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
