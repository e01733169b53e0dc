"""Basic indexing's three paths build one graph: the compiled `Array.__getitem__`
(lazyarray/_trace.c `try_getitem`), the Python fast path (`indexing._basic_getitem`) and the
general indexer (`indexing.general_getitem`); `.at[key].op(v)` and `x[key] = v` build the same
scatter through `indexing._basic_scatter_key` as through the general key path.

Keys are random ints (negative, out of range), slices (negative, out-of-range and huge bounds,
steps of either sign, zero steps), None and Ellipsis over random shapes, including empty and 0-d
results. Each key is applied on one source line with the compiled path on and off
(`_trace.set_enabled`), and the nodes are compared field for field (op, attrs, shape, dtype, key,
pending, site, edges) and against the general indexer's; errors must match in type and message
(the message names the user's line). With LAZYARRAY_PURE_PYTHON=1 the same tests compare the
Python fast path with the general one (the exhaustive tier reruns this file that way).
"""

from __future__ import annotations

import gc
from contextlib import contextmanager, nullcontext
import math
import os
import sys
import weakref

import numpy as np
from fresh_process import run_both_paths
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazyarray as la
from sites import assert_site
from lazyarray import _bind, indexing
from lazyarray.cuts import _prune
from lazyarray.graph import node as graph_node
from lazyarray.graph import topological_order
from lazyarray.indexing import NUMPY_INTS, general_getitem

FAST = _bind.FAST
COMPILED = FAST is not None and hasattr(FAST, "install_getitem")
needs_compiled = pytest.mark.skipif(
    not COMPILED and (not os.environ.get("CI")
                      or os.environ.get("LAZYARRAY_PURE_PYTHON", "") not in ("", "0")),
    reason="compiled tracing path off (lazyarray/_trace.c not built, or LAZYARRAY_PURE_PYTHON=1)")

HUGE = 2**70  # beyond int64: the C path gives way, Python's slice.indices clamps


def dump(node) -> list:
    order = topological_order([node])
    index = {id(n): i for i, n in enumerate(order)}
    return [(n.op.name, n.attrs, n.shape, str(n.dtype), n.key, n.pending, n.site,
             tuple(index[id(i)] for i in n.inputs)) for n in order]


@st.composite
def shapes_and_keys(draw):
    shape = tuple(draw(st.lists(st.integers(0, 5), max_size=4)))
    numpy_int = st.builds(lambda t, v: t(v), st.sampled_from([np.int64, np.intp, np.int32,
                                                              np.int8]), st.integers(-6, 6))
    unsigned = st.builds(lambda t, v: t(v), st.sampled_from([np.uint8, np.uint64]),
                         st.integers(0, 6))
    bound = st.one_of(st.none(), st.integers(-7, 7), st.sampled_from([HUGE, -HUGE]), numpy_int,
                      st.just(np.uint64(2**64 - 1)))
    step = st.one_of(st.none(), st.integers(-3, 3), st.sampled_from([HUGE, -HUGE, 2**62]),
                     st.sampled_from([np.int64(-1), np.uint8(2), np.int8(0)]))
    item = st.one_of(
        st.integers(-6, 6),
        numpy_int,
        unsigned,
        st.builds(slice, bound, bound, step),
        st.builds(slice, bound),
        st.just(slice(None)),
        st.none(),
        st.just(Ellipsis),
        st.sampled_from([np.bool_(True), True, 1.0, [0], HUGE, -HUGE, np.uint64(2**64 - 1),
                         slice(np.float64(1), None)]),  # not basic: Python path
    )
    items = draw(st.lists(item, max_size=len(shape) + 2))
    key = tuple(items) if draw(st.booleans()) or len(items) != 1 else items[0]
    return shape, key


def index(x, key):
    """x[key] on one source line (the nodes' site), the error as a value (type, text, notes)."""
    try:
        return x[key], None
    except (IndexError, ValueError, TypeError, OverflowError) as exc:
        return None, (type(exc).__name__, str(exc), *getattr(exc, "__notes__", ()))


@settings(max_examples=200)
@given(shapes_and_keys(), st.sampled_from(["float32", "int8", "bool", "complex64"]),
       st.booleans())
