"""Mixed indices against NumPy: ints, slices (negative steps too), None, Ellipsis, integer arrays
and one boolean mask, in any combination. The placement rule under test: advanced indices that a
slice, None or Ellipsis separates put their broadcast dimensions first (`x[0, :, [1, 2]]`)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy_oracle import FAST, assert_matches

import lazyarray as la

SHAPE = (3, 4, 2, 5)


@st.composite
def _items(draw, shape):
    """A random index tuple over `shape` mixing every supported kind of index."""
    items, dim, used_ellipsis, used_mask = [], 0, False, False
    while dim < len(shape) and draw(st.integers(0, 4)):
        n = shape[dim]
        kind = draw(st.sampled_from(["int", "slice", "array", "none", "ellipsis", "mask", "bool"]))
        if kind == "int":
            items.append(draw(st.integers(-n, n - 1)))
        elif kind == "slice":
            items.append(slice(draw(st.none() | st.integers(-n - 1, n + 1)),
                               draw(st.none() | st.integers(-n - 1, n + 1)),
                               draw(st.none() | st.sampled_from([1, 2, -1, -2, 3]))))
        elif kind == "array":
            ishape = draw(st.sampled_from([(), (2,), (1, 2), (2, 1), (0,), (3,)]))
            items.append(np.array(draw(st.lists(st.integers(-n, n - 1), min_size=int(np.prod(
                ishape)), max_size=int(np.prod(ishape))))).reshape(ishape).astype(np.int64))
        elif kind == "none":
            items.append(None)
            continue
        elif kind == "ellipsis" and not used_ellipsis:
            used_ellipsis = True
            items.append(Ellipsis)
            dim = len(shape) - sum(1 for k in items if k is not None and k is not Ellipsis)
            continue
        elif kind == "mask" and not used_mask:
            used_mask = True
            items.append(np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n))))
        elif kind == "bool" and not used_mask:
            used_mask = True
            items.append(draw(st.booleans()))
            continue
        else:
            continue
        dim += 1
    return tuple(items)


def _check(x: np.ndarray, key: tuple) -> None:
    try:
        want = x[key]
    except IndexError:
        with pytest.raises(IndexError):
            la.array(x)[key]
        return
    assert_matches(la.array(x)[key], want)


@FAST
@given(data=st.data())
def test_mixed_indices_match_numpy(backend, data):
    x = np.arange(np.prod(SHAPE), dtype=np.int32).reshape(SHAPE)
    _check(x, data.draw(_items(SHAPE), label="key"))


@pytest.mark.exhaustive
@settings(max_examples=600, deadline=None)
@given(data=st.data())
def test_mixed_indices_match_numpy_sweep(data):
    x = np.arange(np.prod(SHAPE), dtype=np.int32).reshape(SHAPE)
    with la.config(backend="numpy"):
        _check(x, data.draw(_items(SHAPE), label="key"))


_SEPARATED = [
    (slice(None), [0, 1], slice(None), 0),  # int and array apart: broadcast dims first
    ([0, 1], slice(None), [1, 0]),
    (0, slice(None), [1, 2]),
    (None, [0, 1], Ellipsis, 1),
    ([2, 0], None, 1),
    (slice(None, None, -1), [0, 1], [[1], [0]], slice(1, None, -2)),
    ([0, 1], slice(None), [-1, 1], 3),
    ([1, 0], 0),  # adjacent: in place
    (slice(None), [[0], [3]], [1, 0]),
    (0, slice(None), True),
    (slice(None), [0, 1], False),
    (True, [0, 1]),
    (np.array([True, False, True]), slice(None), [1, 0]),
    (1, slice(None), np.array([True, False])),
    (slice(None), [0, 0, 0], Ellipsis, 0, 0),  # an Ellipsis covering no dim still separates
    ([1, 0], Ellipsis, [0, 1], slice(None), 2, 1),
    [],  # an empty list is an (empty) integer index
    (slice(None), [], 0),
    [[]],
]


@pytest.mark.parametrize("key", _SEPARATED, ids=str)
def test_separated_advanced_indices_go_first(backend, key):
    x = np.arange(np.prod(SHAPE), dtype=np.float32).reshape(SHAPE)
    _check(x, key)


def test_advanced_index_errors(reference_backend):
    a = la.zeros((3, 4))
    with pytest.raises(IndexError, match="shape mismatch"):
        a[[0, 1], [0, 1, 2]]
    with pytest.raises(IndexError, match="out of bounds"):
        a[[0, 1], [0, 4]]
    with pytest.raises(IndexError, match="out of bounds"):
        np.asarray(a[la.asarray([0, 1]), la.asarray([0, -5])])  # lazy indices: at evaluation
    with pytest.raises(IndexError):
        a[0.5]


def test_update_gradient_follows_the_placement_rule(reference_backend):
    """The values' cotangent of `x.at[0, :, [1, 2]].set(v)` is g gathered with NumPy's placement."""
    rng = np.random.default_rng(0)
    x, v, w = rng.random((2, 3, 4)), rng.random((2, 3)), rng.random((2, 3, 4))
    grad = la.grad(lambda v: la.sum(la.array(x).at[0, :, [1, 2]].set(v) * w))(la.array(v))
    np.testing.assert_allclose(np.asarray(grad), w[0, :, [1, 2]])
    key = ([1, 0], Ellipsis, 0, 2)  # the Ellipsis covers no dim, yet separates
    grad = la.grad(lambda v: la.sum(la.array(x).at[key].set(v) * w))(la.array(w[key]))
    np.testing.assert_allclose(np.asarray(grad), w[key])


_AT = {"set": None, "add": np.add, "max": np.maximum}


@FAST
@given(data=st.data())
def test_updates_at_mixed_indices_match_numpy(backend, data):
    """x.at[key].op(v) against NumPy's assignment / ufunc.at, masks beside other indices too."""
    x = np.arange(np.prod(SHAPE), dtype=np.float64).reshape(SHAPE)
    key = data.draw(_items(SHAPE), label="key")
    mode = data.draw(st.sampled_from(sorted(_AT)), label="mode")
    try:
        target = x[key].shape
    except IndexError:
        return
    values = -np.arange(np.prod(target)).reshape(target) - 1.0
    want = x.copy()
    if mode == "set":
        want[key] = values
    else:
        _AT[mode].at(want, key, values)
    assert_matches(getattr(la.array(x).at[key], mode)(values), want)


def test_an_update_key_finds_its_shape_without_gathering(reference_backend):
    """The indexed shape of `x.at[idx, :]` comes from empty probes: the old probe gathered the
    whole selection at the line (100,000 indices into a (100, 1000) base: 100 MB, ~1 ms for 400,000
    indices into 2,000 elements, more than NumPy's whole `a[idx] += 1`)."""
    import tracemalloc

    idx = np.zeros(100_000, np.int64)
    x = la.zeros((100, 1000))
    tracemalloc.start()
    try:
        update = x.at[idx, :].set(1.0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20_000_000, peak
    assert update.shape == (100, 1000)
    assert_matches(la.array(np.arange(6.0).reshape(2, 3)).at[[1, 1, 0], 1:].add(1.0),
                   np.add.at(want := np.arange(6.0).reshape(2, 3), ([1, 1, 0], slice(1, None)),
                             1.0) or want)
