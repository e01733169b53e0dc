"""The short paths a loop step takes (`la.array(X)`, `X @ w`, `y.sum()`, `float(loss)`) build the
nodes their general paths build, and give way to them on everything else: compared here by
structural key (graph/node.py), values and errors."""

from __future__ import annotations

import numpy as np
import pytest

import lazyarray as la
from lazyarray import _bind, linalg, reductions
from lazyarray.graph.node import user_site
from together import compile_together

DTYPES = ["float32", "float64", "complex64", "int32", "int64", "bool", "uint8"]


def _same_node(fast, general):
    assert type(fast) is type(general) is la.Array
    f, g = fast._node, general._node
    assert (f.key, f.shape, f.dtype, f.op, f.attrs) == (g.key, g.shape, g.dtype, g.op, g.attrs)
    assert [i.key for i in f.inputs] == [i.key for i in g.inputs]


@pytest.mark.parametrize("dtype", DTYPES + ["float16", ">f4"])
@pytest.mark.parametrize("layout", ["C", "F", "strided", "0-d"])
def test_array_of_an_ndarray_is_the_general_paths_leaf(dtype, layout):
    base = (np.arange(24).reshape(4, 6) % 3).astype(dtype)
    x = {"C": base, "F": np.asfortranarray(base), "strided": base[:, ::2],
         "0-d": base[1, 1].reshape(())}[layout]
    try:
        want = la.Array(_bind.leaf(_bind.host_array(x, None, None), None))
    except TypeError as exc:  # a byte-swapped float: unsupported either way
        with pytest.raises(TypeError) as raised:
            la.array(x)
        assert str(raised.value) == str(exc)
        return
    got = la.array(x)
    if layout == "F":  # NumPy's copy keeps its memory order: a view of a C leaf in that order
        assert got._node.op is la.graph.get_op("permute") and got._node.attrs == ((1, 0),)
        data = got._node.inputs[0].data
        np.testing.assert_array_equal(data, x.T)
    else:
        _same_node(got, want)
        data = got._node.data
    assert data.flags.c_contiguous and data.base is None and not np.shares_memory(data, x)
    np.testing.assert_array_equal(np.asarray(got), x)
    if x.ndim:
        x[...] = 1  # the Array copied: later writes to the source never reach it
        np.testing.assert_array_equal(np.asarray(got), want._node.data)


@pytest.mark.parametrize("dtype_a", DTYPES)
@pytest.mark.parametrize("dtype_b", ["float32", "int64"])
@pytest.mark.parametrize("shapes", [((3, 4), (4, 5)), ((0, 4), (4, 1)), ((3, 4), (5, 2)),
                                    ((4,), (4, 3)), ((2, 3, 4), (4, 5)), ((), (4, 2)),
                                    ((5,), (5,)), ((0,), (0,)), ((3,), (4,))])
def test_matmul_of_two_matrices_is_the_general_paths_node(dtype_a, dtype_b, shapes):
    rng = np.random.default_rng(0)
    xa, xb = ((rng.standard_normal(s) * 3).astype(d) for s, d in zip(shapes, (dtype_a, dtype_b)))
    a, b = la.array(xa), la.array(xb)
    site = user_site(0)
    outcomes = []
    for build in (lambda: a @ b, lambda: linalg.matmul(a, b),
                  lambda: linalg.matmul_general(a, b, site)):
        try:
            outcomes.append(build())
        except Exception as exc:  # noqa: BLE001  (the same error, whichever path)
            outcomes.append((type(exc), str(exc)))
    if isinstance(outcomes[-1], tuple):
        assert outcomes[0] == outcomes[1] == outcomes[2]
        with pytest.raises(Exception):  # noqa: B017  (NumPy refuses these too)
            np.matmul(xa, xb)
        return
    for got in outcomes[:2]:
        _same_node(got, outcomes[2])
    np.testing.assert_allclose(np.asarray(outcomes[0]), np.matmul(xa, xb), rtol=1e-5, atol=1e-5)


SUM_SHAPES = [(), (5,), (0, 3), (2, 3, 4)]
SUM_ARGS = [{}, {"axis": None}, {"axis": 0}, {"keepdims": True}, {"dtype": "float64"},
            {"keepdims": 0}]
_COMPILED: dict = {}  # the settings whose sums' kernels are compiled in one unit


def _summed(dtype, shape) -> np.ndarray:
    return (np.arange(int(np.prod(shape))).reshape(shape) % 4).astype(dtype)


@pytest.mark.xdist_group("test_total_sum_is_the_general_paths_node")
@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")  # NumPy's, dtype=float64
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SUM_SHAPES)
@pytest.mark.parametrize("args", SUM_ARGS)
def test_total_sum_is_the_general_paths_node(dtype, shape, args):
    """(Every case's C kernels compile in one unit, tests/together.py.)"""
    compile_together(_COMPILED, la.get_settings().backend, [
        lambda d=d, s=s, k=k: la.sum(la.array(_summed(d, s)), **k)
        for k in SUM_ARGS for s in SUM_SHAPES for d in DTYPES])
    x = _summed(dtype, shape)
    a = la.array(x)
    site = user_site(0)
    try:
        want_dtype = reductions._sum_dtype(a.dtype) if args.get("dtype") is None else np.dtype(
            args["dtype"])
        general = reductions._reduce("sum", a._node, args.get("axis"), args.get("keepdims", False),
                                     want_dtype, site)
    except Exception as exc:  # noqa: BLE001
        with pytest.raises(type(exc)):
            a.sum(**args)
        return
    for got in (a.sum(**args), la.sum(a, **args)):
        _same_node(got, general)
    np.testing.assert_allclose(np.asarray(la.sum(a, **args)), np.sum(x, **args), rtol=1e-6)


