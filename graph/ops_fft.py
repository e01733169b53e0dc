"""FFT library calls: NumPy's pocketfft on the CPU, cuFFT through CuPy on a GPU.

One opaque op per transform family; attrs carry NumPy's keywords (normalized by the front end:
`s` and `axes` as tuples of ints, `norm` a string). Inputs are materialized buffers, so the
elementwise work around a transform (windows, filters, magnitudes) fuses into the neighbouring
kernels.
"""

from __future__ import annotations

import numpy as np

from .registry import OPERAND_ORDER, OpDef, OpKind, register


def _cupy():
    import cupy  # optional: CuPy, present with a GPU

    return cupy


# name -> function of (array module, x, s, axes, norm)
_TRANSFORMS = {
    "fftn": lambda xp, x, s, axes, norm: xp.fft.fftn(x, s=s, axes=axes, norm=norm),
    "ifftn": lambda xp, x, s, axes, norm: xp.fft.ifftn(x, s=s, axes=axes, norm=norm),
    "rfftn": lambda xp, x, s, axes, norm: xp.fft.rfftn(x, s=s, axes=axes, norm=norm),
    "irfftn": lambda xp, x, s, axes, norm: xp.fft.irfftn(x, s=s, axes=axes, norm=norm),
    "hfft": lambda xp, x, s, axes, norm: xp.fft.hfft(x, n=s[0], axis=axes[0], norm=norm),
    "ihfft": lambda xp, x, s, axes, norm: xp.fft.ihfft(x, n=s[0], axis=axes[0], norm=norm),
}


def _register(name: str) -> OpDef:
    fn = _TRANSFORMS[name]
    return register(OpDef(
        name, OpKind.OPAQUE,
        lambda xs, a, dt: np.asarray(fn(np, xs[0], *a), dtype=dt),
        attr_names=("s", "axes", "norm"),
        cupy=lambda xs, a, dt: fn(_cupy(), xs[0], *a).astype(dt, copy=False),
        differentiable=False,
        properties=frozenset({"derivative_not_implemented", OPERAND_ORDER}),
        doc=f"numpy.fft.{name} / cupy.fft.{name} (fft/ifft/rfft/irfft are the 1-axis case)"))


FFT_OPS = {name: _register(name) for name in _TRANSFORMS}
