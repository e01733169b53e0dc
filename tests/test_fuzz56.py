"""Regressions found by fuzz56 (tests/fuzz_signatures.py: every public name called the many
ways users do, keywords drawn by NumPy's parameter names). Each compares with NumPy, on plans
(`eager_size=0`: what the cupy backend always takes) and at the default (the at-once rule)."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

import lazyarray as la

BOTH = pytest.mark.parametrize("eager_size", [0, 4096])
_P = inspect.Parameter


def _get(module, name: str):
    for part in name.split("."):
        module = getattr(module, part)
    return module


def _common_functions() -> list[str]:
    """The functions (not ufuncs, not *args ones) both namespaces export."""
    names = [n for n in dir(np) if not n.startswith("_") and hasattr(la, n)]
    names += [f"{m}.{n}" for m in ("linalg", "fft") for n in dir(getattr(np, m))
              if not n.startswith("_") and hasattr(getattr(la, m), n)]
    out = []
    for n in names:
        f = _get(np, n)
        if callable(f) and not isinstance(f, (type, np.ufunc)):
            try:
                inspect.signature(f)
            except (TypeError, ValueError):
                continue
            out.append(n)
    return out


def _keyword_names(f, count: int = 2) -> list[tuple[int, str]]:
    """The leading parameters a caller may pass by NumPy's name (positional-or-keyword)."""
    params = list(inspect.signature(f).parameters.values())[:count]
    return [(k, p.name) for k, p in enumerate(params) if p.kind is _P.POSITIONAL_OR_KEYWORD]


# la.linalg.tensordot is la.tensordot (NumPy's a, b; linalg's x1, x2 are positional-only);
# clip's second parameter is the standard's `min` (NumPy's `a_min=` is taken as a keyword)
SAME_BY_POSITION = ("linalg.tensordot", "clip")


def test_leading_parameters_have_numpys_names():
    """`np.sum(a=x)`, `np.searchsorted(a, v=x)`, `np.linalg.inv(a=m)`, `np.eye(3, M=4)`: the
    names were the Array API's (x, x1, x2, n_rows), a TypeError for NumPy's keyword calls."""
    wrong = []
    for name in _common_functions():
        ours = list(inspect.signature(_get(la, name)).parameters.values())
        for k, pname in _keyword_names(_get(np, name)):
            if name in SAME_BY_POSITION or k >= len(ours) or ours[k].kind in (
                    _P.VAR_POSITIONAL, _P.VAR_KEYWORD):
                continue
            if ours[k].name != pname or ours[k].kind is _P.POSITIONAL_ONLY:
                wrong.append(f"{name}: {pname} (ours {ours[k]})")
    assert not wrong, wrong


CALLS = [
    ("sum", (), {"a": [[1.0, 2.0], [3.0, 4.0]], "axis": 0}),
    ("mean", (), {"a": [1.0, 2.0, 4.0]}),
    ("searchsorted", ([1, 3, 5],), {"v": [2, 6]}),
    ("isin", (), {"element": [1, 2, 3], "test_elements": [2]}),
    ("eye", (3,), {"M": 4, "k": 1}),
    ("sort", (), {"a": [3, 1, 2]}),
    ("tensordot", (), {"a": np.ones((2, 3)), "b": np.ones((3, 2)), "axes": 1}),
    ("linalg.inv", (), {"a": [[2.0, 1.0], [1.0, 3.0]]}),
    ("linalg.solve", (), {"a": [[2.0, 1.0], [1.0, 3.0]], "b": [1.0, 2.0]}),
    ("fft.fft", (), {"a": [1.0, 2.0, 0.0, -1.0]}),
    ("swapaxes", (), {"a": np.ones((2, 3)), "axis1": 0, "axis2": 1}),
    ("take_along_axis", (), {"arr": np.array([[3, 1, 2]]), "indices": np.array([[1, 0, 2]]),
                         "axis": 1}),
    ("tile", (), {"A": [1, 2], "reps": 2}),
    ("broadcast_to", (), {"array": [1, 2], "shape": (2, 2)}),
]


@BOTH
@pytest.mark.parametrize("name,args,kwargs", CALLS, ids=[c[0] for c in CALLS])
def test_numpy_keyword_calls(name, args, kwargs, eager_size):
    want = _get(np, name)(*args, **kwargs)
    with la.config(eager_size=eager_size):
        got = np.asarray(_get(la, name)(*args, **kwargs))
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-12)
