"""Element-by-element Python on computed arrays (python_builtins, element_write): iteration, the
scalar results of whole reductions, element writes through a row view. NumPy's values and types
every time; where a path is the C one, a structural fact says so (lazyarray/_trace.c)."""

import contextlib
import gc
import weakref

import numpy as np
import pytest

import lazyarray as la


def _warns_if(flags: bool, match: str):
    """NumPy's RuntimeWarning where the backend reports floating-point errors (conftest NEEDS
    "fp_errors"; cupy does not)."""
    return pytest.warns(RuntimeWarning, match=match) if flags else contextlib.nullcontext()


def _computed(a):
    x = la.asarray(a.copy())
    x[(0,) * a.ndim] = a[(0,) * a.ndim]  # (an element write: a computed buffer, not a user one)
    return x


@pytest.mark.parametrize("dtype", [np.int64, np.float64, np.bool_, np.int8])
def test_iterating_a_vector_gives_numpys_elements_and_sees_writes(backend, backend_does, dtype):
    """`for x in v`, `sum(v)`, `max(v)`, `list(row)` over a computed vector or a row or column
    view of a computed matrix: _trace.c's element iterator (getitem_method per index, no `map`);
    each element is read when reached, so a write made inside the loop is seen, as NumPy's."""
    rng = np.random.default_rng(3)
    a = (rng.integers(-5, 5, (4, 6)) > 0 if dtype is np.bool_ else rng.integers(-5, 5, (4, 6)))
    a = a.astype(dtype)
    A = _computed(a)
    for got, want in ((A[1], a[1]), (A[:, 2], a[:, 2]), (A[2][1:5], a[2][1:5])):
        iterator = type(iter(got)).__name__
        assert la._bind.FAST is None or not backend_does("eager") or iterator == "element_iterator"
        elements = list(got)
        assert all(e.shape == () and e.dtype == want.dtype for e in elements)
        assert [np.asarray(e).tobytes() for e in elements] == [w.tobytes() for w in want]
        if dtype is not np.bool_:
            assert np.asarray(sum(got)).tobytes() == sum(want).tobytes()
            assert np.asarray(max(got)).tobytes() == max(want).tobytes()
    v, w = _computed(a[0]), a[0].copy()
    seen, wanted = [], []
    for (k, x), (_, y) in zip(enumerate(v), enumerate(w)):
        seen.append(np.asarray(x).item())
        wanted.append(y.item())
        if k + 1 < len(w):
            v[k + 1] = x
            w[k + 1] = y
    assert seen == wanted and np.asarray(v).tobytes() == w.tobytes()


def test_iteration_follows_a_replaced_getitem(backend, monkeypatch):
    """The C iterator stands for `map(self.__getitem__, range(n))` only while Array.__getitem__ is
    the C method: a replaced one is what iteration calls."""
    v = _computed(np.arange(4.0))
    original, calls = la.Array.__getitem__, []
    monkeypatch.setattr(la.Array, "__getitem__", lambda s, k: calls.append(k) or original(s, k))
    assert [float(x) for x in v] == [0.0, 1.0, 2.0, 3.0] and calls == [0, 1, 2, 3]


def test_a_whole_float_reduction_of_a_row_is_numpys(backend, backend_does):
    """`P[i].sum()`, `.min()`, `.max()` of a float64 row of a computed matrix: NumPy's values
    and dtype, a 0-d result, and an overflow still warns (where the backend has the flags)."""
    rng = np.random.default_rng(4)
    p = rng.random((5, 3)) - 0.5
    P = _computed(p)
    for i in range(5):
        for method in ("sum", "min", "max"):
            got, want = getattr(P[i], method)(), getattr(p[i], method)()
            assert got.shape == () and got.dtype == want.dtype
            assert np.asarray(got).tobytes() == np.asarray(want).tobytes()
    big = _computed(np.full(3, 1e308))
    with _warns_if(backend_does("fp_errors"), "overflow"):
        assert np.asarray(big.sum()) == np.inf


@pytest.mark.needs("eager")
def test_a_whole_float_reduction_is_an_element_array_from_the_ring(backend):
    """In C, NumPy's float64 scalar from `row.sum()` goes into one of the element Arrays _trace.c
    hands out again once free (no np.asarray of the scalar, no fresh leaf): the ring keeps it,
    so a weak reference outlives the caller's."""
    P = _computed(np.random.default_rng(5).random((3, 3)))
    total = P[1].sum()
    ref = weakref.ref(total)
    del total
    gc.collect()
    assert (ref() is not None) == (la._bind.FAST is not None)


