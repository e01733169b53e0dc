"""Creation functions against NumPy, and the data-lifetime rules of array/asarray."""

from __future__ import annotations

import numpy as np
import pytest
from numpy_oracle import SUPPORTED, assert_matches, numpy_or_its_error

import lazyarray as la


# On C each dtype compiles its fills: the fast tier keeps one per kind and width class (None is
# float64), the exhaustive tier the rest.
_FILLED_ON_C = {"bool", "int8", "uint64", "float32", "complex64"}


@pytest.mark.parametrize("dtype", [None, *(
    dt if str(dt) in _FILLED_ON_C else pytest.param(dt, marks=[pytest.mark.exhaustive_on("c")] + (
        [pytest.mark.needs("half")] if dt == np.float16 else []))
    for dt in SUPPORTED)], ids=str)
def test_filled_arrays(backend, dtype):
    for shape in ((), 0, 3, (2, 0), (2, 3)):
        assert_matches(la.zeros(shape, dtype=dtype), np.zeros(shape, dtype=dtype))
        assert_matches(la.ones(shape, dtype=dtype), np.ones(shape, dtype=dtype))
        assert_matches(la.empty(shape, dtype=dtype), np.zeros(shape, dtype=dtype))  # empty: zeros
        assert_matches(la.full(shape, 7, dtype=dtype), np.full(shape, 7, dtype=dtype))
    like = np.arange(6, dtype=np.int16).reshape(2, 3)
    for src in (like, la.array(like)):
        assert_matches(la.zeros_like(src, dtype=dtype), np.zeros_like(like, dtype=dtype))
        assert_matches(la.ones_like(src, dtype=dtype), np.ones_like(like, dtype=dtype))
        assert_matches(la.empty_like(src, dtype=dtype), np.zeros_like(like, dtype=dtype))
        assert_matches(la.full_like(src, 3, dtype=dtype), np.full_like(like, 3, dtype=dtype))


@pytest.mark.parametrize("value", [True, 3, -2.5, np.float32(1.5), np.int8(-3), 2**40])
def test_full_infers_the_dtype_like_numpy(backend, value):
    assert_matches(la.full((2, 2), value), np.full((2, 2), value))


def test_full_with_float_value_for_int_dtype_truncates_like_numpy(backend):
    assert_matches(la.full(3, 2.7, dtype=la.int32), np.full(3, 2.7, dtype=np.int32))


@pytest.mark.parametrize("args", [(5,), (2, 9), (1, 2, 0.25), (10, 0, -3), (0,), (3, 1),
                                  (0.5, 3), (-4, 4, 3)], ids=str)
@pytest.mark.parametrize("dtype", [None, "int8", "float32", "uint16"])
def test_arange(backend, args, dtype):
    if dtype in ("int8", "uint16") and any(isinstance(a, float) for a in args):
        return
    if dtype == "uint16" and any(a < 0 for a in args):
        return
    assert_matches(la.arange(*args, dtype=dtype), np.arange(*args, dtype=dtype))


@pytest.mark.parametrize("kw", [{"num": 5}, {"num": 1}, {"num": 0},
                                {"num": 4, "endpoint": False}, {"num": 7, "dtype": "float32"},
                                {"num": 6, "dtype": "int32"}], ids=str)
def test_linspace(backend, kw):
    assert_matches(la.linspace(-1.0, 2.0, **kw), np.linspace(-1.0, 2.0, **kw))


def test_linspace_numpy_keywords(reference_backend):
    """np.linspace's retstep (the step, NumPy's float64 or per-endpoint array) and axis, and its
    positional order (start, stop, num, endpoint, retstep, dtype): retstep raised TypeError."""
    ends = np.array([0.0, 1.0])
    cases = [((0.0, 1.0, 5), {"retstep": True}), ((0.0, 1.0, 1), {"retstep": True}),
             ((-1, 2, 4, False, True, "float32"), {}),
             ((ends, 3.0, 4), {"retstep": True, "axis": 1}),
             ((ends, 3.0, 4), {"axis": -1})]
    for args, kw in cases:
        want = np.linspace(*args, **kw)
        got = la.linspace(*(la.asarray(a) if isinstance(a, np.ndarray) else a for a in args), **kw)
        want, got = (want, got) if isinstance(want, tuple) else ((want,), (got,))
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert_matches(g, w)


