"""The CUDA dialect's complex functions (runtime/c/complex.py's formulas on real libm functions; NVRTC
has no <complex.h>) compiled as C and compared with NumPy on the CPU: no GPU here runs them, so
this is where their accuracy is measured. Finite inputs in |re|, |im| <= 6 plus small values; the
special values (inf/nan components) are C99's only in the C dialect (docs/semantics.md)."""

from __future__ import annotations

import ctypes
import subprocess

import numpy as np
import pytest

from lazyarray.runtime import available_backends
from lazyarray.runtime.c import prelude as c_prelude
from lazyarray.runtime.c.compiler import find_compiler

# One worker runs this module (`--dist loadgroup`): its module fixture compiles every case once.
pytestmark = [pytest.mark.skipif("c" not in available_backends(), reason="no C compiler"),
              pytest.mark.xdist_group("test_complex_formulas")]

FUNCTIONS = {"exp": np.exp, "log": np.log, "sqrt": np.sqrt, "sin": np.sin, "cos": np.cos,
             "tan": np.tan, "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh,
             "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan, "asinh": np.arcsinh,
             "acosh": np.arccosh, "atanh": np.arctanh}
# error bound relative to |NumPy's result| (measured maxima: 4.2e-7 for complex64, 6.8e-16 for
# complex128, `pytest -s` prints them)
BOUND = {"c64": 2e-6, "c128": 4e-15}


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    names = [f"{f}_{s}" for s in ("c64", "c128") for f in FUNCTIONS]
    source = [c_prelude.complex_definitions(names, "static inline", formulas=True)]
    for s in ("c64", "c128"):
        for f in FUNCTIONS:
            source.append(f"void run_{f}_{s}(const la_{s} *x, la_{s} *y, long n) "
                          f"{{ for (long i = 0; i < n; i++) y[i] = la_{f}_{s}(x[i]); }}")
    folder = tmp_path_factory.mktemp("formulas")
    (folder / "f.c").write_text("#include <math.h>\n" + "\n".join(source) + "\n")
    subprocess.run([*find_compiler(), "-O2", "-std=gnu11", "-fPIC", "-shared", "-ffp-contract=off",
                    str(folder / "f.c"), "-o", str(folder / "f.so"), "-lm"], check=True)
    return ctypes.CDLL(str(folder / "f.so"))


def _inputs(dtype) -> np.ndarray:
    rng = np.random.default_rng(11)
    re, im = rng.uniform(-6, 6, (2, 4000))
    z = re + 1j * im
    small = (rng.standard_normal(500) + 1j * rng.standard_normal(500)) * 1e-4
    axes = np.concatenate([rng.uniform(-3, 3, 100), 1j * rng.uniform(-3, 3, 100)])
    return np.concatenate([z, small, axes, [0, 1, -1, 1j, -1j, 2 + 0j]]).astype(dtype)


@pytest.mark.parametrize("suffix", ["c64", "c128"])
def test_cuda_formulas_match_numpy(library, suffix):
    dtype = np.complex64 if suffix == "c64" else np.complex128
    x = _inputs(dtype)
    worst = {}
    for name, ref in FUNCTIONS.items():
        y = np.empty_like(x)
        fn = getattr(library, f"run_{name}_{suffix}")
        fn(x.ctypes.data_as(ctypes.c_void_p), y.ctypes.data_as(ctypes.c_void_p),
           ctypes.c_long(x.size))
        with np.errstate(all="ignore"):
            want = ref(x.astype(np.complex128))
        pole = ~np.isfinite(want)  # log(0), atanh(±1), atan(±i): infinite there too
        assert not np.isfinite(y[pole]).any(), f"{name}: finite at a pole: {x[pole]}"
        err = np.abs(y[~pole].astype(np.complex128) - want[~pole]) / np.maximum(
            np.abs(want[~pole]), 1e-300)
        worst[name] = float(np.max(err))
    print(suffix, {k: f"{v:.1e}" for k, v in worst.items()})
    bad = {k: v for k, v in worst.items() if not v <= BOUND[suffix]}
    assert not bad, f"relative errors above {BOUND[suffix]}: {bad} (all: {worst})"
