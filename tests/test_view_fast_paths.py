"""`x.T`, `permute_dims`, `reshape` and `concat` take short paths in a loop body
(lazyarray/array.py `T`, manipulation.py `permute_node`, `_plain_concat`, _reshape.py
`_plain_shape`); they must build the nodes the general code builds: the same op, attrs, shape,
dtype, key, pending count, site and edges, and the same errors.
"""

from __future__ import annotations

import math
from contextlib import contextmanager

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazyarray as la
from lazyarray import _bind, _reshape, manipulation
from lazyarray.graph import topological_order


def dump(node) -> list:
    order = topological_order([node])
    index = {id(n): i for i, n in enumerate(order)}
    return [(n.op.name, n.attrs, n.shape, str(n.dtype), n.key, n.pending, n.site,
             tuple(index[id(i)] for i in n.inputs)) for n in order]


def reference_permute_node(node, axes, site):
    """permute_node as it was (generator expressions), the reference for the one-loop version."""
    axes = tuple(int(a) for a in axes)
    norm = tuple(a + node.ndim if a < 0 else a for a in axes)
    if sorted(norm) != list(range(node.ndim)):
        raise manipulation._permute_error(list(axes), node.ndim, site)
    if norm == tuple(range(node.ndim)):
        return node
    shape = tuple(node.shape[a] for a in norm)
    return _bind.primitive(manipulation._PERMUTE, (node,), (norm,), shape, node.dtype, site)


@contextmanager
def general_reshape():
    saved = _reshape._plain_shape
    _reshape._plain_shape = lambda shape, size: None
    try:
        yield
    finally:
        _reshape._plain_shape = saved


def attempt(fn, *args):
    try:
        return fn(*args), None
    except (ValueError, TypeError, IndexError) as exc:
        return None, (type(exc).__name__, str(exc))


shapes = st.lists(st.integers(0, 4), max_size=4).map(tuple)


@settings(max_examples=300)
@given(shapes, st.data())
def test_transpose_and_permute_build_the_reference_nodes(shape, data):
    x = la.asarray(np.arange(math.prod(shape), dtype=np.float32).reshape(shape)) * 2.0
    site = ("here", 1)
    axes = data.draw(st.one_of(st.permutations(range(len(shape))),
                               st.lists(st.integers(-5, 5), max_size=5),
                               st.permutations([a - len(shape) for a in range(len(shape))])))
    got, error = attempt(manipulation.permute_node, x._node, axes, site)
    want, want_error = attempt(reference_permute_node, x._node, axes, site)
    assert error == want_error
    if got is not None:
        assert dump(got) == dump(want)
    t = x.T
    reference = reference_permute_node(x._node, range(len(shape) - 1, -1, -1), t._node.site)
    assert dump(t._node) == dump(reference)
    with la.config(backend="numpy"):
        np.testing.assert_array_equal(np.asarray(t), np.asarray(x).T)


@settings(max_examples=300)
@given(shapes, st.data())
def test_reshape_builds_the_general_paths_nodes(shape, data):
    size = math.prod(shape)
    x = la.asarray(np.arange(size, dtype=np.int16).reshape(shape)) + 1
    item = st.one_of(st.integers(-2, 7), st.sampled_from([size, -1, True, np.int64(2), 2.0]))
    target = data.draw(st.one_of(st.lists(item, max_size=4).map(tuple), st.lists(item, max_size=4),
                                 item))
    site = ("here", 2)
    got, error = attempt(manipulation.reshape_node, x._node, target, site)
    with general_reshape():
        want, want_error = attempt(manipulation.reshape_node, x._node, target, site)
    assert error == want_error
    if got is not None:
        assert dump(got) == dump(want)
        try:
            expected = np.arange(size, dtype=np.int16).reshape(shape).reshape(target) + 1
        except (ValueError, TypeError):
            return
        with la.config(backend="numpy"):
            np.testing.assert_array_equal(np.asarray(la.Array(got)), expected)