def test_spaced_ranges_take_array_endpoints(backend):
    # la.linspace(a[0], a[1], 5) handed the Arrays to np.linspace, which dispatched back to
    # la.linspace through __array_function__: RecursionError (logspace, geomspace too).
    ends = np.array([1.5, 4.0], np.float32)
    a = la.asarray(ends)
    assert_matches(la.linspace(a[0], a[1], 5), np.linspace(ends[0], ends[1], 5))
    assert_matches(np.linspace(a[0], 4, 4, endpoint=False), np.linspace(ends[0], 4, 4,
                                                                         endpoint=False))
    assert_matches(la.linspace(a, 8.0, 3), np.linspace(ends, 8.0, 3))
    assert_matches(la.linspace(0, 1, la.asarray(np.int64(3))), np.linspace(0, 1, 3))
    assert_matches(la.logspace(a[0], a[1], 3), np.logspace(ends[0], ends[1], 3))
    assert_matches(la.geomspace(a[0], a[1], 3), np.geomspace(ends[0], ends[1], 3))


def test_shape_arguments_follow_numpy(backend):
    # A 0-d integer Array is a shape (TypeError here before); floats, bools and strings are not
    # (they were truncated, taken as 1, or parsed: la.zeros((2.5, 3)) had shape (2, 3)).
    n = la.asarray(np.int64(3))
    assert_matches(la.zeros(n), np.zeros(3))
    assert_matches(la.full(n, 2, dtype=la.int8), np.full(3, 2, dtype=np.int8))
    assert_matches(la.ones((n, np.uint8(2))), np.ones((3, 2)))
    assert_matches(la.zeros(np.array(2)), np.zeros(np.array(2)))
    for bad in ((2.5, 3), 2.5, np.float64(2), (2, True), True, "3", la.asarray(2.0)):
        with pytest.raises(TypeError) as want:
            np.zeros(bad)
        with pytest.raises(TypeError) as got:
            la.zeros(bad)
        assert str(want.value) in str(got.value)


@pytest.mark.parametrize("args", [(3,), (2, 4), (4, 3, 1), (3, 3, -2), (0,)], ids=str)
@pytest.mark.parametrize("dtype", [None, "int8", "bool", "float32"])
def test_eye(backend, args, dtype):
    assert_matches(la.eye(*args, dtype=dtype), np.eye(*args, dtype=dtype))


@pytest.mark.parametrize("obj", [[1, 2, 3], [[1.5], [2.0]], [True, False], 3, 2.5, (1, 2),
                                 [], np.arange(4, dtype=np.uint32)], ids=str)
def test_array_from_python_and_numpy(backend, obj):
    assert_matches(la.array(obj), np.array(obj))
    assert_matches(la.asarray(obj), np.asarray(obj))
    assert_matches(la.array(obj, dtype="int16"), np.array(obj, dtype="int16"))


def test_array_copies_so_later_changes_never_reach_a_pending_result(backend):
    src = np.arange(4.0)
    y = la.array(src) * 2
    src[:] = -1
    assert_matches(y, np.arange(4.0) * 2)
    view = np.arange(6.0).reshape(2, 3).T  # non-contiguous input
    z = la.array(view)
    view[0, 0] = 100  # the source changes after la.array copied it
    assert_matches(z + 0, np.arange(6.0).reshape(2, 3).T)


