"""runtime/cuda/modules.py without a GPU: the generated CUDA is compiled by lazyarray's NVRTC call with
subnormals kept (CuPy's RawModule appends -ftz=true, which flushed every float32 subnormal on the
GPU), and the cubin is cached on disk and checked before it is loaded."""

from __future__ import annotations

import warnings

import pytest
from lazyarray.runtime import cache_security
from lazyarray.runtime.c import compiler as c_compiler
from lazyarray.runtime.cuda import modules, nvrtc
from lazyarray.runtime.cuda.printer import COMPILE_OPTIONS

pytestmark = pytest.mark.skipif(nvrtc.unavailable_reason() is not None,
                                reason=f"NVRTC unavailable: {nvrtc.unavailable_reason()}")

# float32 operations that FTZ changes: a compare with 0, sqrt, a product, a conversion to double
SOURCE = """
extern "C" __global__ void k(const float *x, float *y, double *z, bool *zero, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { y[i] = sqrtf(x[i]) * x[i]; zero[i] = x[i] == 0.0f; z[i] = (double)x[i]; }
}
"""


def _ptx(options: tuple[str, ...]) -> str:
    return nvrtc.compile_cuda(SOURCE, arch="compute_90", options=options).image.decode()


def test_generated_cuda_keeps_float32_subnormals():
    ptx = _ptx(COMPILE_OPTIONS)
    assert "sqrt.rn.f32" in ptx and "setp.eq.f32" in ptx
    assert ".ftz" not in ptx
    flushed = _ptx(COMPILE_OPTIONS + ("-ftz=true",))  # what CuPy's RawModule compiled
    assert "sqrt.rn.ftz.f32" in flushed


class _FakeModule:
    def load(self, image: bytes) -> None:
        self.image = image


class _FakeCupy:
    """What modules.py uses of cupy: the device's compute capability and a module to load into."""

    def __init__(self) -> None:
        self.cuda = type("cuda", (), {
            "Device": lambda: type("d", (), {"compute_capability": "90"})(),
            "function": type("f", (), {"Module": _FakeModule}),
        })


def test_cubins_are_cached_on_disk_and_checked_before_loading(tmp_path, monkeypatch):
    monkeypatch.setattr(c_compiler, "cache_dir_override", str(tmp_path))
    monkeypatch.setattr(c_compiler, "_usable", {})
    monkeypatch.setattr(c_compiler, "_private_dirs", set())
    monkeypatch.setattr(cache_security, "_warned", set())
    cp = _FakeCupy()
    first, compiled = modules.load_module(cp, SOURCE, COMPILE_OPTIONS)
    assert compiled and first.image[:4] == b"\x7fELF"  # a cubin for the device's sm_90
    (cached,) = (tmp_path / modules.CACHE_DIR).glob("*.cubin")
    assert cached.stat().st_mode & 0o777 == 0o600
    assert (tmp_path / modules.CACHE_DIR).stat().st_mode & 0o777 == 0o700
    again, compiled = modules.load_module(cp, SOURCE, COMPILE_OPTIONS)
    assert not compiled and again.image == first.image
    other, compiled = modules.load_module(cp, SOURCE, COMPILE_OPTIONS + ("-lineinfo",))
    assert compiled  # the options are part of the key
    data = bytearray(cached.read_bytes())
    data[-16:] = b"\xff" * 16
    cached.write_bytes(bytes(data))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rebuilt, compiled = modules.load_module(cp, SOURCE, COMPILE_OPTIONS)
    assert compiled and rebuilt.image == first.image
    (warning,) = [str(w.message) for w in caught if str(w.message).startswith("lazyarray:")]
    assert str(cached) in warning and "does not match" in warning