def test_methods_and_errors():
    x = la.ones((2, 3, 4), dtype=la.float32) * 3.0
    assert x.T.shape == (4, 3, 2) and x.T._node.attrs == ((2, 1, 0),)
    v = la.ones(3, dtype=la.float32)
    assert v.T._node is v._node and la.ones((), dtype=la.float32).T.shape == ()
    assert x.reshape(-1).shape == (24,) and x.reshape(4, -1).shape == (4, 6)
    assert x.reshape((2, 3, 4))._node is x._node
    with pytest.raises(ValueError, match="cannot reshape array of size 24 into shape"):
        x.reshape(5, -1)
    with pytest.raises(ValueError, match="can only specify one unknown dimension"):
        x.reshape(-1, -1)
    with pytest.raises(TypeError, match="^'float' object cannot be interpreted as an integer"):
        x.reshape(2.0, 12)  # (NumPy's text, probe56)
    with pytest.raises(ValueError, match="repeated axis in transpose"):
        la.permute_dims(x, (0, 0, 1))


def test_transpose_in_c_is_the_python_propertys_view():
    """`x.T` is _trace.c's getter (`transpose_now`: jacobi_eigen's `J.T @ A @ J`, ~2 -> ~0.4 us):
    no Python frame, the node the property builds (dump), linked as its view: a write through
    `x.T` (and through `x[1:].T`) reaches the root and its other views, as NumPy's."""
    import sys

    a = np.arange(12.0).reshape(3, 4)
    roots = [la.asarray(a.copy()) for _ in range(2)]
    fast = _bind.FAST is not None and hasattr(_bind.FAST, "install_transpose")
    seen = []
    sys.setprofile(lambda frame, event, arg: seen.append(frame) if event == "call" else None)
    try:
        got = [roots[0].T, roots[0][1:].T]
    finally:
        sys.setprofile(None)
    assert not seen or not fast, [f.f_code.co_name for f in seen]
    was = _bind.FAST.set_enabled(False) if fast else None
    try:
        want = [roots[1].T, roots[1][1:].T]
    finally:
        if fast:
            _bind.FAST.set_enabled(was)
    for g, w in zip(got, want):  # (their sites: two lines of this file)
        assert [d[:6] + d[7:] for d in dump(g._node)] == [d[:6] + d[7:] for d in dump(w._node)]
        assert g._node.site[0] == w._node.site[0] == __file__
    for (t, t2), root in ((got, roots[0]), (want, roots[1])):
        t[2, 0] = -1.0
        t2[3, 1] = -2.0
        want_a = a.copy()
        want_a.T[2, 0] = -1.0
        want_a[1:].T[3, 1] = -2.0
        np.testing.assert_array_equal(np.asarray(root), want_a)
        np.testing.assert_array_equal(np.asarray(t), want_a.T)


def test_iteration_in_c_is_the_python_methods():
    """`iter(x)` is _trace.c's `iter_now` for a buffer or a view C reads (ising's `i, j =
    sites[k]`): no Python frame, NumPy's elements and rows; a view whose root only its link
    holds becomes a root (writes.release_dead_root: its rows then take the C getitem, writes go
    into its own buffer); a pending value, a 0-d value (TypeError) take the Python method."""
    import sys

    a = np.arange(24.0).reshape(4, 6)
    A = la.asarray(a.copy())
    fast = (_bind.FAST is not None and hasattr(_bind.FAST, "install_iter")
            and la.get_settings().eager_size > 0)  # (eager_size=0, cupy's path: Python's)
    views = [A, A[2], A[1:, ::2], A.T, A[1:].T[3]]
    seen = []
    sys.setprofile(lambda frame, event, arg: seen.append(frame) if event == "call" else None)
    try:
        its = list(map(iter, views))
    finally:
        sys.setprofile(None)
    assert not seen or not fast, [f.f_code.co_name for f in seen]
    wants = [a, a[2], a[1:, ::2], a.T, a[1:].T[3]]
    for it, want in zip(its, wants):
        got = list(it)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert g.shape == w.shape and np.asarray(g).tobytes() == np.asarray(w).tobytes()
    (i, j), = [A[0, 1:3]]
    assert (int(i), int(j)) == (1, 2) and i.shape == () and i._view is False
    row = la.asarray(np.arange(6.0)).reshape(2, 3)  # a view of a dropped temporary
    assert type(row._view) is tuple
    rows = list(row)
    assert type(row._view) is not tuple  # (released: now a root of its own, its rows' root)
    rows[1][0] = -1.0  # a row of it is a view of it
    np.testing.assert_array_equal(np.asarray(row), [[0.0, 1.0, 2.0], [-1.0, 4.0, 5.0]])
    with la.config(eager_size=0, backend="numpy"):  # (no compile in the fast tier)
        pending = la.asarray(a) * 2.0
        np.testing.assert_array_equal(np.asarray(list(pending)[3]), a[3] * 2.0)
    with pytest.raises(TypeError, match="iteration over a 0-d array"):
        iter(A[0, 0])