def test_every_path_builds_the_general_paths_nodes(shape_key, dtype, pending):
    shape, key = shape_key
    data = (np.arange(math.prod(shape)) % 3).astype(dtype).reshape(shape)
    x = la.asarray(data)
    if pending:  # a pending input: pending counts and edges count too
        x = la.negative(x) if dtype != "bool" else la.logical_not(x)
        data = -data if dtype != "bool" else ~data
    got, error = index(x, key)
    if COMPILED:
        was = FAST.set_enabled(False)
        try:
            python, python_error = index(x, key)
        finally:
            FAST.set_enabled(was)
        assert error == python_error
        if got is not None:
            assert dump(got._node) == dump(python._node)
    try:
        want_np = data[key]
    except (IndexError, ValueError, TypeError, OverflowError):
        want_np = None
    if error is not None:
        if error[0] == "IndexError" and "out of bounds" in error[1]:  # names the user's line
            line = index.__code__.co_firstlineno + 3
            assert error[1:] == (error[1], f"(at {__file__}:{line})"), error
        return
    site = (__file__, index.__code__.co_firstlineno + 3)
    assert got._node is x._node or got._node.site == site
    if all(type(k) in (int, slice, type(None), type(Ellipsis)) or type(k) in NUMPY_INTS
           for k in (key if type(key) is tuple else (key,))):  # a basic key, whichever path
        assert dump(got._node) == dump(general_getitem(x._node, key, site))
    if want_np is not None and not isinstance(key, list):
        assert got.shape == want_np.shape and got.dtype == want_np.dtype
        with la.config(backend="numpy"):
            np.testing.assert_array_equal(np.asarray(got), want_np)


def update(x, key, mode, value):
    """x.at[key].<mode>(value) on one source line, with the error as a value."""
    try:
        return getattr(x.at[key], mode)(value), None
    except (IndexError, ValueError, TypeError, OverflowError) as exc:
        return None, (type(exc).__name__, str(exc))


def assign(x, key, value):
    """y[key] = value on a new handle y of x, on one source line."""
    y = x.copy()
    try:
        y[key] = value
    except (IndexError, ValueError, TypeError, OverflowError) as exc:
        return None, (type(exc).__name__, str(exc))
    return y, None


@contextmanager
def general_scatter_keys():
    """`.at[]` and `x[key] = v` through the general key path (the mask check, `_expand`, NumPy's
    probe of the indexed shape) instead of `_basic_scatter_key`."""
    saved = indexing._basic_scatter_key
    indexing._basic_scatter_key = lambda shape, key: None
    try:
        yield
    finally:
        indexing._basic_scatter_key = saved


@settings(max_examples=150)
@given(shapes_and_keys(), st.sampled_from(["float32", "int8", "bool"]),
       st.sampled_from(["scalar", "float", "indexed", "row", "mismatch"]),
       st.sampled_from(["set", "add", "max", "assign"]))
def test_basic_scatter_keys_build_the_general_paths_nodes(shape_key, dtype, value_kind, mode):
    shape, key = shape_key
    data = (np.arange(math.prod(shape)) % 3).astype(dtype).reshape(shape)
    x = la.asarray(data) * la.asarray(np.ones((), dtype))  # pending
    try:
        indexed = np.broadcast_to(np.empty((), bool), shape)[key].shape
    except (IndexError, ValueError, TypeError, OverflowError):
        indexed = (2,)
    value = {"scalar": 2, "float": 1.5, "indexed": la.ones(indexed, dtype=dtype),
             "row": la.ones(indexed[-1:], dtype=dtype), "mismatch": la.ones((7,), dtype=dtype)
             }[value_kind]
    runs = []
    for general in (False, True):
        with general_scatter_keys() if general else nullcontext():
            runs.append(assign(x, key, value) if mode == "assign" else update(x, key, mode, value))
    (fast, fast_error), (want, want_error) = runs
    assert fast_error == want_error
    if fast is not None:
        assert dump(fast._node) == dump(want._node)
        if mode == "assign" and value_kind in ("scalar", "indexed"):
            expected = data.copy()
            expected[key] = 2 if value_kind == "scalar" else 1
            with la.config(backend="numpy"):
                np.testing.assert_array_equal(np.asarray(fast), expected)


