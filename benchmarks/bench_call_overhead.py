"""Per-call overhead of calling one generated kernel through ctypes vs cffi (16 float32 elements).

Run: python benchmarks/bench_call_overhead.py. Prints median microseconds per call for each way of
passing the pointer array that `CPlan.run` needs (inputs and outputs change on every run).
"""

from __future__ import annotations

import ctypes
import statistics
import time

import numpy as np
from lazyarray.graph import get_op
from lazyarray.graph.kernel_ir import Apply, BufferSpec, Const, Kernel, Load, Program, Stage, Store
from lazyarray.runtime.c import compiler as c_compiler
from lazyarray.runtime.c.backend import CBackend


def sigmoid_program(n: int) -> Program:
    f32 = np.dtype("float32")
    exprs = (Load(0, (1,), 0, f32), Apply(get_op("negative"), (0,), f32),
             Apply(get_op("exp"), (1,), f32), Const(1.0, f32),
             Apply(get_op("add"), (3, 2), f32), Apply(get_op("reciprocal"), (4,), f32))
    k = Kernel("sigmoid", (n,), 1, (Stage(False, exprs, (), (Store(1, (1,), 0, 5),)),))
    return Program((BufferSpec((n,), f32, 0), BufferSpec((n,), f32, 1)), (0,), (), (1,), (k,))


def median_us(fn, reps: int = 20000) -> float:
    samples = []
    for _ in range(7):
        t = time.perf_counter()
        for _ in range(reps // 7):
            fn()
        samples.append((time.perf_counter() - t) / (reps // 7) * 1e6)
    return statistics.median(samples)


def main() -> None:
    prog = sigmoid_program(16)
    plan = CBackend().compile(prog)
    x = np.random.rand(16).astype(np.float32)
    y = np.empty(16, np.float32)
    call = plan.calls[0]
    fn = getattr(c_compiler._libraries[next(iter(c_compiler._libraries))],
        next(iter(c_compiler._functions)))
    fn.argtypes = (ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64)
    ptrs = np.zeros(2, np.uintp)
    block, scal = call.block.ctypes.data, np.zeros(1, np.uint64).ctypes.data
    pp = ptrs.ctypes.data

    def ctypes_ctypes_data():
        ptrs[0] = x.ctypes.data
        ptrs[1] = y.ctypes.data
        fn(pp, block, scal, 1)

    def ctypes_array_interface():
        ptrs[0] = x.__array_interface__["data"][0]
        ptrs[1] = y.__array_interface__["data"][0]
        fn(pp, block, scal, 1)

    def ctypes_fixed():
        fn(pp, block, scal, 1)

    rows = [("ctypes, x.ctypes.data per pointer", ctypes_ctypes_data),
            ("ctypes, __array_interface__ per pointer", ctypes_array_interface),
            ("ctypes, pointers unchanged (floor)", ctypes_fixed),
            ("CPlan.run (whole plan: bind, allocate output, call)", lambda: plan.run([x], []))]
    try:
        import cffi

        ffi = cffi.FFI()
        ffi.cdef(f"void {fn.__name__}(char **p, const int64_t *d, const char *s, int64_t nt);")
        t = time.perf_counter()
        lib = ffi.dlopen(next(iter(c_compiler._libraries)))
        cfn = getattr(lib, fn.__name__)
        cffi_load_ms = (time.perf_counter() - t) * 1e3
        cp = ffi.new("char *[2]")
        cblock = ffi.cast("int64_t *", block)
        cscal = ffi.cast("char *", scal)

        def cffi_from_buffer():
            cp[0] = ffi.from_buffer(x)
            cp[1] = ffi.from_buffer(y)
            cfn(cp, cblock, cscal, 1)

        def cffi_fixed():
            cfn(cp, cblock, cscal, 1)

        rows += [("cffi, ffi.from_buffer per pointer", cffi_from_buffer),
                 ("cffi, pointers unchanged (floor)", cffi_fixed)]
        print(f"cffi cdef+dlopen of a loaded library: {cffi_load_ms:.3f} ms")
    except ImportError:
        print("cffi not installed: only ctypes measured")
    with np.errstate(all="ignore"):
        numpy_sig = median_us(lambda: np.reciprocal(np.add(1.0, np.exp(np.negative(x)))))
    for name, fn_ in rows:
        print(f"{name:55s} {median_us(fn_):7.2f} us")
    print(f"{'numpy 4-op sigmoid on 16 elements':55s} {numpy_sig:7.2f} us")


if __name__ == "__main__":
    main()