@contextmanager
def general_concat():
    saved = manipulation._plain_concat
    manipulation._plain_concat = lambda arrays, axis, site: None
    try:
        yield
    finally:
        manipulation._plain_concat = saved


def concat_here(arrays, axis):
    """la.concat on one source line, with the error as a value."""
    try:
        return la.concat(arrays, axis=axis), None
    except (ValueError, TypeError, IndexError) as exc:
        return None, (type(exc).__name__, str(exc))


@settings(max_examples=300)
@given(st.data())
def test_concat_builds_the_general_paths_nodes(data):
    ndim = data.draw(st.integers(0, 3))
    base = data.draw(st.lists(st.integers(0, 3), min_size=ndim, max_size=ndim))
    along = data.draw(st.integers(0, max(ndim - 1, 0)))
    arrays, parts = [], []
    for _ in range(data.draw(st.integers(1, 4))):
        shape = list(base)
        if ndim and data.draw(st.booleans()):  # another size, mostly along one axis
            where = along if data.draw(st.integers(0, 3)) else data.draw(st.integers(0, ndim - 1))
            shape[where] = data.draw(st.integers(0, 3))
        if data.draw(st.integers(0, 9)) == 0:  # another rank now and then
            shape = shape[:-1]
        dtype = data.draw(st.sampled_from(["float32", "float32", "float32", "int16", "float64"]))
        part = np.arange(math.prod(shape)).astype(dtype).reshape(shape)
        parts.append(part)
        kind = data.draw(st.sampled_from(["pending", "pending", "leaf", "leaf", "numpy"]))
        arrays.append(part if kind == "numpy" else
                      la.asarray(part) if kind == "leaf" else la.asarray(part) + 1)
    axis = data.draw(st.one_of(st.just(along), st.just(along - ndim), st.integers(-4, 3),
                               st.none(), st.just(np.int64(0))))
    if data.draw(st.booleans()):
        arrays = tuple(arrays)
    got, error = concat_here(arrays, axis)
    with general_concat():
        want, want_error = concat_here(arrays, axis)
    assert error == want_error
    if got is not None:
        assert dump(got._node) == dump(want._node)
        assert got.dtype == np.result_type(*parts)


@settings(max_examples=200)
@given(shapes, st.integers(-5, 4), st.integers(1, 3), st.data())
def test_stack_and_split_axes_build_the_general_paths_nodes(shape, axis, k, data):
    """manipulation._axis (an int axis in range without NumPy's normalize_axis_tuple) against
    _bind.normalize_axis, through stack and split."""
    x = la.asarray(np.arange(math.prod(shape), dtype=np.float32).reshape(shape)) * 2.0
    sections = data.draw(st.one_of(st.integers(1, 3), st.lists(st.integers(-4, 4), max_size=3)))

    def build():
        out = []
        for fn, args in ((la.stack, ([x] * k, axis)), (la.split, (x, sections, axis))):
            try:
                result = fn(*args)
                out.append([dump(a._node) for a in (result if isinstance(result, list)
                                                     else [result])])
            except (ValueError, TypeError, IndexError) as exc:
                out.append((type(exc).__name__, str(exc)))
        return out

    got = build()
    saved = manipulation._axis
    manipulation._axis = lambda a, ndim, site: _bind.normalize_axis(a, ndim, site)
    try:
        want = build()
    finally:
        manipulation._axis = saved
    assert got == want