def test_hand_picked_keys():
    """The cases the issue names, against NumPy and the general path."""
    data = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)
    x = la.asarray(data) * 1.0
    keys = [1, -2, (slice(None), slice(1, 3)), slice(1, -1), (Ellipsis, 0), None, (None, 1),
            (slice(None), None), (), Ellipsis, slice(None, None, -1), (1, 2, 3), (-1, -1, -1),
            (slice(5, 1),), (slice(HUGE, None),), (slice(None, None, HUGE),),
            (slice(-HUGE, HUGE, -1), None, Ellipsis, 2), (Ellipsis, None), (0, Ellipsis, 0)]
    for key in keys:
        got, error = index(x, key)
        assert error is None, (key, error)
        assert dump(got._node) == dump(general_getitem(x._node, key, got._node.site)), key
        with la.config(backend="numpy"):
            np.testing.assert_array_equal(np.asarray(got), (data * 1.0)[key])
    for key, kind in [(2, "IndexError"), ((0, -4), "IndexError"), ((0, 0, 0, 0), "IndexError"),
                      ((Ellipsis, Ellipsis), "IndexError"), (slice(0, 2, 0), "ValueError"),
                      (1.5, "IndexError"), (HUGE, "IndexError")]:
        got, error = index(x, key)
        assert got is None and error[0] == kind, (key, error)


@needs_compiled
def test_the_spec_cache_shares_tuples_and_survives_eviction():
    """try_getitem keeps the last tuples made per spec (64 slots, up to 8 dimensions) and shares
    them between nodes; many distinct keys evict one another, keys of more dimensions are not
    cached, and every node still matches the general path's."""
    x = la.ones((6, 40), dtype=la.float32) * 1.0
    a, b = x[:, 1:5], x[:, 1:5]
    assert a._node.attrs is b._node.attrs and a._node.shape is b._node.shape
    c, d = x[2], x[2]
    assert c._node.attrs is d._node.attrs and c._node.attrs[0] is c._node.shape
    keys = [(slice(None), slice(i, j)) for i in range(-20, 20, 3) for j in range(-20, 40, 7)]
    keys += [(k, slice(i, None, s)) for k in range(-6, 6) for i in (0, 3) for s in (1, 2, -1)]
    for _ in range(2):
        for key in keys:
            got, error = index(x, key)
            assert error is None
            assert dump(got._node) == dump(general_getitem(x._node, key, got._node.site)), key
    y = la.ones((2,) * 10, dtype=la.float32) * 1.0
    for key in [(0,) * 10, (slice(1, None),) * 9, (None, Ellipsis, 1)]:
        got, _ = index(y, key)
        assert dump(got._node) == dump(general_getitem(y._node, key, got._node.site)), key


def test_whole_dimensions_build_no_node_and_an_int_into_size_one_only_reshapes():
    x = la.asarray(np.ones((1, 3), np.float32)) * 2.0
    assert x[:]._node is x._node and x[...]._node is x._node and x[()]._node is x._node
    assert x[:, 0:3]._node is x._node and x[0:1, ..., :]._node is x._node
    assert x[0]._node.op.name == "reshape" and x[0]._node.inputs[0] is x._node
    assert x[None]._node.op.name == "reshape" and x[None]._node.inputs[0] is x._node
    assert x[:, 1:]._node.op.name == "slice"
    assert x[np.int64(0)]._node.op.name == "reshape"
    y = x[:, 1]
    assert [n.op.name for n in topological_order([y._node])][-2:] == ["slice", "reshape"]


@needs_compiled
def test_the_compiled_getitem_is_in_use():
    x = la.ones((3, 4), dtype=la.float32)
    assert type(type(x).__dict__["__getitem__"]).__name__ == "method_descriptor"
    y = x[1:, 2]
    assert y._node.site == (__file__, sys._getframe().f_lineno - 1)
    with pytest.raises(IndexError, match="out of bounds") as info:
        x[3]
    assert_site(info, rf"{os.path.basename(__file__)}:{sys._getframe().f_lineno - 1}\)")


@needs_compiled
def test_other_keys_and_subclasses_take_the_python_path():
    class Sub(la.Array):
        __slots__ = ()

    x = la.ones((3, 4), dtype=la.float32)
    s = Sub(x._node)
    assert type(s[1]) is la.Array and s[1]._node.key == x[1]._node.key
    assert x[np.int64(1)]._node.key == x[1]._node.key  # a basic index now, as an int
    assert x[:, np.uint8(1):np.int32(3)]._node.key == x[:, 1:3]._node.key
    assert x[np.uint64(2**64 - 1) - np.uint64(2**64 - 2)].shape == (4,)
    with pytest.raises(OverflowError, match="too large"):  # NumPy's: no C long (not a wrap to -1)
        x[np.uint64(2**64 - 1)]
    with pytest.raises(IndexError):
        x[np.bool_(True), np.bool_(True), np.bool_(True)]
    assert x[[0, 2]].shape == (2, 4) and x[la.asarray([1])].shape == (1, 4)
    assert x[x > 0].shape == (12,)  # a mask: the Python path (evaluates the mask)
    with pytest.raises(IndexError):
        x[True, True, True]


