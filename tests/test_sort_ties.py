"""argsort/argpartition/partition give NumPy's own order of equal keys and inside the parts.

NumPy's default argsort (introsort; x86-simd-sort on AVX2/AVX-512 machines) is not stable, and
its partition leaves the parts in an unspecified order: both are functions of each lane's values,
so lazyarray calls NumPy's own routine and a program that indexes by the permutation (or reads
a part) sees NumPy's numbers. (Before: a stable argsort and a full sort, valid orders but not
NumPy's.)
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from numpy_oracle import computes_halves

import lazyarray as la

DTYPES = ("bool", "int8", "uint16", "int32", "int64", "float16", "float32", "float64",
          "complex128")


def _tied(rng: np.random.Generator, dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    """Few distinct values (many ties), in the given dtype."""
    x = rng.integers(0, 4, shape)
    return (x * (1 - 1j) if dtype == "complex128" else x).astype(dtype)


def _cases(seed: int, count: int, backend: str = "numpy"):
    rng = np.random.default_rng(seed)
    for i in range(count):
        dtype = DTYPES[i % len(DTYPES)]
        shape = (int(rng.integers(1, 4)), int(rng.integers(2, 300)))
        case = rng, _tied(rng, dtype, shape), int(rng.integers(-2, 2))
        if dtype != "float16" or computes_halves(backend):  # (the same draws either way)
            yield case


@pytest.mark.parametrize("kw", [{}, {"kind": "quicksort"}, {"kind": "heapsort"},
                                {"stable": False}, {"kind": "stable"}, {"stable": True}])
def test_argsort_orders_ties_as_numpy(backend, backend_does, kw):
    if not (kw.get("kind") == "stable" or kw.get("stable")) and not backend_does("numpy_ties"):
        pytest.skip(f"{backend} orders ties its own way (conftest NEEDS['numpy_ties'])")
    for _, x, axis in _cases(1, 24, backend):
        got = la.argsort(la.asarray(x), axis=axis, **kw)
        np.testing.assert_array_equal(np.asarray(got), np.argsort(x, axis=axis, **kw))
        method = la.asarray(x).argsort(axis=axis, **kw)
        np.testing.assert_array_equal(np.asarray(method), x.argsort(axis=axis, **kw))


@pytest.mark.needs("numpy_ties")
def test_argsort_ties_flattened_and_in_a_fused_program(backend):
    """axis=None, and a permutation used as an index inside one lazy program."""
    for _, x, _ in _cases(2, 12, backend):
        np.testing.assert_array_equal(np.asarray(la.argsort(la.asarray(x), axis=None)),
                                      np.argsort(x, axis=None))
        w = np.arange(x.shape[-1], dtype=np.float64)
        want = np.cumsum(w[np.argsort(x[0])])
        got = la.cumsum(la.asarray(w)[la.argsort(la.asarray(x)[0])])
        np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.needs("numpy_ties")
def test_partition_and_argpartition_as_numpy(backend):
    for rng, x, axis in _cases(3, 36, backend):
        n = x.shape[axis]
        kth = int(rng.integers(-n, n)) if rng.random() < 0.6 else \
            [int(k) for k in rng.integers(0, n, 3)]
        np.testing.assert_array_equal(np.asarray(la.partition(la.asarray(x), kth, axis=axis)),
                                      np.partition(x, kth, axis=axis))
        np.testing.assert_array_equal(np.asarray(la.argpartition(la.asarray(x), kth, axis)),
                                      np.argpartition(x, kth, axis))
    x = _tied(rng, "float64", (3, 5))
    np.testing.assert_array_equal(np.asarray(la.partition(la.asarray(x), 2, axis=None)),
                                  np.partition(x, 2, axis=None))


def test_partition_kind_and_kth_errors_as_numpy():
    x = np.arange(6.0)
    for kw in ({"kth": 1, "kind": "quick"}, {"kth": [[1, 2]]}):
        with pytest.raises(ValueError) as want:
            np.partition(x, **kw)
        with pytest.raises(ValueError, match=re.escape(str(want.value))):
            la.partition(la.asarray(x), **kw)


def test_partition_under_grad_is_the_gather():
    """la.grad traces partition as a gather of argpartition's indices: the gradient lands on the
    elements NumPy's partition puts there."""
    x = np.array([3.0, 1.0, 2.0, 5.0, 4.0, 0.0])
    order = np.argpartition(x, 2)
    g = la.grad(lambda v: la.sum(la.partition(v, 2)[:3] * la.asarray([1.0, 2.0, 3.0])))
    want = np.zeros_like(x)
    want[order[:3]] = [1.0, 2.0, 3.0]
    np.testing.assert_array_equal(np.asarray(g(la.asarray(x))), want)


@pytest.mark.exhaustive
@pytest.mark.parametrize("seed", range(4))
def test_ties_sweep(seed):
    """A few hundred tied arrays per seed: argsort (default and stable) and argpartition."""
    for rng, x, axis in _cases(100 + seed, 300):
        lx = la.asarray(x)
        np.testing.assert_array_equal(np.asarray(la.argsort(lx, axis=axis)),
                                      np.argsort(x, axis=axis))
        np.testing.assert_array_equal(np.asarray(la.argsort(lx, axis=axis, stable=True)),
                                      np.argsort(x, axis=axis, stable=True))
        k = int(rng.integers(0, x.shape[axis]))
        np.testing.assert_array_equal(np.asarray(la.argpartition(lx, k, axis)),
                                      np.argpartition(x, k, axis))


def test_numpy_unique_values_of_an_array_keeps_numpys_order():
    """`np.unique_values(Array)` (NEP 18) is NumPy's own: NumPy 2.3+ returns integers in its
    hash table's order. `la.unique_values` stays sorted (docs/numpy_coverage.md: scikit-learn's
    LabelEncoder searchsorted()s into the standard's unique_values)."""
    rng = np.random.default_rng(7)
    for dtype in ("int8", "int64", "uint16", "float32", "float64"):
        x = rng.integers(0, 40, 200).astype(dtype)
        got = np.unique_values(la.asarray(x))
        np.testing.assert_array_equal(np.asarray(got), np.unique_values(x))
        np.testing.assert_array_equal(np.asarray(la.unique(la.asarray(x), sorted=False)),
                                      np.unique(x, sorted=False))
        np.testing.assert_array_equal(np.asarray(la.unique_values(la.asarray(x))), np.unique(x))


def test_the_standards_argsort_call_is_stable():
    """A call with the standard's own keyword `descending` is the standard's, whose default is
    stable=True (array_api_compat's numpy argsort too); NumPy's spelling keeps NumPy's
    default."""
    x = np.array([3, 1, 2, 3, 1, 5, 0, 7, 2, 1, 1, 3] * 3)
    lx = la.asarray(x)
    for desc in (False, True):
        got = np.asarray(la.argsort(lx, descending=desc))
        np.testing.assert_array_equal(got, (np.argsort(-x, kind="stable") if desc else
                                            np.argsort(x, kind="stable")))
    np.testing.assert_array_equal(np.asarray(la.argsort(lx)), np.argsort(x))
    np.testing.assert_array_equal(np.asarray(la.argsort(lx, descending=False, stable=False)),
                                  np.argsort(x))
