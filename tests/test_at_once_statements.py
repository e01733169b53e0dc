"""An index loop's statements at once with fewer steps (stop 44, docs/caching.md "Per-statement
overhead"): np.outer of computed vectors, a basic write of a pending region value, one op over
computed values without the walk, np.dot of a vector and a matrix in C. Each checks the path
by structure (a leaf, a buffer kept, a function not called, no Python frame) and NumPy's bits."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import lazyarray as la
from lazyarray import eager

sys.path.insert(0, str(Path(__file__).parent))
from numpy_oracle import assert_as_numpy  # noqa: E402


def _computed(a):
    x = la.asarray(a)
    np.asarray(x)  # a computed buffer
    return x


@pytest.mark.needs("eager")
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "bool", "complex128"])
def test_outer_of_computed_vectors_is_numpys_at_once(backend, dtype):
    """mnist_mlp's `np.outer(layer_0, delta)`, householder's `np.outer(tau * w, w @ R)`: a leaf
    now (eager.outer_now) up to eager_size, and up to 16 times that where an operand is a result
    of the rule; lazy where no operand is one above eager_size, or for mixed dtypes."""
    a = (np.random.default_rng(3).standard_normal((40, 9)) * 3).astype(dtype)
    with la.config(eager_size=64):
        x = _computed(a)
        small = la.outer(x[2, :6], x[3, 1:7])  # 36 elements: two views
        delta = x[:, 0] * x[:, 1]  # at once: a leaf of the rule (40 elements)
        large = la.outer(delta, x[5])  # 360 > 64: the at-once leaf's update
        flat = la.outer(x[:2, :3], delta)  # 2-D operand: raveled, as NumPy's
        assert small._node.holds_buffer and large._node.holds_buffer and flat._node.holds_buffer
        assert_as_numpy(small, np.outer(a[2, :6], a[3, 1:7]))
        assert_as_numpy(large, np.outer(a[:, 0] * a[:, 1], a[5]))
        assert_as_numpy(flat, np.outer(a[:2, :3], a[:, 0] * a[:, 1]))
        lazy = la.outer(x[:, 0], x[:, 1])  # 1,600 > 64, no at-once leaf: lazy (fuses later)
        assert not lazy._node.holds_buffer
        if dtype == "float64":  # (its values through a plan: one dtype's compile, not five)
            assert_as_numpy(lazy, np.outer(a[:, 0], a[:, 1]))
            mixed = la.outer(x[2], la.asarray(np.arange(3, dtype=np.int8)))
            assert_as_numpy(mixed, np.outer(a[2], np.arange(3, dtype=np.int8)))


def _lazyarray_frames(call):
    """The lazyarray functions `call()` entered (a garbage collector's callback may run too)."""
    package, seen = Path(la.__file__).parent, []
    sys.setprofile(lambda frame, event, arg: seen.append(frame) if event == "call" else None)
    try:
        out = call()
    finally:
        sys.setprofile(None)
    return out, {(Path(f.f_code.co_filename).name, f.f_code.co_name) for f in seen
                 if Path(f.f_code.co_filename).is_relative_to(package)}


@pytest.mark.needs("eager")
@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_outer_of_computed_float_vectors_runs_in_c(backend, dtype):
    """The float case of `outer_now` in C (_trace.c outer_now_c): la.outer's own frame only."""
    if la._bind.FAST is None:
        pytest.skip("pure Python build")
    a = np.random.default_rng(4).standard_normal((40, 9)).astype(dtype)
    with la.config(eager_size=64):
        x = _computed(a)
        delta = x[:, 0] * 2.0
        (small, large), frames = _lazyarray_frames(lambda: (la.outer(x[2], x[3, :5]),
                                                            la.outer(delta, x[5])))
        assert frames <= {("numpy_shapes.py", "outer")}, frames
        assert small._node.holds_buffer and large._node.holds_buffer
        assert_as_numpy(small, np.outer(a[2], a[3, :5]))
        assert_as_numpy(large, np.outer(a[:, 0] * 2.0, a[5]))


@pytest.mark.needs("fp_errors")
def test_an_outer_at_once_warns_as_numpy(backend, backend_does):
    """At its line; on the general path (eager_size=0, cupy's) where it is computed."""
    x = _computed(np.full((2, 3), 1e200))
    with pytest.warns(RuntimeWarning, match="overflow encountered in multiply"):
        r = la.outer(x[0], x[1])
        if not backend_does("eager"):
            r = np.asarray(r)
    assert np.isinf(np.asarray(r)).all()


@pytest.mark.needs("eager")
def test_a_region_write_of_a_pending_value_goes_into_the_buffer(backend, monkeypatch):
    """Householder's `R[j:, :] = R[j:, :] - np.outer(...)`: the pending value (above eager_size)
    is computed before the write (eager.written_value, one op over computed values: no walk)
    and written into R's own buffer; its Array keeps the value from before the write. Before,
    the value's graph read R, so the write copied R (a new buffer each column)."""
    rng = np.random.default_rng(5)
    a, u = rng.standard_normal((30, 8)), rng.standard_normal(8)
    monkeypatch.setattr(eager, "_walk", lambda *args: pytest.fail("walked one op"))
    with la.config(eager_size=64):
        R = _computed(a.copy())
        v = R[0] * 2.0  # a leaf of the rule
        address = R._node.data.__array_interface__["data"][0]  # (a reference would export it)
        value = R[2:, :] - la.outer(R[2:, 0] * 1.0, v)  # 224 > 64: pending
        assert value._node.inputs
        R[2:, :] = value
        assert not R._node.inputs and R._node.data.__array_interface__["data"][0] == address
        want = a.copy()
        before = want[2:, :] - np.outer(want[2:, 0] * 1.0, want[0] * 2.0)
        want[2:, :] = before
        assert_as_numpy(R, want)
        assert_as_numpy(value, before)
        again = R[3:, :] - la.outer(R[3:, 0] * 1.0, v)  # in C: _trace.c try_write_region
        _, frames = _lazyarray_frames(lambda: R.__setitem__((slice(3, None), slice(None)), again))
        assert not frames or la._bind.FAST is None, frames
        assert not R._node.inputs and R._node.data.__array_interface__["data"][0] == address
        want[3:, :] = want[3:, :] - np.outer(want[3:, 0] * 1.0, want[0] * 2.0)
        assert_as_numpy(R, want)


@pytest.mark.needs("eager")
@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128"])
def test_dot_of_a_vector_and_a_matrix_runs_in_c(backend, dtype):
    """mnist_mlp's `np.dot(layer_0, weights_1)` (la.dot, and np.dot through NEP 18): NumPy's
    dot of the views in C (_trace.c computed_dot / matrix_now_c), no Python frame; its bits."""
    if la._bind.FAST is None:
        pytest.skip("pure Python build")
    rng = np.random.default_rng(9)
    a = rng.standard_normal((6, 5)).astype(dtype)
    b = rng.standard_normal((5, 4)).astype(dtype)
    x, y = _computed(a), _computed(b)
    row, col = x[1], y[:, 2]
    got, frames = _lazyarray_frames(lambda: [la.dot(row, y), np.dot(row, y), la.dot(x[:2], y),
                                             np.dot(x, col)])
    assert frames <= {("numpy_shapes.py", "dot")}, frames  # la.dot's own: no eager path
    wanted = [np.dot(a[1], b), np.dot(a[1], b), np.dot(a[:2], b), np.dot(a, b[:, 2])]
    for g, w in zip(got, wanted):
        assert g.dtype == w.dtype and np.asarray(g).tobytes() == w.tobytes()


@pytest.mark.needs("eager")
def test_an_update_by_a_scaled_outer_runs_without_the_walk(backend, monkeypatch):
    """mnist_mlp's `weights_1 += learning_rate * np.outer(layer_0, delta)` above eager_size: the
    add over the product over the outer (a leaf) is one C call (one_op_now with the update's
    bound for its inner op), not a walk of two nodes; a named product keeps its value."""
    rng = np.random.default_rng(6)
    images, w = rng.random((4, 30)), rng.random((30, 8))

    def train(xp, images, w):
        for i in range(4):
            delta = xp.dot(images[i], w)[:8] * 0.5  # at once
            w += 0.01 * xp.outer(images[i], delta)  # 240 > 64
        scaled = 0.5 * xp.outer(images[0], delta)
        w -= scaled
        return w, scaled

    with la.config(eager_size=64):
        W, x = _computed(w.copy()), _computed(images)
        if la._bind.FAST is not None:
            monkeypatch.setattr(eager, "_walk", lambda *args: pytest.fail("walked"))
        got = train(la, x, W)
        assert not W._node.inputs
        wanted = train(np, images, w.copy())
        for g, want in zip(got, wanted):
            assert_as_numpy(g, want)
        delta = x[0, :8] * 2.0  # at once
        _, frames = _lazyarray_frames(lambda: W.__iadd__(0.01 * la.outer(x[1], delta)))
        if la._bind.FAST is not None:  # the update in C (_trace.c loop_update_c): no
            assert frames <= {("numpy_shapes.py", "outer")}, frames  # writes.inplace_rest
        assert_as_numpy(W, wanted[0] + 0.01 * np.outer(images[1], images[0, :8] * 2.0))


def test_ravel_of_a_view_of_a_computed_buffer_reads_numpys_view(monkeypatch):
    """Whether `ravel`/`reshape` of a view is a view (writes.ravels_in_place/reshapes_in_place)
    is read off NumPy's own view of a computed buffer (eager.view_value), without the stand-in
    `as_strided` builds (la.ravel(x[i]) ~10 -> ~2.4 us); views and copies as NumPy's."""
    a = np.arange(24.0).reshape(4, 6)
    with la.config(backend="numpy"):  # (the layout is the backend's business nowhere)
        x = _computed(a.copy())
        monkeypatch.setattr(np.lib.stride_tricks, "as_strided",
                            lambda *a, **k: pytest.fail("stand-in"))
        want = a.copy()
        got = [la.ravel(x[1]), la.ravel(x[:, 1]), x[1:3].reshape(-1), x[:, :2].reshape(-1),
               x[::2].reshape(2, 3, 2)]
        wanted = [np.ravel(want[1]), np.ravel(want[:, 1]), want[1:3].reshape(-1),
                  want[:, :2].reshape(-1), want[::2].reshape(2, 3, 2)]
        x[1, 0] = -1.0  # shows through the views, not the copies
        x[2, 1] = -2.0
        want[1, 0], want[2, 1] = -1.0, -2.0
        for g, w in zip(got, wanted):
            assert_as_numpy(g, w)