@needs_compiled
def test_no_references_leak_from_getitem():
    x = la.ones((4, 8), dtype=la.float32) * 2.0
    keys = [(slice(None), slice(2, 4)), 3, slice(1, -1), (Ellipsis, 0), None, 7]
    watched = [x, x._node, x.dtype, x.shape, *keys]
    for _ in range(1000):  # caches warm: interned keys, graph/_node.c's 1024-slot key cache
        for k in keys:
            index(x, k)
    gc.collect()
    _prune()
    before = [sys.getrefcount(o) for o in watched]
    for _ in range(3000):
        for k in keys:
            index(x, k)
    gc.collect()
    _prune()
    assert [sys.getrefcount(o) for o in watched] == before
    y = x[1:]
    refs = (weakref.ref(y), weakref.ref(y._node))
    del y
    gc.collect()
    assert [r() for r in refs] == [None, None]


@pytest.mark.parametrize("error", [KeyboardInterrupt, RuntimeError])
def test_an_exception_in_the_cut_hook_propagates_from_getitem(error):
    x = la.ones((3, 4), dtype=la.float32)

    def hook(inputs, op):
        raise error("from the hook")

    saved = list(graph_node._BUDGET)
    graph_node.set_node_budget(-1, hook)
    try:
        for key in [(slice(None), slice(1, 3)), 1, (None, Ellipsis, 0)]:
            with pytest.raises(error, match="from the hook"):
                x[key]
    finally:
        graph_node._BUDGET[:] = saved
    assert x[1:, None].shape == (2, 1, 4)


def test_threads_indexing_at_once():
    import threading

    g = la.ones((4, 32), dtype=la.float32) * 2.0
    results, failures = [], []

    def work():
        try:
            for _ in range(2000):
                parts = [g[:, k * 8:(k + 1) * 8] for k in range(4)]
                out = parts[0][1] + parts[3][..., 0][None, :1] - g[1:-1][0, ::4][None]
            results.append(out._node.key)
        except BaseException as exc:  # noqa: BLE001  (reported below)
            failures.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures
    assert len(results) == 4 and len(set(results)) == 1


# --- the pure-Python Node class against the compiled one, from fresh interpreters -----------------
PROGRAM = """
import json, numpy as np, lazyarray as la
with la.config(backend="numpy", max_graph_nodes=12, eager_size=0):
    g = la.asarray(np.linspace(-1, 1, 32, dtype=np.float32).reshape(2, 16))
    c = la.zeros((2, 4), dtype=la.float32)
    for step in range(12):  # an LSTM-style loop, never evaluated: cuts at the loop's point
        i, f, gg, o = (g[:, k * 4:(k + 1) * 4] for k in range(4))
        c = la.nn.sigmoid(f) * c + la.nn.sigmoid(i) * la.tanh(gg)
        h = la.nn.sigmoid(o) * la.tanh(c)
        g = g * 0.5 + la.concat([h, h[::-1], h[..., ::2].repeat(2, axis=1), h[None][0]], axis=1)
    z = c[1] + c[-1, None] + c[..., 0][:, None] + c[::-1, 1:3].sum()
    order = la.graph.topological_order([c._node, z._node])
    nodes = [(n.op.name, n.attrs, n.shape, str(n.dtype), n.key, n.pending,
              n.site[1] if n.site else None) for n in order]
    print(json.dumps({"nodes": nodes, "cuts": la.cache_info().graph_cuts,
                      "tracing": la.cache_info().tracing,
                      "values": [np.asarray(c).tolist(), np.asarray(z).tolist()]}))
"""


@needs_compiled
def test_pure_python_builds_the_same_indexing_graphs_and_cuts():
    compiled, python = run_both_paths(PROGRAM)
    assert compiled["cuts"] > 0
    assert compiled == python
