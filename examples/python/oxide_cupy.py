"""oxide_cupy: launch oxidec kernels from Python through CuPy.

    import oxide_cupy
    mod = oxide_cupy.load("build/examples/saxpy.cubin")   # + saxpy.sig.json
    mod.saxpy(grid, block, 2.0, x, y)                      # x, y: CuPy arrays or torch CUDA tensors

`load` reads the module's signature, the JSON that `oxidec --emit=signature`
writes from the kernel ABI (man oxidec, SIGNATURE), loads the .cubin or .ptx
with cupy.RawModule and returns one callable per kernel, named by its PTX
entry (`mod.axpy_f32`, or `mod["axpy_f32"]`). A call is

    kernel(grid, block, *args, shared_mem=0, stream=None)

with one Python argument per Rust parameter, in Rust's order. Each is
checked against the signature and packed into the kernel's PTX parameters
exactly as the ABI lowers it; a mismatch raises TypeError or ValueError
naming the kernel and the parameter, before anything is launched:

  &[T], &mut [T], DisjointSlice<T>  a device array (anything with
      __cuda_array_interface__, such as CuPy arrays and torch CUDA tensors,
      or with __dlpack__), C-contiguous, of T's dtype, aligned as T, not
      read-only when the kernel writes it (&mut, DisjointSlice, atomics):
      two PTX parameters, its address and its length in elements (u64).
      No copy: the kernel works on the array's memory.
  *const T, *mut T, &T, &mut T      a device array as above (or, for raw
      pointers, an int address or None): one PTX parameter, the address.
  scalars                           a Python bool/int/float or a NumPy
      scalar of exactly the parameter's dtype; ints are range-checked.
  #[repr(C)] structs                a dict of the fields (nested dicts for
      struct fields, device arrays or ints for pointer fields), a NumPy
      structured scalar or bytes of the struct's size; a DisjointSlice2D<T>
      also takes a 2-D device array (ptr, rows, cols).

Noalias promises are checked too: an array a kernel writes through a
slice or reference may not overlap another array argument (Rust's &mut and
DisjointSlice exclude it; the kernel may read inputs through the
non-coherent cache). Kernels that call grid::sync() are launched
cooperatively (a grid larger than can be resident is an error, not CuPy's
silent reduction); kernels that use dynamic shared memory need shared_mem;
a block larger than the kernel's launch bounds, or a grid that is not a
multiple of its #[kernel(cluster(..))] dimensions, is refused.

The memory is the caller's: it must stay alive until the kernel finished
(CuPy and torch keep it while the arrays live), and the launch goes to
`stream` (a cupy.cuda.Stream, a torch.cuda.Stream, or CuPy's current
stream when None); order it after the work that produced the inputs.

Only numpy is needed to marshal arguments (Kernel.pack); cupy is imported
when a module is loaded without a `raw_module` factory (tests pass one that
records the arguments instead of launching).
"""

import json
import os
import warnings

import numpy as np

__all__ = ["load", "Module", "Kernel"]

FORMAT = "oxidec-signature"
VERSION = 1
_PLAIN_SHARED_LIMIT = 48 * 1024   # dynamic shared memory above this needs the opt-in attribute


def load(binary, signature=None, *, raw_module=None):
    """The kernels of an oxidec .cubin or .ptx file.

    signature: the --emit=signature JSON (a path, or the parsed dict);
    default: the binary's name with .sig.json for .cubin/.ptx.
    raw_module: a factory called as raw_module(path=..., enable_cooperative_groups=...)
    returning an object with get_function(name); default cupy.RawModule.
    """
    if signature is None:
        signature = os.path.splitext(binary)[0] + ".sig.json"
    if isinstance(signature, (str, os.PathLike)):
        with open(signature, encoding="utf-8") as f:
            signature = json.load(f)
    return Module(binary, signature, raw_module)


