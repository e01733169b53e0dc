"""NVRTC through ctypes: compile CUDA source without a GPU, and read the register/spill report.

`cupy.RawModule` compiles with NVRTC at run time, but CuPy's own compile helpers look the device up and
fail without a driver. NVRTC itself needs no device, so CI (no GPU) checks every generated kernel with
the very compiler the GPU path uses. The library comes from the `nvidia-cuda-nvrtc` wheel
(`pip install 'lazyarray-fusion[nvrtc]'`), a CUDA toolkit, or `LAZYARRAY_NVRTC=/path/libnvrtc.so`.

NVRTC has no standard headers: the source must define everything it uses (runtime/cuda/prelude.py).
"""

from __future__ import annotations

import ctypes
import glob
import os
import re
import sys
from dataclasses import dataclass
from functools import lru_cache

DEFAULT_ARCH = "sm_90"  # H100/H200; NVRTC 13 no longer targets anything older than sm_75

_WHEEL_PATTERNS = (  # relative to each sys.path entry
    "nvidia/cu13/lib/libnvrtc.so*",  # nvidia-cuda-nvrtc 13.x
    "nvidia/cuda_nvrtc/lib/libnvrtc.so*",  # nvidia-cuda-nvrtc-cu12
)
_SYSTEM_PATTERNS = (
    "/usr/local/cuda/lib64/libnvrtc.so*",
    "/usr/local/cuda/targets/*/lib/libnvrtc.so*",
    "/usr/lib/x86_64-linux-gnu/libnvrtc.so*",
)


class NvrtcUnavailable(RuntimeError):
    """No NVRTC library could be found or loaded; the message says how to get one."""


class CompileError(RuntimeError):
    """NVRTC rejected a source; carries the compiler log and the numbered source."""

    def __init__(self, log: str, source: str, options: tuple[str, ...]) -> None:
        numbered = "\n".join(f"{i + 1:4d}  {line}" for i, line in enumerate(source.splitlines()))
        super().__init__(f"NVRTC failed ({' '.join(options)}):\n{log}\n--- source ---\n{numbered}")
        self.log = log
        self.source = source


@dataclass(frozen=True)
class KernelResources:
    """What ptxas reported for one entry function (`--ptxas-options=-v`)."""

    registers: int
    stack_bytes: int
    spill_stores: int
    spill_loads: int

    @property
    def spills(self) -> bool:
        return self.spill_stores > 0 or self.spill_loads > 0


@dataclass(frozen=True)
class CompiledModule:
    """Result of one compilation: the binary image (cubin, or PTX text as bytes) and the report."""

    image: bytes
    kind: str  # "cubin" or "ptx"
    log: str
    resources: dict[str, KernelResources]


def _candidates() -> list[str]:
    env = os.environ.get("LAZYARRAY_NVRTC")
    found = [env] if env else []
    for entry in sys.path:
        for pattern in _WHEEL_PATTERNS:
            found.extend(sorted(glob.glob(os.path.join(entry, pattern))))
    for pattern in _SYSTEM_PATTERNS:
        found.extend(sorted(glob.glob(pattern)))
    found.extend(_loaded_copies())  # the one CuPy loaded (runtime/cuda/modules.py)
    found.extend(["libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"])  # the loader's own search
    # "libnvrtc.so.13.5" style names sort after "libnvrtc.so.13": prefer the plain soname links.
    return [p for p in found if "builtins" not in os.path.basename(p)]


def _loaded_copies() -> list[str]:
    """Paths of libnvrtc already mapped into this process (by CuPy), from /proc/self/maps."""
    try:
        with open("/proc/self/maps") as maps:
            return sorted({line.split()[-1] for line in maps
                           if "/libnvrtc.so" in line and "builtins" not in line})
    except OSError:
        return []


@lru_cache(maxsize=1)
def _library() -> ctypes.CDLL:
    errors = []
    for path in _candidates():
        try:
            lib = ctypes.CDLL(path)
        except OSError as exc:
            errors.append(f"{path}: {exc}")
            continue
        _declare(lib)
        return lib
    raise NvrtcUnavailable(
        "NVRTC (libnvrtc) not found; install it with `pip install 'lazyarray-fusion[nvrtc]'` "
        "(the nvidia-cuda-nvrtc wheel) or point LAZYARRAY_NVRTC at libnvrtc.so"
        + (f" (tried: {'; '.join(errors[:3])})" if errors else "")
    )