def test_asarray_copies_unless_copy_false(backend):
    frozen = np.arange(4.0)
    frozen.flags.writeable = False
    assert la.asarray(frozen)._node.data is not frozen  # a read-only view may have a writable base
    assert la.asarray(frozen, copy=False)._node.data is frozen  # shared on request
    writable = np.arange(4.0)
    b = la.asarray(writable) + 1
    writable[:] = 0
    assert_matches(b, np.arange(4.0) + 1)  # copied
    c = la.array([1.0])
    assert la.asarray(c) is c and la.array(c) is not c  # a copy is a new handle on one value
    assert la.array(c)._node is c._node


def test_array_of_arrays_and_dtype_conversion(backend):
    parts = [la.array([1.0, 2.0]), la.array([3.0, 4.0])]
    assert_matches(la.array(parts), np.array([[1.0, 2.0], [3.0, 4.0]]))
    assert_matches(la.array(la.array([1, 2]), dtype="float32"), np.array([1, 2], np.float32))


def test_dtypes_are_exposed():
    for name in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                 "uint64", "float32", "float64"):
        assert getattr(la, name) == np.dtype(name)


_a = np.arange(6.0).reshape(2, 3)
_LAYOUT_KEYWORDS = {
    "zeros F": lambda m, A: m.zeros((2, 2), order="F"),
    "zeros order by position": lambda m, A: m.zeros((2, 2), float, "F"),
    "zeros A": lambda m, A: m.zeros((2, 2), order="A"),
    "full F": lambda m, A: m.full((2, 2), 3, order="F"),
    "ones_like shape": lambda m, A: m.ones_like(A(_a), shape=(4,)),
    "zeros_like order": lambda m, A: m.zeros_like(A(_a), order="F"),
    "full_like shape": lambda m, A: m.full_like(A(_a), 7, shape=(2, 2, 2)),
    "zeros_like bad order": lambda m, A: m.zeros_like(A(_a), order="X"),
    "array ndmin": lambda m, A: m.array([1, 2], ndmin=3),
    "array ndmin of a scalar": lambda m, A: m.array(5.0, ndmin=2),
    "array order F": lambda m, A: m.array(_a, order="F"),
    "asarray order by position": lambda m, A: m.asarray(_a, float, "C"),
    "asarray bad order": lambda m, A: m.asarray(_a, order="Z"),
    "copy F": lambda m, A: A(_a).copy("F"),
    "copy bad order": lambda m, A: A(_a).copy(order="Q"),
    "astype order": lambda m, A: A(_a).astype(np.float32, order="C"),
    "astype safe refuses": lambda m, A: A(_a).astype(np.int64, casting="safe"),
    "astype same_kind": lambda m, A: A(_a).astype(np.float32, casting="same_kind"),
    "astype bad casting": lambda m, A: A(_a).astype(np.float32, casting="bogus"),
    "astype order, casting by position": lambda m, A: A(_a).astype(np.float32, "C", "same_kind"),
    "astype casting by position refuses": lambda m, A: A(_a).astype(np.int64, "K", "safe"),
}


@pytest.mark.parametrize("name", sorted(_LAYOUT_KEYWORDS))
def test_numpy_layout_keywords(reference_backend, name):
    """NumPy's order=/ndmin=/shape=/casting= of the creation functions, copy and astype: accepted
    and checked as NumPy checks them (a TypeError before); order changes no value (an Array has
    no memory layout). `np.asarray(x, dtype, order)` took the order for `device`."""
    f = _LAYOUT_KEYWORDS[name]
    pair = numpy_or_its_error(f)
    if pair is None:
        return
    got, want = pair
    assert_matches(got, want)


def test_a_list_of_computed_scalars_is_read_as_their_values(reference_backend):
    """`np.array([a[i] * 2 for i in ...])`: 0-d buffers are read as NumPy's 0-d values (no
    `__array__` copy per item: 392 -> 53 us for 400), NumPy's dtype discovery; pending items,
    numbers and rows in the list take the general conversion."""
    with la.config(eager_size=4096):
        a8 = la.asarray(np.arange(5, dtype=np.int8)) * 1
        f = la.asarray(np.arange(5.0)) * 1
        cases = [([a8[0], a8[1]], [np.int8(0), np.int8(1)]),
                 ([a8[0], f[1]], [np.int8(0), np.float64(1.0)]),
                 ([a8[0], 300], [np.int8(0), 300]),
                 ([f[3], la.sum(f)], [np.float64(3.0), np.float64(10.0)])]
        for items, want in cases:
            got, expected = la.array(items), np.array(want)
            assert got.dtype == expected.dtype
            np.testing.assert_array_equal(np.asarray(got), expected)


