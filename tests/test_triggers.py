"""Laziness and evaluation triggers: nothing runs until a result is looked at; each trigger runs the
graph once; an evaluated Array keeps its buffer and later expressions read it as a leaf.

Executions are counted by wrapping `lazyarray.evaluation.evaluate`, the one function through which
every trigger runs a graph.
"""

from __future__ import annotations

import copy
import importlib
import pickle

import numpy as np
import pytest

import lazyarray as la
from lazyarray import evaluation
from numpy_oracle import on_device


@pytest.fixture
def runs(monkeypatch):
    """A list that grows by the number of output nodes each time a graph is run."""
    assert hasattr(evaluation, "evaluate"), "update this fixture: evaluation.evaluate was renamed"
    calls: list[int] = []
    real = evaluation.evaluate

    def counting(outputs, *args, **kwargs):
        calls.append(len(outputs))
        return real(outputs, *args, **kwargs)

    monkeypatch.setattr(evaluation, "evaluate", counting)
    return calls


def _model():
    rng = np.random.default_rng(0)
    xn = rng.random((4, 5), dtype=np.float32)
    wn = rng.random((5, 3), dtype=np.float32)
    y = la.tanh(la.array(xn) @ la.array(wn) + la.zeros(3, dtype=la.float32))
    return y, np.tanh(xn @ wn)


def test_building_runs_nothing_and_knows_shape_and_dtype(backend, runs):
    y, _ = _model()
    z = la.nn.softmax(y * 2.0 - 1, axis=-1).sum(axis=0)
    assert (y.shape, y.dtype, y.ndim, y.size, y.device) == ((4, 3), la.float32, 2, 12, "cpu")
    assert (z.shape, z.dtype) == ((3,), np.float32)
    assert not y.expr.is_evaluated and "tanh" in repr(y.expr)
    assert runs == []


TRIGGERS = {
    "repr": repr, "str": str, "np.asarray": np.asarray, "np.array": np.array, "list": list,
    "float(y[0, 0])": lambda y: float(y[0, 0]), "int(y[0, 0])": lambda y: int(y[0, 0]),
    "tolist": lambda y: y.tolist(), "item": lambda y: y[1, 2].item(),
    "bool": lambda y: bool(y[0, 0] > 0), "la.eval": la.eval,
    "la.block_until_ready": la.block_until_ready, "method": lambda y: y.block_until_ready(),
    "format": lambda y: f"{y.sum():.3f}", "pickle": lambda y: pickle.dumps(y),
    "dlpack": lambda y: _from_dlpack(y),
}


def _from_dlpack(y):
    """DLPack read by the library of the Array's device: NumPy, or CuPy on a GPU backend, where
    the capsule is device memory (np.from_dlpack raises BufferError, as for a CuPy array)."""
    if on_device():
        return importlib.import_module("cupy").from_dlpack(y)
    return np.from_dlpack(y)


@pytest.mark.parametrize("trigger", list(TRIGGERS))
def test_each_trigger_evaluates_once_and_the_result_is_kept(backend, runs, trigger):
    y, want = _model()
    TRIGGERS[trigger](y)
    assert len(runs) == 1
    np.testing.assert_allclose(np.asarray(y), want, rtol=1e-5)
    if trigger not in ("float(y[0, 0])", "int(y[0, 0])", "item", "bool", "format"):
        assert y.expr.is_evaluated and len(runs) == 1  # y itself now holds its buffer
    np.asarray(y)
    assert runs[1:] in ([], [1])  # a trigger on a part (y[0, 0]) may leave y to evaluate once


def test_outputs_of_triggers_match_numpy(backend):
    y, want = _model()
    assert repr(y) == repr(want.astype(np.float32)) or repr(y).startswith("array([[")
    assert str(y) == str(want.astype(np.float32)) or np.allclose(np.asarray(y), want)
    rows = list(y)
    assert len(rows) == 4 and all(isinstance(r, la.Array) for r in rows)
    np.testing.assert_allclose(np.asarray(rows[2]), want[2], rtol=1e-5)
    assert isinstance(y.tolist(), list) and len(y.tolist()[0]) == 3
    assert isinstance(y[0, 0].item(), float)
    assert isinstance(la.array(np.int8([3])).item(), int)
    assert repr(la.array(np.arange(3, dtype=np.int8))) == "array([0, 1, 2], dtype=int8)"