@pytest.mark.parametrize("dtype, value", [(np.float64, 1), (np.float64, 0.25), (np.int64, -3),
                                          (np.int32, 7), (np.int8, -128), (np.bool_, 1),
                                          (np.bool_, True), (np.int16, 2**15 - 1)])
def test_element_writes_through_a_row_view_store_numpys_values(backend, dtype, value):
    """`A[i][j] = v` and `A[i, j] = v` with a Python int, float or bool: the value stored as
    NumPy's setitem stores it (element_bytes: ints into float and bool rows too), the buffer
    written in place, and a value held from before the write keeps its old bytes."""
    a = np.arange(12).reshape(3, 4).astype(dtype)
    A = _computed(a)
    held, held_want = A[1][2], a[1][2].copy()
    A[1][2] = value
    a[1][2] = value
    A[2, 3] = value
    a[2, 3] = value
    assert np.asarray(A).tobytes() == a.tobytes() and np.asarray(A).dtype == a.dtype
    assert np.asarray(held).tobytes() == held_want.tobytes()


@pytest.mark.needs("eager")
def test_held_elements_add_no_objects_for_the_garbage_collector(backend):
    """`list(v)` of a computed vector: each element's Array and leaf are out of the collector's
    lists (_trace.c untrack_element), so holding thousands of them adds nothing for each
    collection to walk; the values are NumPy's and freeing them frees them."""
    a = np.arange(300, dtype=np.int64) - 150
    v = _computed(a)
    list(v)  # (the dtype's template and ring made)
    gc.collect()
    before = len(gc.get_objects())
    held = list(v)
    grown = len(gc.get_objects()) - before
    assert la._bind.FAST is None or grown < 10, grown  # (the Python path tracks them)
    assert [int(x) for x in held] == a.tolist()
    refs = [weakref.ref(x) for x in held[::50]]
    del held
    assert la._bind.FAST is None or all(r() is None for r in refs)


class _Box:
    pass


def test_elements_held_by_reference_cycles_are_collected(backend):
    """An element Array out of the collector's lists, held by a cycle of tracked objects (an
    object that refers to itself, a closure that refers to itself): the collector still frees
    the cycle, and with it the element."""
    v = _computed(np.arange(40.0))
    box, element = _Box(), v[3]
    box.element, box.me = element, box
    box_ref, element_ref = weakref.ref(box), weakref.ref(element)

    def closure_over(e):
        def f():
            return e, f
        return f

    f_element = v[5]
    f = closure_over(f_element)
    f_ref, f_element_ref = weakref.ref(f), weakref.ref(f_element)
    del box, element, f, f_element
    [float(x) for x in v]  # (the ring moves on: a weakly referenced element is not handed out)
    gc.collect()
    assert box_ref() is None and f_ref() is None
    assert element_ref() is None and f_element_ref() is None


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64])
def test_float_arithmetic_with_an_integer_element_is_numpys(backend, backend_does, dtype):
    """A float64 element or a Python float with a signed integer element (`A[i, j] - x * x`, x
    from an integer array): float64 in C doubles (_trace.c int_element_double) where NumPy's
    promotion gives float64; its bits, both operand orders, and its warnings where a result is
    not finite (the general path)."""
    import operator

    ints = np.array([-7, 3, 1, np.iinfo(dtype).max], dtype=dtype)
    if dtype is np.int64:
        ints[3] = 2**53 + 1  # (rounds on conversion, as NumPy's cast)
    floats = np.array([0.3, -2.5, 1e200])
    I, F = _computed(ints), _computed(floats)
    for op in (operator.add, operator.sub, operator.mul, operator.truediv):
        for i in range(4):
            for k in range(3):
                for got, want in ((op(F[k], I[i]), op(floats[k], ints[i])),
                                  (op(I[i], F[k]), op(ints[i], floats[k])),
                                  (op(I[i], 0.5), op(ints[i], 0.5)),
                                  (op(-1.25, I[i]), op(-1.25, ints[i]))):
                    assert got.dtype == want.dtype and got.shape == ()
                    assert np.asarray(got).tobytes() == np.asarray(want).tobytes()
    zero = _computed(np.zeros(2, dtype))[1]
    with _warns_if(backend_does("fp_errors"), "divide by zero"):
        assert np.isinf(np.asarray(F[0] / zero))
    with _warns_if(backend_does("fp_errors"), "overflow"):
        assert np.isinf(np.asarray(F[2] * I[3] * 1e200))