def test_shape_arguments_take_numpys_rules_on_the_fast_path_too():
    """`np.zeros(n)` of Python ints skips the general shape checks (~2.5 -> 0.2 us); every
    other shape argument keeps them: NumPy's types, errors and texts ("array is too big; ...")."""
    for shape in (20, 0, (2, 3), (), (4, 0, 2), np.int64(3), (np.int64(3), 2), -1, (2, -1), 2.0,
                  (2.0,), True, (1 << 40, 1 << 40), "3", [2, 3], (1 << 31,)):
        outcomes = []
        for lib in (np, la):
            try:
                outcomes.append(lib.zeros(shape, dtype="uint8").shape)
            except Exception as exc:  # noqa: BLE001 (type and text compared)
                outcomes.append((type(exc).__name__, str(exc)))
        assert outcomes[0] == outcomes[1], shape


def test_float64_fills_take_the_short_path(monkeypatch):
    """`np.zeros(n)`, `np.ones_like(v)`, `np.full(n, 2.0)` in a loop: a float fill of float64 is
    the broadcast scalar at once (~3.1 -> 2 us), without the general path's dtype questions."""
    from lazyarray.graph import dtypes
    asked = []
    for name in ("to_dtype", "weak_type_of"):
        fn = getattr(dtypes, name)
        monkeypatch.setattr(dtypes, name, lambda *a, fn=fn, **k: asked.append(a) or fn(*a, **k))
    creation = la.creation
    place = creation._place  # (a host Array's *_like: no second call to place it on the host)
    monkeypatch.setattr(creation, "_place", lambda *a: asked.append(a) or place(*a))
    v = la.asarray(np.arange(3.0))
    for make in (lambda m: m.zeros(20), lambda m: m.ones((2, 3)), lambda m: m.full(5, 2.5),
                 lambda m: m.zeros_like(v), lambda m: m.ones_like(v),
                 lambda m: m.full((), float("nan")), lambda m: m.zeros(3, dtype=np.float64), lambda m: m.ones(2, float)):
        got, want = make(la), make(np)
        assert got.dtype == want.dtype == np.float64 and got.shape == want.shape
        np.testing.assert_array_equal(np.asarray(got), want)
    assert la.empty(4).shape == (4,) and la.empty(4).dtype == np.float64
    assert asked == []
    assert la.zeros(3, dtype=np.int32).dtype == np.int32 and asked  # the general path


def test_arrays_of_python_numbers_take_the_short_path(monkeypatch):
    """`np.array([x, y, z])` of Python numbers in a loop: NumPy's array where it is float64 or
    int64, without host_array's checks (~2.4 -> 1.2 us); anything else the general path's."""
    from lazyarray import _bind
    asked = []
    host_array = _bind.host_array
    monkeypatch.setattr(_bind, "host_array", lambda *a, **k: asked.append(a) or host_array(*a, **k))
    for obj in ([0.5, 1.5, 2.5], [1, 2, 3], [1, 2.5], [1, True], [[1.0, 2.0], [3.0, 4.0]],
                [-(2**63)]):
        got, want = la.array(obj), np.array(obj)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(np.asarray(got), want)
    assert asked == []
    assert la.array([2**63]).dtype == np.array([2**63]).dtype == np.uint64  # the general path
    with pytest.raises(TypeError):
        la.array([1, 2**64])  # NumPy's object array: unsupported
    with pytest.raises(ValueError):
        la.array([1.0, [2.0, 3.0]])  # ragged: NumPy's error, at the line
    assert len(asked) == 3