def _declare(lib: ctypes.CDLL) -> None:
    p, sz, cp = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p
    sigs = {
        "nvrtcVersion": (ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int)),
        "nvrtcCreateProgram": (ctypes.POINTER(p), cp, cp, ctypes.c_int, p, p),
        "nvrtcCompileProgram": (p, ctypes.c_int, ctypes.POINTER(cp)),
        "nvrtcDestroyProgram": (ctypes.POINTER(p),),
        "nvrtcGetProgramLogSize": (p, ctypes.POINTER(sz)),
        "nvrtcGetProgramLog": (p, ctypes.c_char_p),
        "nvrtcGetCUBINSize": (p, ctypes.POINTER(sz)),
        "nvrtcGetCUBIN": (p, ctypes.c_char_p),
        "nvrtcGetPTXSize": (p, ctypes.POINTER(sz)),
        "nvrtcGetPTX": (p, ctypes.c_char_p),
    }
    for name, args in sigs.items():
        fn = getattr(lib, name)
        fn.argtypes, fn.restype = args, ctypes.c_int
    lib.nvrtcGetErrorString.argtypes, lib.nvrtcGetErrorString.restype = (ctypes.c_int,), cp


def unavailable_reason() -> str | None:
    """None when NVRTC can be loaded here; otherwise why not (for pytest skips)."""
    try:
        _library()
    except NvrtcUnavailable as exc:
        return str(exc)
    return None


def version() -> tuple[int, int]:
    lib = _library()
    major, minor = ctypes.c_int(), ctypes.c_int()
    _check(lib, lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor)), "nvrtcVersion")
    return major.value, minor.value


def _check(lib: ctypes.CDLL, status: int, what: str) -> None:
    if status != 0:
        raise RuntimeError(f"{what}: {lib.nvrtcGetErrorString(status).decode()}")


def _read(lib: ctypes.CDLL, prog: ctypes.c_void_p, size_fn: str, get_fn: str) -> bytes:
    size = ctypes.c_size_t()
    _check(lib, getattr(lib, size_fn)(prog, ctypes.byref(size)), size_fn)
    buf = ctypes.create_string_buffer(size.value)
    _check(lib, getattr(lib, get_fn)(prog, buf), get_fn)
    return buf.raw[: size.value]


def compile_cuda(source: str, name: str = "kernels.cu", arch: str = DEFAULT_ARCH,
                 options: tuple[str, ...] = (), verbose: bool = True) -> CompiledModule:
    """Compile `source` for `arch` ("sm_90": cubin; "compute_90": PTX). Raises CompileError with
    the log and numbered source when NVRTC rejects it."""
    lib = _library()
    # no contraction (issue 9), no flush of subnormals; an option given twice is given once
    opts = tuple(dict.fromkeys((f"-arch={arch}", "-std=c++17", "--fmad=false", "--ftz=false",
                                *options)))
    if verbose and arch.startswith("sm_"):
        opts += ("--ptxas-options=-v",)
    prog = ctypes.c_void_p()
    _check(lib, lib.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), name.encode(), 0,
                                       None, None), "nvrtcCreateProgram")
    try:
        argv = (ctypes.c_char_p * len(opts))(*(o.encode() for o in opts))
        status = lib.nvrtcCompileProgram(prog, len(opts), argv)
        log = _read(lib, prog, "nvrtcGetProgramLogSize", "nvrtcGetProgramLog")
        log_text = log.rstrip(b"\0").decode(errors="replace")
        if status != 0:
            raise CompileError(log_text, source, opts)
        if arch.startswith("sm_"):
            image, kind = _read(lib, prog, "nvrtcGetCUBINSize", "nvrtcGetCUBIN"), "cubin"
        else:
            image, kind = _read(lib, prog, "nvrtcGetPTXSize", "nvrtcGetPTX"), "ptx"
    finally:
        lib.nvrtcDestroyProgram(ctypes.byref(prog))
    return CompiledModule(image, kind, log_text, parse_resources(log_text))


_ENTRY = re.compile(r"Compiling entry function '([^']+)'")
_PROPS = re.compile(r"Function properties for (\S+)")
_FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_REGS = re.compile(r"Used (\d+) registers")


def parse_resources(log: str) -> dict[str, KernelResources]:
    """Per entry function: registers, stack frame and spill bytes from ptxas's `-v` report."""
    found: dict[str, dict[str, int]] = {}
    current = None
    for line in log.splitlines():
        m = _ENTRY.search(line) or _PROPS.search(line)
        if m:
            current = found.setdefault(m.group(1), {})
            continue
        if current is None:
            continue
        if m := _FRAME.search(line):
            current.update(stack=int(m[1]), stores=int(m[2]), loads=int(m[3]))
        if m := _REGS.search(line):
            current["regs"] = int(m[1])
    return {name: KernelResources(v.get("regs", 0), v.get("stack", 0), v.get("stores", 0),
                                  v.get("loads", 0)) for name, v in found.items()}