class Module:
    """The kernels of one module: attributes and items by PTX entry name."""

    def __init__(self, binary, signature, raw_module=None):
        if signature.get("format") != FORMAT or signature.get("version") != VERSION:
            raise ValueError(f"{binary}: not an {FORMAT} version {VERSION} signature "
                             f"(format {signature.get('format')!r}, version {signature.get('version')!r})")
        if signature.get("target") != "nvptx":
            raise ValueError(f"{binary}: the signature is of a --target={signature.get('target')} module; "
                             "CuPy loads --target=nvptx modules (.cubin, .ptx)")
        self.binary = os.fsdecode(binary)        # cupy.RawModule takes a str path
        self.signature = signature
        self._factory = raw_module
        self._raw = {}
        structs = {s["ctype"]: s for s in signature["structs"]}
        self.kernels = {k["entry"]: Kernel(self, k, structs) for k in signature["kernels"]}

    def __getitem__(self, entry):
        return self.kernels[entry]

    def __getattr__(self, entry):
        kernels = self.__dict__.get("kernels", {})
        if entry in kernels:
            return kernels[entry]
        raise AttributeError(f"{self.__dict__.get('binary')}: no kernel {entry!r} "
                             f"(kernels: {', '.join(kernels)})")

    def __dir__(self):
        return list(super().__dir__()) + list(self.kernels)

    def raw_module(self, cooperative=False):
        """The loaded cupy.RawModule (get_global for a Constant<T> static, say).
        Cooperative kernels run from a second load of the file, with statics
        of its own: raw_module(True) is that one."""
        self._function(None, cooperative)
        return self._raw[cooperative]

    def _function(self, entry, cooperative):
        """The loaded kernel; cooperative ones come from a second RawModule
        made with enable_cooperative_groups, which CuPy launches with
        cuLaunchCooperativeKernel (it takes no flag per call)."""
        if cooperative not in self._raw:
            factory = self._factory
            if factory is None:
                import cupy
                factory = cupy.RawModule
            self._raw[cooperative] = factory(path=self.binary, enable_cooperative_groups=cooperative)
        return None if entry is None else self._raw[cooperative].get_function(entry)


# ------------------------------------------------------------ device arrays

class _Device:
    """What a device array argument is: address, size, dtype, writability."""

    def __init__(self, obj):
        cai, why = None, "it has no __cuda_array_interface__"
        try:
            cai = obj.__cuda_array_interface__
        except AttributeError:
            pass
        except Exception as e:                    # a torch tensor that requires grad, say
            why = f"its __cuda_array_interface__: {e}"
        if cai is None and hasattr(obj, "__dlpack__"):
            try:
                import cupy                       # DLPack: a zero-copy CuPy view of the same memory
                cai = cupy.from_dlpack(obj).__cuda_array_interface__
            except Exception as e:                # a host (NumPy, CPU torch) array, or no cupy
                why += f"; DLPack: {e}"
        if cai is None:
            raise TypeError(f"expects a device array (__cuda_array_interface__ or __dlpack__), "
                            f"got {type(obj).__name__}: {why}")
        self.ptr, self.readonly = int(cai["data"][0]), bool(cai["data"][1])
        self.shape = tuple(int(d) for d in cai["shape"])
        self.dtype = np.dtype(cai["descr"]) if cai.get("descr") and len(cai["descr"]) > 1 else np.dtype(cai["typestr"])
        if self.dtype.itemsize != np.dtype(cai["typestr"]).itemsize:
            self.dtype = np.dtype(cai["typestr"])
        self.size = int(np.prod(self.shape, dtype=np.int64)) if self.shape else 1
        self.nbytes = self.size * self.dtype.itemsize
        self.contiguous = self._c_contiguous(cai.get("strides"))

    def _c_contiguous(self, strides):
        if strides is None or self.size <= 1:
            return True
        want = self.dtype.itemsize
        for dim, stride in zip(reversed(self.shape), reversed(strides)):
            if dim != 1 and stride != want:
                return False
            want *= dim
        return True


def _int_range(dtype):
    info = np.iinfo(dtype)
    return int(info.min), int(info.max)


# ------------------------------------------------------------------ kernels

