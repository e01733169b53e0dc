"""einops' plain entry points (`rearrange`, `reduce`, `repeat`, `pack`, `unpack`) on Arrays through
einops' own backend discovery (lazyarray/_einops.py), against the same calls on NumPy arrays, on
every backend. einops is a test-only dependency (the test extra)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from fresh_process import modules_imported

import lazyarray as la

einops = pytest.importorskip("einops")

X = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5) / 7.0

REARRANGE = [("b c h w -> b h w c", {}), ("b c h w -> (b c) (h w)", {}),
             ("b c (h h2) w -> b c h h2 w", {"h2": 2}), ("b c h w -> w h c b", {}),
             ("b ... w -> w ... b", {}), ("b c h w -> b (c h w)", {}),
             ("b c h w -> b c () h w", {}), ("b c h w -> (w h) b c", {})]
REDUCE = [("b c h w -> b c", "mean"), ("b c h w -> c", "sum"), ("b c h w -> b h w", "max"),
          ("b c h w -> b () h w", "min"), ("b c h w -> b c h", "prod"),
          ("b c (h h2) (w w2) -> b c h w", "mean")]
REPEAT = [("b c h w -> b c h w r", {"r": 3}), ("b c h w -> b (c r) h w", {"r": 2}),
          ("b c h w -> (r b) c h w", {"r": 2}),
          ("b c h w -> b c (h h2) (w w2)", {"h2": 2, "w2": 2})]


def _same(got, want) -> None:
    assert isinstance(got, la.Array)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(np.asarray(got), want, rtol=2e-6)


@pytest.mark.parametrize("pattern, axes", REARRANGE, ids=[p for p, _ in REARRANGE])
def test_rearrange_matches_numpy(backend, pattern, axes):
    _same(einops.rearrange(la.asarray(X), pattern, **axes), einops.rearrange(X, pattern, **axes))


@pytest.mark.parametrize("pattern, how", REDUCE, ids=[f"{p} {h}" for p, h in REDUCE])
def test_reduce_matches_numpy(backend, pattern, how):
    kwargs = {"h2": 2, "w2": 1} if "h2" in pattern else {}
    x = X[..., :4] if kwargs else X
    _same(einops.reduce(la.asarray(x), pattern, how, **kwargs),
          einops.reduce(x, pattern, how, **kwargs))


@pytest.mark.parametrize("pattern, axes", REPEAT, ids=[p for p, _ in REPEAT])
def test_repeat_matches_numpy(backend, pattern, axes):
    _same(einops.repeat(la.asarray(X), pattern, **axes), einops.repeat(X, pattern, **axes))


def test_pack_unpack_round_trip_matches_numpy(backend):
    a, b, c = X, X[:, 0], X[:, 0, 0]
    ours, ours_ps = einops.pack([la.asarray(a), la.asarray(b), la.asarray(c)], "b * w")
    theirs, theirs_ps = einops.pack([a, b, c], "b * w")
    _same(ours, theirs)
    assert ours_ps == theirs_ps
    for got, want in zip(einops.unpack(ours, ours_ps, "b * w"),
                         einops.unpack(theirs, theirs_ps, "b * w")):
        _same(got, want)


def test_integer_mean_refused_and_result_stays_lazy(reference_backend):
    """einops refuses mean of integers as for NumPy; a rearrange is a view, then fuses on."""
    for x in (np.arange(6).reshape(2, 3), la.arange(6).reshape(2, 3)):
        with pytest.raises(NotImplementedError, match="non-floating"):
            einops.reduce(x, "a b -> a", "mean")
    y = einops.rearrange(la.asarray(X), "b c h w -> b (c h w)") * 2.0 + 1.0
    assert isinstance(y, la.Array) and y.shape == (2, 60)
    np.testing.assert_allclose(np.asarray(y), X.reshape(2, 60) * 2 + 1, rtol=1e-6)


@pytest.mark.parametrize("order", [  # a Python process each (~3 s): one order in the fast tier
    "import einops, lazyarray as la",
    pytest.param("import lazyarray as la, einops", marks=pytest.mark.exhaustive)])
def test_either_import_order_registers_the_backend(order):
    """lazyarray defines the backend class when einops' backends module runs (an import hook) or
    at once if einops came first; `import lazyarray` alone never imports einops."""
    program = (f"{order}; import sys, numpy as np\n"
               "y = einops.rearrange(la.ones((2, 3)), 'a b -> b a')\n"
               "print(type(y).__name__, y.shape)")
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["Array", "(3,", "2)"]
    assert "einops" not in modules_imported()["import"]  # a fresh `import lazyarray` alone