def test_repr_is_numpys_text():
    """A program printing a list or dict of results prints NumPy's text (as with CuPy): `repr`
    of an array is NumPy's `array(...)`; of `x.mean()` / `A[i]` (NumPy's scalar there) the
    scalar's (`np.float64(0.16499999999999998)`: np.array_repr's 8 digits printed 0.165); of a
    0-d array NumPy's 0-d array repr."""
    a = np.linspace(0, 1, 5)
    x = la.asarray(a)
    loss = ((x - 0.3) ** 2).mean()
    for got, want in ((loss, ((a - 0.3) ** 2).mean()), (x[1], a[1]), (x, a),
                      (la.ones(3, dtype=la.float32)[0] * 0.1, np.ones(3, np.float32)[0] * 0.1),
                      (la.asarray(np.array([1 + 2j]))[0], np.array([1 + 2j])[0]),
                      (x > 0.5, a > 0.5), (x.sum() > 1, a.sum() > 1),
                      (la.asarray(np.array(0.16499999999999998)), np.array(0.16499999999999998)),
                      (la.arange(4, dtype=la.int16)[2], np.arange(4, dtype=np.int16)[2]),
                      (la.zeros((0, 3)), np.zeros((0, 3)))):
        assert repr(got) == repr(want)
    assert repr([loss, {"a": x[1]}]) == repr([((a - 0.3) ** 2).mean(), {"a": a[1]}])


def test_size_one_conversions_and_their_errors():
    assert bool(la.array([1.0])) is True and float(la.array(2.5)) == 2.5
    assert la.array([[2.5]]).item() == 2.5  # float() of a (1, 1) Array: TypeError, as NumPy 2
    assert int(la.array(np.uint8(7))) == 7 and [10, 20, 30][la.array(2)] == 30
    with pytest.raises(ValueError, match="ambiguous"):
        bool(la.zeros(2))
    with pytest.raises(ValueError, match="size 1"):
        la.zeros(2).item()
    with pytest.raises(TypeError, match="0-d"):
        iter(la.zeros(()))
    with pytest.raises(TypeError, match="len"):
        len(la.zeros(()))


def test_eval_of_several_arrays_is_one_graph_and_returns_its_arguments(backend, runs):
    a = la.array(np.arange(4.0))
    b, c = a * 2, a + 1
    out = la.eval(b, c)
    assert runs == [2] and out[0] is b and out[1] is c
    assert la.eval(b) is b and runs == [2]  # already evaluated: nothing runs
    np.testing.assert_array_equal(np.asarray(c), np.arange(4.0) + 1)


@pytest.mark.parametrize("wrap", [tuple, list, lambda xs: {"p": xs[0], "q": [xs[1]]}])
def test_block_until_ready_accepts_trees_and_returns_them(backend, runs, wrap):
    a = la.array(np.ones(3))
    tree = wrap([a + 1, a * 3])
    assert la.block_until_ready(tree) is tree and runs == [2]
    leaves = list(tree) if not isinstance(tree, dict) else [tree["p"], tree["q"][0]]
    assert all(x.expr.is_evaluated for x in leaves)


def test_evaluated_arrays_are_read_as_leaves(backend, runs):
    a = la.array(np.arange(6.0).reshape(2, 3))
    h = la.exp(a) + 1
    np.asarray(h)
    z = h * 2
    assert [n.op.name for n in _nodes(z)] == ["input", "scalar", "multiply"]
    np.testing.assert_allclose(np.asarray(z), (np.exp(np.arange(6.0)).reshape(2, 3) + 1) * 2)
    assert runs == [1, 1]


def _nodes(x):
    from lazyarray.graph import topological_order

    return topological_order([x._node])


def test_copies_share_the_value():
    a = la.array([1.0, 2.0]) + 1
    for c in (copy.copy(a), copy.deepcopy(a)):
        assert c is not a and c._node is a._node  # new handles (x[i] = v rebinds one) on one value
    b = pickle.loads(pickle.dumps(a))
    np.testing.assert_array_equal(np.asarray(b), [2.0, 3.0])


def test_numpy_ufuncs_and_operators_defer_to_array():
    a = la.array(np.arange(3.0))
    assert isinstance(np.arange(3.0) + a, la.Array) and isinstance(np.float32(2) * a, la.Array)
    np.testing.assert_array_equal(np.asarray(np.arange(3.0) - a), np.zeros(3))