class Kernel:
    """One kernel: call it to launch, or pack() its arguments."""

    def __init__(self, module, sig, structs):
        self.module = module
        self.signature = sig
        self.entry = sig["entry"]
        self.cooperative = sig["cooperative"]
        self._structs = structs
        self._params = [p for p in sig["params"] if p["kind"] != "zero_sized"]

    def __repr__(self):
        args = ", ".join(f"{p['name']}: {p['rust_type']}" for p in self._params)
        return f"<oxidec kernel {self.entry}({args})>"

    def _err(self, p, msg, exc=TypeError):
        return exc(f"kernel {self.entry!r}, parameter {p['name']!r} ({p['rust_type']}): {msg}")

    # ---- arguments

    def pack(self, *args):
        """The kernel's PTX parameters for these arguments, in order: a tuple of
        one-element NumPy arrays of each parameter's exact dtype and size
        (CuPy passes a one-element array by value, its bytes as they are)."""
        if len(args) != len(self._params):
            names = ", ".join(p["name"] for p in self._params)
            raise TypeError(f"kernel {self.entry!r} takes {len(self._params)} arguments ({names}), "
                            f"{len(args)} given")
        out, ranges = [], []
        for p, a in zip(self._params, args):
            out.extend(self._pack_arg(p, a, ranges))
        self._check_aliasing(ranges)
        if len(out) != self.signature["nparam"]:
            raise AssertionError(f"kernel {self.entry!r}: packed {len(out)} PTX parameters, "
                                 f"the signature has {self.signature['nparam']}")
        return tuple(out)

    def _pack_arg(self, p, a, ranges):
        kind = p["kind"]
        if kind == "slice":
            dev = self._device(p, a, p["type"])
            ranges.append((p, dev, p["writes"], p["ptx"][0]["noalias"]))
            return [np.array([dev.ptr], np.uint64), np.array([dev.size], np.uint64)]
        if kind == "pointer":
            return [np.array([self._pointer(p, a, ranges)], np.uint64)]
        if kind == "scalar":
            (ptx,) = p["ptx"]
            if p["type"].get("rust") == "char":
                a = self._char(p, a)
            return [self._scalar(p, a, ptx["dtype"])]
        if kind in ("struct", "tensormap"):
            raw = self._struct_bytes(p, a)
            return [self._part(p, raw, ptx) for ptx in p["ptx"]]
        raise self._err(p, f"parameters of kind {kind!r} are not supported by this wrapper")

    def _device(self, p, a, elem):
        """A device array argument checked against the element type elem."""
        try:
            dev = _Device(a)
        except TypeError as e:
            raise self._err(p, str(e)) from None
        want = self._elem_dtype(elem) if elem is not None else None
        if want is not None:
            # a struct's array may be any dtype of its size (a structured one or raw bytes)
            if (dev.dtype.itemsize != want.itemsize) if want.fields is not None else (dev.dtype != want):
                raise self._err(p, f"expects an array of {want} ({elem.get('rust', elem.get('ctype'))}), "
                                   f"got {dev.dtype}")
        if not dev.contiguous:
            raise self._err(p, f"the array of shape {dev.shape} is not C-contiguous "
                               "(a slice is one run of memory; pass a contiguous copy)", ValueError)
        if p.get("writes") and dev.readonly:
            raise self._err(p, "the kernel writes it, but the array is read-only", ValueError)
        align = p["ptx"][0].get("align", 1)
        if dev.ptr % align:
            raise self._err(p, f"the array's address {dev.ptr:#x} is not {align}-byte aligned", ValueError)
        return dev

    def _pointer(self, p, a, ranges):
        raw = p["rust_type"].startswith("*")
        if raw and a is None:
            return 0
        if raw and isinstance(a, (int, np.integer)) and not isinstance(a, (bool, np.bool_)):
            if not 0 <= int(a) < 2**64:
                raise self._err(p, f"address {a} is not a 64-bit address", ValueError)
            return int(a)
        dev = self._device(p, a, p["type"])
        ranges.append((p, dev, p["writes"], p["ptx"][0]["noalias"]))
        return dev.ptr

    def _check_aliasing(self, ranges):
        for i, (p, d, w, na) in enumerate(ranges):
            for q, e, w2, na2 in ranges[i + 1:]:
                if (w or w2) and (na or na2) and d.nbytes and e.nbytes and \
                        d.ptr < e.ptr + e.nbytes and e.ptr < d.ptr + d.nbytes:
                    writer = p if w else q
                    other = q if writer is p else p
                    raise self._err(writer, f"its array overlaps that of parameter {other['name']!r}, "
                                            "which Rust's aliasing rules exclude", ValueError)

    def _char(self, p, v):
        """A Rust char: a 1-character str or its code point, a Unicode scalar value."""
        if isinstance(v, str):
            if len(v) != 1:
                raise self._err(p, f"expects one character, got {len(v)}", ValueError)
            v = ord(v)
        if isinstance(v, (int, np.integer)) and not isinstance(v, bool) and \
                not (0 <= int(v) <= 0x10FFFF and not 0xD800 <= int(v) <= 0xDFFF):
            raise self._err(p, f"{int(v):#x} is not a Unicode scalar value", ValueError)
        return int(v) if isinstance(v, np.integer) else v

    def _scalar(self, p, v, dtype):
        dt = np.dtype(dtype)
        if isinstance(v, np.generic):
            if v.dtype != dt:
                raise self._err(p, f"expects a {dt} scalar, got a NumPy {v.dtype}")
            return np.array([v], dt)
        if dt.kind == "b":
            if not isinstance(v, bool):
                raise self._err(p, f"expects a bool, got {type(v).__name__}")
        elif dt.kind in "iu":
            if isinstance(v, bool) or not isinstance(v, int):
                raise self._err(p, f"expects an int ({dt}), got {type(v).__name__}")
            lo, hi = _int_range(dt)
            if not lo <= v <= hi:
                raise self._err(p, f"{v} is out of {dt}'s range [{lo}, {hi}]", ValueError)
        elif dt.kind == "f":
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise self._err(p, f"expects a float ({dt}), got {type(v).__name__}")
        return np.array([v], dt)

    # ---- structs

    def _elem_dtype(self, t):
        """The NumPy dtype of a type of the signature (None: opaque)."""
        k = t["kind"]
        if k in ("scalar", "atomic"):
            return np.dtype(t["dtype"])
        if k == "pointer":
            return np.dtype(np.uint64)
        if k == "array":
            e = self._elem_dtype(t["elem"])
            return None if e is None else np.dtype((e, (t["len"],)))
        if k == "struct":
            s = self._structs[t["ctype"]]
            fields = [(f["name"], self._elem_dtype(f["type"]), f["offset"]) for f in s["fields"]]
            return np.dtype({"names": [f[0] for f in fields],
                             "formats": [f[1] if f[1] is not None else np.dtype((np.void, 0)) for f in fields],
                             "offsets": [f[2] for f in fields], "itemsize": s["size"]})
        if k == "tensormap":
            return np.dtype((np.void, t["bytes"]))
        return None

    def _struct_bytes(self, p, v):
        t = p["type"]
        dt = self._elem_dtype(t)
        size = dt.itemsize
        if isinstance(v, (bytes, bytearray, memoryview)):
            b = bytes(v)
            if len(b) != size:
                raise self._err(p, f"expects {size} bytes, got {len(b)}", ValueError)
            return b
        if isinstance(v, np.void) or (isinstance(v, np.ndarray) and v.size == 1 and v.dtype.fields):
            if v.dtype.itemsize != size:
                raise self._err(p, f"expects a {size}-byte struct, got a {v.dtype.itemsize}-byte {v.dtype}",
                                ValueError)
            return v.tobytes()
        if t["kind"] == "struct" and not isinstance(v, dict):
            v = self._slice2d(p, t, v)
        if not isinstance(v, dict):
            what = "a dict of the fields, a NumPy structured scalar or" if t["kind"] == "struct" else ""
            raise self._err(p, f"expects {what} {size} bytes, got {type(v).__name__}".replace("  ", " "))
        rec = np.zeros((), dt)
        self._fill(p, t, rec, v, p["name"])
        return rec.tobytes()

    def _slice2d(self, p, t, v):
        """DisjointSlice2D<T> {ptr, rows, cols} from a 2-D device array."""
        s = self._structs[t["ctype"]]
        names = [f["name"] for f in s["fields"]]
        if not s["rust"].startswith("oxide_device::DisjointSlice2D") or names != ["ptr", "rows", "cols"]:
            return v
        ptr_t = s["fields"][0]["type"]
        dev = self._device(dict(p, writes=True, ptx=[{"align": ptr_t["pointee"].get("bytes", 1)}]), v,
                           ptr_t["pointee"])
        if len(dev.shape) != 2:
            raise self._err(p, f"expects a 2-D array (rows, cols), got shape {dev.shape}", ValueError)
        return {"ptr": dev.ptr, "rows": dev.shape[0], "cols": dev.shape[1]}

    def _fill(self, p, t, rec, v, path):
        s = self._structs[t["ctype"]]
        names = [f["name"] for f in s["fields"]]
        extra = set(v) - set(names)
        missing = [n for n in names if n not in v]
        if extra or missing:
            raise self._err(p, f"{path}: fields {names}; " +
                            (f"missing {missing}" if missing else f"unknown {sorted(extra)}"))
        for f in s["fields"]:
            ft, x, where = f["type"], v[f["name"]], f"{path}.{f['name']}"
            if ft["kind"] == "struct":
                if not isinstance(x, dict):
                    raise self._err(p, f"{where}: expects a dict of the fields")
                self._fill(p, ft, rec[f["name"]], x, where)
            elif ft["kind"] == "pointer":
                rec[f["name"]] = x if isinstance(x, (int, np.integer)) and not isinstance(x, bool) \
                    else _Device(x).ptr
            elif ft["kind"] in ("scalar", "atomic"):
                rec[f["name"]] = self._scalar(dict(p, name=where), x, ft["dtype"])[0]
            elif ft["kind"] == "array":
                arr = np.asarray(x)
                want = rec[f["name"]].shape
                if arr.shape != want:
                    raise self._err(p, f"{where}: expects shape {want}, got {arr.shape}", ValueError)
                rec[f["name"]] = arr
            else:
                raise self._err(p, f"{where}: a field of kind {ft['kind']!r} can only be given as bytes")

    def _part(self, p, raw, ptx):
        """A PTX parameter cut from the argument's bytes: the whole struct
        (byval), or a part of one passed as scalars (field)."""
        b = raw[ptx["offset"]:ptx["offset"] + ptx["bytes"]]
        if ptx["role"] == "byval":
            return np.frombuffer(b, np.dtype((np.void, len(b)))).copy()
        return np.frombuffer(b, np.dtype(ptx["dtype"])).copy()

    # ---- launching

    def _check_launch(self, grid, block, shared_mem):
        grid, block = _dim3(grid, "grid"), _dim3(block, "block")
        threads = block[0] * block[1] * block[2]
        sig = self.signature
        if sig["reqntid"] and tuple((sig["reqntid"] + [1, 1])[:3]) != block:
            raise ValueError(f"kernel {self.entry!r} requires blocks of {sig['reqntid']} threads, got {block}")
        if sig["maxntid"] and threads > int(np.prod(sig["maxntid"])):
            raise ValueError(f"kernel {self.entry!r} takes at most {int(np.prod(sig['maxntid']))} threads "
                             f"per block (its launch bounds), got {block}")
        if sig["cluster"] and any(g % c for g, c in zip(grid, sig["cluster"])):
            raise ValueError(f"kernel {self.entry!r} runs in clusters of {tuple(sig['cluster'])} blocks "
                             f"(#[kernel(cluster)]): the grid {grid} must be a multiple of it")
        if sig["dynamic_shared"] and shared_mem <= 0:
            raise ValueError(f"kernel {self.entry!r} uses dynamic shared memory: give shared_mem=BYTES")
        if shared_mem < 0:
            raise ValueError(f"shared_mem must not be negative, got {shared_mem}")
        return grid, block

    def __call__(self, grid, block, *args, shared_mem=0, stream=None):
        grid, block = self._check_launch(grid, block, shared_mem)
        params = self.pack(*args)
        fn = self.module._function(self.entry, self.cooperative)
        if shared_mem > _PLAIN_SHARED_LIMIT:
            fn.max_dynamic_shared_size_bytes = shared_mem
        stream = _stream(stream)
        kw = {}
        if self.cooperative and not hasattr(fn, "enable_cooperative_groups"):
            kw["enable_cooperative_groups"] = True    # a cupy.cuda.Function, which takes the flag per call
        if not self.cooperative:
            fn(grid, block, params, shared_mem=shared_mem, stream=stream)
            return
        with warnings.catch_warnings():
            # CuPy shrinks a 1-D cooperative grid that cannot be resident, with
            # a warning, before launching: a different launch. Refuse it.
            warnings.filterwarnings("error", message="The grid size will be reduced")
            try:
                fn(grid, block, params, shared_mem=shared_mem, stream=stream, **kw)
            except UserWarning as w:
                raise ValueError(f"kernel {self.entry!r} calls grid::sync(): its {grid[0]} blocks must all be "
                                 f"resident at once, and they cannot be ({w})") from None


def _dim3(d, what):
    t = (d,) if isinstance(d, (int, np.integer)) else tuple(d)
    if not 1 <= len(t) <= 3 or not all(isinstance(x, (int, np.integer)) and x >= 1 for x in t):
        raise ValueError(f"{what} must be a positive int or a tuple of 1 to 3 positive ints, got {d!r}")
    return tuple(int(x) for x in t) + (1,) * (3 - len(t))


def _stream(s):
    """CuPy's stream for s: a torch.cuda.Stream becomes cupy's ExternalStream."""
    if s is None or hasattr(s, "ptr"):
        return s
    if hasattr(s, "cuda_stream"):
        import cupy
        return cupy.cuda.ExternalStream(s.cuda_stream)
    raise TypeError(f"stream: a cupy.cuda.Stream or torch.cuda.Stream, not {type(s).__name__}")