def test_float_of_an_array_as_numpy():
    assert float(la.sum(la.array(np.ones(4, np.float32)) * 0.5)) == 2.0
    assert float(la.array(np.float64(2.5))) == 2.5
    for bad in (np.ones(1), np.ones((1, 1))):  # NumPy 2: only 0-d converts
        with pytest.raises(TypeError, match="only 0-dimensional"):
            float(la.array(bad))
        with pytest.raises(TypeError):
            float(bad)


def test_a_loop_step_takes_none_of_the_general_paths(monkeypatch):
    """`relu(la.array(X) @ w + b).sum()` builds its nodes without host_array, matmul_general or
    _reduce (each ~0.6-1.5 us a step)."""
    def refuse(*args, **kwargs):
        raise AssertionError("general path taken")

    rng = np.random.default_rng(1)
    wn, bn = rng.standard_normal((8, 4)).astype(np.float32), np.ones(4, np.float32)
    w, b = la.array(wn), la.array(bn)
    for name, module in (("host_array", _bind), ("matmul_general", linalg),
                         ("_reduce", reductions)):
        monkeypatch.setattr(module, name, refuse)
    for _ in range(3):
        X = rng.standard_normal((5, 8)).astype(np.float32)
        loss = float(la.nn.relu(la.array(X) @ w + b).sum())
        assert loss == pytest.approx(float(np.maximum(X @ wn + bn, 0).sum()), rel=1e-5)


def test_forwarded_methods_are_the_namespace_functions():
    """`loss.mean()` calls reductions.mean itself (a wrapper frame cost ~0.1 us a call); `x.sum()`,
    `x.min()`, `x.max()` are _trace.c's methods where compiled, whose fallback for any argument
    is the namespace function itself; `x.dot` is np.dot (numpy_shapes.dot: not matmul, whose
    batch dims broadcast, fuzz39)."""
    assert la.Array.mean is la.mean and la.Array.dot is la.dot
    for name in ("sum", "min", "max"):
        method = getattr(la.Array, name)
        assert method is getattr(la, name) or type(method).__name__ == "method_descriptor"
    x = np.arange(6.0).reshape(2, 3)
    a = la.array(x)
    np.testing.assert_array_equal(np.asarray(a.sum(axis=1, keepdims=True)),
                                  x.sum(axis=1, keepdims=True))
    np.testing.assert_array_equal(np.asarray(a.clip(1, 3)), x.clip(1, 3))


def test_build_node_is_the_node_constructor():
    """graph.node.build_node (graph/_node.c's `build`: no keyword parsing) builds what `Node(...)`
    builds: same class, key, pending count, fields, for a leaf and an op."""
    from lazyarray.graph import node as graph_node

    build, Node = graph_node.build_node, graph_node.Node
    if graph_node.COMPILED:
        assert build is not Node
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    site = ("here.py", 1)
    leaf_args = (_bind.INPUT, (), (), x.shape, x.dtype, x, site)
    a, b = build(*leaf_args), Node(*leaf_args)
    op = _bind.get_op("add")
    op_args = (op, (a, b), (), x.shape, x.dtype, None, site)
    for got, want in ((a, b), (build(*op_args), Node(*op_args))):
        assert type(got) is type(want) is Node
        for field in ("op", "attrs", "shape", "dtype", "key", "pending", "site"):
            assert getattr(got, field) == getattr(want, field)
        assert got.data is want.data
        assert [i.key for i in got.inputs] == [i.key for i in want.inputs]
    if graph_node.COMPILED:
        with pytest.raises(TypeError):  # all seven, always (Node's data and site have defaults)
            build(*leaf_args[:6])


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
@pytest.mark.parametrize("key", [(1, 2), (-1, -4), (0, 0), (2, 3), (3, 0), (0, -5), (1,), (1, 2, 3),
                                 (np.int64(1), 2), (True, 1)], ids=str)
@pytest.mark.parametrize("value", [1.5, -0.0, float("nan"), 2, 1e308, "0-d float64",
                                   "0-d float32", "0-d int64", "0-d pending"])
def test_element_write_is_the_general_paths_node(dtype, key, value):
    """`A[i, j] = v` (issue 25's index loops): the element fast path (indexing._element_write)
    builds the node `x.at[key].set(v)` builds, or leaves the key to it; errors as NumPy's."""
    from lazyarray import indexing

    base = np.arange(12.0).reshape(3, 4).astype(dtype)
    site = user_site(0)
    if isinstance(value, str):  # an Array value: 0-d of some dtype, pending or not
        dt = value.split()[1]
        if dt == "pending":
            value = la.asarray(np.arange(12.0).reshape(3, 4).astype(dtype))[1, 1] * 2
        else:
            value = la.asarray(np.full((), 7.25).astype(dt))
    want = base.copy()
    try:
        want[key] = np.asarray(value) if isinstance(value, la.Array) else value
    except Exception as exc:  # noqa: BLE001  (the same error type from lazyarray)
        with pytest.raises(type(exc)):
            indexing.set_node(la.asarray(base), key, value, site)
        return
    a = la.asarray(base)
    fast = la.Array(indexing.set_node(a, key, value, site))
    general = indexing._AtUpdate(a, key)._apply("set", value, site)
    _same_node(fast, general)
    b = la.asarray(base)
    b[key] = value
    np.testing.assert_array_equal(np.asarray(b), want)
