"""Generated CUDA compiled by lazyarray's own NVRTC call and loaded as a CuPy module; a disk cache.

Why not `cupy.RawModule(code=...)`: CuPy appends `-ftz=true` to the caller's NVRTC options, and
NVRTC honours the last occurrence, so every float32 operation flushed subnormals to zero whatever
we asked (the first GPU run of stop 37: `x == 0` held for x = 1e-45, so `ldexp` passed subnormals
through unscaled, and `sqrt(-1e-45)` gave -0 where NumPy gives NaN). Compiling here keeps NumPy's
IEEE behaviour (`--ftz=false`, `--fmad=false`: runtime/cuda/printer.py COMPILE_OPTIONS).

The cubin is cached under the kernel cache root (`<root>/cuda-v1/<key>.cubin`, the key a sha256 of
the source, options, architecture and NVRTC version), in the private directories of
runtime/cache_security.py (`private_subdir`: one that is not moves the process to a private
temporary cache, as for the C kernels); each file starts with the sha256 of the cubin after it,
checked before the driver loads it (a damaged file is a miss, recompiled), as CuPy's own cache
checks its MD5.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from .. import cache_security
from ..c.compiler import private_subdir
from . import nvrtc

CACHE_DIR = "cuda-v1"
_HEADER = 64  # hex sha256 of the cubin


def architecture(cp: Any) -> str:
    """`sm_XY` of the current device (NVRTC then emits a cubin the driver loads as is)."""
    return f"sm_{cp.cuda.Device().compute_capability}"


def load_module(cp: Any, source: str, options: tuple[str, ...]) -> tuple[Any, bool]:
    """(a loaded `cupy.cuda.Module` of `source`, whether NVRTC ran): from the disk cache when an
    intact cubin is there, else compiled now and stored."""
    _find_cupys_nvrtc(cp)
    arch = architecture(cp)
    key = hashlib.sha256("\0".join((source, " ".join(options), arch,
                                    "%d.%d" % nvrtc.version())).encode()).hexdigest()
    path = private_subdir(CACHE_DIR) / f"{key[:32]}.cubin"
    image = _read(path)
    compiled = image is None
    if image is None:
        image = nvrtc.compile_cuda(source, name=f"la_{key[:12]}.cu", arch=arch, options=options,
                                   verbose=False).image
        _write(path, image)
    module = cp.cuda.function.Module()
    module.load(image)
    return module, compiled


def _find_cupys_nvrtc(cp: Any) -> None:
    """Make the libnvrtc CuPy uses loadable by lazyarray.runtime.cuda.nvrtc where no wheel or
    toolkit path names one: CuPy loads it on first use, after which /proc/self/maps shows it."""
    if nvrtc.unavailable_reason() is None:
        return
    try:
        cp.cuda.nvrtc.getVersion()
    except Exception:  # noqa: BLE001 - CuPy's own failure; nvrtc's message below is the clearer one
        pass


def _read(path: Path) -> bytes | None:
    try:
        data = cache_security.read_private(path)
    except OSError:
        return None
    image = data[_HEADER:]
    if data[:_HEADER] != hashlib.sha256(image).hexdigest().encode():
        cache_security.warn_once(str(path), f"lazyarray: the cached CUDA module {path} does not "
                                 "match its recorded sha256; it is recompiled")
        return None
    return image


def _write(path: Path, image: bytes) -> None:
    try:  # (a new file renamed over: concurrent writers of one key are both fine)
        cache_security.write_atomic(path, hashlib.sha256(image).hexdigest().encode() + image)
    except OSError:
        pass  # a full or read-only disk: the next process compiles again
